"""Scaffolding for a new rule flag, a new value of a flag, or a regional custom.

``guinote-conformance new-flag``, ``new-value`` and ``new-custom`` write the stubs a variant
needs into the one declaration (``reference_engine/profiles.toml``, and
``features/index/customs.toml`` for a custom), take the next free question code (B-nn for a
disagreement, C-nn for a gap) or custom number (Rnnn), and print what is left to do by hand:
the readings, the scenarios and the engine's behaviour. Everything else is derived from the
declaration: the engine's ``Rules``, the flag's question (an entry in ``questions.toml`` is
optional: ``rulebook.derived_questions``), and the kits need no entry (a flag a kit leaves out
is played at its default; ``guinote-conformance sync`` rewrites a kit's table only when the
profile it plays changes). Every stub says ``TODO``; the suite's self-checks (``tox -e
variant``) fail until each one is written. The guide is ``docs/contributing/variant.rst``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from guinote_conformance.base.paths import REPO
from guinote_conformance.catalogue.fidelity import PROFILES, QUESTIONS, sync_kits
from guinote_conformance.catalogue.rule_index import CUSTOM_ID, CUSTOMS_FILE, RULE_ID, SOURCE_IDS
from guinote_conformance.reference_engine.flags import RULES_MEMBERS

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
VALUE = re.compile(r"^[A-Za-z0-9_]+$")
TODO = "TODO"
_PROFILES_HEADER = (
    "# ---------------------------------------------------------------------------------------\n# Profiles:"
)


class ScaffoldError(ValueError):
    """A scaffold request that cannot be carried out (the message says what to change)."""


@dataclass(frozen=True)
class Written:
    """What a scaffold command wrote, and what is left to do by hand."""

    code: str
    files: tuple[Path, ...]
    next_steps: tuple[str, ...]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _toml(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(_toml(item) for item in items) + "]"


def next_question_code(root: Path, kind: str) -> str:
    """The next free B-nn (disagreement) or C-nn (gap) code of questions.toml."""
    letter = "B" if kind == "disagreement" else "C"
    questions = _read(root / QUESTIONS) if (root / QUESTIONS).exists() else ""
    used = [int(n) for n in re.findall(rf'^id = "{letter}-(\d{{2}})"', questions, flags=re.MULTILINE)]
    # a flag's question may have no entry (it is derived from the flag): its code is taken too
    used += [int(n) for n in re.findall(rf"\b{letter}-(\d{{2}})\b", _read(root / PROFILES))]
    return f"{letter}-{max(used, default=0) + 1:02d}"


def next_custom_id(root: Path) -> str:
    path = root / "features" / "index" / CUSTOMS_FILE
    used = [int(n) for n in re.findall(r'^id = "R(\d{3})"', _read(path), flags=re.MULTILINE)] if path.exists() else []
    return f"R{max(used, default=0) + 1:03d}"


def _known_sources(root: Path) -> set[str]:
    path = root / "features" / "index" / CUSTOMS_FILE
    customs = set(re.findall(r'^id = "(R\d{3})"', _read(path), flags=re.MULTILINE)) if path.exists() else set()
    return {*SOURCE_IDS, *customs, "interpretation"}


def _check_sources(root: Path, sources: dict[str, list[str]]) -> None:
    known = _known_sources(root)
    for value, names in sources.items():
        for name in names:
            if name not in known:
                hint = " (declare it first with new-custom)" if CUSTOM_ID.match(name) else ""
                raise ScaffoldError(
                    f"value {value}: unknown source {name!r}{hint}; sources: {', '.join(sorted(known))}"
                )


def _value_line(value: str, sources: list[str]) -> str:
    reading = f"{TODO}: what this reading says, in your own words, with the source's heading."
    return f"values.{value} = {{ sources = {_toml_list(sources)}, reading = {_toml(reading)} }}\n"


def add_custom(root: Path, title: str, where: str, reported: str, description: str = "") -> Written:
    """Declare a regional custom (features/index/customs.toml) under the next free Rnnn."""
    path = root / "features" / "index" / CUSTOMS_FILE
    custom = next_custom_id(root)
    text = _read(path) if path.exists() else ""
    text = text.rstrip("\n") + "\n\n" if text else ""
    text += "[[custom]]\n"
    text += f"id = {_toml(custom)}\ntitle = {_toml(title)}\nwhere = {_toml(where)}\nreported = {_toml(reported)}\n"
    text += f"description = {_toml(description or TODO + ': what is played, in your own words.')}\n"
    _write(path, text)
    return Written(
        custom, (path,), (f"cite it as {custom} in the sources of a flag value and as @{custom} on scenarios",)
    )


def add_flag(
    root: Path,
    name: str,
    values: list[str],
    default: str,
    sources: dict[str, list[str]],
    rules: list[str],
    kind: str = "disagreement",
) -> Written:
    """Declare a new flag with its values (stubs) and the next free question code."""
    if not NAME.match(name):
        raise ScaffoldError(f"flag name {name!r}: use lower case letters, digits and _ (e.g. lead_after_cante)")
    if name in RULES_MEMBERS:
        raise ScaffoldError(f"flag name {name!r} is taken by Rules.{name}; choose another")
    profiles_path = root / PROFILES
    catalogue = tomllib.loads(_read(profiles_path))
    if name in catalogue["flags"]:
        raise ScaffoldError(f"flag {name} already exists; add a value with new-value {name} VALUE")
    if len(values) < 2 or len(set(values)) != len(values):
        raise ScaffoldError("a flag needs at least two different values (--value A --value B)")
    bad = [value for value in values if not VALUE.match(value)]
    if bad:
        raise ScaffoldError(f"value {bad[0]!r}: use letters, digits and _")
    if default not in values:
        raise ScaffoldError(f"the default {default!r} is not one of the values {', '.join(values)}")
    bad_rules = [rule for rule in rules if not RULE_ID.match(rule)]
    if bad_rules:
        raise ScaffoldError(f"rule {bad_rules[0]!r}: a rule ID looks like ARR-01")
    sources = {value: sources.get(value) or ["interpretation"] for value in values}
    _check_sources(root, sources)
    code = next_question_code(root, kind)

    text = _read(profiles_path)
    block = f"[flags.{name}]\ndefault = {_toml(default)}\ndisagreement = {_toml(code)}\nrules = {_toml_list(rules)}\n"
    block += f"summary = {_toml(TODO + ': the question the flag answers, in one line.')}\n"
    block += "".join(_value_line(value, sources[value]) for value in values)
    position = text.find(_PROFILES_HEADER)
    text = text[:position] + block + "\n" + text[position:] if position >= 0 else text.rstrip("\n") + "\n\n" + block
    _write(profiles_path, text)

    written = [profiles_path]
    steps = (
        f"{profiles_path}: write the summary (the question the flag answers: the rulebook shows it as "
        f"{code}) and each value's reading (with source and heading); set the flag in a profile only if "
        "its source plays another value than the default",
        "features/<area>.feature: one scenario per value, tagged " + " ".join(f"@{name}={v}" for v in values),
        f"reference_engine/<rule module>.py: the behaviour, reading game.rules.{name} (with the rule ID in a comment)",
        "features/index/<area>.toml: name the flag on the rules it touches (flag = ...)",
        "python -m guinote_conformance.catalogue.sensitivity --flag " + name + ": tag the scenarios it lists",
        "docs/locale/es/LC_MESSAGES/data.po: the Spanish of the summary, the readings, the question's title and "
        "the scenarios' titles (tox -e variant gives each msgid to add)",
        "tox -e variant: what CI checks, each problem with its file:line",
    )
    return Written(code, tuple(written), steps)


def add_value(root: Path, flag: str, value: str, sources: list[str]) -> Written:
    """Add a value (a new reading) to an existing flag."""
    profiles_path = root / PROFILES
    text = _read(profiles_path)
    catalogue = tomllib.loads(text)
    if flag not in catalogue["flags"]:
        raise ScaffoldError(f"unknown flag {flag!r}; flags: {', '.join(catalogue['flags'])} (or use new-flag)")
    if not VALUE.match(value):
        raise ScaffoldError(f"value {value!r}: use letters, digits and _")
    if value in catalogue["flags"][flag]["values"]:
        raise ScaffoldError(f"flag {flag} already has the value {value}")
    sources = sources or ["interpretation"]
    _check_sources(root, {value: sources})
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(f"[flags.{flag}]"))
    last = max(i for i in range(start, len(lines)) if lines[i].startswith("values.") and i < _next_table(lines, start))
    lines.insert(last + 1, _value_line(value, sources))
    _write(profiles_path, "".join(lines))
    code = str(catalogue["flags"][flag]["disagreement"])
    steps = (
        f"{profiles_path}: write the reading of {flag}={value} (with source and heading)",
        f"{root / QUESTIONS}: if {code} has an entry there, add the new reading to its summary",
        f"features/<area>.feature: a scenario tagged @{flag}={value}",
        f"reference_engine/<rule module>.py: the behaviour for game.rules.{flag} == {value!r}",
        "python -m guinote_conformance.catalogue.sensitivity --flag " + flag + ": tag the scenarios it lists",
        "docs/locale/es/LC_MESSAGES/data.po: the Spanish of the reading and the scenario's title",
        "tox -e variant: what CI checks, each problem with its file:line",
    )
    return Written(code, (profiles_path,), steps)


def _next_table(lines: list[str], start: int) -> int:
    return next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))


# ----------------------------------------------------------------------------- CLI commands

RootOption = Annotated[Path, typer.Option(help="the repository to change (a clone with features/)")]


def _parse_sources(items: list[str]) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for item in items:
        value, sep, names = item.partition("=")
        if not sep or not names:
            raise ScaffoldError(f"--source {item!r}: write VALUE=SOURCE[,SOURCE], e.g. --source yes=R001")
        parsed[value] = [name.strip() for name in names.split(",") if name.strip()]
    return parsed


def _report(written: Written) -> None:
    typer.echo(f"{written.code}: wrote {', '.join(str(path) for path in written.files)}")
    typer.echo("left to do (see docs/contributing/variant.rst):")
    for number, step in enumerate(written.next_steps, start=1):
        typer.echo(f"  {number}. {step}")


def _fail(error: ScaffoldError) -> typer.Exit:
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(2)


def new_flag(
    name: Annotated[str, typer.Argument(help="the flag, e.g. lead_after_cante")],
    value: Annotated[list[str], typer.Option("--value", help="a value (at least two; repeatable)")],
    default: Annotated[str, typer.Option(help="the value every existing profile keeps (the documents' reading)")],
    source: Annotated[
        list[str] | None, typer.Option(help="VALUE=S000,R001: who reads the rule that way (repeatable)")
    ] = None,
    rule: Annotated[list[str] | None, typer.Option(help="a rule ID the flag touches (repeatable)")] = None,
    gap: Annotated[bool, typer.Option(help="a gap no source settles (C-nn) rather than a disagreement (B-nn)")] = False,
    root: RootOption = REPO,
) -> None:
    """Declare a new rule flag: its stubs in profiles.toml (everything else is derived from there)."""
    try:
        kind = "gap" if gap else "disagreement"
        _report(add_flag(root, name, list(value), default, _parse_sources(source or []), list(rule or []), kind))
    except ScaffoldError as error:
        raise _fail(error) from None


def new_value(
    flag: Annotated[str, typer.Argument(help="an existing flag")],
    value: Annotated[str, typer.Argument(help="the new value")],
    source: Annotated[list[str] | None, typer.Option(help="a source of the reading (repeatable)")] = None,
    root: RootOption = REPO,
) -> None:
    """Add a value (a reading) to an existing flag."""
    try:
        _report(add_value(root, flag, value, list(source or [])))
    except ScaffoldError as error:
        raise _fail(error) from None


def new_custom(
    title: Annotated[str, typer.Option(help="short name of the custom")],
    where: Annotated[str, typer.Option(help="town or club, comarca, province")],
    reported: Annotated[str, typer.Option(help="who reported it, and when")],
    description: Annotated[str, typer.Option(help="what is played, in your own words")] = "",
    root: RootOption = REPO,
) -> None:
    """Declare a regional custom that no document states (the next free Rnnn)."""
    _report(add_custom(root, title, where, reported, description))


def sync(root: RootOption = REPO) -> None:
    """Rewrite the kits' flag tables from reference_engine/profiles.toml (after the lascuarenta profile or a
    flag a kit lists changed; a new flag needs no kit entry: it is played at its default)."""
    try:
        changed = sync_kits(root)
    except ValueError as error:
        raise _fail(ScaffoldError(str(error))) from None
    done = f"wrote {', '.join(str(path) for path in changed)}" if changed else "the kits' flag tables are up to date"
    typer.echo(done)


def register(app: typer.Typer) -> None:
    """Add the scaffold commands to the ``guinote-conformance`` CLI."""
    app.command("sync")(sync)
    app.command("new-flag")(new_flag)
    app.command("new-value")(new_value)
    app.command("new-custom")(new_custom)
