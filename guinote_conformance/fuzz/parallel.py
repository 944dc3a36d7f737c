"""Fuzzing on every core: ``compare --jobs N`` shares the games among N worker processes.

Python runs one thread at a time, so the fuzzer uses more cores the way fuzzers do (libFuzzer's
``-jobs``, AFL's secondary instances): separate processes. Each worker loads its own engine
from the engine spec (an in-process engine in the worker's process, a served engine as the
worker's own child), plays every N-th game of each configuration against its own reference,
and sends its report back; the reports are merged (:meth:`FuzzReport.merged
<guinote_conformance.fuzz.findings.FuzzReport.merged>`). The parent then shrinks the groups and writes the
records and scenarios as after a run of one job.

A run is reproducible for a given seed and number of jobs. Each game's generator comes from the
seed, the configuration and the game's number, but which deal generator and policy it gets
depends on what its worker's steering has seen, so runs with different numbers of jobs play
different games.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import EngineError
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.known import Known
from guinote_conformance.oracle.divergence import Config


class WorkerFailed(EngineError):
    """A worker process could not fuzz: its engine did not load, or the process died."""


@dataclass(frozen=True)
class Share:
    """What one worker is asked to do: every ``workers``-th game from number ``worker`` on."""

    spec: str
    timeout: float
    configs: Sequence[Config]
    games: int
    seconds: float | None
    depth: str
    steer: bool
    known: Sequence[Known]
    seed: int
    worker: int
    workers: int
    #: the circuit breaker of each worker, which counts its own engine process
    #: (:class:`~guinote_conformance.fuzz.fuzzer.Fuzzer`)
    max_engine_failures: int = 5


def default_jobs() -> int:
    """The cores this process may run on (all of them where the system does not say)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def run_parallel(
    shares: Sequence[Share], progress: Callable[[int], None] | None = None, poll: float = 0.2
) -> FuzzReport:
    """Run each share in its own process; their reports merged. ``progress`` is called with the
    number of games the workers have finished, as they go."""
    context = multiprocessing.get_context("spawn")  # the parent may hold threads (a served engine's pipes)
    finished = context.Value("i", 0)
    started = time.perf_counter()
    with ProcessPoolExecutor(len(shares), mp_context=context, initializer=_adopt, initargs=(finished,)) as pool:
        futures: list[Future[FuzzReport]] = [pool.submit(_fuzz_share, share) for share in shares]
        pending: set[Future[FuzzReport]] = set(futures)
        while pending:
            done, pending = wait(pending, timeout=poll, return_when=FIRST_EXCEPTION)
            if progress is not None:
                progress(finished.value)
            for future in done:
                _raise_failure(future)
    return FuzzReport.merged([future.result() for future in futures], time.perf_counter() - started)


def _raise_failure(future: Future[FuzzReport]) -> None:
    error = future.exception()
    if error is None:
        return
    if isinstance(error, BrokenProcessPool):
        raise WorkerFailed("a worker process died (the engine under test may have ended it)") from None
    if isinstance(error, WorkerFailed):
        raise error
    raise WorkerFailed(f"a worker failed: {type(error).__name__}: {error}") from None


#: In a worker: the count of games finished by every worker (shared memory, set by :func:`_adopt`).
_finished: Any = None


def _adopt(finished: Any) -> None:
    global _finished
    _finished = finished


def _fuzz_share(share: Share) -> FuzzReport:
    """A worker's run: its own engine and reference, its share of the games."""
    from guinote_conformance.engines.specs import parse_engine_spec  # the worker's own import of the registry

    try:  # an in-process engine's own exceptions are its failures, as in a run of one job
        engine = parse_engine_spec(share.spec).open(timeout=share.timeout, contained=True)
        info = engine.info()
    except (EngineError, OSError, ValueError) as error:
        raise WorkerFailed(f"worker {share.worker} could not load the engine {share.spec!r}: {error}") from None
    try:
        fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=share.depth, steer=share.steer, known=share.known,
                        seed=share.seed, share=(share.worker, share.workers),
                        max_engine_failures=share.max_engine_failures)  # fmt: skip
        fuzzer.progress = _count_game
        return fuzzer.run(share.configs, share.games, seconds=share.seconds)
    finally:
        engine.close()


def _count_game(report: FuzzReport) -> None:
    if _finished is not None:
        with _finished.get_lock():
            _finished.value += 1


__all__ = ["Share", "WorkerFailed", "default_jobs", "run_parallel"]
