"""compare --jobs: the games shared among worker processes, their reports merged into one."""

from __future__ import annotations

import json
from pathlib import Path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.parallel import Share, run_parallel
from guinote_conformance.oracle.divergence import Cause, Config, Divergence
from tests.fuzz.test_cli_compare import cli

INFO = ReferenceEngine().info()


def divergence(size: int) -> Divergence:
    actions = [{"type": "play", "seat": 0, "card": "Ao"}] * size
    return Divergence(Config("x", {}), {}, actions, Cause("cante", "missing", "CANTE-01"), 1, 2, 0, "")


def report(hands: int, first: int | None, size: int) -> FuzzReport:
    cause = Cause("cante", "missing", "CANTE-01")
    done = FuzzReport("e", hands=hands, games=2, actions=10 * hands, first_divergence=first)
    done.played, done.strategies = {"x": hands}, {"uniform/uniform": 2}
    done.coverage.update({"PLAY-02": hands})
    done.groups[cause] = Group(cause, divergence(size), 3, {"x": 3}, first_hand=first or 0)
    return done


def test_the_merged_report_adds_the_counts_and_keeps_the_smallest_example() -> None:
    merged = FuzzReport.merged([report(10, 4, 7), report(12, 2, 3)], seconds=1.5)
    assert (merged.hands, merged.games, merged.actions, merged.seconds) == (22, 4, 220, 1.5)
    assert merged.played == {"x": 22} and merged.strategies == {"uniform/uniform": 4}
    assert merged.coverage["PLAY-02"] == 22
    [group] = merged.groups.values()
    assert group.count == 6 and group.configs == {"x": 6} and group.example.size == 3
    # the workers play side by side: the earliest found it after 2 of its hands, about 4 of the run's
    assert merged.first_divergence == 4 and group.first_hand == 4


def test_workers_share_the_games_and_find_the_broken_rule() -> None:
    configs = [resolve(INFO, "lascuarenta")]
    shares = [Share("py:tests.fuzz.engines:no_cantes", 10.0, configs, 8, None, "hand", True, (), 3, worker, 2)
              for worker in range(2)]  # fmt: skip
    seen: list[int] = []
    merged = run_parallel(shares, seen.append, poll=0.05)
    assert merged.games == 8 and merged.hands == 8  # every game once, in one worker or the other
    assert merged.groups and {cause.subject for cause in merged.groups} == {"cante (missing)"}
    assert seen and seen[-1] <= 8


def test_compare_with_jobs_writes_one_report(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:no_cantes", "--profile", "tradicional", "--hands", "6",
               "--depth", "hand", "--no-scenarios", "--jobs", "2", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["games"] == 6 and report["groups"]
    assert len(list(tmp_path.glob("divergence-*.json"))) == len(report["groups"])


def test_a_worker_killed_by_its_engine_is_a_clear_error(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:crashes", "--profile", "lascuarenta", "--hands", "6",
               "--depth", "hand", "--no-scenarios", "--jobs", "2", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    assert "a worker process died" in done.stdout and "Traceback" not in done.stdout + done.stderr
