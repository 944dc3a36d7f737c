"""``guinote-conformance``: run the rulebook's scenarios against any engine and report.

Examples::

    guinote-conformance run                                  # the reference engine, every profile
    guinote-conformance run --engine "cmd:node my_engine.js" --expectations known.toml
    guinote-conformance run --engine py:my_pkg.adapter:make_engine --profile ludoteka --area cantes
    guinote-conformance rules --json                        # the rule index with its scenarios
    guinote-conformance validate --engine "cmd:./my-engine"  # is the protocol harness sound?

Every user mistake ends with one line ``error: ...`` and the exit code of
:mod:`conformance.base.exit_codes`, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from importlib import metadata, resources
from pathlib import Path
from typing import Annotated, Any

import click
import pytest
import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adapters.interface import Engine, EngineError, EngineInfo
from adapters.protocol import PROTOCOL_NAME
from adapters.versions import compatibility_of
from conformance.base import options
from conformance.base.exit_codes import MEANINGS, CheckError, EngineUnavailable, ExitCode, InputError
from conformance.base.untrusted import markup, shown
from conformance.catalogue.features import FeatureError, Scenario, load_scenarios, scenarios_by_rule
from conformance.catalogue.rule_index import RuleIndexError, default_root, load_areas
from conformance.catalogue.scaffold import register as register_scaffold
from conformance.engines.specs import FORMS, EngineSpec, overlays, parse_engine_spec, profile_flags
from conformance.report import folder as report_folder
from conformance.report.formats import summary_lines, write_html, write_junit
from conformance.report.site import register as register_site
from conformance.results.report import Report, ResultsError
from conformance.results.status import legend
from conformance.run import expectations as known
from conformance.run import realisations
from conformance.run.applicability import compatibility_lines, forecast
from conformance.run.scenario_setup import POSITION_SETUPS
from conformance.run.selection import Selection
from conformance.run.tally import stale_message


def _examples(*lines: str) -> str:
    """An epilog of examples, kept as written (``\\b`` stops click from re-wrapping it)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def _exit_codes() -> str:
    return "\b\nExit codes:\n" + "\n".join(f"  {int(code)}  {meaning}" for code, meaning in MEANINGS.items())


app = typer.Typer(
    help=f"Check a Guiñote engine against the rulebook's scenarios.\n\nEngines (--engine): {FORMS}.",
    epilog=_exit_codes(),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain click help: readable placeholders, no box drawing
    pretty_exceptions_enable=False,
)
# Piped output (CI logs, files) gets wide tables rather than truncated cells.
# emoji=False: an engine's ":warning:" stays text (markup is escaped where engine text is printed)
console = Console(width=None if sys.stdout.isatty() else 200, emoji=False)
errors = Console(stderr=True, soft_wrap=True, emoji=False)  # an error message is never cut by the console's width

ENGINE_HELP = f"the engine: {FORMS}"
EngineOption = Annotated[
    list[str] | None,
    typer.Option("--engine", "-e", metavar="ENGINE", help=f"{ENGINE_HELP} (repeatable; default: reference)"),
]
OneEngine = Annotated[str, typer.Option("--engine", "-e", metavar="ENGINE", help=ENGINE_HELP)]
ProfileToPlay = Annotated[
    str | None, typer.Option(metavar="NAME", help="the engine's profile to play (default: its first)")
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"guinote-conformance {metadata.version('guinote-conformance')} (protocol {PROTOCOL_NAME})")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    pass


class ProgressPlugin:
    """Shows a progress bar while pytest runs the scenarios; keeps what went wrong in collection."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task = progress.add_task("scenarios", total=None)
        self.bad = 0
        self.collection_errors: list[str] = []
        #: how many tests pytest selected (each a scenario run): the results must hold as many
        self.selected: int | None = None
        #: what went wrong at the end of the session (the plugin's notes)
        self.notes: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.selected = len(session.items)
        self.progress.update(self.task, total=len(session.items))

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.selected = len(ids)
        self.progress.update(self.task, total=len(ids))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        plugin = session.config.pluginmanager.get_plugin("guinote-conformance")
        self.notes = list(getattr(getattr(plugin, "tally", None), "notes", []))

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            # the exception lines ("E   ...") without the traceback
            lines = [line[1:].strip() for line in report.longreprtext.splitlines() if line.startswith("E ")]
            self.collection_errors.append("\n".join(lines) or report.longreprtext.strip().splitlines()[-1])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if report.failed:
                self.bad += 1
            self.progress.update(self.task, advance=1, description=f"scenarios ({self.bad} problems)")


@contextmanager
def _checked() -> Iterator[None]:
    """Turn the known failures of a command into ``error: ...`` and their exit code."""
    try:
        yield
    except CheckError as error:  # may quote the engine (its message, its stderr)
        errors.print(f"[red]error:[/red] {markup(error)}")
        raise typer.Exit(int(error.exit_code)) from None
    except (FeatureError, RuleIndexError) as error:
        errors.print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(int(ExitCode.USAGE)) from None


def _scenarios() -> list[Scenario]:
    """The suite's scenarios; a feature file that does not parse is an input error naming file:line."""
    try:
        return load_scenarios()
    except (FeatureError, RuleIndexError) as error:
        raise InputError(str(error)) from None


def _report_dir(
    path: Path, rendering: Path | None = None, *, announce: bool = True, option: str = "--report-dir"
) -> Path:
    """The report folder, created, writable and held until the command ends (else an input
    error: :mod:`conformance.report.folder`); says which earlier reports it replaces, unless
    they are those of ``rendering``, the results file ``report`` renders again (or, without
    ``announce``, a command that writes other files than a run's)."""
    folder = report_folder.claim(path, option)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(folder.release)  # else (no command) the lock lasts as long as the process
    same = rendering is not None and rendering.resolve() == folder.path / "results.json"
    if announce and folder.earlier is not None and not same:
        console.print(f"{option} {folder.path}: replacing {folder.earlier}", markup=False, highlight=False)
    return folder.path


def _open_info(spec: EngineSpec, timeout: float = 10.0) -> tuple[EngineInfo, list[str]]:
    """Start the engine, read its handshake, close it: fail fast with the engine's own message.
    The info as the suite sees it, and what it filled in for it (:mod:`adapters.versions`)."""
    engine = spec.open(timeout=timeout)
    try:
        return engine.info(), compatibility_of(engine).notes
    except EngineError as error:
        raise EngineUnavailable(f"engine {spec} could not be started or spoken to:\n{error}") from None
    except Exception as error:  # an in-process engine's own failure
        raise EngineUnavailable(f"engine {spec} failed in info(): {type(error).__name__}: {error}") from None
    finally:
        engine.close()


RUN_EXAMPLES = _examples(
    "guinote-conformance run --engine reference",
    'guinote-conformance run --engine "cmd:node my_engine.js" --profile lascuarenta+mano_a_mano',
    "guinote-conformance run --engine py:my_pkg.adapter:make --rule CANTE-05 --area cantes",
    'guinote-conformance run -e "cmd:./my-engine" --scenario features/deck.feature:12 --expectations known.toml',
)


@app.command(epilog=RUN_EXAMPLES + "\n\n" + _exit_codes())
def run(
    engine: EngineOption = None,
    profile: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME[+OVERLAY]", help="only these profiles, an overlay added with + (repeatable)"),
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(metavar="FILE:LINE|GLOB", help="only the scenario at FILE:LINE or matching a name glob"),
    ] = None,
    rule: Annotated[
        list[str] | None, typer.Option(metavar="RULE-ID", help="only the scenarios of this rule (repeatable)")
    ] = None,
    area: Annotated[
        list[str] | None, typer.Option(metavar="AREA", help="only the scenarios of this rule area (repeatable)")
    ] = None,
    expectations: Annotated[
        Path | None, typer.Option(metavar="FILE.toml", help="TOML file of the engine's known failures")
    ] = None,
    report_dir: Annotated[
        Path, typer.Option(metavar="DIR", help="where results.json, junit.xml and index.html go")
    ] = Path("reports"),
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="N", help="parallel workers (pytest-xdist); 1 = serial")
    ] = 2,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = 10.0,
    position_setup: Annotated[
        str,
        typer.Option(
            metavar="MODE",
            help="mid-hand positions: load (needs the 'positions' capability), realise (deal and play to them) "
            "or auto (load when the engine can)",
        ),
    ] = "auto",
    trace: Annotated[
        bool, typer.Option("--trace", help="keep every scenario's whole transcript and print the failures' in full")
    ] = False,
    max_engine_failures: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="after N runs in a row ending in a timeout or a crash of the engine process, report the engine's "
            "other scenarios as not run (0: never; with --jobs, each worker counts its own engine process)",
        ),
    ] = 5,
    budget: Annotated[
        float | None,
        typer.Option(metavar="SECONDS", help="wall time for the scenarios: past it, those not started are not run"),
    ] = None,
) -> None:
    """Run the scenarios against the engine(s) under each of their profiles; write the reports."""
    with _checked():
        timeout = options.seconds(timeout, "--timeout")
        budget = options.seconds(budget, "--budget") if budget is not None else None
        max_engine_failures = options.count(max_engine_failures, "--max-engine-failures")
        if position_setup not in POSITION_SETUPS:
            raise InputError(f"--position-setup is one of {', '.join(POSITION_SETUPS)}, not {position_setup!r}")
        specs = [parse_engine_spec(text) for text in engine or ["reference"]]
        selection = Selection(tuple(scenario or ()), tuple(rule or ()), tuple(area or ()))
        catalogue = _scenarios()
        selection.check(catalogue)
        entries = known.check_coverage(known.load_expectations(expectations), catalogue) if expectations else []
        report_dir = _report_dir(report_dir)
        labels: list[str] = []
        summary: list[str] = []
        chosen = [s for s in catalogue if selection.selected(s)] if selection else catalogue
        for spec in specs:  # fail fast, with the engine's own error, before any scenario runs
            info, notes = _open_info(spec, timeout)
            cases = [(label, profile_flags(info, label)) for label in profile or info.profiles]
            labels += [label for label, _ in cases]
            summary += compatibility_lines(str(spec), info, notes, forecast(info, cases, chosen, overlays()))
        known.check_profiles(entries, labels)
    for line in summary:  # the engine's own names are in it: never markup
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
    extra = ["--position-setup", position_setup, "--max-engine-failures", str(max_engine_failures)]
    extra += (["--guinote-trace"] if trace else []) + (["--budget", repr(budget)] if budget is not None else [])
    code, progress, results_path = _pytest(specs, profile, selection, expectations, report_dir, jobs, timeout, extra)
    for note in progress.notes:
        errors.print(f"[red]error:[/red] {markup(note)}", highlight=False)
    if not results_path.exists():
        for message in progress.collection_errors:
            errors.print(f"[red]error:[/red] {markup(message)}", highlight=False)
        if not progress.collection_errors:
            errors.print(f"[red]error:[/red] no scenario ran ({_pytest_said(code)})")
        # a harness that broke is not the user's mistake; anything else that ran nothing is (a bad input)
        raise typer.Exit(int(ExitCode.RULE_FAILURES if code == pytest.ExitCode.INTERNAL_ERROR else ExitCode.USAGE))
    data = Report.load(results_path)
    html = write_html(data, report_dir)
    junit = write_junit(data, report_dir / "junit.xml")
    print_summary(data, trace=trace)
    stale = known.stale(entries, [result.to_json() for result in data.results])
    for entry in stale:
        console.print(f"[red]stale expectation[/red] {escape(entry.where)}: {escape(stale_message(entry))}")
    console.print(f"reports: {results_path}  {junit}  {html}", markup=False)
    mismatches = _mismatches(code, progress, data, bool(stale))
    for line in mismatches:
        errors.print(f"[red]error:[/red] {markup(line)}", highlight=False)
    passed = data.ok and not stale and not mismatches and not progress.notes
    raise typer.Exit(int(ExitCode.OK if passed else ExitCode.RULE_FAILURES))


def _pytest_said(code: int) -> str:
    try:
        name = pytest.ExitCode(code).name.lower().replace("_", " ")
    except ValueError:
        name = "unknown"
    return f"pytest exit status {code}: {name}"


def _mismatches(code: int, progress: ProgressPlugin, data: Report, stale: bool) -> list[str]:
    """Where pytest's own account of the session and the results disagree, or the session did not complete.

    Each is a problem of the run (exit 1): the results are the reports' only source, so a run pytest
    saw fail, or a test it selected that the results lack, must never look like a pass."""
    lines = []
    if code in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR):
        lines.append(f"the run did not complete ({_pytest_said(code)}); the runs it did not play are reported "
                     "as not run")  # fmt: skip
    elif code == pytest.ExitCode.TESTS_FAILED and data.ok and not stale:
        lines.append(f"pytest saw failures that the results do not record ({_pytest_said(code)})")
    elif code == pytest.ExitCode.OK and not data.ok:
        lines.append(f"the results record problems that pytest did not see ({_pytest_said(code)})")
    elif code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        lines.append(f"the session ended unexpectedly ({_pytest_said(code)})")
    if progress.selected is not None and progress.selected != len(data.results):
        lines.append(f"pytest selected {progress.selected} scenario runs, the results hold {len(data.results)}")
    return lines


def _pytest(
    specs: list[EngineSpec],
    profile: list[str] | None,
    selection: Selection,
    expectations: Path | None,
    report_dir: Path,
    jobs: int,
    timeout: float,
    extra: list[str] | None = None,
) -> tuple[int, ProgressPlugin, Path]:
    """Run the packaged scenarios (:mod:`conformance.suite`) with the plugin, outside any user config."""
    results_path = report_dir / "results.json"
    results_path.unlink(missing_ok=True)
    args = [
        str(resources.files("conformance") / "suite.py"),  # not imported here: it collects tests
        "-c", os.devnull,  # no pytest configuration of the working directory applies
        "--rootdir", str(Path.cwd()),
        "-p", "conformance.plugin",
        "-p", "no:cacheprovider",
        "-p", "no:terminal",
        "--guinote-results", str(results_path),
        "--engine-timeout", str(timeout),
        *(extra or []),
    ]  # fmt: skip
    for spec in specs:
        args += ["--engine", spec.text]
    for name in profile or []:
        args.append(f"--profile={name}")  # a name may start with "-": never read as an option of its own
    for kind, values in (("scenario", selection.scenarios), ("rule", selection.rules), ("area", selection.areas)):
        for value in values:
            args += [f"--{kind}", value]
    if expectations:
        args += ["--expectations", str(expectations.resolve())]
    if jobs > 1:
        args += ["-n", str(jobs)]
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        plugin = ProgressPlugin(progress)
        code = pytest.main(list(args), plugins=[plugin])
    return int(code), plugin, results_path


def print_summary(data: Report, *, trace: bool = False) -> None:
    table = Table(title="Results by rule area")
    columns = data.columns()
    table.add_column("area")
    for column in columns:  # profile names the engine chose
        table.add_column(markup(column))
    for area, row in data.by_area().items():
        table.add_row(area, *[row[c].label if c in row else "" for c in columns])
    console.print(table)
    console.print(legend(), markup=False, highlight=False)
    # the engine's own text is in these lines: never as markup, its control characters shown
    for line in summary_lines(data, trace=trace):
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)


def _location(scenario: Scenario) -> str:
    """``features/<file>:<line>``, the same in a clone and in an installed package."""
    return f"features/{scenario.path.relative_to(default_root()).as_posix()}:{scenario.line}"


@app.command(epilog=_examples("guinote-conformance rules", "guinote-conformance rules --json > rules.json"))
def rules(
    as_json: Annotated[bool, typer.Option("--json", help="print the machine-readable rule index")] = False,
) -> None:
    """List every rule with its sources, agreement, flag and the scenarios that cover it."""
    with _checked():
        covered = scenarios_by_rule(_scenarios())
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


@app.command(
    epilog=_examples("guinote-conformance profiles", 'guinote-conformance profiles --engine "cmd:./my-engine"')
)
def profiles(engine: OneEngine = "reference") -> None:
    """List the engine's rule profiles with their flag values, and the overlays that combine with them."""
    with _checked():
        info, _ = _open_info(parse_engine_spec(engine))
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


@app.command(epilog=_examples("guinote-conformance flags"))
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


HARNESS_EPILOG = "Problems found: exit 1; the engine cannot be started: exit 3; a wrong --engine: exit 2."


@app.command(
    epilog=_examples(
        'guinote-conformance validate --engine "cmd:./my-engine --some-option"',
        "guinote-conformance validate --engine serve:py:my_pkg.adapter:make",
    )
    + "\n\n"
    + HARNESS_EPILOG
)
def validate(
    engine: OneEngine,
    profile: Annotated[
        str | None, typer.Option(metavar="NAME", help="the profile to play (default: the first)")
    ] = None,
    timeout: Annotated[float, typer.Option(metavar="SECONDS", help="seconds per request")] = 5.0,
) -> None:
    """Check that an engine speaks the protocol correctly: every message against its schema.

    An in-process engine (reference, py:...) is checked over the protocol, served by adapters.serve.
    """
    _harness("validate", engine, profile, timeout)


@app.command(
    epilog=_examples('guinote-conformance smoke --engine "cmd:./my-engine"', "guinote-conformance smoke -e reference")
    + "\n\n"
    + HARNESS_EPILOG
)
def smoke(
    engine: OneEngine,
    profile: Annotated[
        str | None, typer.Option(metavar="NAME", help="the profile to play (default: the first)")
    ] = None,
    timeout: Annotated[float, typer.Option(metavar="SECONDS", help="seconds per request")] = 5.0,
) -> None:
    """Play one complete hand with legal actions only, to tell a broken harness from a broken rule."""
    _harness("smoke", engine, profile, timeout)


def _harness(mode: str, text: str, profile: str | None, timeout: float) -> None:
    from adapters import harness_check

    with _checked():
        timeout = options.seconds(timeout, "--timeout")
        argv = parse_engine_spec(text).protocol_argv()
    check: Callable[..., list[harness_check.Finding]] = getattr(harness_check, mode)
    findings = check(argv, profile=profile, timeout=timeout)
    for finding in findings:
        console.print(
            "ok     " if finding.ok else "PROBLEM", shown(finding), markup=False, highlight=False, soft_wrap=True
        )
    if any(finding.unreachable for finding in findings):
        raise typer.Exit(int(ExitCode.ENGINE_UNAVAILABLE))
    raise typer.Exit(int(ExitCode.RULE_FAILURES if harness_check.has_errors(findings) else ExitCode.OK))


@app.command(epilog=_examples("guinote-conformance export > cases.json", "guinote-conformance export --out cases.json"))
def export(
    out: Annotated[Path | None, typer.Option(metavar="FILE", help="write to this file instead of stdout")] = None,
) -> None:
    """Export every scenario as plain JSON data (rules, sources, flags, steps with their tables)."""
    with _checked():
        catalogue = _scenarios()
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
            "steps": [
                {"keyword": st.keyword, "text": st.text, "line": st.line, "table": [list(r) for r in st.table]}
                for st in s.steps
            ],
        }
        for s in catalogue
    ]
    text = json.dumps({"format": "guinote-conformance-cases/1", "cases": cases}, indent=1, ensure_ascii=False)
    if out:
        with _checked():
            try:
                out.write_text(text + "\n", encoding="utf-8")
            except OSError as error:
                raise InputError(f"--out {out}: cannot write ({error.strerror or error})") from None
        console.print(f"wrote {len(cases)} scenarios to {out}", highlight=False)
    else:
        typer.echo(text)


@app.command(
    epilog=_examples(
        "guinote-conformance realise",
        "guinote-conformance realise --scenario features/cantes.feature:42 --seconds 60",
    )
)
def realise(
    scenario: Annotated[
        list[str] | None,
        typer.Option(metavar="FILE:LINE|GLOB", help="only the scenario at FILE:LINE or matching a name glob"),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="N", help="parallel workers (pytest-xdist); 1 = serial")
    ] = 2,
    seconds: Annotated[
        float, typer.Option(metavar="SECONDS", help="search time allowed per position and profile")
    ] = 20.0,
) -> None:
    """Regenerate features/realisations/: for every scenario that starts from a mid-hand position, a deal
    and the legal plays that reach it on the reference engine, under every profile.

    Stored realisations that still reach their position are kept; the others are searched again.
    Example: guinote-conformance realise --scenario features/cantes.feature:42
    """
    import tempfile

    with tempfile.TemporaryDirectory(prefix="guinote-realise-") as folder:
        args = [
            str(resources.files("conformance") / "suite.py"),  # the packaged scenarios
            "-c", os.devnull,
            "--rootdir", str(Path.cwd()),
            "-p", "conformance.plugin",
            "-p", "no:cacheprovider",
            "-q",
            "--engine", "reference",
            "--position-setup", "realise",
            "--guinote-realise-record", folder,
        ]  # fmt: skip
        for wanted in scenario or []:
            args += ["--scenario", wanted]
        if jobs > 1:
            args += ["-n", str(jobs)]
        os.environ["GUINOTE_REALISE_SECONDS"] = str(seconds)
        pytest.main(args)
        runs = realisations.read_runs(Path(folder))
    if not runs:
        errors.print("[red]error:[/red] no scenario starting from a position was run")
        raise typer.Exit(int(ExitCode.USAGE))
    outcome = realisations.merge(runs, replace=not scenario)
    console.print(
        f"{outcome.realised} of {outcome.scenarios} positions realised "
        f"({len(runs)} runs; search time {outcome.search_seconds} s); files: "
        + ", ".join(str(path) for path in outcome.written),
        markup=False,
    )
    for where, left in outcome.partial:
        console.print(f"[yellow]partly realised[/yellow] {where}: not under {', '.join(left)}")
    for where, why in outcome.unrealised:
        console.print(f"[red]positions only[/red] {where}: {why}")
    raise typer.Exit(int(ExitCode.RULE_FAILURES if outcome.unrealised or outcome.partial else ExitCode.OK))


@app.command(
    epilog=_examples(
        'guinote-conformance compare --engine "cmd:./my-engine" --profile mine --hands 500',
        "guinote-conformance compare -e serve:reference --hands 3 --depth hand",
    )
)
def compare(
    engine: Annotated[
        str, typer.Option("--engine", "-e", metavar="ENGINE", help="the engine to compare with the reference")
    ],
    profile: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME[+OVERLAY]",
            help="profile[+overlay...] (repeatable); default: every profile, overlay and flag value",
        ),
    ] = None,
    flags: Annotated[
        str,
        typer.Option(metavar="FLAG=VALUE,...", help="flag values over the profile(s), e.g. tute=wins_point,deck=48"),
    ] = "",
    hands: Annotated[int, typer.Option(metavar="N", help="games per configuration")] = 30,
    seconds: Annotated[
        float | None,
        typer.Option(metavar="SECONDS", help="stop after this many seconds (configurations take turns, a game each)"),
    ] = None,
    depth: Annotated[
        str,
        typer.Option(
            metavar="hand|point|match", help="a game is one hand, one point (with its hands de vueltas) or a match"
        ),
    ] = "match",
    seed: Annotated[int, typer.Option(metavar="N", help="seed of the run (the same seed plays the same games)")] = 0,
    known: Annotated[
        Path | None, typer.Option(metavar="FILE.toml", help="TOML file of known divergences to silence")
    ] = None,
    report_dir: Annotated[
        Path, typer.Option(metavar="DIR", help="where fuzz.json, the records and the scenarios go")
    ] = Path("reports"),
    steer: Annotated[bool, typer.Option(help="steer deals and play toward rules not seen yet")] = True,
    scenarios: Annotated[bool, typer.Option(help="write each divergence as a Gherkin scenario and check it")] = True,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = 10.0,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", metavar="N", min=0, help="worker processes sharing the games (0: one per core)"),
    ] = 1,
    max_engine_failures: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="after N games in a row ending in a timeout or a crash of the engine process, stop fuzzing "
            "(0: never; with --jobs, each worker counts its own engine process)",
        ),
    ] = 5,
) -> None:
    """Fuzz the engine against the reference: group the divergences, shrink them, write scenarios."""
    from adapters.reference import ReferenceEngine
    from conformance.fuzz.commands import run_compare
    from conformance.fuzz.parallel import default_jobs

    with _checked():  # two compares into one folder would overwrite each other's records
        seconds = options.seconds(seconds, "--seconds") if seconds is not None else None
        max_engine_failures = options.count(max_engine_failures, "--max-engine-failures")
        report_dir = _report_dir(report_dir, announce=False)

    def play(under_test: Engine) -> int:
        return run_compare(
            console, ReferenceEngine(), under_test, engine, profiles=profile or [], flags=flags, games=hands,
            seconds=seconds, depth=depth, seed=seed, known_file=known, report_dir=report_dir, steer=steer,
            scenarios=scenarios, check=scenarios, jobs=jobs or default_jobs(), timeout=timeout,
            max_engine_failures=max_engine_failures,
        )  # fmt: skip

    raise typer.Exit(_against_reference(engine, timeout, play))


@app.command(epilog=_examples('guinote-conformance replay reports/divergence-1.json --engine "cmd:./my-engine"'))
def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD", show_default=False, hidden=True)],  # in the docstring
    engine: Annotated[
        str, typer.Option("--engine", "-e", metavar="ENGINE", help="the engine to replay it on")
    ] = "reference",
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = 10.0,
) -> None:
    """Replay RECORD, a divergence record written by compare, step by step on the engine and the reference;
    show the table where they part."""
    from adapters.reference import ReferenceEngine
    from conformance.fuzz.commands import run_replay

    raise typer.Exit(_against_reference(engine, timeout, lambda under_test: run_replay(
        console, ReferenceEngine(), under_test, record
    )))  # fmt: skip


def _against_reference(engine: str, timeout: float, play: Callable[[Engine], int]) -> int:
    """Open the engine (failing fast with its own message), ``play`` it against the reference, close it.

    A mistake in the command's input exits 2; an engine that fails while it is played exits 3.
    An in-process engine's own exceptions are failures of that engine (:class:`adapters.checked.EngineRaised`)."""
    from conformance.fuzz.commands import UsageProblem

    with _checked():
        timeout = options.seconds(timeout, "--timeout")
        spec = parse_engine_spec(engine)
        _open_info(spec, timeout)
        under_test = spec.open(timeout=timeout, contained=True)
    try:
        return play(under_test)
    except UsageProblem as problem:
        console.print(f"[red]error:[/red] {markup(problem)}", soft_wrap=True)  # a long path must not cut it
        raise typer.Exit(int(ExitCode.USAGE)) from None
    except EngineError as failure:
        console.print(f"[red]error:[/red] engine {escape(engine)!r} failed: {markup(failure)}", soft_wrap=True)
        raise typer.Exit(int(ExitCode.ENGINE_UNAVAILABLE)) from None
    finally:
        try:
            under_test.close()
        except EngineError as failure:  # what was found stands: the exit status is the run's
            console.print(f"engine {escape(engine)!r} failed to close: {markup(failure)}", soft_wrap=True)


@app.command(epilog=_examples("guinote-conformance report reports/results.json --out site/"))
def report(
    results: Annotated[
        Path, typer.Argument(metavar="RESULTS_JSON", show_default=False, hidden=True)
    ],  # in the docstring
    out: Annotated[Path, typer.Option(metavar="DIR", help="folder for index.html and junit.xml")] = Path("reports"),
) -> None:
    """Build the HTML report and the JUnit file from RESULTS_JSON, a results.json written by run."""
    with _checked():
        try:
            data = Report.load(results)
        except ResultsError as error:
            raise InputError(str(error)) from None
        folder = _report_dir(out, rendering=results, option="--out")
    html = write_html(data, folder)
    junit = write_junit(data, folder / "junit.xml")
    print_summary(data)
    console.print(f"wrote {html}  {junit}", markup=False)


@app.command(
    epilog=_examples(
        "guinote-conformance expectations reports/results.json --out known.toml",
        'guinote-conformance run --engine "cmd:./my-engine" --expectations known.toml   # the gate',
    )
)
def expectations(
    results: Annotated[
        Path, typer.Argument(metavar="RESULTS_JSON", show_default=False, hidden=True)
    ],  # in the docstring
    out: Annotated[Path | None, typer.Option(metavar="FILE.toml", help="write to this file instead of stdout")] = None,
    engine: Annotated[
        str | None, typer.Option("--engine", "-e", metavar="ENGINE", help="the engine's spec, if the run had several")
    ] = None,
) -> None:
    """Write an expectations file from RESULTS_JSON: each failing run of the engine as a known failure.

    Pass it to run with --expectations: the run then fails only on a new failure, and on a known one
    that now passes (its entry must go), so a CI gate stays honest while the engine catches up."""
    with _checked():
        try:
            data = Report.load(results)
        except ResultsError as error:
            raise InputError(str(error)) from None
        specs = [entry.spec for entry in data.engines]
        if engine is None and len(specs) != 1:
            choices = ", ".join(specs)
            raise InputError(f"{results}: the run had {len(specs)} engines; choose one with --engine: {choices}")
        chosen = engine if engine is not None else specs[0]
        if chosen not in specs:
            raise InputError(f"{results}: no engine {chosen!r} in this run; it has {', '.join(specs)}")
        source = f"{results.name} of {data.started or 'an unknown date'}"
        text, count = known.record((result.to_json() for result in data.results), engine=chosen, source=source)
        if out is None:
            sys.stdout.write(text)
        else:
            try:
                out.write_text(text, encoding="utf-8")
            except OSError as error:
                raise InputError(f"{out}: cannot write the expectations file: {error.strerror}") from None
    (errors if out is None else console).print(
        f"{count} known failure{'s' if count != 1 else ''} of {shown(chosen)}" + (f" written to {out}" if out else ""),
        markup=False,
        highlight=False,
    )


# new-flag, new-value, new-custom: scaffolding for a regional variant (conformance.catalogue.scaffold)
register_scaffold(app)
register_site(app)  # badge and site: the pages and badges of results files (conformance.report.site)


def main() -> None:
    app()
