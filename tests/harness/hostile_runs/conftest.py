"""The hostile-engine matrix at run level: ``guinote-conformance run`` against engines that misbehave.

:func:`hostile_run` runs the real command in a subprocess, as a careful user would try a
harness before trusting it, and gathers everything a test asserts on (:class:`RunOutcome`):
the exit code, the output, results.json, the JUnit counts, index.html, the wall time, and the
processes of the run still alive afterwards. Every process of the run (the CLI, its pytest-xdist
workers, the engines and their children) inherits :data:`MARK` set to a value of its own; after
the run ``/proc/*/environ`` is searched for it (Linux only, as the tests that use this).

The scenarios a run must report are computed here, independently of the run, from the
catalogue and the plugin's :class:`~guinote_conformance.run.selection.Selection` (:func:`expected_runs`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.run.expectations import scenario_id
from guinote_conformance.run.selection import Selection

REPO = Path(__file__).resolve().parents[3]
PROTOCOL_HOSTILE = REPO / "tests" / "protocol" / "hostile"
RUN_HOSTILE = Path(__file__).resolve().parent / "engines"
#: The environment variable every process of one run inherits, with a value unique to the run.
MARK = "GUINOTE_TEST_MARK"
#: ``--timeout`` of a run: long enough that a loaded machine never makes a sound answer late ...
SOUND_TIMEOUT = 10.0
#: ... and of a run whose engine hangs on purpose: each hung request costs it.
HANG_TIMEOUT = 2.0
#: Only to catch a hang: a run of a few scenarios takes seconds; speed is measured elsewhere.
WALL_BOUND = 180.0
#: Four scenarios of the deck: one trick (8, 21), a trick's points (69), a whole hand (114).
#: Fewer than the circuit breaker's default of 5 consecutive engine failures, so that the
#: statuses of a case do not depend on it (the breaker has tests of its own).
DECK_FOUR = ("features/deck.feature:8", "features/deck.feature:21", "features/deck.feature:69",
             "features/deck.feature:114")  # fmt: skip

#: Seven scenarios of the deck: more than the circuit breaker lets fail in a row.
SEVEN = (*DECK_FOUR, "features/deck.feature:130", "features/deck.feature:145", "features/deck.feature:179")
WHOLE_HAND = DECK_FOUR[3]
TWO_PROFILES = ("lascuarenta", "tradicional")
SURROGATE_IN_PROCESS = "py:tests.harness.hostile_runs.engines.surrogate:make"
#: The run-level matrix's slower variants run only when this is set (``tox -e hostile``).
FULL = "GUINOTE_HOSTILE_FULL"
collect_ignore = [] if os.environ.get(FULL) else ["test_hostile_runs_full.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every case here is a whole ``guinote-conformance run`` of a few seconds: the default test run
    leaves them to ``tox -e hostile`` (the hostile engines meet the adapter in ``tests/protocol``)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.hostile)


def engine_command(script: str, *args: str) -> str:
    """The ``--engine`` of a hostile engine: ``tests/protocol/hostile/<script>.py`` or, for the
    engines of the run-level matrix, ``engines/<script>.py`` here."""
    path = PROTOCOL_HOSTILE / f"{script}.py"
    if not path.exists():
        path = RUN_HOSTILE / f"{script}.py"
    assert path.exists(), path
    return "cmd:" + " ".join([sys.executable, str(path), *args])


@dataclass(frozen=True)
class Orphan:
    pid: int
    command: str


@dataclass
class RunOutcome:
    """What one ``guinote-conformance run`` left behind."""

    code: int
    stdout: str
    stderr: str
    seconds: float
    #: (scenario id, profile) of every run the selection asks for
    expected: Counter[tuple[str, str]]
    #: results.json's "results", or ``None`` when the file was not written (or not to its end)
    results: list[dict[str, Any]] | None
    summary: dict[str, int] | None
    #: testcases of junit.xml by status group (pass, failure, error, skipped), with "tests"
    junit: dict[str, int] | None
    html: str | None
    orphans: list[Orphan] = field(default_factory=list)

    @property
    def statuses(self) -> Counter[str]:
        return Counter(result["status"] for result in self.results or [])

    def status_of(self, location: str, profile: str = "lascuarenta") -> str:
        """The status of the run of the scenario at ``features/<file>:<line>`` under ``profile``."""
        path, _, line = location.rpartition(":")
        found: list[str] = [r["status"] for r in self.results or []
                 if r["feature"].endswith(path.removeprefix("features/")) and r["line"] == int(line)
                 and r["profile"] == profile]  # fmt: skip
        assert len(found) == 1, (location, profile, found)
        return found[0]

    def messages(self, status: str) -> list[str]:
        return [result["message"] for result in self.results or [] if result["status"] == status]

    def explain(self) -> str:
        """For assertion messages: what the run printed, cut."""
        head = f"exit {self.code} after {self.seconds:.1f} s"
        return f"{head}\n--- stdout\n{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}"

    def check_complete(self) -> None:
        """Every selected run appears in results.json exactly once, with a status; the summary and
        junit.xml count the same; index.html exists."""
        assert self.results is not None, "no results.json\n" + self.explain()
        seen = Counter((result["id"], result["profile"]) for result in self.results)
        twice = sorted(key for key, count in seen.items() if count > 1)
        assert not twice, f"reported more than once: {twice}"
        missing = sorted(set(self.expected) - set(seen))
        extra = sorted(set(seen) - set(self.expected))
        assert not missing and not extra, f"missing: {missing}; not selected: {extra}\n" + self.explain()
        assert all(result["status"] for result in self.results)
        assert self.summary == dict(self.statuses), (self.summary, self.statuses)
        assert self.junit is not None, "no junit.xml"
        statuses = self.statuses
        failures = statuses["fail"] + statuses["xpass"]
        errors = statuses["error"] + statuses["timeout"] + statuses["not_run"]  # <error type="not_run">
        assert self.junit == {
            "tests": len(self.results),
            "pass": statuses["pass"],
            "failure": failures,
            "error": errors,
            "skipped": len(self.results) - statuses["pass"] - failures - errors,
        }, (self.junit, statuses)
        assert self.html is not None, "no index.html"

    def check_no_raw_payload(self, *payloads: str) -> None:
        """index.html holds none of the engine's raw ``payloads``, nor any ESC or NUL byte; the
        terminal output no ESC byte (the harness's own output is plain when piped)."""
        assert self.html is not None
        for payload in ("\x1b", "\x00", *payloads):
            assert payload not in self.html, f"index.html holds the raw engine text {payload!r}"
        assert "\x1b" not in self.stdout + self.stderr, "the engine's ANSI escapes reached the terminal"

    def check_no_traceback(self) -> None:
        assert "Traceback (most recent call last)" not in self.stdout + self.stderr, self.explain()


def checked(outcome: RunOutcome, code: ExitCode, statuses: dict[str, int]) -> RunOutcome:
    """The checks every case makes: complete reports, the counts by status, the exit status, no
    traceback, no orphan, no raw ESC or NUL in the HTML report, and no hang."""
    outcome.check_complete()
    assert dict(outcome.statuses) == statuses, outcome.explain()
    assert outcome.code == code, outcome.explain()
    outcome.check_no_traceback()
    outcome.check_no_raw_payload()
    assert not outcome.orphans, f"processes of the run still alive: {outcome.orphans}"
    assert outcome.seconds < WALL_BOUND
    return outcome


def each_message(outcome: RunOutcome, status: str, *pieces: str) -> None:
    messages = outcome.messages(status)
    assert messages, f"no {status}"
    for message in messages:
        for piece in pieces:
            assert piece in message, (piece, message)


def expected_runs(selection: Selection, profiles: Sequence[str]) -> Counter[tuple[str, str]]:
    """(scenario id, profile) of every run a selection asks for, from the catalogue."""
    return Counter((scenario_id(s), p) for s in load_scenarios() if selection.selected(s) for p in profiles)


def marked_processes(mark: str) -> list[Orphan]:
    """The live processes whose environment holds ``MARK=mark`` (zombies have none: not alive)."""
    wanted = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile, or not ours
            continue
        if wanted in environ.split(b"\0"):
            found.append(Orphan(int(entry.name), command))
    return found


def orphans_after(mark: str, grace: float = 3.0) -> list[Orphan]:
    """The processes of the run still alive ``grace`` seconds after it ended (a process killed as
    the run ends may take a moment to go)."""
    deadline = time.monotonic() + grace
    while (found := marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def _junit_counts(path: Path) -> dict[str, int] | None:
    if not path.exists():
        return None
    counts = {"tests": 0, "pass": 0, "failure": 0, "error": 0, "skipped": 0}
    for case in ET.parse(path).getroot().iter("testcase"):
        counts["tests"] += 1
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        assert len(kinds) <= 1, f"a testcase with {kinds}"
        counts[kinds[0] if kinds else "pass"] += 1
    return counts


def hostile_run(
    report_dir: Path,
    engine: str,
    *cli_args: str,
    scenarios: Sequence[str] = DECK_FOUR,
    profiles: Sequence[str] = ("lascuarenta",),
    jobs: int = 1,
    timeout: float = SOUND_TIMEOUT,
) -> RunOutcome:
    """``guinote-conformance run --engine ENGINE`` on ``scenarios`` under ``profiles``, in a
    subprocess whose every descendant is marked; processes of the run still alive afterwards
    are killed (they are reported in :attr:`RunOutcome.orphans` first)."""
    mark = uuid.uuid4().hex
    selection = [arg for location in scenarios for arg in ("--scenario", location)]
    profile_args = [arg for name in profiles for arg in ("--profile", name)]
    argv = [sys.executable, "-m", "guinote_conformance", "run", "--engine", engine, *profile_args, *selection,
            "--jobs", str(jobs), "--timeout", str(timeout), "--report-dir", str(report_dir), *cli_args]  # fmt: skip
    env = {**os.environ, MARK: mark, "COLUMNS": "200"}
    began = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, errors="replace",
                              timeout=WALL_BOUND, check=False)  # fmt: skip
    except subprocess.TimeoutExpired as hung:
        _kill(marked_processes(mark))
        raise AssertionError(f"the run did not end within {WALL_BOUND} s (a hang): {hung.stdout!r}") from None
    seconds = time.monotonic() - began
    orphans = orphans_after(mark)
    _kill(orphans)
    data = _results(report_dir / "results.json")
    html_path = report_dir / "index.html"
    return RunOutcome(
        code=done.returncode,
        stdout=done.stdout,
        stderr=done.stderr,
        seconds=seconds,
        expected=expected_runs(Selection(tuple(scenarios)), profiles),
        results=data["results"] if data else None,
        summary=data["summary"] if data else None,
        junit=_junit_counts(report_dir / "junit.xml"),
        html=html_path.read_text(encoding="utf-8", errors="replace") if html_path.exists() else None,
        orphans=orphans,
    )


def _results(path: Path) -> dict[str, Any] | None:
    """results.json, or ``None`` when it was not written, or not to its end (a writer that crashed)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data


def _kill(processes: list[Orphan]) -> None:
    """Kill the given processes of a run (by their ids: only the run's own processes)."""
    for process in processes:
        with contextlib.suppress(OSError):  # gone meanwhile
            os.kill(process.pid, signal.SIGKILL)


@pytest.fixture
def run_hostile(tmp_path: Path) -> Iterator[Any]:
    """``run_hostile(engine, *cli_args, **options)``: :func:`hostile_run` into a fresh report folder."""
    count = 0

    def run(engine: str, *cli_args: str, **options: Any) -> RunOutcome:
        nonlocal count
        count += 1
        return hostile_run(tmp_path / f"reports-{count}", engine, *cli_args, **options)

    yield run
