"""Fidelity to the sources, checked by machine (the suite's self-checks, issue 12).

The rule flags of ``reference_engine/profiles.toml`` credit each reading to the sources
that state it, and the scenarios of ``features/`` are tagged with the sources they follow.
These checks keep the two honest with each other and with the profiles:

* a scenario tagged with a source must not require a flag value that the source's profiles
  contradict, unless ``profiles.toml`` credits that value to the source;
* a flag value credited to a source is the value one of its profiles (or overlays) uses,
  or the value says why not in ``outside_profile``;
* every reading (value) of every flag has a scenario tagged with it;
* every source named anywhere is a document (S000...) or a declared regional custom (R001...);
* the kits' flag lists and the vocabulary name only flags and values declared in ``profiles.toml``
  and the kits' lists play the ``lascuarenta`` profile (``guinote-conformance sync`` rewrites them;
  a flag a kit leaves out is played at its default), every ``rules.X`` the engine reads is
  declared, and every flag names its question (B-nn, C-nn; ``questions.toml`` may say more);
* every reason code the reference refuses with, a scenario names or a kit writes is declared in the vocabulary.

Each problem is one line that starts with ``file:line``. The functions take the repository
root, so that a contributor's change can be checked in a copy (tests/harness/test_scaffold.py).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from guinote_conformance.catalogue.features import FeatureError, Scenario, load_scenarios
from guinote_conformance.catalogue.rule_index import CUSTOMS_FILE, SOURCE_IDS, Custom, load_customs
from guinote_conformance.reference_engine.flags import (
    RULES_MEMBERS,
    FlagSpec,
    ProfileSpec,
    parse_flags,
    parse_profiles,
)

INTERPRETATION = "interpretation"
_FLAG_HEADER = re.compile(r"^\[flags\.([A-Za-z0-9_]+)\]")
_VALUE_LINE = re.compile(r"^values\.([A-Za-z0-9_]+)\s*=")
_MENTION = re.compile(r"\b([a-z][a-z0-9_]*)=([A-Za-z0-9_]+)")

#: The files a flag touches, relative to the repository root.
PROFILES = Path("reference_engine/profiles.toml")
FLAGS_MODULE = Path("reference_engine/flags.py")
QUESTIONS = Path("features/index/questions.toml")
VOCABULARY = Path("adapters/vocabulary.py")
TABLE_WORDS = Path("guinote_conformance/catalogue/table_words.py")
KIT_PROFILE = "lascuarenta"


@dataclass(frozen=True)
class KitFlags:
    """Where a kit lists the flag values it plays, in its own language's syntax.

    ``opens`` matches the line that starts the table, ``closes`` the line that ends it (it may
    be the last entry's own line, as Java's ``"cotos_to_win", "1");``); ``entry`` matches one
    entry (group 1 the flag, group 2 its quoted values); ``line`` is a new entry's text, formatted
    with ``name`` and ``value`` (and ``pad``: with ``align``, the spaces that put the value in
    the column of the other entries' values, as gofmt does)."""

    path: Path
    opens: re.Pattern[str]
    closes: re.Pattern[str]
    entry: re.Pattern[str]
    line: str
    align: bool = False

    def table(self, text: str) -> tuple[int, list[tuple[int, str, list[str]]]]:
        """The table's first line number and its entries: (line number, flag, values)."""
        start, found = 0, []
        for number, line in enumerate(text.splitlines(), start=1):
            if not start:
                start = number if self.opens.match(line) else 0
                continue
            if match := self.entry.match(line):
                found.append((number, match.group(1), re.findall(r"[\"']([^\"']+)[\"']", match.group(2))))
            if self.closes.match(line):
                break
        return start, found

    def synced(self, text: str, values: Mapping[str, str]) -> str | None:
        """``text`` with its table rewritten to list exactly ``values`` (flag -> the one value the
        kit plays), in their order and in the kit's own syntax; ``None`` when the table is not found.
        What ``guinote-conformance sync`` writes: the kits' tables are never edited by hand."""
        start, entries = self.table(text)
        if not start or not entries or not values:
            return None
        lines = text.splitlines(keepends=True)
        first, last = entries[0][0] - 1, entries[-1][0] - 1
        closing = bool(self.closes.match(lines[last].rstrip("\n")))
        key = self.line.split("{pad}")[0]  # the entry up to its value ('\t"{name}":' in Go)
        column = max(len(key.format(name=name)) for name in values) + 1 if self.align else 0
        new = []
        for name, value in values.items():
            pad = " " * (column - len(key.format(name=name))) if self.align else " "
            new.append(self.line.format(name=name, value=value, pad=pad))
        if closing:  # the last entry closes the table (Java's ``"cotos_to_win", "1");``)
            ending = lines[last].rstrip("\n")[len(lines[last].rstrip("\n").rstrip(";").rstrip(")")) :]
            new[-1] = new[-1].rstrip(",") + ending
        return "".join([*lines[:first], *(line + "\n" for line in new), *lines[last + 1 :]])


_QUOTED = r"(?:[\"'][^\"']*[\"']\s*,?\s*)+"
#: Every kit's flag table (``declarations_agree`` checks them; ``guinote-conformance sync`` writes them).
KITS = (
    KitFlags(Path("kits/python/skeleton_engine.py"), re.compile(r"^FLAGS\b"), re.compile(r"^\}"),
             re.compile(r'^\s*"([a-z0-9_]+)":\s*\[(.*)\],?\s*$'), '    "{name}": ["{value}"],'),
    KitFlags(Path("kits/node/skeleton_engine.js"), re.compile(r"^const FLAGS\b"), re.compile(r"^\}"),
             re.compile(r"^\s*([a-z0-9_]+):\s*\[(.*)\],?\s*$"), "  {name}: ['{value}'],"),
    KitFlags(Path("kits/typescript/src/game.ts"), re.compile(r"^const LASCUARENTA\b"), re.compile(r"^\}"),
             re.compile(r"^\s*([a-z0-9_]+):\s*('[^']*'),\s*$"), "  {name}: '{value}',"),
    KitFlags(Path("kits/java/src/guinote/kit/Game.java"), re.compile(r".*\bFLAGS = flags\($"),
             re.compile(r".*\);\s*$"), re.compile(rf'^\s*"([a-z0-9_]+)",\s*({_QUOTED})\)?;?\s*$'),
             '            "{name}", "{value}",'),
    KitFlags(Path("kits/go/game.go"), re.compile(r"^var lascuarenta = map"), re.compile(r"^\}"),
             re.compile(r'^\s*"([a-z0-9_]+)":\s*("[^"]*"),\s*$'), '\t"{name}":{pad}"{value}",', align=True),
    KitFlags(Path("kits/rust/src/game.rs"), re.compile(r"^pub const FLAGS\b"), re.compile(r"^\];"),
             re.compile(r'^\s*\("([a-z0-9_]+)",\s*&\[(.*)\]\),\s*$'), '    ("{name}", &["{value}"]),'),
)  # fmt: skip


@dataclass
class Project:
    """The declarations of one checkout (the repository, or a contributor's copy of it)."""

    root: Path

    @cached_property
    def profiles_text(self) -> str:
        return (self.root / PROFILES).read_text(encoding="utf-8")

    @cached_property
    def catalogue(self) -> dict[str, Any]:
        return tomllib.loads(self.profiles_text)

    @cached_property
    def flags(self) -> dict[str, FlagSpec]:
        return parse_flags(self.catalogue)

    @cached_property
    def profiles(self) -> dict[str, ProfileSpec]:
        return parse_profiles(self.catalogue)

    @cached_property
    def scenarios(self) -> list[Scenario]:
        return load_scenarios(self.root / "features", self.flags)  # the tags checked against its own declaration

    @cached_property
    def customs(self) -> dict[str, Custom]:
        return load_customs(self.root / "features")

    @cached_property
    def lines(self) -> dict[tuple[str, str | None], int]:
        """(flag, None) and (flag, value) -> line of profiles.toml."""
        found: dict[tuple[str, str | None], int] = {}
        flag = ""
        for number, line in enumerate(self.profiles_text.splitlines(), start=1):
            if header := _FLAG_HEADER.match(line):
                flag = header.group(1)
                found[(flag, None)] = number
            elif line.startswith("["):
                flag = ""
            elif flag and (value := _VALUE_LINE.match(line)):
                found[(flag, value.group(1))] = number
        return found

    def where(self, flag: str, value: str | None = None) -> str:
        line = self.lines.get((flag, value)) or self.lines.get((flag, None), 0)
        return f"{self.root / PROFILES}:{line}"

    def values_used_by(self, source: str, flag: str) -> set[str]:
        """The values of ``flag`` that the profiles and overlays credited to ``source`` play."""
        used = set()
        for spec in self.profiles.values():
            if source in spec.sources and flag in spec.flags:
                used.add(spec.flags[flag])
        return used

    def has_profile(self, source: str) -> bool:
        return any(source in spec.sources and not spec.overlay for spec in self.profiles.values())

    def is_known_source(self, name: str) -> bool:
        return name in SOURCE_IDS or name in self.customs


def scenario_sources_agree_with_profiles(project: Project) -> list[str]:
    """A scenario tagged @Sxxx needs only flag values that source's profiles play or that
    profiles.toml credits to it."""
    problems = []
    for scenario in project.scenarios:
        for source in scenario.sources:
            for flag, value in scenario.tagged_values():
                spec = project.flags.get(flag)
                if spec is None or value not in spec.values:
                    continue  # an unknown flag or value is reported by its own check
                info = spec.values[value]
                if info.observes or source in info.sources or value in project.values_used_by(source, flag):
                    continue  # observes: a value needed to see a rule, not a reading (profiles.toml says why)
                used = ", ".join(sorted(project.values_used_by(source, flag))) or "none"
                problems.append(
                    f"{scenario.location}: tagged @{source} but needs {flag}={value}, which no profile of "
                    f"{source} plays ({flag}: {used}) and {PROFILES} does not credit to {source}; "
                    f"tag the scenario @interpretation (or with the sources of {flag}={value}) instead"
                )
    return problems


def credited_values_are_played(project: Project) -> list[str]:
    """A value credited to a source is played by one of its profiles, or says why not."""
    problems = []
    for flag, spec in project.flags.items():
        for value, info in spec.values.items():
            where = project.where(flag, value)
            for source in info.outside_profile:
                if source not in info.sources:
                    problems.append(
                        f"{where}: {flag}={value} explains {source} in outside_profile but does not credit it"
                    )
            for source in info.sources:
                if source == INTERPRETATION or not project.has_profile(source):
                    continue
                played = value in project.values_used_by(source, flag)
                if not played and source not in info.outside_profile:
                    used = ", ".join(sorted(project.values_used_by(source, flag)))
                    problems.append(
                        f"{where}: {flag}={value} is credited to {source}, whose profiles play {flag}={used}; "
                        f'say why in outside_profile = {{ {source} = "..." }} or correct the sources'
                    )
                elif played and source in info.outside_profile:
                    problems.append(
                        f"{where}: {flag}={value}: outside_profile explains {source}, whose profile plays it"
                    )
    return problems


def every_reading_has_a_scenario(project: Project) -> list[str]:
    """Every value of every flag is pinned down by at least one scenario tagged with it (a
    multi-value tag pins each value it lists, unless it lists them all: then it pins none)."""
    tagged: dict[str, set[str]] = {}
    for scenario in project.scenarios:
        for flag in scenario.flags:
            listed = set(scenario.choices(flag))
            if flag not in project.flags or listed != set(project.flags[flag].values):
                tagged.setdefault(flag, set()).update(listed)
    return [
        f"{project.where(flag, value)}: no scenario is tagged @{flag}={value}"
        for flag, spec in project.flags.items()
        for value in spec.values
        if value not in tagged.get(flag, set())
    ]


def sources_are_known(project: Project) -> list[str]:
    """Every source named by a flag value or a scenario is a document or a declared custom."""
    problems = []
    for flag, spec in project.flags.items():
        for value, info in spec.values.items():
            for source in info.sources:
                if source != INTERPRETATION and not project.is_known_source(source):
                    problems.append(
                        f"{project.where(flag, value)}: {flag}={value} cites {source}, which is neither a "
                        f"document ({', '.join(SOURCE_IDS)}) nor a custom of features/index/customs.toml"
                    )
    for scenario in project.scenarios:
        problems += [
            f"{scenario.location}: @{source} is not declared in features/index/customs.toml"
            for source in scenario.sources
            if not project.is_known_source(source)
        ]
    return problems


def _rules_reads(path: Path) -> list[tuple[int, str]]:
    """Every ``<...>rules.NAME`` read in a module: (line, NAME)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
        if name == "rules":
            found.append((node.lineno, node.attr))
    return found


def rules_reads_are_flags(project: Project) -> list[str]:
    """Every ``rules.NAME`` the reference engine reads is a flag of profiles.toml (or a member of
    ``Rules``): ``Rules`` takes its flags from the declaration, so a flag misspelt or never
    declared is named here, at the line that reads it, rather than at run time."""
    problems = []
    for path in sorted((project.root / "reference_engine").glob("*.py")):
        problems += [
            f"{path}:{line}: rules.{name} is not a flag of {PROFILES} (declare it there: guinote-conformance new-flag)"
            for line, name in _rules_reads(path)
            if name not in project.flags and name not in RULES_MEMBERS
        ]
    return problems


def declarations_agree(project: Project) -> list[str]:
    """profiles.toml is the one declaration; the kits' flag tables, the vocabulary and the
    questions must not contradict it (the engine's ``Rules`` reads the flags from it)."""
    problems: list[str] = []
    for kit in KITS:
        path = project.root / kit.path
        if not path.exists():
            continue
        start, table = kit.table(path.read_text(encoding="utf-8"))
        if not table:
            problems.append(f"{path}:{start or 1}: no flag table found (fidelity.KITS says how it looks)")
            continue
        listed = {name: values for _, name, values in table}
        expected = kit_values(project, listed)
        if listed == {name: [value] for name, value in expected.items()}:
            continue
        differences = [name for name in expected if listed.get(name) != [expected[name]]]
        differences += [name for name in listed if name not in expected]
        problems.append(
            f"{path}:{start}: the flag table is out of date with {PROFILES} ({', '.join(differences)}): "
            f"run guinote-conformance sync"
        )
    vocabulary = project.root / VOCABULARY
    for number, text in enumerate(vocabulary.read_text(encoding="utf-8").splitlines(), start=1):
        for flag, value in _MENTION.findall(text):
            if flag in project.flags and value not in project.flags[flag].values:
                problems.append(f"{vocabulary}:{number}: mentions {flag}={value}, not a value of {PROFILES}")
    problems += _questions_agree(project)
    return problems


def kit_values(project: Project, listed: Iterable[str]) -> dict[str, str]:
    """What a kit's flag table must list, given the flags it ``listed``: each flag it lists that
    is still declared, and each flag the kits' profile (``KIT_PROFILE``) plays at another value
    than its default, at that profile's value, in the declaration's order.

    A kit lists the flags its skeleton plays; a flag it leaves out is played at its default and
    never sent (the protocol's rule for a flag an engine does not declare). A new flag is
    declared with the default every profile keeps, so it needs no entry: the kits are not
    touched by a variant, and a table is out of date only when a flag it lists is gone or the
    profile it plays changed."""
    played = project.profiles[KIT_PROFILE].flags if KIT_PROFILE in project.profiles else {}
    names = set(listed)
    return {
        name: played.get(name, spec.default)
        for name, spec in project.flags.items()
        if name in names or played.get(name, spec.default) != spec.default
    }


def sync_kits(root: Path) -> list[Path]:
    """Rewrite every kit's flag table from ``profiles.toml`` (``guinote-conformance sync``): the
    flags it lists and those its profile needs (:func:`kit_values`); the files changed. A kit
    whose table cannot be found is a :class:`ValueError` naming it."""
    project = Project(root)
    changed = []
    for kit in KITS:
        path = root / kit.path
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        new = kit.synced(text, kit_values(project, (name for _, name, _ in kit.table(text)[1])))
        if new is None:
            raise ValueError(f"{path}: no flag table found (fidelity.KITS says how it looks)")
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def _questions_agree(project: Project) -> list[str]:
    """Every flag names its question (B-nn, C-nn); an entry in questions.toml is optional (the
    rulebook derives the question from the flag: ``rulebook.derived_questions``), but one that
    names a flag must be the question that flag names."""
    path = project.root / QUESTIONS
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    problems = []
    for flag, spec in project.flags.items():
        cited = re.findall(r"[BC]-\d{2}", spec.disagreement)
        if not cited and not re.fullmatch(r"[A-Z]+-\d{2}(/[A-Z]+-\d{2})*", spec.disagreement):
            problems.append(f'{project.where(flag)}: flag {flag} names no question (disagreement = "B-nn")')
    code = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if found := re.match(r'^id = "([BC]-\d{2})"', line):
            code = found.group(1)
        elif (named := re.match(r'^flag = "([a-z0-9_]+)"', line)) and code:
            named_spec = project.flags.get(named.group(1))
            if named_spec is None:
                problems.append(
                    f"{path}:{number}: {code} names flag {named.group(1)}, which {PROFILES} does not declare"
                )
            elif code not in named_spec.disagreement:
                problems.append(
                    f"{path}:{number}: {code} names flag {named_spec.name}, whose question is "
                    f"{named_spec.disagreement!r} "
                    f"({project.where(named_spec.name)})"
                )
    return problems


def no_placeholders(project: Project) -> list[str]:
    """No TODO left by the scaffold (guinote-conformance new-flag) in the declarations."""
    problems = []
    for relative in (PROFILES, QUESTIONS, Path("features/index") / CUSTOMS_FILE):
        path = project.root / relative
        if not path.exists():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if "TODO" in line and not line.lstrip().startswith("#"):
                problems.append(f"{path}:{number}: a TODO left by the scaffold: {line.strip()[:100]}")
    return problems


#: A reason code given where the reference refuses an action, or named by a scenario's step.
_CODE_GIVEN = re.compile(r"""(?:Refusal|IllegalAction)\(\s*["']([A-Z][A-Z0-9_]+)["']""")
_CODE_NAMED = re.compile(r"\brefused as ([A-Z][A-Z0-9_]+)\b")
_CODE_DECLARED = re.compile(r"""^\s+["']([A-Z][A-Z0-9_]+)["']\s*:""", re.MULTILINE)
#: A reason code written in a kit's source: a quoted upper-case name of two words or more.
_CODE_IN_KIT = re.compile(r"""["']([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)["']""")
_KIT_SOURCES = ("*.go", "*.java", "*.rs", "*.ts", "*.js", "*.py")
#: The kits' own codes, beside the vocabulary's: the protocol lets an engine refuse with a code
#: of its own; the kits use these two for a malformed action and for one they do not play yet.
KIT_OWN_CODES = {"BAD_ACTION": "a malformed action", "NOT_LEGAL": "an action the skeleton does not play yet"}


def reason_codes_are_declared(project: Project) -> list[str]:
    """Every reason code the reference engine refuses with, or a scenario names, is one of the
    vocabulary's (``REASON_CODES`` of adapters/vocabulary.py): engines read them from there, and
    the kits and the protocol's schema list them. Each declared code has the players' words
    for it (``REASON_WORDS`` of catalogue/table_words.py: the rulebook and the Spanish run say it)."""
    vocabulary = (project.root / VOCABULARY).read_text(encoding="utf-8")
    start = vocabulary.index("REASON_CODES = {") if "REASON_CODES = {" in vocabulary else 0
    block = vocabulary[start:].partition("\n}")[0]
    declared = set(_CODE_DECLARED.findall(block))
    problems = []
    words_path = project.root / TABLE_WORDS
    words_path = words_path if words_path.exists() else Path(__file__).resolve().parent / TABLE_WORDS.name
    words_text = words_path.read_text(encoding="utf-8")
    worded = set(_CODE_DECLARED.findall(words_text.partition("REASON_WORDS")[2].partition("\n}")[0]))
    for match in _CODE_DECLARED.finditer(block):
        if match.group(1) not in worded:
            number = vocabulary.count("\n", 0, start + match.start(1)) + 1
            problems.append(
                f"{project.root / VOCABULARY}:{number}: reason code {match.group(1)} has no players' words in "
                f'{words_path} (REASON_WORDS: "{match.group(1)}": ("he may not ...", "no puede ..."))'
            )
    sources = [(path, _CODE_GIVEN) for path in sorted((project.root / "reference_engine").glob("*.py"))]
    sources += [(path, _CODE_NAMED) for path in sorted((project.root / "features").glob("*.feature"))]
    kits = project.root / "kits"
    sources += [(path, _CODE_IN_KIT) for kind in _KIT_SOURCES for path in sorted(kits.rglob(kind)) if _kit_source(path)]
    for path, pattern in sources:
        text = path.read_text(encoding="utf-8")
        for match in pattern.finditer(text):  # the whole text: a call may put its code on the next line
            if match.group(1) not in declared and not (pattern is _CODE_IN_KIT and match.group(1) in KIT_OWN_CODES):
                number = text.count("\n", 0, match.start(1)) + 1
                problems.append(
                    f"{path}:{number}: reason code {match.group(1)} is not declared in {VOCABULARY} (REASON_CODES)"
                )
    return problems


def _kit_source(path: Path) -> bool:
    """A kit's own source, not what its toolchain built or fetched into the kit's folder."""
    return not {"node_modules", "target", "build", "dist", "out", "__pycache__"} & set(path.parts)


Check = Callable[[Project], list[str]]

CHECKS: tuple[Check, ...] = (
    no_placeholders,
    sources_are_known,
    scenario_sources_agree_with_profiles,
    credited_values_are_played,
    every_reading_has_a_scenario,
    declarations_agree,
    rules_reads_are_flags,
    reason_codes_are_declared,
)


def all_problems(root: Path) -> list[str]:
    """Every fidelity problem of the checkout at ``root``; a feature file that cannot be read (a
    flag tag its profiles.toml does not declare...) is the one problem given, at its file:line."""
    project = Project(root)
    try:
        project.scenarios  # noqa: B018 (read once: every check that needs the scenarios reads them)
    except FeatureError as error:
        return [str(error)]
    return [problem for check in CHECKS for problem in check(project)]
