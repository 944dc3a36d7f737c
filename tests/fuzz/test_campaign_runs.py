"""``compare --campaign`` as a user runs it, stopped by ``kill -9`` and by its faults, then resumed:
it ends with the same divergence groups as one run that was never stopped, and no game played twice.

(The same on Dask workers started as processes of their own: tests/fuzz/test_cluster.py, tox -e cluster.)"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.fuzz.test_cli_compare import REPO, cli

ENGINE = "py:tests.fuzz.engines:no_cantes"
#: 2 configurations, 96 hands each, in batches of 8: 24 batches (a few seconds on one core)
OPTIONS = ["--profile", "tradicional", "--profile", "lascuarenta", "--hands", "96", "--depth", "hand", "--batch", "8",
           "--seed", "5", "--no-scenarios"]  # fmt: skip
BATCHES = 24


def compare(engine: str, campaign: Path, *more: str, env: dict[str, str] | None = None) -> list[str]:
    return [sys.executable, "-m", "guinote_conformance",
     "compare", "--engine", engine, *OPTIONS, "--campaign", str(campaign),
            "--report-dir", str(campaign.parent / f"{campaign.name}-reports"), *more]  # fmt: skip


def finished(campaign: Path) -> int:
    journal = campaign / "journal.jsonl"
    return journal.read_bytes().count(b"\n") if journal.exists() else 0


def killed_after(command: list[str], campaign: Path, batches: int) -> None:
    """Run ``command`` until the campaign holds ``batches`` finished batches, then ``kill -9`` it and its workers."""
    run = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while finished(campaign) < batches:
            assert run.poll() is None, f"the run ended (exit {run.returncode}) before it could be killed"
            assert time.monotonic() < deadline, "the run did not finish a batch in time"
            time.sleep(0.005)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the client and its worker processes, as kill -9 would
        run.wait()
    assert run.returncode == -signal.SIGKILL and finished(campaign) < BATCHES  # it was stopped part way


def kept(campaign: Path) -> tuple[Any, Any, dict[int, Any]]:
    """The groups, the coverage and the finished batches (without who played them, and how fast)."""
    batches: dict[int, Any] = {}
    for line in (campaign / "journal.jsonl").read_text(encoding="ascii").splitlines():
        result = json.loads(line)
        assert result["batch"] not in batches, f"batch {result['batch']} was kept twice"
        batches[result["batch"]] = {**result, "worker": "", "report": {**result["report"], "seconds": 0}}
    groups = json.loads((campaign / "groups.json").read_text(encoding="utf-8"))
    coverage = json.loads((campaign / "coverage.json").read_text(encoding="utf-8"))
    return groups, coverage, batches


def test_a_campaign_killed_twice_and_resumed_finds_what_one_run_finds(tmp_path: Path) -> None:
    whole = subprocess.run(compare(ENGINE, tmp_path / "whole"), cwd=REPO, capture_output=True, text=True,
                           timeout=300, check=False)  # fmt: skip
    assert whole.returncode == 1, whole.stdout + whole.stderr
    stopped = tmp_path / "stopped"
    killed_after(compare(ENGINE, stopped, "--jobs", "2"), stopped, 4)
    first = finished(stopped)
    killed_after(compare(ENGINE, stopped, "--jobs", "2"), stopped, first + 6)
    resumed = subprocess.run(compare(ENGINE, stopped, "--jobs", "2"), cwd=REPO, capture_output=True, text=True,
                             timeout=300, check=False)  # fmt: skip
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr
    assert "resuming the campaign" in resumed.stdout and "192 hands" in resumed.stdout
    groups, coverage, batches = kept(stopped)
    assert sorted(batches) == list(range(BATCHES))  # every batch once: no game played twice, none lost
    assert (groups, coverage, batches) == kept(tmp_path / "whole")
    assert groups["groups"] and all(g["example"]["actions"] for g in groups["groups"])


def test_a_worker_process_killed_mid_game_ends_the_run_with_why_and_the_campaign_resumes(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    env = {**os.environ, "GUINOTE_DIES_ONCE": str(marker)}
    campaign = tmp_path / "campaign"
    done = subprocess.run(compare("py:tests.fuzz.engines:dies_once", campaign, "--jobs", "2"), cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 3 and marker.exists(), out
    assert "a worker process died playing batch" in out and "run the same command to resume" in out, out
    assert "Traceback" not in out
    before = finished(campaign)
    assert 0 < before < BATCHES
    again = subprocess.run(compare("py:tests.fuzz.engines:dies_once", campaign, "--jobs", "2"), cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert again.returncode == 1, again.stdout + again.stderr
    assert f"{before} batches already played" in again.stdout
    # the engine that died once is no_cantes otherwise: the same groups as no_cantes's uninterrupted run
    whole = subprocess.run(compare(ENGINE, tmp_path / "whole"), cwd=REPO, capture_output=True, text=True,
                           timeout=300, check=False)  # fmt: skip
    assert whole.returncode == 1
    assert kept(campaign)[0] == kept(tmp_path / "whole")[0]


def test_an_engine_that_cannot_start_on_the_workers_is_named_and_the_campaign_stays_usable(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    engine = "py:tests.fuzz.engines:main_process_only"
    done = cli("compare", "--engine", engine, *OPTIONS, "--campaign", str(campaign), "--jobs", "2",
               "--report-dir", str(tmp_path / "reports"))  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 3, out
    assert f"could not start the engine '{engine}'" in out and "licence server is not reachable" in out, out
    assert "Traceback" not in out and finished(campaign) == 0
    here = cli("compare", "--engine", engine, *OPTIONS, "--campaign", str(campaign), "--jobs", "1",
               "--report-dir", str(tmp_path / "reports"))  # fmt: skip
    assert here.returncode == 1, here.stdout + here.stderr  # played in this process, where the engine starts
    assert finished(campaign) == BATCHES


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_the_worker_processes_of_a_run_killed_by_kill_9_end_with_it(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    run = subprocess.Popen(compare(ENGINE, campaign, "--jobs", "2"), cwd=REPO, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while finished(campaign) < 2:
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        workers = children(run.pid)
        assert len(workers) >= 2  # the pool's processes (and multiprocessing's resource tracker)
        os.kill(run.pid, signal.SIGKILL)  # the client alone
        run.wait()
        deadline = time.monotonic() + 20
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if running(pid)], "worker processes outlived the run"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
