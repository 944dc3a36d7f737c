"""Benchmark: ``compare --jobs`` on local processes against Dask (``--cluster local``), side by side.

Every row fuzzes the reference against itself (nothing diverges, every game is played to its end)
at match depth for ``--seconds`` seconds after its workers have started and played a first round
of batches (their start, imports and caches are left out, as a fuzzing run of hours leaves them
behind), and prints the hands per second:

* **pool, shares**: the pool as it was before batches (every worker plays every N-th game of
  each configuration with its own steering, one task per worker: ``run_parallel``);
* **pool, batches**: the same :class:`~concurrent.futures.ProcessPoolExecutor` (spawn), sent
  batches of games (:mod:`guinote_conformance.fuzz.driver`): what ``compare --jobs N`` runs;
* **Dask, batches**: a Dask ``LocalCluster`` of N worker processes (one thread each), sent the same
  batches through ``Client.get_executor()``: what ``compare --jobs N --cluster local`` runs.

Each with 1 and 2 workers (``--workers``), and each batch size of ``--batch`` (games per task).
The ratios printed under the table are the issue's targets: Dask against the pool with the same
number of workers (at least 0.9), and 2 workers against 1 (at least 1.8 on two free cores). The
load average is printed before and after: on a machine shared with other work, every figure drops
and the ratio of 2 workers to 1 most of all.

    python benchmarks/bench_cluster.py                          # 8 s per row, batches of 8 and 32 matches
    python benchmarks/bench_cluster.py --seconds 15 --batch 8 --engine serve:reference

What bounds 64 workers (a paper estimate, from figures measured here: December 2026, 2 cores):

* a worker plays about 650 hands a second on one core (the reference against itself); a batch is
  64 hands at hand depth, or 8 matches (about 77 hands) at match depth: 8 to 10 batches a second a
  worker, so 64 workers make the scheduler and the client handle 550 to 650 tasks a second;
* the scheduler, per task (one batch): a submit of about 1 KB (the pickled batch: the
  configuration, the rules seen, the strategies' uses), the same to a worker, a result of 1.5 to
  2 KB back (8 KB when every game diverges: each group carries its example), a few state
  transitions. Dask puts a task's overhead between 200 us and 1 ms of the scheduler's one thread:
  3 to 16 us per hand at hand depth, 25 to 125 us per match at match depth; 550 to 650 tasks a
  second take 11 to 65 percent of its core. The network: about 2.5 MB/s, nothing;
* the client, per batch: the result unpickled, the counters merged (about 55 rules), and one line
  appended to the journal and fsync'ed: 2.9 ms on this machine's disk, the first bound (about 340
  batches a second: some 35 workers at hand depth). Past it: larger batches (``--batch 256`` at
  hand depth: a quarter of the tasks, the steering lagging four times as many games behind), or
  an fsync at most every tenth of a second (not done: a ``kill -9`` keeps what was written, only a
  crash of the machine would lose those lines, and their batches would be played again);
* the window: at most ``--window`` batches are under way (32 by default), so 64 workers need
  ``--window 128`` or half of them wait.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.cluster import Backend, open_backend
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.driver import Plan, run_plan
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.parallel import Share, run_parallel
from guinote_conformance.oracle.divergence import Config

#: Games per configuration of the first round, played before the clock starts.
WARM_UP_GAMES = 4


def configs(profiles: list[str]) -> list[Config]:
    info = ReferenceEngine().info()
    return [resolve(info, name) for name in profiles]


def checked(report: FuzzReport) -> FuzzReport:
    if report.groups:  # pragma: no cover - the reference must agree with itself
        raise SystemExit(f"the reference diverged from itself: {[str(cause) for cause in report.groups]}")
    return report


def shares_rate(spec: str, workers: int, seconds: float, depth: str, profiles: list[str]) -> float:
    """Hands per second of the pool of shares, beyond a short run (its start and first games)."""
    chosen = configs(profiles)

    def run(games: int, budget: float | None) -> tuple[int, float]:
        shares = [Share(spec, 30.0, chosen, games, budget, depth, True, (), 7, worker, workers)
                  for worker in range(workers)]  # fmt: skip
        started = time.perf_counter()
        report = checked(run_parallel(shares))
        return report.hands, time.perf_counter() - started

    short_hands, short = run(WARM_UP_GAMES, None)
    hands, wall = run(10**6, seconds + short)
    return (hands - short_hands) / max(wall - short, 1e-9)


def batches_rate(
    open_workers: Callable[[], Backend], spec: str, batch: int, seconds: float, depth: str, profiles: list[str]
) -> float:
    """Hands per second of batches sent to the backend, once its workers have played a first round."""
    from guinote_conformance.fuzz.campaign import Campaign, Identity

    chosen = configs(profiles)
    backend = open_workers()
    try:

        def plan(games: int, seed: int) -> Plan:
            return Plan(spec, "reference", chosen, games, batch, seed=seed, depth=depth, timeout=30.0)

        def campaign(games: int, seed: int) -> Campaign:
            return Campaign(None, Identity(spec, seed, depth, True, tuple(chosen), batch, 32))

        warm = plan(max(batch, WARM_UP_GAMES) * backend.workers(), 1)
        checked(run_plan(warm, campaign(warm.games, 1), backend))
        timed = plan(10**6, 2)
        started = time.perf_counter()
        report = checked(run_plan(timed, campaign(timed.games, 2), backend, seconds=seconds))
        return report.hands / (time.perf_counter() - started)
    finally:
        backend.close()


def load() -> str:
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds each row fuzzes (default 8)")
    parser.add_argument("--depth", default="match", help="a game is a hand, a point or a match (default match)")
    parser.add_argument("--profile", action="append", help="profiles (default: lascuarenta and tradicional)")
    parser.add_argument("--engine", default="reference", help="the engine spec the workers load (default reference)")
    parser.add_argument("--batch", type=int, action="append", help="games per batch (repeatable; default 8 and 32)")
    parser.add_argument("--workers", type=int, action="append", help="workers (repeatable; default 1 and 2)")
    args = parser.parse_args(argv)
    profiles = args.profile or ["lascuarenta", "tradicional"]
    sizes = args.batch or [8, 32]
    counts = args.workers or [1, 2]
    print(f"Python {sys.version.split()[0]}; {os.cpu_count()} cores; engine {args.engine}; depth {args.depth}; "
          f"{', '.join(profiles)}; {args.seconds:g} s per row; load before: {load()}")  # fmt: skip
    rows: dict[tuple[str, int], float] = {}
    for workers in counts:
        rows[("pool, shares", workers)] = shares_rate(args.engine, workers, args.seconds, args.depth, profiles)
        for size in sizes:
            pool = batches_rate(partial(open_backend, workers, None), args.engine, size, args.seconds, args.depth,
                                profiles)  # fmt: skip
            rows[(f"pool, batches of {size}", workers)] = pool
            dask = batches_rate(partial(open_backend, workers, "local"), args.engine, size, args.seconds,
                                args.depth, profiles)  # fmt: skip
            rows[(f"Dask, batches of {size}", workers)] = dask
    labels = list(dict.fromkeys(label for label, _ in rows))
    print(f"\n{'hands/s':<24}" + "".join(f"{f'{n} worker' + ('s' if n > 1 else ''):>12}" for n in counts)
          + (f"{f'{counts[-1]} vs {counts[0]}':>10}" if len(counts) > 1 else ""))  # fmt: skip
    for label in labels:
        figures = [rows[(label, n)] for n in counts]
        scaling = f"{figures[-1] / figures[0]:>9.2f}x" if len(counts) > 1 else ""
        print(f"{label:<24}" + "".join(f"{figure:>12,.0f}" for figure in figures) + scaling)
    print()
    for size in sizes:
        for workers in counts:
            dask, pool = rows[(f"Dask, batches of {size}", workers)], rows[(f"pool, batches of {size}", workers)]
            shares = rows[("pool, shares", workers)]
            print(f"batches of {size}, {workers} workers: Dask {dask / pool:.2f}x the pool of batches, "
                  f"{dask / shares:.2f}x the pool of shares")  # fmt: skip
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
