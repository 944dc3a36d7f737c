"""compare's circuit breaker: an engine whose process is down in game after game stops the run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from tests.fuzz.engines import DownEngine

INFO = ReferenceEngine().info()
CONFIGS = [resolve(INFO, "tradicional")]
REPO = Path(__file__).resolve().parents[2]


def fuzz(pattern: str, games: int = 20, max_engine_failures: int = 5) -> tuple[DownEngine, FuzzReport]:
    engine = DownEngine(pattern)
    fuzzer = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand", max_engine_failures=max_engine_failures)
    return engine, fuzzer.run(CONFIGS, games)


def test_five_games_in_a_row_with_the_engine_down_stop_the_run_and_say_why() -> None:
    engine, report = fuzz("t")
    assert engine.started == 5 and report.games == 5
    assert report.stopped == (
        "the engine timed out or crashed in 5 games in a row; last: no answer within 1.0 s (hypothetical)"
    )
    assert report.to_json()["stopped"] == report.stopped
    assert {(cause.kind, cause.subject) for cause in report.groups} == {("failure", "timeout")}


def test_crashes_at_the_start_count_as_the_engine_down_too() -> None:
    engine, report = fuzz("c", max_engine_failures=3)
    assert engine.started == 3 and "crashed in 3 games in a row" in report.stopped
    assert {(cause.kind, cause.subject) for cause in report.groups} == {("failure", "crash")}


def test_a_game_the_engine_plays_or_answers_wrongly_breaks_the_streak() -> None:
    for pattern in ("tttt.", "ttttg"):  # four down, then one it answered (well, or wrongly)
        engine, report = fuzz(pattern)
        assert engine.started == 20 and report.stopped == "", pattern


def test_zero_never_stops() -> None:
    engine, report = fuzz("t", games=12, max_engine_failures=0)
    assert engine.started == 12 and report.stopped == ""


def test_compare_stops_at_the_breaker_exits_1_and_writes_no_scenario_of_it(tmp_path: Path) -> None:
    hang = REPO / "tests" / "protocol" / "hostile" / "hang.py"
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "compare", "--engine", f"cmd:{sys.executable} {hang} batch",
         "--profile", "tradicional", "--depth", "hand", "--hands", "50", "--timeout", "0.2",
         "--max-engine-failures", "2", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "stopped early: the engine timed out or crashed in 2 games in a row" in done.stdout, done.stdout
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["games"] == 2 and report["stopped"].startswith("the engine timed out")
    assert (tmp_path / "divergence-1.json").exists() and not (tmp_path / "divergences.feature").exists()
    assert "shrinking" not in done.stdout


def test_a_wrong_count_is_a_usage_error() -> None:
    for value in ("-1", "many"):
        done = subprocess.run(
            [sys.executable, "-m", "guinote_conformance",
             "compare", "--engine", "reference", "--max-engine-failures", value],
            cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and "--max-engine-failures" in done.stdout + done.stderr, done.stdout
        assert "Traceback" not in done.stdout + done.stderr
