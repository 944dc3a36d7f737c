"""The client of a run shared among workers: which batch to play next, and from what steering.

In: a :class:`Plan` (the configurations, the games of each, the batch size, the steering window,
what every batch needs to know), a :class:`~guinote_conformance.fuzz.campaign.Campaign` (its finished
batches, none for a new run) and an executor (:mod:`guinote_conformance.fuzz.cluster`; or ``None``: the
batches played here, one after the other, on the engine given). Out: the run's
:class:`~guinote_conformance.fuzz.findings.FuzzReport`, every finished batch added to the campaign as it
comes back, and progress (games, games per second, rule coverage, divergence groups) as it goes.
With an executor and the engine given (in a process of its own), the client plays batches itself
too, until the first comes back from a worker (workers take seconds to start): the first findings
are shown as soon as in a run of one job.

The batches are numbered once: batch ``k`` is games ``j*B`` to ``j*B + B - 1`` of configuration
``c``, where ``k = j * len(configurations) + c`` and ``B`` is the batch size. Batch ``k`` steers
from the rules seen and the strategies used in batches ``0`` to ``k - W - 1`` (``W``, the window):
it is sent to a worker only when all of those are finished, and only those count, whatever else
has come back. So the games a batch plays depend on the seed, the plan and what the engine
answers, never on the number of workers, on which worker played what, on the order the batches
finished in, or on a run stopped and resumed (:mod:`guinote_conformance.fuzz.batch`). Up to ``W`` batches
can be under way at once: the window bounds the parallelism, and how far the steering lags.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from guinote_conformance.adapters.interface import Engine
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.fuzz.batch import Batch, play_batch, report_of
from guinote_conformance.fuzz.campaign import Campaign
from guinote_conformance.fuzz.cluster import Backend, BackendError, failure_of
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.known import Known, find_known
from guinote_conformance.oracle.divergence import Cause, Config

#: Games per batch by depth: a batch should take a good part of a second, so that what a task
#: costs the scheduler and the network is small beside it.
BATCH_GAMES = {"hand": 64, "point": 32, "match": 8}
#: On a Dask cluster, batches this many times larger: a Dask task costs its worker and the scheduler
#: a few milliseconds more than a task of the local pool (benchmarks/bench_cluster.py, one worker:
#: 0.73 of the pool's hands/s with batches of 8 matches, 0.91 with batches of 32).
CLUSTER_BATCH_FACTOR = 4
#: Batches that may be under way at once, at least: the steering lags this many batches behind.
WINDOW = 32
#: Seconds between two rewrites of a campaign's coverage.json and groups.json during a run: they are
#: derived from the whole journal, so a run killed with -9 leaves them at most this far behind it.
DERIVED_EVERY = 30.0


def default_batch(depth: str, games: int, *, cluster: bool) -> int:
    """Games per batch when the run names none: by depth, larger on a Dask cluster, never more than the run's."""
    return min(BATCH_GAMES[depth] * (CLUSTER_BATCH_FACTOR if cluster else 1), games)


@dataclass(frozen=True)
class Plan:
    """What a run plays: the games of each configuration, in batches of ``batch`` games."""

    spec: str
    engine: str
    configs: Sequence[Config]
    games: int
    batch: int
    window: int = WINDOW
    seed: int = 0
    depth: str = "match"
    steer: bool = True
    known: Sequence[Known] = ()
    timeout: float = 10.0
    max_engine_failures: int = 5
    #: the configurations the engine cannot play, and why (no batch of theirs is played)
    not_applicable: dict[str, str] = field(default_factory=dict)
    #: seconds the engine has to start and answer its first hello (``--start-timeout``)
    start_timeout: float = STARTUP_TIMEOUT

    @property
    def chunks(self) -> int:
        """Batches per configuration (the games rounded up to whole batches)."""
        return math.ceil(self.games / self.batch)

    @property
    def batches(self) -> int:
        return self.chunks * len(self.configs)

    def batch_at(self, index: int) -> Batch:
        """Batch ``index``: its configuration, its games (the last of a configuration may be short)."""
        chunk, number = divmod(index, len(self.configs))
        first = chunk * self.batch
        return Batch(index, self.configs[number], first, min(self.batch, self.games - first), self.spec, self.seed,
                     self.depth, self.steer, self.known, self.timeout, self.max_engine_failures,
                     start_timeout=self.start_timeout)  # fmt: skip


@dataclass
class Progress:
    """What the run has done so far, for the progress line."""

    games: int = 0
    total: int = 0
    hands: int = 0
    seen: int = 0
    groups: int = 0
    workers: int = 0
    started: float = field(default_factory=time.perf_counter)
    #: games played by earlier runs of the campaign
    resumed: int = 0
    #: the divergence groups this run found, in the order found: the cause, whether it is a known
    #: divergence and the hands played then (the progress line shows each once, as it is found)
    found: list[tuple[Cause, bool, int]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return (self.games - self.resumed) / max(time.perf_counter() - self.started, 1e-9)


class _Steering:
    """The steering state of the first batches, in order: the rules seen, the strategies' uses."""

    def __init__(self) -> None:
        self.upto = 0
        self.seen: set[str] = set()
        self.uses: Counter[str] = Counter()

    def advance(self, upto: int, results: dict[int, dict[str, Any]]) -> None:
        for index in range(self.upto, upto):
            result = results.get(index)
            if result is not None:
                self.seen.update(rule for rule, count in result["report"]["coverage"].items() if count)
                self.uses.update(result["uses"])
        self.upto = max(self.upto, upto)

    def of(self, batch: Batch, deadline: float | None) -> Batch:
        return replace(batch, seen=tuple(sorted(self.seen)), uses=tuple(sorted(self.uses.items())), deadline=deadline)


def run_plan(
    plan: Plan,
    campaign: Campaign,
    backend: Backend | None,
    *,
    engine: Engine | None = None,
    seconds: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    poll: float = 0.25,
    derived_every: float = DERIVED_EVERY,
) -> FuzzReport:
    """Play the batches of ``plan`` the campaign has not finished; the campaign's report, with what
    this run played and could not keep (a batch cut short by ``seconds``, or stopped by the engine's
    circuit breaker) added after it. Raises :class:`~guinote_conformance.fuzz.cluster.BackendError`."""
    started = time.perf_counter()
    deadline = time.time() + seconds if seconds is not None else None
    results = campaign.results
    skipped = set(plan.not_applicable)
    for result in results.values():
        skipped.update(result["report"]["not_applicable"])
    status = Progress(total=plan.games * len(plan.configs))
    resumed = campaign.report(plan.engine, plan.known)
    status.games = status.resumed = resumed.games
    status.hands = resumed.hands
    coverage = Counter(resumed.coverage)
    causes = set(resumed.groups)
    status.groups = len(causes)
    unkept: list[dict[str, Any]] = []
    steering = _Steering()
    settled = 0  # the batches before this one are finished (or will never be played)
    following = 0  # the next batch to send
    running: dict[Future[dict[str, Any]], Batch] = {}
    stopping = False

    def is_settled(index: int) -> bool:
        return index in results or plan.batch_at(index).config.label in skipped

    def found(causes_known: Iterable[tuple[Cause, bool]], hands: int) -> bool:
        """Note the divergence groups not found before, after ``hands`` hands; whether there was one."""
        new = [(cause, known) for cause, known in causes_known if cause not in causes]
        for cause, known in new:
            causes.add(cause)
            status.found.append((cause, known, hands))
        status.groups = len(causes)
        return bool(new)

    def early(report: FuzzReport) -> None:  # a batch played here: its groups shown as they are found
        groups = [(cause, group.known is not None) for cause, group in report.groups.items()]
        if found(groups, status.hands + report.hands):
            report_progress()

    def take(result: dict[str, Any]) -> None:
        nonlocal stopping
        report = result["report"]
        if result["partial"] or report["stopped"]:
            unkept.append(result)
            stopping = stopping or bool(report["stopped"])
        else:
            campaign.append(result)
        skipped.update(report["not_applicable"])
        status.games += int(report["games"])
        status.hands += int(report["hands"])
        coverage.update(report["coverage"])
        groups = []
        for group in report["groups"]:
            cause = Cause(*group["cause"])
            groups.append((cause, find_known(plan.known, cause, group["example"]["config"]["label"]) is not None))
        found(groups, status.hands)

    derived_at = time.perf_counter()

    def report_progress() -> None:
        nonlocal derived_at
        if time.perf_counter() - derived_at >= derived_every:
            derived_at = time.perf_counter()
            campaign.write_derived(campaign.report(plan.engine, plan.known))
        if progress is not None:
            from guinote_conformance.oracle.rules import observable_rules

            status.seen = len(set(observable_rules()) & {rule for rule, count in coverage.items() if count})
            status.workers = backend.workers() if backend is not None else 1
            progress(status)

    # Until the first batch comes back from a worker, the batches the workers have no room for are played
    # here, on the engine given: a worker starts a Python of its own and its own engine (seconds on a busy
    # machine), and meanwhile this process would wait. A batch is played the same wherever it runs, so the
    # run does not change; its first findings are shown as soon as in a run of one job. Not an engine in
    # this process (py:): one that ends its process would end the run, where a worker's death is reported.
    # Nor on a Dask cluster (--cluster): the batches go where the user sent them, whose engine may differ.
    came_back = backend is None or engine is None or _in_process(plan.spec) or backend.client is not None

    def warming() -> bool:
        return not came_back

    last_shown = 0.0
    try:
        while True:
            capacity = 1 if backend is None else max(2 * backend.workers(), 2)
            played_here = False
            while settled < plan.batches and is_settled(settled):
                settled += 1
            while not stopping and following < plan.batches and (len(running) < capacity or warming()):
                if deadline is not None and time.time() > deadline:
                    stopping = True
                    break
                if is_settled(following):
                    following += 1
                    continue
                needed = max(following - plan.window, 0)
                if settled < needed:
                    break  # its steering is not known yet
                steering.advance(needed, results)
                batch = steering.of(plan.batch_at(following), deadline)
                following += 1
                if backend is None or len(running) >= capacity:
                    take(play_batch(batch, engine, early))
                    report_progress()
                    if backend is None:
                        continue
                    played_here = True
                    break  # (a batch played here while the workers start: has one of theirs come back?)
                try:
                    running[backend.executor.submit(play_batch, batch)] = batch
                except BrokenProcessPool as broken:  # a worker died while this batch was handed out: the
                    # batch it was playing is one of those under way (each of their futures holds the error)
                    died = min(running.values(), key=lambda b: b.index, default=batch)
                    raise failure_of(broken, backend, _named(died)) from None
            if not running:
                if stopping or following >= plan.batches:
                    break
                if backend is None:  # the batches played here are finished: the next one's steering is known now
                    continue
                raise AssertionError("no batch is under way and none can start")  # pragma: no cover
            done, _ = wait(list(running), timeout=0 if played_here else poll, return_when=FIRST_COMPLETED)
            for future in done:
                came_back = True
                batch = running.pop(future)
                try:
                    error = future.exception()
                except CancelledError as cancelled:  # Dask cancels the futures of a scheduler it lost
                    error = cancelled
                if error is not None:
                    raise failure_of(error, backend, _named(batch)) from None  # type: ignore[arg-type]
                take(future.result())
            if time.perf_counter() - last_shown > poll or not running:
                last_shown = time.perf_counter()
                report_progress()
    except BackendError:
        for future in running:
            future.cancel()
        campaign.write_derived(campaign.report(plan.engine, plan.known))
        raise
    report = campaign.report(plan.engine, plan.known)
    campaign.write_derived(report)
    for result in sorted(unkept, key=lambda r: int(r["batch"])):
        report.add(report_of(result["report"], plan.engine, plan.known))
    report.not_applicable.update(plan.not_applicable)
    report.resumed_hands = resumed.hands
    report.seconds = time.perf_counter() - started
    return report


def _in_process(spec: str) -> bool:
    from guinote_conformance.engines.specs import parse_engine_spec

    try:
        return parse_engine_spec(spec).in_process
    except Exception:  # (the run opened it already: a spec that cannot be read is not played here)
        return True


def _named(batch: Batch) -> str:
    return f"batch {batch.index} ({batch.config.label}, games {batch.first}-{batch.first + batch.count - 1})"


__all__ = ["BATCH_GAMES", "CLUSTER_BATCH_FACTOR", "WINDOW", "Plan", "Progress", "default_batch", "run_plan"]
