"""``rules``, ``profiles``, ``flags`` and ``export``: the catalogue as the command line shows it.

In: the commands' options (an engine, for its profiles). Out: tables in the terminal, or the
rule index and the scenarios as JSON (``rules --json``, ``export``), read from
:mod:`guinote_conformance.catalogue`.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base import options
from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.base.untrusted import markup
from guinote_conformance.catalogue.features import Scenario, scenarios_by_rule
from guinote_conformance.catalogue.rule_index import default_root, load_areas
from guinote_conformance.cli.common import (
    OneEngine,
    StartTimeout,
    checked,
    console,
    examples,
    open_info,
    read_scenarios,
)
from guinote_conformance.engines.specs import overlays, parse_engine_spec
from guinote_conformance.run import expectations as known


def _location(scenario: Scenario) -> str:
    """``features/<file>:<line>``, the same in a clone and in an installed package."""
    return f"features/{scenario.path.relative_to(default_root()).as_posix()}:{scenario.line}"


RULES_EPILOG = examples("guinote-conformance rules", "guinote-conformance rules --json > rules.json")


def rules(
    as_json: Annotated[bool, typer.Option("--json", help="print the machine-readable rule index")] = False,
) -> None:
    """List every rule with its sources, agreement, flag and the scenarios that cover it."""
    with checked():
        covered = scenarios_by_rule(read_scenarios())
        areas = load_areas()
    entries = []
    for rule_area in areas:
        for entry_rule in rule_area.rules:
            entry = asdict(entry_rule)
            entry["scenarios"] = [
                {"name": s.name, "location": _location(s), "flags": s.flags} for s in covered.get(entry_rule.id, [])
            ]
            entries.append(entry)
    if as_json:
        typer.echo(json.dumps(entries, indent=1, ensure_ascii=False))
        return
    table = Table(title="Rules")
    for column in ("rule", "area", "agreement", "flag", "scenarios", "statement"):
        table.add_column(column)
    for entry in entries:
        status = (
            str(len(entry["scenarios"]))
            if entry["scenarios"]
            else ("not executable" if entry["not_executable"] else "MISSING")
        )
        table.add_row(entry["id"], entry["area"], entry["agreement"], entry["flag"] or "", status, entry["statement"])
    console.print(table)
    executable = [e for e in entries if not e["not_executable"]]
    console.print(
        f"{len(entries)} rules: {sum(1 for e in executable if e['scenarios'])} covered by scenarios, "
        f"{len(entries) - len(executable)} not executable, {sum(1 for e in executable if not e['scenarios'])} missing"
    )


PROFILES_EPILOG = examples("guinote-conformance profiles", 'guinote-conformance profiles --engine "cmd:./my-engine"')


def profiles(engine: OneEngine = "reference", start_timeout: StartTimeout = STARTUP_TIMEOUT) -> None:
    """List the engine's rule profiles with their flag values, and the overlays that combine with them."""
    with checked():
        start_timeout = options.seconds(start_timeout, "--start-timeout")
        info, _ = open_info(parse_engine_spec(engine), start_timeout=start_timeout)
    table = Table(title=f"Profiles of {markup(info.name)}")
    names = list(info.profiles)
    table.add_column("flag")
    for name in names:
        table.add_column(markup(name))
    for flag in sorted({f for p in info.profiles.values() for f in p}):
        table.add_row(markup(flag), *[markup(info.profiles[n].get(flag, "")) for n in names])
    console.print(table)
    table = Table(title="Overlays (combine with any profile: --profile NAME+OVERLAY)")
    table.add_column("overlay")
    table.add_column("sets")
    for name, values in overlays().items():
        table.add_row(name, " ".join(f"{flag}={value}" for flag, value in values.items()))
    console.print(table)


FLAGS_EPILOG = examples("guinote-conformance flags")


def flags() -> None:
    """List every rule flag, its values and the sources behind each value."""
    from guinote_conformance.reference_engine.flags import flag_specs

    table = Table(title="Rule flags (where the sources disagree)")
    for column in ("flag", "value", "sources", "reading"):
        table.add_column(column)
    for spec in flag_specs().values():
        for value in spec.values.values():
            table.add_row(spec.name, value.name, " ".join(value.sources), value.reading)
    console.print(table)


EXPORT_EPILOG = examples("guinote-conformance export > cases.json", "guinote-conformance export --out cases.json")


def export(
    out: Annotated[Path | None, typer.Option(metavar="FILE", help="write to this file instead of stdout")] = None,
) -> None:
    """Export every scenario as plain JSON data (rules, sources, flags, steps with their tables)."""
    with checked():
        catalogue = read_scenarios()
    cases = [
        {
            "id": known.scenario_id(s),
            "name": s.name,
            "feature": _location(s).rpartition(":")[0],
            "line": s.line,
            "rules": list(s.rules),
            "sources": list(s.sources),
            "interpretation": s.interpretation,
            "flags": s.flags,
            # every value a tag lists (@flag=a|b holds under each; "flags" has the first, what it runs with elsewhere)
            "flag_values": {name: list(s.choices(name)) for name in s.flags},
            "steps": [
                {"keyword": st.keyword, "text": st.text, "line": st.line, "table": [list(r) for r in st.table]}
                for st in s.steps
            ],
        }
        for s in catalogue
    ]
    text = json.dumps({"format": "guinote-conformance-cases/1", "cases": cases}, indent=1, ensure_ascii=False)
    if out:
        with checked():
            try:
                out.write_text(text + "\n", encoding="utf-8")
            except OSError as error:
                raise InputError(f"--out {out}: cannot write ({error.strerror or error})") from None
        console.print(f"wrote {len(cases)} scenarios to {out}", highlight=False)
    else:
        typer.echo(text)
