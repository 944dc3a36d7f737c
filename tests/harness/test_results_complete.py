"""Every selected scenario run is in the results exactly once, with a status, whatever ends the run.

A worker that dies, a session stopped early, an engine that keeps
hanging (the circuit breaker), a spent budget: each leaves every run in ``results.json`` with a status
and a reason, and the exit status says the run did not pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.results.report import Report
from guinote_conformance.results.status import Status
from tests.harness import fragile_engines
from tests.harness.test_plugin import TRICK, make_suite, run

REPO = Path(__file__).resolve().parents[2]
HANG = f"cmd:{sys.executable} tests/protocol/hostile/hang.py"
PROFILES = 4  # of the reference engine


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args], cwd=REPO, capture_output=True, text=True, timeout=300,
        check=False, env={**os.environ, **(env or {})},
    )  # fmt: skip


def counts(results: list[dict[str, Any]]) -> dict[str, int]:
    found: dict[str, int] = {}
    for result in results:
        found[result["status"]] = found.get(result["status"], 0) + 1
    return found


def once_each(results: list[dict[str, Any]]) -> set[tuple[str, int, str, str]]:
    keys = [(r["feature"], r["line"], r["engine"], r["profile"]) for r in results]
    assert len(keys) == len(set(keys)), "a scenario run is in the results twice"
    return set(keys)


# ------------------------------------------------------------------------------ plain pytest

# a second scenario in the rule, tagged with two values of one flag: the catalogue refuses the file
_SCENARIO = TRICK[TRICK.index("    @DECK-05") :]
TWO = TRICK + "\n" + _SCENARIO.replace("in a tiny suite", "again").replace("@S000", "@S000 @deck=40 @deck=48")


def test_a_feature_the_catalogue_refuses_stops_the_session_at_collection(pytester: pytest.Pytester) -> None:
    """A feature file the catalogue refuses is the suite's input error, not the engine's: the session
    stops at collection (exit 2, as pytest's collection errors) naming the file and the line of the
    clashing tags, and no run is played under any profile (none is reported as passed or failed)."""
    make_suite(pytester, TWO.format(winner=1), name="refused")
    outcome, data = run(pytester)
    assert outcome.ret == pytest.ExitCode.INTERRUPTED
    text = outcome.stdout.str()
    assert "refused.feature:" in text and "flag deck is tagged both 40 and 48" in text, text
    assert not [r for r in data.get("results", []) if r["status"] in ("pass", "fail")]


def test_a_session_stopped_early_reports_the_rest_as_not_run(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=2), name="stopped")
    outcome, data = run(pytester, "-x")
    assert outcome.ret == pytest.ExitCode.TESTS_FAILED
    results = data["results"]
    assert len(once_each(results)) == PROFILES
    assert counts(results) == {"fail": 1, "not_run": PROFILES - 1}
    reasons = {r["message"] for r in results if r["status"] == "not_run"}
    assert reasons == {"the run was stopped early, after 1 failing scenario run (--maxfail 1)"}


def test_collecting_only_is_not_a_run_with_runs_missing(pytester: pytest.Pytester) -> None:
    # pytest --collect-only (and tools built on it, such as mutmut) asks for the list, not for a run
    make_suite(pytester, TRICK.format(winner=1), name="listed")
    results = pytester.path / "results.json"
    outcome = pytester.runpytest(
        "-p", "guinote_conformance.plugin", "--collect-only", "-q", "--guinote-results", str(results)
    )
    assert outcome.ret == pytest.ExitCode.OK
    assert f"{PROFILES} tests collected" in outcome.stdout.str()
    assert "not run" not in outcome.stdout.str()
    assert not results.exists()


def test_past_the_budget_every_run_not_started_is_not_run(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1), name="budget")
    outcome, data = run(pytester, "--budget", "0.001")  # spent before the first scenario
    assert outcome.ret == pytest.ExitCode.TESTS_FAILED
    assert counts(data["results"]) == {"not_run": PROFILES}
    assert {r["message"] for r in data["results"]} == {
        "the run's budget of 0.001 s was spent before it started (--budget)"
    }
    text = outcome.stdout.str()
    assert "4 scenario runs not run: the run's budget of 0.001 s was spent" in text

    make_suite(pytester, TRICK.format(winner=1), name="budget_enough")
    _, data = run(pytester, "--budget", "600")
    assert counts(data["results"]) == {"pass": PROFILES}


@pytest.mark.parametrize("option", ["--engine-timeout", "--budget", "--max-engine-failures"])
@pytest.mark.parametrize("value", ["nan", "-1", "inf"])
def test_a_plugin_option_out_of_range_is_a_usage_error_naming_it(
    pytester: pytest.Pytester, option: str, value: str
) -> None:
    make_suite(pytester, TRICK.format(winner=1), name="options")
    outcome, data = run(pytester, f"{option}={value}")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    assert f"argument {option}: {option} {value}: " in outcome.stderr.str()
    assert not data


def test_a_failure_at_the_end_of_the_session_still_writes_what_ran(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from guinote_conformance.run import tally

    def broken(root: Path) -> str:
        raise OSError("git exploded")

    monkeypatch.setattr(tally, "suite_commit", broken)
    make_suite(pytester, TRICK.format(winner=1), name="late")
    outcome, data = run(pytester)
    assert counts(data["results"]) == {"pass": PROFILES}
    assert "the results' header could not be built (OSError: git exploded)" in outcome.stdout.str()
    assert data["engines"][0]["name"] == "guinote-reference"


def test_the_controller_never_launches_the_engine_itself(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "launches"
    monkeypatch.setenv(fragile_engines.LAUNCH_LOG, str(log))
    monkeypatch.setenv(fragile_engines.LAUNCHES, "2")  # one per worker: a third launch fails
    make_suite(pytester, TRICK.format(winner=1), name="launches")
    # the workers import py: engines from their working directory (xdist gives them the controller's first path)
    pytester.makepyfile(fragile=Path(fragile_engines.__file__).read_text(encoding="utf-8"))
    outcome, data = run(pytester, "-n", "2", "--engine", "py:fragile:launch_counted")
    assert outcome.ret == pytest.ExitCode.OK, outcome.stdout.str()[-2000:]
    assert len(log.read_text(encoding="utf-8").splitlines()) == 2
    assert counts(data["results"]) == {"pass": PROFILES}
    (entry,) = data["engines"]  # as the workers' handshakes read it
    assert entry["name"] == "guinote-reference" and set(entry["profiles"]) >= {"ludoteka", "lascuarenta"}


def test_runs_left_when_too_many_workers_crashed_are_not_run_with_the_reason(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(fragile_engines.CRASH_MARKER, str(tmp_path / "crashed"))
    make_suite(pytester, TRICK.format(winner=1), name="crashes")
    pytester.makepyfile(fragile=Path(fragile_engines.__file__).read_text(encoding="utf-8"))
    outcome, data = run(pytester, "-n", "2", "--max-worker-restart", "0", "--engine", "py:fragile:crash_once")
    assert outcome.ret != pytest.ExitCode.OK
    results = data["results"]
    assert len(once_each(results)) == PROFILES
    found = counts(results)
    assert found["error"] == 1 and found.get("not_run", 0) >= 1, found  # the crashed worker's next test
    reasons = {r["message"] for r in results if r["status"] == "not_run"}
    assert all(reason.startswith("the session ended before it ran: a worker process crashed") for reason in reasons)


# ------------------------------------------------------------------------------ the command


def test_a_crashed_worker_costs_one_error_and_every_run_is_reported_once(tmp_path: Path) -> None:
    env = {fragile_engines.CRASH_MARKER: str(tmp_path / "crashed")}
    done = cli("run", "--engine", "py:tests.harness.fragile_engines:crash_once", "--profile", "ludoteka",
               "--scenario", "deck::*", "--jobs", "2", "--report-dir", str(tmp_path / "reports"), env=env)  # fmt: skip
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "reports" / "results.json").read_text(encoding="utf-8"))["results"]
    deck = [s for s in load_scenarios() if s.path.stem == "deck"]
    assert len(once_each(results)) == len(deck)
    found = counts(results)
    assert found["error"] == 1 and found["error"] + found["pass"] == len(deck), found
    (crashed,) = [r for r in results if r["status"] == "error"]
    assert crashed["message"].startswith("the worker process running it crashed")
    assert "crashed while running" in crashed["message"] and len(crashed["message"]) <= 500
    junit = (tmp_path / "reports" / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<testcase") == len(deck)


def test_the_circuit_breaker_gives_up_on_an_engine_that_keeps_hanging(tmp_path: Path) -> None:
    started = time.monotonic()
    done = cli("run", "--engine", f"{HANG} start", "--profile", "lascuarenta", "--scenario", "deck::*", "--jobs", "1",
               "--timeout", "0.5", "--max-engine-failures", "2", "--report-dir", str(tmp_path))  # fmt: skip
    elapsed = time.monotonic() - started
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    deck = [s for s in load_scenarios() if s.path.stem == "deck"]
    assert len(once_each(results)) == len(deck)
    found = counts(results)
    assert found == {"timeout": 2, "not_run": len(deck) - 2}, found
    reasons = {r["message"] for r in results if r["status"] == "not_run"}
    (reason,) = reasons
    assert reason.startswith("the engine timed out or crashed 2 times in a row; last: ")
    assert "no answer within 0.5 s (request 'start'" in reason
    assert f"{len(deck) - 2} scenario runs not run: the engine timed out or crashed 2 times in a row" in done.stdout
    junit = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert junit.count('type="not_run"') == len(deck) - 2 and 'name="not run"' in junit
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'id="not-run"' in html and "times in a row" in html
    assert elapsed < 60  # two timeouts of 0.5 s, and no engine call for the rest


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["run"], "--timeout"),
        (["run"], "--budget"),
        (["validate", "--engine", "reference"], "--timeout"),
        (["smoke", "--engine", "reference"], "--timeout"),
        (["compare", "--engine", "reference"], "--timeout"),
        (["compare", "--engine", "reference"], "--seconds"),
        (["replay", "missing.json"], "--timeout"),
        (["run"], "--start-timeout"),
        (["validate", "--engine", "reference"], "--start-timeout"),
        (["smoke", "--engine", "reference"], "--start-timeout"),
        (["compare", "--engine", "reference"], "--start-timeout"),
        (["replay", "missing.json"], "--start-timeout"),
        (["profiles"], "--start-timeout"),
    ],
)
@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf"])
def test_a_number_of_seconds_must_be_finite_and_positive(command: list[str], option: str, value: str) -> None:
    from tests.harness.test_cli_errors import assert_error, invoke

    done = (
        invoke(*command, f"{option}={value}", "--report-dir", "/nonexistent/never-made")
        if command == ["run"]
        else invoke(*command, f"{option}={value}")
    )
    assert_error(done, ExitCode.USAGE, f"error: {option} {value}: ", "finite and greater than 0")


# ------------------------------------------------------------------------------ the reports


def test_every_report_gives_the_runs_not_played_by_reason_and_none_passes(tmp_path: Path) -> None:
    from guinote_conformance.report.formats import render_html, summary_lines, write_junit
    from tests.harness.test_report import _result

    why = "the run's budget of 60 s was spent before it started (--budget)"
    report = Report(
        results=[_result(line=1), _result(line=2, status=Status.NOT_RUN, message=why),
                 _result(line=3, status=Status.NOT_RUN, message=why)]
    )  # fmt: skip
    assert not report.ok and report.failure_groups() == []  # not a failure of a rule, but not a pass
    lines = summary_lines(report)
    assert f"2 scenario runs not run: {why}" in lines
    assert lines[-1] == "FAILED: 3 scenario runs: 1 pass, 2 not run"
    assert not any(line.startswith("Likely causes") for line in lines)
    junit = write_junit(Report(engines=[report.engine("cmd:./hostile")], results=report.results), tmp_path / "j.xml")
    text = junit.read_text(encoding="utf-8")
    assert text.count('type="not_run"') == 2 and 'errors="2"' in text and 'skipped="0"' in text
    html = render_html(report)
    assert "2 runs not run" in html and "⊖ 2 scenario runs not run: the run&#39;s budget of 60 s" in html


# ------------------------------------------------------------------------------ the exit status


class _Progress:
    def __init__(self, selected: int | None) -> None:
        self.selected = selected


def _report(*statuses: Status) -> Report:
    from tests.harness.test_report import _result

    return Report(results=[_result(status=status, line=index) for index, status in enumerate(statuses, 1)])


@pytest.mark.parametrize(
    ("code", "statuses", "selected", "fragment"),
    [
        (pytest.ExitCode.OK, (Status.PASS,), 1, None),
        (pytest.ExitCode.TESTS_FAILED, (Status.FAIL,), 1, None),
        (pytest.ExitCode.TESTS_FAILED, (Status.PASS,), 1, "pytest saw failures that the results do not record"),
        (pytest.ExitCode.OK, (Status.ERROR,), 1, "the results record problems that pytest did not see"),
        (pytest.ExitCode.INTERRUPTED, (Status.NOT_RUN,), 1, "the run did not complete (pytest exit status 2: "),
        (pytest.ExitCode.INTERNAL_ERROR, (Status.PASS,), 1, "(pytest exit status 3: internal error)"),
        (pytest.ExitCode.OK, (Status.PASS,), 2, "pytest selected 2 scenario runs, the results hold 1"),
    ],
)
def test_the_exit_status_weighs_pytest_and_the_results(
    code: pytest.ExitCode, statuses: tuple[Status, ...], selected: int, fragment: str | None
) -> None:
    from guinote_conformance.cli.results import _mismatches

    lines = _mismatches(int(code), _Progress(selected), _report(*statuses), stale=False)  # type: ignore[arg-type]
    if fragment is None:
        assert lines == []
    else:
        assert any(fragment in line for line in lines), lines
