"""The campaign folder and the client of batches (``compare --campaign``, ``--jobs``), in this process:
the journal read back, a torn last line, another campaign refused, a second run going on from the
first, the same batches whatever runs them, the client playing while its workers start."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.fuzz.batch import Batch
from guinote_conformance.fuzz.campaign import JOURNAL, Campaign, CampaignError, Identity
from guinote_conformance.fuzz.cluster import INSTALL, Backend, BackendError, open_backend
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.driver import Plan, run_plan
from guinote_conformance.fuzz.findings import FuzzReport

INFO = ReferenceEngine().info()
SPEC = "py:tests.fuzz.engines:no_cantes"
CONFIGS = [resolve(INFO, "tradicional"), resolve(INFO, "lascuarenta")]


def plan(games: int, seed: int = 3) -> Plan:
    # batches of 4 hands, each steered from the batches at least 2 before it
    return Plan(SPEC, "flawed-no_cantes", CONFIGS, games, 4, 2, seed, "hand")


def identity(seed: int = 3) -> Identity:
    return Identity(SPEC, seed, "hand", True, tuple(CONFIGS), 4, 2)


def run(folder: Path | None, games: int, backend: Backend | None = None) -> tuple[FuzzReport, dict[int, Any]]:
    with Campaign(folder, identity()) as campaign:
        return run_plan(plan(games), campaign, backend), campaign.results


def played(results: dict[int, Any]) -> dict[int, Any]:
    """The batches' results without who played them and how long it took (all that may differ)."""
    return {index: {**result, "worker": "", "report": {**result["report"], "seconds": 0}}
            for index, result in results.items()}  # fmt: skip


def groups(report: FuzzReport) -> dict[str, tuple[int, dict[str, int], int, Any]]:
    return {str(cause): (g.count, g.configs, g.first_hand, g.example.record()) for cause, g in report.groups.items()}


class Recording(Executor):
    """Threads that play the batches, noting each batch submitted."""

    def __init__(self, workers: int) -> None:
        self.threads = ThreadPoolExecutor(workers)
        self.sent: list[Batch] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent.append(args[0])
        return self.threads.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.threads.shutdown(wait, cancel_futures=cancel_futures)


@pytest.fixture
def threads() -> Iterator[tuple[Backend, Recording]]:
    executor = Recording(3)
    yield Backend("3 threads", executor, lambda: 3), executor
    executor.shutdown()


def test_the_journal_keeps_every_finished_batch_and_the_next_run_reads_them(tmp_path: Path) -> None:
    report, results = run(tmp_path, 8)
    assert sorted(results) == list(range(4)) and report.games == 16 and report.groups
    lines = (tmp_path / JOURNAL).read_text(encoding="ascii").splitlines()
    assert sorted(json.loads(line)["batch"] for line in lines) == [0, 1, 2, 3]
    with Campaign(tmp_path, identity()) as again:
        assert played(again.results) == played(results) and not again.notes
        assert groups(again.report("flawed-no_cantes")) == groups(report)
    coverage = json.loads((tmp_path / "coverage.json").read_text(encoding="utf-8"))
    assert (coverage["games"], coverage["batches"]) == (16, 4)
    assert coverage["counts"] == dict(sorted(report.coverage.items()))
    kept = json.loads((tmp_path / "groups.json").read_text(encoding="utf-8"))["groups"]
    assert {(g["cause"]["rule"], g["count"]) for g in kept} == {(c.rule, g.count) for c, g in report.groups.items()}
    assert all(g["example"]["actions"] and g["example"]["divergence"]["kind"] == "legal" for g in kept)


def test_the_batches_are_the_same_whatever_plays_them(threads: tuple[Backend, Recording]) -> None:
    backend, executor = threads
    alone, alone_results = run(None, 12)
    shared, shared_results = run(None, 12, backend)
    assert len(executor.sent) == 6  # the batches did go to the threads
    assert played(shared_results) == played(alone_results)
    assert groups(shared) == groups(alone) and shared.coverage == alone.coverage


class Late(Recording):
    """Threads that start each batch a second late, as workers that are still starting."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.futures: list[Future[Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent.append(args[0])
        self.futures.append(self.threads.submit(_late, fn, *args, **kwargs))
        return self.futures[-1]


def _late(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    time.sleep(1.0)
    return fn(*args, **kwargs)


class BreaksOnSecond(Recording):
    """A pool whose worker dies playing the first batch while the second is handed out: ``submit``
    raises (the race a clean-clone CI met once, where the death was otherwise seen at ``wait``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        from concurrent.futures.process import BrokenProcessPool

        self.sent.append(args[0])
        if len(self.sent) > 1:
            raise BrokenProcessPool("A child process terminated abruptly, the process pool is not usable anymore")
        return Future()  # (never done: its worker is the one that died)


def test_a_pool_broken_while_a_batch_is_handed_out_ends_the_run_with_why(tmp_path: Path) -> None:
    executor = BreaksOnSecond(1)
    with Campaign(tmp_path, identity()) as campaign, pytest.raises(BackendError) as ended:
        run_plan(plan(12), campaign, Backend("1 dying process", executor, lambda: 1))
    executor.shutdown()
    assert ended.value.code == ExitCode.ENGINE_UNAVAILABLE
    assert str(ended.value).startswith("a worker process died playing batch 0 ("), ended.value
    assert [batch.index for batch in executor.sent] == [0, 1]


def test_the_client_plays_while_the_workers_start_and_shows_what_it_finds_at_once() -> None:
    from guinote_conformance.engines.specs import parse_engine_spec
    from guinote_conformance.fuzz.driver import Progress

    alone, alone_results = run(None, 12)
    executor = Late(1)
    served = f"serve:{SPEC.removeprefix('py:')}"  # (an engine in this process is not played here: see below)
    engine = parse_engine_spec(served).open(timeout=10.0)
    shown: list[tuple[int, int]] = []  # (groups found, workers' batches back) at each progress

    def show(status: Progress) -> None:
        shown.append((len(status.found), sum(future.done() for future in executor.futures)))

    try:
        with Campaign(None, identity()) as campaign:
            shared = run_plan(replace(plan(12), spec=served), campaign, Backend("1 late thread", executor, lambda: 1),
                              engine=engine, progress=show)  # fmt: skip
    finally:
        executor.shutdown()
        engine.close()
    # batches 0 and 1 went to the thread (two per worker); batch 2 was played here, then batch 3 waited for
    # batch 0's steering (a window of 2), and the thread had come back by then
    assert [batch.index for batch in executor.sent] == [0, 1, 3, 4, 5]
    assert any(groups_found and not back for groups_found, back in shown), shown  # shown before any came back
    assert played(campaign.results) == played(alone_results)  # the same games wherever they were played
    assert groups(shared) == groups(alone)
    # an engine in this process is never played here: one that ends its process would end the run
    executor = Late(1)
    try:
        with Campaign(None, identity()) as campaign:
            run_plan(plan(12), campaign, Backend("1 late thread", executor, lambda: 1), engine=ReferenceEngine())
    finally:
        executor.shutdown()
    assert [batch.index for batch in executor.sent] == [0, 1, 2, 3, 4, 5]


def test_a_second_run_goes_on_from_the_first_and_steers_from_what_it_saw(
    tmp_path: Path, threads: tuple[Backend, Recording]
) -> None:
    backend, executor = threads
    _, first = run(tmp_path / "campaign", 8)
    report, results = run(tmp_path / "campaign", 16, backend)
    assert [batch.index for batch in executor.sent] == [4, 5, 6, 7]  # none of the first run's played again
    seen_before = {rule for index in (0, 1, 2) for rule, n in first[index]["report"]["coverage"].items() if n}
    assert set(executor.sent[1].seen) == seen_before  # batch 5 steers from batches 0 to 2, all the first run's
    assert report.games == 32
    _, whole = run(tmp_path / "whole", 16)
    assert played(results) == played(whole)  # the same as one run of the 16 games


def test_a_torn_last_line_is_dropped_and_its_batch_played_again(tmp_path: Path) -> None:
    _, results = run(tmp_path, 8)
    journal = tmp_path / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # the run was killed while it wrote the last batch
    torn = int(json.loads(lines[3])["batch"])
    with Campaign(tmp_path, identity()) as campaign:
        assert f"{journal}:4: the last line was cut short" in campaign.notes[0]
        assert sorted(campaign.results) == sorted(set(results) - {torn})
        assert journal.read_bytes() == b"".join(lines[:3])  # cut off before anything is appended
        run_plan(plan(8), campaign, None)
    assert played(Campaign(tmp_path, identity()).__enter__().results) == played(results)


def test_a_line_that_cannot_be_read_before_the_last_is_an_error_naming_it(tmp_path: Path) -> None:
    run(tmp_path, 8)
    journal = tmp_path / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(lines[0] + b"{not json\n" + lines[1])
    with pytest.raises(CampaignError, match=rf"{JOURNAL}:2: not a finished batch"):
        Campaign(tmp_path, identity()).__enter__()


def test_a_run_with_other_options_is_refused_naming_the_option(tmp_path: Path) -> None:
    run(tmp_path, 8)
    with pytest.raises(CampaignError, match=r"started with another seed \(3; this run: 4\)"):
        Campaign(tmp_path, identity(seed=4)).__enter__()
    (tmp_path / "campaign.json").write_text('{"format": "guinote-campaign/0"}', encoding="utf-8")
    with pytest.raises(CampaignError, match="not a campaign of this version"):
        Campaign(tmp_path, identity()).__enter__()


def test_one_run_at_a_time_and_a_folder_must_be_a_folder(tmp_path: Path) -> None:
    with Campaign(tmp_path, identity()), pytest.raises(CampaignError, match="another run is using this campaign"):
        Campaign(tmp_path, identity()).__enter__()
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(CampaignError, match="not a folder"):
        Campaign(tmp_path / "file", identity()).__enter__()


def test_cluster_without_dask_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # (import distributed: ImportError)
    with pytest.raises(BackendError, match=INSTALL.replace("[", r"\[").replace("]", r"\]")) as raised:
        open_backend(2, "local")
    assert raised.value.code == ExitCode.USAGE
    with pytest.raises(BackendError, match="write local, or a scheduler's address"):
        open_backend(2, "10.0.0.5:8786")


def test_the_progress_shows_the_games_their_rate_the_rules_seen_and_the_groups(tmp_path: Path) -> None:
    from guinote_conformance.fuzz.driver import Progress

    run(tmp_path, 8)  # a first run: the second's games and groups count it, its rate does not
    shown: list[tuple[int, int, int, int, int]] = []

    def show(status: Progress) -> None:
        assert status.rate > 0
        shown.append((status.games, status.total, status.seen, status.groups, status.resumed))

    with Campaign(tmp_path, identity()) as campaign:
        run_plan(plan(16), campaign, None, progress=show)
    assert len(shown) == 4  # after each of the second run's batches
    games, total, seen, groups_found, resumed = shown[-1]
    assert (games, total) == (32, 32) and [s[0] for s in shown] == [20, 24, 28, 32]
    assert resumed == 16  # left out of the rate: the games per second are this run's
    assert 20 < seen <= 55 and groups_found >= 1


def test_a_later_run_goes_on_with_the_campaigns_batch_size_and_window(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from guinote_conformance.engines.specs import parse_engine_spec
    from guinote_conformance.fuzz.shared import SharedRunError, run_shared

    engine = parse_engine_spec(SPEC).open(contained=True)
    info = engine.info()

    def go(games: int, batch: int = 0, window: int = 0) -> tuple[FuzzReport, str]:
        out = io.StringIO()
        report = run_shared(Console(file=out, width=200), engine, info, SPEC, CONFIGS, games=games, seconds=None,
                            depth="hand", seed=3, steer=True, known=(), known_file=None, timeout=10.0,
                            max_engine_failures=5, jobs=1, cluster=None, campaign=tmp_path, batch=batch,
                            window=window)  # fmt: skip
        return report, out.getvalue()

    go(6, window=4)  # fewer hands than a batch by depth (64): batches of 6
    report, said = go(20)  # not batches of 20 (nor 64): the campaign's 6, the hands rounded up to whole batches
    assert "--hands 20 rounded up to 24" in said and "2 batches already played" in said
    assert report.games == 48
    recorded = json.loads((tmp_path / "campaign.json").read_text(encoding="utf-8"))
    assert (recorded["batch"], recorded["window"]) == (6, 4)
    with pytest.raises(SharedRunError, match=r"another batch \(6; this run: 8\)"):
        go(24, batch=8)


def test_a_dask_cluster_gets_larger_batches_by_default_never_more_than_the_run() -> None:
    from guinote_conformance.fuzz.driver import BATCH_GAMES, CLUSTER_BATCH_FACTOR, default_batch

    assert default_batch("match", 1000, cluster=False) == BATCH_GAMES["match"]
    assert default_batch("match", 1000, cluster=True) == BATCH_GAMES["match"] * CLUSTER_BATCH_FACTOR
    assert default_batch("hand", 100, cluster=True) == 100  # a short run is one batch


def test_the_coverage_and_groups_files_follow_the_journal_during_a_run(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []

    def show(status: Any) -> None:  # what a reader of the folder finds while the run goes on
        seen.append((status.games, json.loads((tmp_path / "coverage.json").read_text(encoding="utf-8"))["batches"]))

    with Campaign(tmp_path, identity()) as campaign:
        run_plan(plan(8), campaign, None, progress=show, derived_every=0)
    # after each batch of 4 games (and while one is played, when it finds a group: the batches before it)
    assert all(batches == games // 4 for games, batches in seen) and seen[-1] == (16, 4), seen
    assert sorted({batches for _, batches in seen} - {0}) == [1, 2, 3, 4]
