"""``compare --cluster``: a Dask scheduler and two workers started as processes of their own on
127.0.0.1 (``dask scheduler``, ``dask worker --nthreads 1``), and a Dask ``LocalCluster``; with a
worker killed, the scheduler gone, and an engine the workers cannot start.

Marked ``cluster``: they need Dask (the ``cluster`` extra) and start processes that listen on
ports, so the default run leaves them out and ``tox -e cluster`` runs them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.test_campaign_runs import BATCHES, ENGINE, compare, finished, kept
from tests.fuzz.test_cli_compare import REPO

pytestmark = pytest.mark.cluster


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """A scheduler and its workers, each a process of its own (with no nanny: a worker killed stays dead)."""

    folder: Path
    workers_cwd: Path
    address: str = ""
    scheduler: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, workers: int = 2) -> Cluster:
        self.address = f"tcp://127.0.0.1:{free_port()}"
        port = self.address.rpartition(":")[2]
        self.scheduler = self._spawn("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", port,
                                                   "--no-dashboard"], self.folder)  # fmt: skip
        for number in range(workers):
            self.workers.append(self._spawn(f"worker-{number}", [
                "worker", self.address, "--nthreads", "1", "--no-nanny", "--name", f"worker-{number}",
                "--host", "127.0.0.1", "--no-dashboard", "--death-timeout", "60"], self.workers_cwd))  # fmt: skip
        self.wait_for(workers)
        return self

    def _spawn(self, name: str, args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{name}.log").open("wb")
        # the test's own folder is not importable on a worker started elsewhere (cwd): as on another machine
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)  # fmt: skip

    def wait_for(self, workers: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=60) as client:  # type: ignore[no-untyped-call,unused-ignore]
            client.wait_for_workers(workers, timeout=60)

    def kill_scheduler(self) -> None:
        assert self.scheduler is not None
        os.kill(self.scheduler.pid, signal.SIGKILL)
        self.scheduler.wait()

    def stop(self) -> None:
        for process in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    (tmp_path / "cluster").mkdir()
    started = Cluster(tmp_path / "cluster", REPO)  # the workers import tests.fuzz.engines from the clone
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, dict[int, Any]]:
    """The campaign's groups, coverage and batches played in one process, never stopped."""
    campaign = tmp_path_factory.mktemp("whole") / "campaign"
    done = run(compare(ENGINE, campaign))
    assert done.returncode == 1, done.stdout + done.stderr
    return kept(campaign)


def run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, check=False, env=env)


def started(command: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_until(campaign: Path, batches: int, client: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 240
    while finished(campaign) < batches:
        assert client.poll() is None, f"the run ended before it could be interrupted: {client.communicate()[0]}"
        assert time.monotonic() < deadline, "no batch finished in time"
        time.sleep(0.005)


def test_a_scheduler_and_two_worker_processes_play_the_campaign_as_one_process_does(
    tmp_path: Path, cluster: Cluster, whole: tuple[Any, Any, dict[int, Any]]
) -> None:
    cluster.start()
    campaign = tmp_path / "campaign"
    done = run(compare(ENGINE, campaign, "--cluster", cluster.address))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"workers: the Dask scheduler at {cluster.address}" in done.stdout
    assert kept(campaign) == whole
    journal = (campaign / "journal.jsonl").read_text(encoding="ascii")
    assert "worker-0" in journal and "worker-1" in journal  # both played


def test_a_worker_killed_mid_run_its_batches_go_to_the_other(
    tmp_path: Path, cluster: Cluster, whole: tuple[Any, Any, dict[int, Any]]
) -> None:
    cluster.start()
    campaign = tmp_path / "campaign"
    client = started(compare(ENGINE, campaign, "--cluster", cluster.address))
    wait_until(campaign, 3, client)
    os.kill(cluster.workers[0].pid, signal.SIGKILL)  # kill -9 of a worker, likely in the middle of a game
    out, _ = client.communicate(timeout=300)
    assert client.returncode == 1, out
    assert kept(campaign) == whole


def test_the_scheduler_gone_ends_the_run_with_why_and_the_campaign_resumes_on_another(
    tmp_path: Path, cluster: Cluster, whole: tuple[Any, Any, dict[int, Any]]
) -> None:
    cluster.start()
    campaign = tmp_path / "campaign"
    client = started(compare(ENGINE, campaign, "--cluster", cluster.address))
    wait_until(campaign, 3, client)
    cluster.kill_scheduler()
    out, _ = client.communicate(timeout=300)
    assert client.returncode == 1, out
    assert "the connection to the Dask scheduler was lost" in out and "run the same command to resume" in out, out
    assert "Traceback" not in out
    before = finished(campaign)
    assert before < BATCHES
    cluster.stop()
    again = Cluster(cluster.folder, REPO).start()
    try:
        resumed = run(compare(ENGINE, campaign, "--cluster", again.address))
    finally:
        again.stop()
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr
    assert f"{before} batches already played" in resumed.stdout
    assert kept(campaign) == whole


def test_a_served_engine_missing_on_the_workers_is_named(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"  # workers started in a folder where tests.fuzz.engines cannot be imported
    elsewhere.mkdir()
    (tmp_path / "cluster").mkdir()
    cluster = Cluster(tmp_path / "cluster", elsewhere).start()
    try:
        engine = "serve:py:tests.fuzz.engines:no_cantes"
        done = run(compare(engine, tmp_path / "campaign", "--cluster", cluster.address))
    finally:
        cluster.stop()
    out = done.stdout + done.stderr
    assert done.returncode == 3, out
    assert (
        "could not start the command" in out
        and "guinote_conformance.adapters.serve --engine tests.fuzz.engines:no_cantes" in out
    )
    assert "No module named" in out and "a served engine must be installed on every worker" in out, out
    assert "Traceback" not in out
    assert finished(tmp_path / "campaign") == 0


def test_no_scheduler_at_the_address_is_a_usage_error(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    done = run(compare(ENGINE, tmp_path / "campaign", "--cluster", address))
    out = done.stdout + done.stderr
    assert done.returncode == 2 and f"--cluster {address}: no Dask scheduler answers there" in out, out


def test_a_local_cluster_replaces_a_worker_killed_mid_game_and_plays_its_batch_again(
    tmp_path: Path, whole: tuple[Any, Any, dict[int, Any]]
) -> None:
    marker = tmp_path / "died"
    campaign = tmp_path / "campaign"
    done = run(compare("py:tests.fuzz.engines:dies_once", campaign, "--cluster", "local", "--jobs", "2"),
               env={**os.environ, "GUINOTE_DIES_ONCE": str(marker)})  # fmt: skip
    assert done.returncode == 1 and marker.exists(), done.stdout + done.stderr
    assert "a Dask LocalCluster of 2 workers" in done.stdout
    assert kept(campaign)[0] == whole[0]  # dies_once is no_cantes where it does not die


def test_a_batch_that_kills_every_worker_it_is_given_ends_the_run_with_why(tmp_path: Path) -> None:
    # crashes ends its process at the same action every time the game is played: the batch never finishes
    done = run(compare("py:tests.fuzz.engines:crashes", tmp_path / "campaign", "--cluster", "local", "--jobs", "2"))
    out = done.stdout + done.stderr
    assert done.returncode == 3, out
    assert "killed Dask workers one after the other" in out and "run the same command to resume" in out, out
    assert "Traceback" not in out
