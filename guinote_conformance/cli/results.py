"""``run``, ``report`` and ``expectations``: the scenarios run against engines, and the results files.

``run`` checks its options and the engines (each engine's handshake read first: it fails fast with
the engine's own message), runs the packaged scenarios with the pytest plugin (:mod:`guinote_conformance.suite`,
:mod:`guinote_conformance.plugin`) behind a progress bar, and writes the reports from the results file;
``report`` writes them again from a results file; ``expectations`` writes an expectations file
from one. A run reads like pytest's: ``-x`` / ``--maxfail N`` stop it at its first or N-th
failing scenario run (the runs not played are *not run*, and the summary says the run stopped
early), ``-q`` / ``-v`` print fewer or more lines, and ``--lf`` plays only the runs that failed in
the last run written to the same ``--report-dir``.

In: the commands' options. Out: the reports (:mod:`guinote_conformance.report.formats`), the summary in
the terminal, and the exit code: a run passes when its results, pytest's own account of the
session and the expectations file agree that nothing failed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Annotated

import pytest
import typer
from rich.markup import escape
from rich.table import Table

from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base import options
from guinote_conformance.base.exit_codes import ExitCode, InputError
from guinote_conformance.base.untrusted import markup, shown
from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.cli.common import (
    EngineOption,
    StartTimeout,
    checked,
    claim_report_dir,
    console,
    errors,
    examples,
    exit_codes,
    open_info,
    read_scenarios,
)
from guinote_conformance.cli.progress import ProgressPlugin, progress
from guinote_conformance.engines.profile_file import read_profile_file
from guinote_conformance.engines.specs import EngineSpec, checked_flag_piece, overlays, parse_engine_spec, profile_flags
from guinote_conformance.engines.symmetry import SYMMETRIES_ENV, check_mode, symmetries_line
from guinote_conformance.report.formats import cause_section, closing_lines, failure_section, write_html, write_junit
from guinote_conformance.results.report import Report, ResultsError
from guinote_conformance.results.status import Status, legend
from guinote_conformance.run import expectations as known
from guinote_conformance.run.applicability import compatibility_lines, forecast
from guinote_conformance.run.expectations import scenario_id
from guinote_conformance.run.language import LANGUAGES, features_root
from guinote_conformance.run.scenario_setup import POSITION_SETUPS
from guinote_conformance.run.selection import FAILED, RunKey, Selection, failed_runs, own_scenarios
from guinote_conformance.run.tally import stale_message

RUN_EXAMPLES = examples(
    "guinote-conformance run --engine reference",
    'guinote-conformance run --engine "cmd:node my_engine.js" --profile lascuarenta+mano_a_mano',
    "guinote-conformance run --engine py:my_pkg.adapter:make --rule CANTE-05 --area cantes",
    'guinote-conformance run -e "cmd:./my-engine" --scenario features/deck.feature:12 --expectations known.toml',
    "guinote-conformance run --engine reference --language es   # the Spanish scenarios",
    "guinote-conformance run --engine reference --profile ludoteka --flag cante_per_trick=many   # a value over it",
    'guinote-conformance run --engine "cmd:./my-engine" --profile-file our_club.toml   # a club\'s own rules',
    "guinote-conformance run --engine reference --area arrastre --symmetries all   # seats rotated, suits relabelled",
    'guinote-conformance run -e "cmd:./my-engine" --features reports/divergences.feature   # your own scenarios',
    'guinote-conformance run -e "cmd:./my-engine" -x -q   # stop at the first failure; then --lf: only the failures',
)


#: The seconds an engine may take to answer one request, unless ``--timeout`` says otherwise.
DEFAULT_TIMEOUT = 10.0

RUN_EPILOG = RUN_EXAMPLES + "\n\n" + exit_codes()


def run(
    engine: EngineOption = None,
    profile: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME[+OVERLAY]", help="only these profiles, an overlay added with + (repeatable)"),
    ] = None,
    profile_file: Annotated[
        list[Path] | None,
        typer.Option(
            metavar="FILE.toml",
            help="a club's own rules: an engine profile (base) with the flag values the file chooses over it "
            "(repeatable; the guide's 'Your club's rules' shows the file)",
        ),
    ] = None,
    flag: Annotated[
        list[str] | None,
        typer.Option(
            "--flag",
            metavar="NAME=VALUE",
            help="play this flag value over each profile run (repeatable; the values the suite declares: "
            "guinote-conformance flags); a scenario tagged with another value is not applicable",
        ),
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
        int,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            envvar="GUINOTE_JOBS",
            help="parallel workers (pytest-xdist); 1 = serial",
        ),
    ] = 2,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = DEFAULT_TIMEOUT,
    start_timeout: StartTimeout = STARTUP_TIMEOUT,
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
    language: Annotated[
        str,
        typer.Option(
            metavar="LANG",
            help="en: the feature files as written; es: the Spanish ones generated from them (the same scenarios "
            "on the same lines: the same results, the failures' steps in Spanish)",
        ),
    ] = "en",
    symmetries: Annotated[
        str,
        typer.Option(
            metavar="MODE",
            envvar=SYMMETRIES_ENV,
            help="the symmetries of the game (seats rotated, suits relabelled) each scenario also runs under: sample "
            "(one more run per scenario, drawn from a hash of its ID), all (every one, under every profile), none, "
            "or names such as r1+ocbe",
        ),
    ] = "sample",
    exitfirst: Annotated[
        bool, typer.Option("--exitfirst", "-x", help="stop at the first failing scenario run (--maxfail 1)")
    ] = False,
    maxfail: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="stop after N failing scenario runs: the runs not played are reported as not run (0: never)",
        ),
    ] = 0,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="fewer lines: no table by area, no count of the checks not made"),
    ] = False,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            show_default=False,
            help="more lines: one per scenario run as it ends, every not-applicable reason, every failure in full "
            "(-vv: each with its steps, the failing one marked)",
        ),
    ] = 0,
    last_failed: Annotated[
        bool,
        typer.Option(
            "--lf",
            "--last-failed",
            help="run only the scenario runs that failed in the last run written to --report-dir (its results.json)",
        ),
    ] = False,
    features: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR|FILE",
            help="run your own .feature files instead of the suite's (a folder of them, or one), written in the "
            "suite's steps: e.g. the divergences.feature that compare writes",
        ),
    ] = None,
) -> None:
    """Run the scenarios against the engine(s) under each of their profiles; write the reports."""
    with checked():
        timeout = options.seconds(timeout, "--timeout")
        start_timeout = options.seconds(start_timeout, "--start-timeout")
        jobs = options.positive(jobs, "--jobs")
        maxfail = 1 if exitfirst else options.count(maxfail, "--maxfail")
        if quiet and verbose:
            raise InputError("-q and -v: choose one (fewer lines or more)")
        budget = options.seconds(budget, "--budget") if budget is not None else None
        max_engine_failures = options.count(max_engine_failures, "--max-engine-failures")
        if position_setup not in POSITION_SETUPS:
            raise InputError(f"--position-setup is one of {', '.join(POSITION_SETUPS)}, not {position_setup!r}")
        symmetries = check_mode(symmetries)
        if language not in LANGUAGES:
            raise InputError(f"--language is one of {', '.join(LANGUAGES)}, not {language!r}")
        try:
            features_root(language)  # the Spanish files generated now: a phrasing or a title missing is said here
        except pytest.UsageError as error:
            raise InputError(str(error)) from None
        specs = [parse_engine_spec(text) for text in engine or ["reference"]]
        clubs = [read_profile_file(path) for path in profile_file or []]
        for piece in flag or []:
            checked_flag_piece(piece)  # (a flag or value the suite does not declare: said before any run)
        chosen_flags = "".join(f"+{piece}" for piece in flag or [])
        if chosen_flags and not profile and not clubs and len(specs) > 1:
            raise InputError("--flag with several engines: name the profiles it goes over with --profile")
        if chosen_flags and profile:
            profile = [label + chosen_flags for label in profile]
        selection = Selection(tuple(scenario or ()), tuple(rule or ()), tuple(area or ()))
        if features is not None and language != "en":
            raise InputError(f"--features {features}: your files run as written; --language es translates only the "
                             "suite's own scenarios")  # fmt: skip
        catalogue = own_scenarios(features) if features is not None else read_scenarios()
        selection.check(catalogue, own=features)
        entries = known.check_coverage(known.load_expectations(expectations), catalogue) if expectations else []
        failed_before = _last_failed(report_dir) if last_failed else None
        asked_dir, report_dir = report_dir, claim_report_dir(report_dir)
        labels: list[str] = []
        summary: list[str] = []
        chosen = [s for s in catalogue if selection.selected(s)] if selection else catalogue
        for spec in specs:  # fail fast, with the engine's own error, before any scenario runs
            info, notes = open_info(spec, timeout, start_timeout)
            if clubs and spec is specs[0]:  # a club's rules are profiles of the run, naming what they
                own = info.profiles if len(specs) == 1 else {}  # change of the one engine's base (or all)
                played = [club.label(own.get(club.base)) + chosen_flags for club in clubs]
                summary += [f"--profile-file {c.path} ({c.name}): plays {as_label}"
                            for c, as_label in zip(clubs, played, strict=True)]  # fmt: skip
                profile = [*(profile or []), *played]
            if chosen_flags and not profile:  # (over every profile of the one engine)
                profile = [name + chosen_flags for name in info.profiles]
            cases = [(label, profile_flags(info, label)) for label in profile or info.profiles]
            labels += [label for label, _ in cases]
            expected = forecast(info, cases, chosen, overlays())
            summary += compatibility_lines(str(spec), info, notes, expected, reasons=verbose > 0)
        known.check_profiles(entries, labels)
        summary.append(symmetries_line(symmetries))
        if failed_before is not None:
            summary.append(_last_failed_line(report_dir, failed_before, specs, labels, chosen))
    for line in summary:  # the engine's own names are in it: never markup
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
    extra = ["--position-setup", position_setup, "--max-engine-failures", str(max_engine_failures)]
    extra += ["--language", language, "--symmetries", symmetries, "--engine-start-timeout", repr(start_timeout)]
    extra += (["--guinote-trace"] if trace else []) + (["--budget", repr(budget)] if budget is not None else [])
    extra += ["--maxfail", str(maxfail)] if maxfail else []
    extra += ["--guinote-features", str(features.resolve())] if features is not None else []
    with tempfile.TemporaryDirectory(prefix="guinote-lf-") as folder:
        if failed_before:  # the run's own results.json is replaced as it runs: the plugin reads a copy
            extra += ["--guinote-last-failed", shutil.copy(report_dir / "results.json", folder)]
        code, progress, results_path = _pytest(
            specs, profile, selection, expectations, report_dir, jobs, timeout, extra, verbose=verbose > 0
        )
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
    verbosity = -1 if quiet else verbose
    print_summary(data, trace=trace, verbosity=verbosity, causes=False)
    stopped = _stopped_early(data, maxfail, exitfirst)
    if stopped:
        console.print(stopped, markup=False, highlight=False)
    stale = known.stale(entries, [result.to_json() for result in data.results])
    for entry in stale:
        console.print(f"[red]stale expectation[/red] {escape(entry.where)}: {escape(stale_message(entry))}")
    console.print(f"reports: {results_path}  {junit}  {html}", markup=False, highlight=False, soft_wrap=True)
    last = cause_section(data)  # the run ends with its likely causes, and how to play its failures again
    failed_labels = list(dict.fromkeys(r.profile for r in data.results if r.status in FAILED))
    if failed_labels:  # (runs not run, or a stale expectation, are no failures --lf would play)
        last.append("re-run the failing scenario runs only: " + _rerun_failures(
            specs, failed_labels, asked_dir, features, language, symmetries, start_timeout, timeout
        ))  # fmt: skip
    for line in last:
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
    mismatches = _mismatches(code, progress, data, bool(stale), stopped=bool(stopped))
    for line in mismatches:
        errors.print(f"[red]error:[/red] {markup(line)}", highlight=False)
    passed = data.ok and not stale and not mismatches and not progress.notes
    raise typer.Exit(int(ExitCode.OK if passed else ExitCode.RULE_FAILURES))


def _rerun_failures(
    specs: list[EngineSpec],
    labels: list[str],
    report_dir: Path,
    features: Path | None,
    language: str,
    symmetries: str,
    start_timeout: float,
    timeout: float,
) -> str:
    """The command that plays again only the runs that failed (``--lf``), under their profiles (of
    one engine: a --profile applies to every engine, whose profiles may have other names)."""
    words = ["guinote-conformance", "run"]
    for spec in specs:
        words += ["--engine", spec.text]
    for label in labels if len(specs) == 1 else []:  # (a name may start with "-": never an option of its own)
        words += [f"--profile={label}"] if label.startswith("-") else ["--profile", label]
    words += ["--features", str(features)] if features is not None else []
    words += ["--language", language] if language != "en" else []
    words += ["--symmetries", symmetries] if symmetries != "sample" else []
    words += ["--start-timeout", f"{start_timeout:g}"] if start_timeout != STARTUP_TIMEOUT else []
    words += ["--timeout", f"{timeout:g}"] if timeout != DEFAULT_TIMEOUT else []
    return shlex.join([*words, "--lf", "--report-dir", str(report_dir)])


def _pytest_said(code: int) -> str:
    try:
        name = pytest.ExitCode(code).name.lower().replace("_", " ")
    except ValueError:
        name = "unknown"
    return f"pytest exit status {code}: {name}"


def _last_failed(report_dir: Path) -> frozenset[RunKey]:
    """``--lf``: the runs that failed in the last run written to ``report_dir`` (an input error when
    it has no results file, or one that cannot be read)."""
    path = report_dir / "results.json"
    if not path.is_file():
        raise InputError(f"--lf: {path}: no results file: --lf re-runs the failures of the last run written to "
                         "this --report-dir, and none was (run once without --lf)")  # fmt: skip
    return failed_runs(path)


def _last_failed_line(
    report_dir: Path, failed: frozenset[RunKey], specs: list[EngineSpec], labels: list[str], chosen: list[Scenario]
) -> str:
    """What ``--lf`` plays; an input error when none of the runs that failed is among this run's."""
    if not failed:
        return f"--lf: the last run in {report_dir} had no failing scenario run: every selected run is played"
    engines, ids = {spec.text for spec in specs}, {scenario_id(scenario) for scenario in chosen}
    if not any(key in ids and engine in engines and profile in labels for key, engine, profile, _ in failed):
        raise InputError(f"--lf: none of the {len(failed)} scenario runs that failed in the last run in {report_dir} "
                         "is among this run's (its engines, profiles and filters)")  # fmt: skip
    many = f"{len(failed)} scenario run{'' if len(failed) == 1 else 's'}"
    return f"--lf: only the {many} that failed in the last run in {report_dir}"


def _stopped_early(data: Report, maxfail: int, exitfirst: bool) -> str:
    """The closing line of a run that ``-x`` / ``--maxfail`` stopped (else ``""``): the runs it did not
    play are reported as not run, never as passed."""
    failed = sum(1 for result in data.results if result.status in FAILED)
    left = sum(1 for result in data.results if result.status is Status.NOT_RUN)
    if not maxfail or failed < maxfail or not left:
        return ""
    option = "-x" if exitfirst else f"--maxfail {maxfail}"
    return (f"STOPPED EARLY ({option}) after {failed} failing scenario run{'' if failed == 1 else 's'}: "
            f"{left} not run (none of them counted as passed)")  # fmt: skip


def _mismatches(code: int, progress: ProgressPlugin, data: Report, stale: bool, *, stopped: bool = False) -> list[str]:
    """Where pytest's own account of the session and the results disagree, or the session did not complete.

    Each is a problem of the run (exit 1): the results are the reports' only source, so a run pytest
    saw fail, or a test it selected that the results lack, must never look like a pass. A run that
    ``--maxfail`` stopped (``stopped``) is interrupted on purpose: its results say so."""
    lines = []
    if code == pytest.ExitCode.INTERRUPTED and stopped:
        pass
    elif code in (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR):
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
    *,
    verbose: bool = False,
) -> tuple[int, ProgressPlugin, Path]:
    """Run the packaged scenarios (:mod:`guinote_conformance.suite`) with the plugin, outside any user config."""
    results_path = report_dir / "results.json"
    results_path.unlink(missing_ok=True)
    args = [
        str(resources.files("guinote_conformance") / "suite.py"),  # not imported here: it collects tests
        "-c", os.devnull,  # no pytest configuration of the working directory applies
        "--rootdir", str(Path.cwd()),
        "-p", "guinote_conformance.plugin",
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
    with progress(console, verbose=verbose) as plugin:
        code = pytest.main(list(args), plugins=[plugin])
    return int(code), plugin, results_path


def print_summary(data: Report, *, trace: bool = False, verbosity: int = 0, causes: bool = True) -> None:
    """The account of a run, as pytest's reads: the failures by likely cause, the table by rule area
    with its legend (not with ``verbosity`` below 0: ``-q``), the counts and the verdict, and last
    the likely causes (without ``causes``: ``run`` prints them after the reports' paths, to end with
    them). :mod:`guinote_conformance.report.formats` writes the lines."""
    # the engine's own text is in these lines: never as markup, its control characters shown
    lines = failure_section(data, trace=trace, verbosity=verbosity)
    for line in lines:
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
    if verbosity >= 0:
        _area_table(data)
    for line in closing_lines(data, verbosity=verbosity) + (cause_section(data) if causes else []):
        console.print(shown(line), markup=False, highlight=False, soft_wrap=True)


def _area_table(data: Report) -> None:
    table = Table(title="Results by rule area")
    columns = data.columns()
    table.add_column("area")
    for column in columns:  # profile names the engine chose
        table.add_column(markup(column))
    for area, row in data.by_area().items():
        table.add_row(area, *[row[c].label if c in row else "" for c in columns])
    console.print(table)
    console.print(legend(), markup=False, highlight=False)


REPORT_EPILOG = examples("guinote-conformance report reports/results.json --out site/")


def report(
    results: Annotated[
        Path, typer.Argument(metavar="RESULTS_JSON", show_default=False, hidden=True)
    ],  # in the docstring
    out: Annotated[Path, typer.Option(metavar="DIR", help="folder for index.html and junit.xml")] = Path("reports"),
) -> None:
    """Build the HTML report and the JUnit file from RESULTS_JSON, a results.json written by run."""
    with checked():
        try:
            data = Report.load(results)
        except ResultsError as error:
            raise InputError(str(error)) from None
        folder = claim_report_dir(out, rendering=results, option="--out")
    html = write_html(data, folder)
    junit = write_junit(data, folder / "junit.xml")
    print_summary(data)
    console.print(f"wrote {html}  {junit}", markup=False)


EXPECTATIONS_EPILOG = examples(
    "guinote-conformance expectations reports/results.json --out known.toml",
    'guinote-conformance run --engine "cmd:./my-engine" --expectations known.toml   # the gate',
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
    with checked():
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
