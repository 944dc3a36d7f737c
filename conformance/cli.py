"""``guinote-conformance``: run the rulebook's scenarios against any engine and report.

Examples::

    guinote-conformance run                                  # the reference engine, every profile
    guinote-conformance run --engine "cmd:node my_engine.js" --expectations known.toml
    guinote-conformance run --engine py:my_pkg.adapter:make_engine --profile ludoteka
    guinote-conformance rules --json                        # the rule index with its scenarios
    guinote-conformance validate --engine "cmd:./my-engine"  # is the protocol harness sound?
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adapters.interface import EngineError
from conformance import realisations
from conformance.catalogue import load_scenarios, scenarios_by_rule
from conformance.driver import POSITION_SETUPS
from conformance.engines import EngineSpecError, load_engine
from conformance.report import summary_lines, write_html, write_junit
from conformance.results import Report, ResultsError, legend
from conformance.rule_index import load_areas
from conformance.scaffold import register as register_scaffold

REPO = Path(__file__).resolve().parent.parent
app = typer.Typer(
    help="Check a Guiñote engine against the rulebook's scenarios.", no_args_is_help=True, add_completion=False
)
# Piped output (CI logs, files) gets wide tables rather than truncated cells.
console = Console(width=None if sys.stdout.isatty() else 200)

EngineOption = Annotated[
    list[str] | None,
    typer.Option(
        "--engine", "-e", help="reference | py:module:factory | cmd:<command line> | serve:reference (repeatable)"
    ),
]


class ProgressPlugin:
    """Shows a progress bar while pytest runs the scenarios."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task = progress.add_task("scenarios", total=None)
        self.bad = 0

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.progress.update(self.task, total=len(session.items))

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.progress.update(self.task, total=len(ids))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if report.failed:
                self.bad += 1
            self.progress.update(self.task, advance=1, description=f"scenarios ({self.bad} problems)")


@app.command()
def run(
    engine: EngineOption = None,
    profile: Annotated[list[str] | None, typer.Option(help="only these profiles (repeatable)")] = None,
    scenario: Annotated[
        list[str] | None, typer.Option(help="only the scenario at FILE:LINE or matching a name glob")
    ] = None,
    expectations: Annotated[Path | None, typer.Option(help="TOML file of the engine's known failures")] = None,
    report_dir: Annotated[Path, typer.Option(help="where results.json, junit.xml and index.html go")] = Path("reports"),
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="parallel workers (pytest-xdist); 1 = serial")] = 2,
    timeout: Annotated[float, typer.Option(help="seconds an engine may take to answer one request")] = 10.0,
    position_setup: Annotated[
        str,
        typer.Option(
            help="mid-hand positions: load them (needs the 'positions' capability), realise them by dealing and "
            "playing to them, or auto: load when the engine can"
        ),
    ] = "auto",
    trace: Annotated[
        bool, typer.Option("--trace", help="keep every scenario's whole transcript and print the failures' in full")
    ] = False,
) -> None:
    """Run the scenarios against the engine(s) under each of their profiles; write the reports."""
    if position_setup not in POSITION_SETUPS:
        console.print(f"[red]error:[/red] --position-setup is one of {', '.join(POSITION_SETUPS)}")
        raise typer.Exit(2)
    if not (REPO / "tests" / "conformance").is_dir() or not (REPO / "features").is_dir():
        console.print(
            f"[red]error:[/red] the scenarios are not next to the installed package ({REPO}); "
            "install from a clone of the repository with: pip install -e ."
        )
        raise typer.Exit(2)
    for spec in engine or ["reference"]:
        _engine_info(spec)  # fail fast, with the engine's own error, before any scenario runs
    report_dir = report_dir.resolve()
    report_dir.mkdir(parents=True, exist_ok=True)
    results_path = report_dir / "results.json"
    results_path.unlink(missing_ok=True)
    args = [
        str(REPO / "tests" / "conformance"),
        "--rootdir",
        str(REPO),
        "-c",
        str(REPO / "pyproject.toml"),
        "-p",
        "no:terminal",
        "--guinote-results",
        str(results_path),
        "--engine-timeout",
        str(timeout),
        "--position-setup",
        position_setup,
    ]
    for spec in engine or ["reference"]:
        args += ["--engine", spec]
    for name in profile or []:
        args += ["--profile", name]
    for wanted in scenario or []:
        args += ["--scenario", wanted]
    if expectations:
        args += ["--expectations", str(expectations.resolve())]
    if jobs > 1:
        args += ["-n", str(jobs)]
    if trace:
        args += ["--guinote-trace"]
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        code = pytest.main(list(args), plugins=[ProgressPlugin(progress)])
    if not results_path.exists():
        console.print(
            f"[red]no results were produced (pytest exit code {int(code)}); run pytest {' '.join(args)} to see why"
        )
        raise typer.Exit(2)
    data = Report.load(results_path)
    html = write_html(data, report_dir)
    junit = write_junit(data, report_dir / "junit.xml")
    print_summary(data, trace=trace)
    console.print(f"reports: {results_path}  {junit}  {html}", markup=False)
    raise typer.Exit(0 if data.ok else 1)


def print_summary(data: Report, *, trace: bool = False) -> None:
    table = Table(title="Results by rule area")
    columns = data.columns()
    table.add_column("area")
    for column in columns:
        table.add_column(column)
    for area, row in data.by_area().items():
        table.add_row(area, *[row[c].label if c in row else "" for c in columns])
    console.print(table)
    console.print(legend(), markup=False, highlight=False)
    # the engine's own text is in these lines: print them verbatim, never as markup
    for line in summary_lines(data, trace=trace):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


@app.command()
def rules(
    as_json: Annotated[bool, typer.Option("--json", help="print the machine-readable rule index")] = False,
) -> None:
    """List every rule with its sources, agreement, flag and the scenarios that cover it."""
    covered = scenarios_by_rule(load_scenarios())
    entries = []
    for area in load_areas():
        for rule in area.rules:
            entry = asdict(rule)
            entry["scenarios"] = [
                {"name": s.name, "location": f"{s.path.relative_to(REPO)}:{s.line}", "flags": s.flags}
                for s in covered.get(rule.id, [])
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


@app.command()
def profiles(engine: Annotated[str, typer.Option("--engine", "-e")] = "reference") -> None:
    """List the engine's rule profiles with their flag values."""
    info = _engine_info(engine)
    table = Table(title=f"Profiles of {info.name}")
    names = list(info.profiles)
    table.add_column("flag")
    for name in names:
        table.add_column(name)
    for flag in sorted({f for p in info.profiles.values() for f in p}):
        table.add_row(flag, *[info.profiles[n].get(flag, "") for n in names])
    console.print(table)


@app.command()
def flags() -> None:
    """List every rule flag, its values and the sources behind each value."""
    from reference_engine.flags import flag_specs

    table = Table(title="Rule flags (where the sources disagree)")
    for column in ("flag", "value", "sources", "reading"):
        table.add_column(column)
    for spec in flag_specs().values():
        for value in spec.values.values():
            table.add_row(spec.name, value.name, " ".join(value.sources), value.reading)
    console.print(table)


def _engine_info(spec: str) -> Any:
    try:
        engine = load_engine(spec)
    except EngineSpecError as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    except Exception as error:  # the engine itself failed to start
        console.print(f"[red]error:[/red] engine {spec!r} could not start: {error}")
        raise typer.Exit(2) from None
    try:
        return engine.info()
    finally:
        engine.close()


@app.command()
def validate(engine: Annotated[str, typer.Option("--engine", "-e", help="cmd:<command line> of the engine")]) -> None:
    """Check that an engine speaks the protocol correctly (every message against its schema)."""
    _harness("validate", engine)


@app.command()
def smoke(engine: Annotated[str, typer.Option("--engine", "-e", help="cmd:<command line> of the engine")]) -> None:
    """Play one complete hand with legal actions only, to tell a broken harness from a broken rule."""
    _harness("smoke", engine)


def _harness(mode: str, spec: str) -> None:
    import shlex

    from adapters import harness_check

    if not spec.startswith("cmd:"):
        raise typer.BadParameter("validate and smoke check a protocol engine: --engine cmd:<command line>")
    findings = getattr(harness_check, mode)(shlex.split(spec[4:]))
    problems = [f for f in findings if not getattr(f, "ok", False)]
    for finding in findings:
        console.print("ok     " if getattr(finding, "ok", False) else "PROBLEM", str(finding), markup=False)
    raise typer.Exit(1 if problems else 0)


@app.command()
def export(out: Annotated[Path | None, typer.Option(help="write to this file instead of stdout")] = None) -> None:
    """Export every scenario as plain JSON data (rules, sources, flags, steps with their tables)."""
    cases = [
        {
            "id": f"{s.path.stem}::{s.name}",
            "name": s.name,
            "feature": str(s.path.relative_to(REPO)) if s.path.is_relative_to(REPO) else str(s.path),
            "line": s.line,
            "rules": list(s.rules),
            "sources": list(s.sources),
            "interpretation": s.interpretation,
            "flags": s.flags,
            "steps": [
                {"keyword": st.keyword, "text": st.text, "line": st.line, "table": [list(r) for r in st.table]}
                for st in s.steps
            ],
        }
        for s in load_scenarios()
    ]
    text = json.dumps({"format": "guinote-conformance-cases/1", "cases": cases}, indent=1, ensure_ascii=False)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        console.print(f"wrote {len(cases)} scenarios to {out}")
    else:
        typer.echo(text)


@app.command()
def realise(
    scenario: Annotated[
        list[str] | None, typer.Option(help="only the scenario at FILE:LINE or matching a name glob")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="parallel workers (pytest-xdist); 1 = serial")] = 2,
    seconds: Annotated[float, typer.Option(help="search time allowed per position and profile")] = 20.0,
) -> None:
    """Regenerate features/realisations/: for every scenario that starts from a mid-hand position, a deal
    and the legal plays that reach it on the reference engine, under every profile.

    Stored realisations that still reach their position are kept; the others are searched again.
    Example: guinote-conformance realise --scenario features/cantes.feature:42
    """
    import os
    import tempfile

    with tempfile.TemporaryDirectory(prefix="guinote-realise-") as folder:
        args = [
            str(REPO / "tests" / "conformance"),
            "--rootdir",
            str(REPO),
            "-c",
            str(REPO / "pyproject.toml"),
            "-q",
            "-p",
            "no:randomly",
            "--engine",
            "reference",
            "--position-setup",
            "realise",
            "--guinote-realise-record",
            folder,
        ]
        for wanted in scenario or []:
            args += ["--scenario", wanted]
        if jobs > 1:
            args += ["-n", str(jobs)]
        os.environ["GUINOTE_REALISE_SECONDS"] = str(seconds)
        pytest.main(args)
        runs = realisations.read_runs(Path(folder))
    if not runs:
        console.print("[red]error:[/red] no scenario starting from a position was run")
        raise typer.Exit(2)
    outcome = realisations.merge(runs, replace=not scenario)
    console.print(
        f"{outcome.realised} of {outcome.scenarios} positions realised "
        f"({len(runs)} runs; search time {outcome.search_seconds} s); files: "
        + ", ".join(str(path.relative_to(REPO)) for path in outcome.written)
    )
    for where, left in outcome.partial:
        console.print(f"[yellow]partly realised[/yellow] {where}: not under {', '.join(left)}")
    for where, why in outcome.unrealised:
        console.print(f"[red]positions only[/red] {where}: {why}")
    raise typer.Exit(1 if outcome.unrealised or outcome.partial else 0)


@app.command()
def compare(
    engine: Annotated[str, typer.Option("--engine", "-e", help="the engine to compare with the reference")],
    profile: Annotated[
        list[str] | None,
        typer.Option(help="profile[+overlay...] (repeatable); default: every profile, overlay and flag value"),
    ] = None,
    flags: Annotated[str, typer.Option(help="flag values over the profile(s), e.g. tute=wins_point,deck=48")] = "",
    hands: Annotated[int, typer.Option(help="games per configuration")] = 30,
    seconds: Annotated[float | None, typer.Option(help="stop after this many seconds")] = None,
    depth: Annotated[
        str, typer.Option(help="a game is one hand, one point (with its hands de vueltas) or a match")
    ] = "match",
    seed: Annotated[int, typer.Option(help="seed of the run (the same seed plays the same games)")] = 0,
    known: Annotated[Path | None, typer.Option(help="TOML file of known divergences to silence")] = None,
    report_dir: Annotated[Path, typer.Option(help="where fuzz.json, the records and the scenarios go")] = Path(
        "reports"
    ),
    steer: Annotated[bool, typer.Option(help="steer deals and play toward rules not seen yet")] = True,
    scenarios: Annotated[bool, typer.Option(help="write each divergence as a Gherkin scenario and check it")] = True,
    timeout: Annotated[float, typer.Option(help="seconds an engine may take to answer one request")] = 10.0,
) -> None:
    """Fuzz the engine against the reference: group the divergences, shrink them, write scenarios."""
    from adapters.reference import ReferenceEngine
    from conformance.fuzz_commands import UsageProblem, run_compare

    _engine_info(engine)  # fail fast, with the engine's own error
    under_test = load_engine(engine, timeout=timeout)
    try:
        code = run_compare(
            console, ReferenceEngine(), under_test, engine, profiles=profile or [], flags=flags, games=hands,
            seconds=seconds, depth=depth, seed=seed, known_file=known, report_dir=report_dir, steer=steer,
            scenarios=scenarios, check=scenarios,
        )  # fmt: skip
    except UsageProblem as problem:
        console.print(f"[red]error:[/red] {escape(str(problem))}")
        raise typer.Exit(2) from None
    except EngineError as failure:  # the engine could not even start or describe itself
        console.print(f"[red]error:[/red] engine {escape(engine)!r} failed: {escape(str(failure))}")
        raise typer.Exit(2) from None
    finally:
        under_test.close()
    raise typer.Exit(code)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="a divergence record written by compare")],
    engine: Annotated[str, typer.Option("--engine", "-e", help="the engine to replay it on")] = "reference",
    timeout: Annotated[float, typer.Option(help="seconds an engine may take to answer one request")] = 10.0,
) -> None:
    """Replay a divergence record step by step on the engine and the reference; show the table where they part."""
    from adapters.reference import ReferenceEngine
    from conformance.fuzz_commands import UsageProblem, run_replay

    _engine_info(engine)
    under_test = load_engine(engine, timeout=timeout)
    try:
        code = run_replay(console, ReferenceEngine(), under_test, record)
    except UsageProblem as problem:
        console.print(f"[red]error:[/red] {escape(str(problem))}")
        raise typer.Exit(2) from None
    except EngineError as failure:  # the engine could not even start or describe itself
        console.print(f"[red]error:[/red] engine {escape(engine)!r} failed: {escape(str(failure))}")
        raise typer.Exit(2) from None
    finally:
        under_test.close()
    raise typer.Exit(code)


@app.command()
def report(
    results: Annotated[Path, typer.Argument(help="a results.json written by run")],
    out: Annotated[Path, typer.Option(help="folder for index.html and junit.xml")] = Path("reports"),
) -> None:
    """Build the HTML report and the JUnit file from a results file; print the summary."""
    try:
        data = Report.load(results)
    except ResultsError as error:
        console.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    html = write_html(data, out)
    junit = write_junit(data, out / "junit.xml")
    print_summary(data)
    console.print(f"wrote {html}  {junit}", markup=False)


# new-flag, new-value, new-custom: scaffolding for a regional variant (conformance.scaffold)
register_scaffold(app)


def main() -> None:
    app()
