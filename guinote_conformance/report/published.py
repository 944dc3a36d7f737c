"""The results shown on the rulebook's results page: never a committed snapshot.

The docs build asks :func:`results_for_docs` for a :class:`~guinote_conformance.results.report.Report`. It is
either a results file CI produced (``$GUINOTE_RESULTS`` or an explicit path), or a run of the
whole suite against the reference engine made right then (cached by the scenarios' digest, so
a rebuild with unchanged scenarios does not run it again). Either way the report must have
been made from the current scenarios: a stale file is an error that fails the build.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from guinote_conformance.base.paths import REPO
from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.results.report import Report, ResultsError, suite_digest

#: Seconds the build-time run may take before the docs build gives up on it.
RUN_TIMEOUT = 1800


class StaleResults(ResultsError):
    """A results file made from other scenarios than the current ones."""


def current_digest(features: Path | None = None) -> str:
    return suite_digest(load_scenarios(features))


def check_current(report: Report, where: str, features: Path | None = None) -> None:
    """Raise :class:`StaleResults` unless ``report`` was made from the current scenarios."""
    digest = current_digest(features)
    if report.suite.scenarios_digest != digest:
        raise StaleResults(
            f"{where}: made from other scenarios than the current ones (its scenarios' digest is "
            f"{report.suite.scenarios_digest or 'missing'} at commit {report.suite.commit}; the current "
            f"scenarios' digest is {digest}): run the suite again, or unset GUINOTE_RESULTS to run it now"
        )


def run_reference(report_dir: Path, jobs: int = 2) -> Path:
    """Run the whole suite against the reference engine; the path of its results.json."""
    report_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "guinote_conformance", "run", "--engine", "reference"]
    command += ["--jobs", str(jobs), "--report-dir", str(report_dir)]
    try:
        done = subprocess.run(
            command,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise ResultsError(f"the suite's run against the reference took over {RUN_TIMEOUT} s") from None
    results = report_dir / "results.json"
    if not results.exists():
        tail = (done.stdout + done.stderr)[-2000:]
        raise ResultsError(f"the suite's run against the reference wrote no results (exit {done.returncode}):\n{tail}")
    return results


def results_for_docs(path: Path | None, cache: Path, features: Path | None = None) -> tuple[Report, Path]:
    """The report for the results page and the file it came from.

    ``path`` is a results file to show (CI's); ``None`` runs the suite now (or reuses the run
    in ``cache`` made from the same scenarios). Raises :class:`ResultsError` for a file that
    cannot be read and :class:`StaleResults` for one made from other scenarios."""
    if path is not None:
        report = Report.load(path)
        check_current(report, str(path), features)
        return report, path
    cached = cache / "results.json"
    if cached.exists():
        try:
            report = Report.load(cached)
            check_current(report, str(cached), features)
            return report, cached
        except ResultsError:
            pass  # made from older scenarios or in an older format: run again
    fresh = run_reference(cache, jobs=int(os.environ.get("GUINOTE_DOCS_JOBS", "2")))
    report = Report.load(fresh)
    check_current(report, str(fresh), features)
    return report, fresh
