"""Read the scenarios of ``features/`` with the official Gherkin parser.

Tag conventions (every scenario carries its own tags or inherits them from its ``Rule:``
and ``Feature:``):

* ``@ARR-01``: a rule the scenario pins down (one or more);
* ``@S000`` ``@S002`` ``@S003`` ``@S004``: the sources that state the behaviour; ``@R001``...: a
  regional custom no document states (declared in ``features/index/customs.toml``);
  ``@interpretation`` where no source does and the project chose (the rule index says why);
* ``@flag=value``, e.g. ``@partner_winning_exempts=no`` or ``@players=2``: the rule flags the
  scenario needs; under any profile the scenario runs with these values. ``@flag=a|b``: the
  scenario holds under each value listed; under a profile (or ``run --flag``) that plays one of
  them it runs with that value, under any other with the first listed. A flag or value that
  ``reference_engine/profiles.toml`` does not declare is an error naming the tag's line (a
  misspelt value would otherwise make the scenario not applicable to every engine, silently).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gherkin.parser import Parser
from gherkin.token_scanner import TokenScanner

from guinote_conformance.catalogue.rule_index import RULE_ID, default_root, is_source_id
from guinote_conformance.reference_engine.flags import FlagSpec, RulesError, check_flags

#: The flags that set the table a scenario is written for, and the table a scenario not tagged
#: with them assumes: four players, forty cards (its positions name four seats and the Spanish
#: forty-card deck). Every other flag is a reading of a rule.
TABLE_FLAGS = {"players": "4", "deck": "40"}

FLAG_TAG = re.compile(r"^([a-z0-9_]+)=([A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*)$")
#: What separates the values of a multi-value flag tag (``@cante_order=free|forty_first``).
VALUE_SEPARATOR = "|"


class FeatureError(ValueError):
    """A feature file that does not parse or breaks the tag conventions (with file:line)."""


@dataclass(frozen=True)
class Step:
    keyword: str
    text: str
    line: int
    table: tuple[tuple[str, ...], ...] = ()
    docstring: str | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    path: Path
    line: int
    feature: str
    rule_block: str
    tags: tuple[str, ...]
    steps: tuple[Step, ...]
    rules: tuple[str, ...] = field(default_factory=tuple)
    sources: tuple[str, ...] = field(default_factory=tuple)
    #: flag -> the value the scenario runs with by default: the one its tag names (the first
    #: listed, for ``@flag=a|b``); :meth:`flags_under` gives the values of a run
    flags: dict[str, str] = field(default_factory=dict)
    interpretation: bool = False
    #: flag -> the line of the tag that sets it (on the scenario, its Rule or its Feature)
    flag_lines: dict[str, int] = field(default_factory=dict)
    #: flag -> every value its tag lists (one, or several for ``@flag=a|b``); empty: ``flags``'
    flag_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def choices(self, flag: str) -> tuple[str, ...]:
        """The values the scenario's tag lists for ``flag`` (none when it is not tagged with it)."""
        if flag in self.flag_choices:
            return self.flag_choices[flag]
        return (self.flags[flag],) if flag in self.flags else ()

    def tagged_values(self) -> list[tuple[str, str]]:
        """Every (flag, value) the scenario's tags list (``@deal=one_by_one|three_three``: two)."""
        return [(flag, value) for flag in self.flags for value in self.choices(flag)]

    def flags_under(self, played: Mapping[str, str]) -> dict[str, str]:
        """The values of the tagged flags in a run whose flags are ``played`` (the profile's, with
        ``run --flag``): the played value where the tag lists it, else the tag's first value."""
        found = {}
        for flag, first in self.flags.items():
            value = played.get(flag)
            found[flag] = value if value is not None and value in self.choices(flag) else first
        return found


def classify_tags(
    tags: Sequence[tuple[str, int]], path: Path, line: int
) -> tuple[list[str], list[str], dict[str, tuple[str, ...]], bool, dict[str, int]]:
    """Split the tags (each with its line) of the scenario at ``path:line`` into rule IDs,
    sources, flag values (each flag's listed values), the interpretation marker and the line of
    each flag's tag."""
    rules: list[str] = []
    sources: list[str] = []
    flags: dict[str, tuple[str, ...]] = {}
    flag_lines: dict[str, int] = {}
    interpretation = False
    where = f"{path}:{line}"
    for tag, tag_line in tags:
        name = tag.lstrip("@")
        if RULE_ID.match(name):
            rules.append(name)
        elif is_source_id(name):
            sources.append(name)
        elif name == "interpretation":
            interpretation = True
        elif match := FLAG_TAG.match(name):
            key, listed = match.groups()
            values = tuple(listed.split(VALUE_SEPARATOR))
            if len(set(values)) != len(values):
                raise FeatureError(f"{path}:{tag_line}: @{name} lists a value twice")
            if key in flags and flags[key] != values:
                shown = VALUE_SEPARATOR.join(flags[key])
                raise FeatureError(f"{where}: flag {key} is tagged both {shown} and {listed}")
            flags[key] = values
            flag_lines.setdefault(key, tag_line)
        else:
            raise FeatureError(
                f"{path}:{tag_line}: unknown tag @{name}; tags are rule IDs (@ARR-01), sources (@S000, "
                "customs @R001), @interpretation or flag values (@players=2, or several: @deal=one_by_one|three_three)"
            )
    return rules, sources, flags, interpretation, flag_lines


def check_flag_tags(scenarios: Sequence[Scenario], declared: Mapping[str, FlagSpec] | None = None) -> None:
    """Every ``@flag=value`` tag names a flag and a value of the declaration (``declared``: a
    parsed ``profiles.toml``, by default the reference engine's); else a :class:`FeatureError`
    at the tag's line."""
    for scenario in scenarios:
        for name in scenario.flags:
            for value in scenario.choices(name):
                try:
                    check_flags({name: value}, declared)
                except RulesError as error:
                    line = scenario.flag_lines.get(name, scenario.line)
                    tag = f"@{name}={VALUE_SEPARATOR.join(scenario.choices(name))}"
                    raise FeatureError(f"{scenario.path}:{line}: {tag}: {error}") from None


def _parser_message(path: Path, error: Exception) -> str:
    """One ``path:line:column: problem`` line per Gherkin parser error."""
    errors = getattr(error, "errors", None) or [error]
    lines = []
    for each in errors:
        location = getattr(each, "location", None) or {}
        text = str(each)
        text = re.sub(r"^\(\d+:\d+\): ", "", text)
        lines.append(f"{path}:{location.get('line', '?')}:{location.get('column', '?')}: {text}")
    return "\n".join(lines)


def _steps(raw_steps: list[dict[str, Any]]) -> tuple[Step, ...]:
    steps = []
    for raw in raw_steps:
        table: tuple[tuple[str, ...], ...] = ()
        if "dataTable" in raw:
            table = tuple(tuple(cell["value"] for cell in row["cells"]) for row in raw["dataTable"]["rows"])
        docstring = raw["docString"]["content"] if "docString" in raw else None
        steps.append(Step(raw["keyword"].strip(), raw["text"], raw["location"]["line"], table, docstring))
    return tuple(steps)


#: Parsed feature files by (path, modification time, size): a process that runs pytest many
#: times (mutation testing runs it once per mutant) parses each file once, not every session.
_PARSED: dict[tuple[str, int, int], list[Scenario]] = {}


def parse_feature(path: Path, declared: Mapping[str, FlagSpec] | None = None) -> list[Scenario]:
    """Every scenario of one feature file, with inherited tags and Background steps, its flag
    tags checked against ``declared`` (:func:`check_flag_tags`)."""
    try:
        status = path.stat()
    except OSError as error:
        raise FeatureError(f"{path}: cannot read the feature file: {error.strerror or error}") from None
    key = (str(path.resolve()), status.st_mtime_ns, status.st_size)
    if key not in _PARSED:
        _PARSED[key] = _parse_feature(path)
    check_flag_tags(_PARSED[key], declared)
    return list(_PARSED[key])


def _parse_feature(path: Path) -> list[Scenario]:
    try:
        document = Parser().parse(TokenScanner(path.read_text(encoding="utf-8")))
    except Exception as error:
        raise FeatureError(_parser_message(path, error)) from None
    feature = document.get("feature")
    if not feature:
        return []
    scenarios: list[Scenario] = []
    feature_tags = _tags(feature)

    def walk(
        children: list[dict[str, Any]], tags: list[tuple[str, int]], background: tuple[Step, ...], rule_name: str
    ) -> None:
        for child in children:
            if "background" in child:
                background = background + _steps(child["background"]["steps"])
            elif "rule" in child:
                rule = child["rule"]
                walk(rule["children"], tags + _tags(rule), background, rule["name"])
            elif "scenario" in child:
                raw = child["scenario"]
                if raw.get("examples"):
                    raise FeatureError(f"{path}:{raw['location']['line']}: use one Scenario per case, not Examples")
                all_tags = tags + _tags(raw)
                rules, sources, choices, interpretation, flag_lines = classify_tags(
                    all_tags, path, raw["location"]["line"]
                )
                scenarios.append(
                    Scenario(
                        name=raw["name"],
                        path=path,
                        line=raw["location"]["line"],
                        feature=feature["name"],
                        rule_block=rule_name,
                        tags=tuple(t.lstrip("@") for t, _ in all_tags),
                        steps=background + _steps(raw["steps"]),
                        rules=tuple(dict.fromkeys(rules)),
                        sources=tuple(dict.fromkeys(sources)),
                        flags={flag: values[0] for flag, values in choices.items()},
                        interpretation=interpretation,
                        flag_lines=flag_lines,
                        flag_choices={flag: values for flag, values in choices.items() if len(values) > 1},
                    )
                )

    children: list[dict[str, Any]] = [dict(child) for child in feature["children"]]
    walk(children, feature_tags, (), "")
    return scenarios


def _tags(node: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The tags of a Feature, Rule or Scenario of the parsed document, each with its line."""
    return [(tag["name"], tag["location"]["line"]) for tag in node.get("tags", [])]


def feature_files(root: Path | None = None) -> list[Path]:
    return sorted((root or default_root()).glob("*.feature"))


def load_scenarios(root: Path | None = None, declared: Mapping[str, FlagSpec] | None = None) -> list[Scenario]:
    """Every scenario of every feature file (flag tags checked against ``declared``: :func:`parse_feature`)."""
    return [scenario for path in feature_files(root) for scenario in parse_feature(path, declared)]


def scenarios_by_rule(scenarios: list[Scenario]) -> dict[str, list[Scenario]]:
    index: dict[str, list[Scenario]] = {}
    for scenario in scenarios:
        for rule in scenario.rules:
            index.setdefault(rule, []).append(scenario)
    return index


def iter_steps(scenarios: list[Scenario]) -> Iterator[tuple[Scenario, Step]]:
    for scenario in scenarios:
        for step in scenario.steps:
            yield scenario, step
