"""Benchmark: the differential fuzzer (``guinote-conformance compare``) in process and over the wire.

Three figures side by side, in one run, on the same games (the reference against itself, so
nothing diverges and every game is played to its end):

* **in process**: the engine under test is the reference engine, in this process (and the
  same with its answers checked against the protocol's schemas, as ``compare --engine py:...``
  and ``--engine reference`` check an in-process engine);
* **over the wire, batch**: the reference served over the protocol (``python -m guinote_conformance.adapters.serve``),
  asked for a whole hand in one ``batch`` request, pipelined: while the served engine answers
  one hand, the fuzzer plays the next on the reference, so the two processes use two cores;
* **over the wire, one request per call**: the same served engine without ``batch`` (what an
  engine that does not declare the capability costs);
* **N jobs** (``compare --jobs N --seconds 4``, N the cores this process may use): N worker
  processes fuzzing for a given time, as a fuzzing run does, in process (``--engine
  reference``, schema-checked) and over the wire (``--engine serve:reference``, batch). Each
  worker starts a Python, loads the engine and fills its caches in its first games: a short
  run of 4 games per configuration (its wall time printed as the start) is taken off the hands
  and the wall time, which is printed too, so that these rows, like the others, show what a
  run that is under way does per second.

The raw speed of the reference engine on its own (random first hands, as ``bench_hands.py``)
is printed beside them, and half of it is the **two-engine limit**: ``compare`` plays every hand
on two engines, so it can play at most half as many hands as one engine alone. The run prints, in
its last lines, the two ratios the targets are set on (issue 38): *in process / two-engine limit*
(how close the fuzzer's own cost per hand comes to nothing; each in-process run is measured right
after a measure of the limit, and the best of each is taken) and *in process / batch wire* (how
many times slower the wire is). On a busy machine every figure drops, their ratios much less. Each
figure also shows the CPU time its run took, this process's and the served engine's: over the
wire the two processes wait for each other, and on a busy machine each wait for a free core
adds to the wall time, not to the CPU time.

Two more figures say where that limit stands for ``compare``, which drives every engine through
the engine interface (JSON forms of actions, events and fields): the reference's random first
hands **through the interface** (its own two-engine limit is half of them), and **a loop with no
fuzzer**: two reference engines in lockstep through the interface, each answer and the fields
``compare`` reads compared, with no steering, probes, coverage or steps. In-process ``compare``
is printed as a share of both: of the interface's limit, and of the loop (the rest of its time
is its own: steering, probes, the steps, the coverage).

    python benchmarks/bench_fuzz.py                       # 100 games per configuration
    python benchmarks/bench_fuzz.py --games 40 --depth hand
    python benchmarks/bench_fuzz.py --repeat 3 --min 1000 --max-wire-ratio 2   # issue 11's targets
    python benchmarks/bench_fuzz.py --repeat 3 --min-ratio 0.7 --max-wire-ratio 1.3 --jobs 1   # issue 38's

Each figure is the best of ``--repeat`` runs; the load average is printed with them. ``--min``,
``--min-ratio`` and ``--max-wire-ratio`` make the run fail (exit 1) when the fastest in-process
figure is lower (in hands per second; as a share of the two-engine limit: one process, one job),
or the fastest batched wire figure further behind it (one job or N, whichever is faster for
each): measure those on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from guinote_conformance.adapters.checked import ShapeCheckedEngine
from guinote_conformance.adapters.interface import JSON, Accepted, Engine
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import DEPTHS, Fuzzer
from guinote_conformance.fuzz.parallel import Share, default_jobs, run_parallel
from guinote_conformance.fuzz.play import fields_after
from guinote_conformance.oracle.steps import read_fields


def measure(
    engine: Engine,
    *,
    games: int,
    depth: str,
    profiles: list[str],
    batch: bool,
    repeat: int = 1,
    before_each: Callable[[], None] | None = None,
) -> tuple[int, float, float]:
    """The hands played, the shortest time of ``repeat`` runs (the same games each time) and the
    CPU time of that run: this process's and the served engine's. ``before_each`` is called
    before every run (the limit is measured there, so that both see the same machine)."""
    info = engine.info()
    best, cpu = float("inf"), 0.0
    for _ in range(repeat):
        if before_each is not None:
            before_each()
        fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=depth, seed=7, batch=batch)
        cpu_started, engine_started = time.process_time(), engine_cpu(engine)
        started = time.perf_counter()
        report = fuzzer.run([resolve(info, name) for name in profiles], games)
        seconds = time.perf_counter() - started
        if seconds < best:
            best = seconds
            cpu = time.process_time() - cpu_started + engine_cpu(engine) - engine_started
        if report.groups:  # pragma: no cover - the reference must agree with itself
            raise SystemExit(f"the reference diverged from itself: {[str(cause) for cause in report.groups]}")
    return report.hands, best, cpu


#: Games per configuration of the short run whose hands and wall time the jobs rows take off theirs.
WARM_UP_GAMES = 4


def measure_jobs(spec: str, jobs: int, *, seconds: float, depth: str, profiles: list[str], repeat: int = 1
                 ) -> tuple[int, float, float]:  # fmt: skip
    """What ``jobs`` workers (``compare --jobs N --seconds``) add, in a run of ``seconds``, over a
    short run of :data:`WARM_UP_GAMES` games per configuration: the hands and the wall time (the
    best of ``repeat`` runs), then the short run's wall time.

    A fuzzing run is given a time (``--seconds``): every worker plays until then, so none waits
    for the other to finish its share of a fixed number of games. Each run starts new workers,
    which import, load the engine and fill their caches in their first games: the
    single-process rows leave that out (their best run is a warm one), so these rows do too."""
    info = ReferenceEngine().info()
    configs = [resolve(info, name) for name in profiles]

    def run(games: int, budget: float | None) -> tuple[int, float]:
        shares = [Share(spec, 30.0, configs, games, budget, depth, True, (), 7, worker, jobs) for worker in range(jobs)]
        started = time.perf_counter()
        report = run_parallel(shares)
        if report.groups:  # pragma: no cover - the reference must agree with itself
            raise SystemExit(f"the reference diverged from itself: {[str(cause) for cause in report.groups]}")
        return report.hands, time.perf_counter() - started

    short_hands, start = min((run(WARM_UP_GAMES, None) for _ in range(repeat)), key=lambda figure: figure[1])
    # the best run is the one that played the most hands in its time beyond the short run's
    hands, wall = max((run(10**6, seconds) for _ in range(repeat)), key=lambda f: (f[0] - short_hands) / (f[1] - start))
    return hands - short_hands, wall - start, start


def engine_cpu(engine: Engine) -> float:
    """The CPU seconds a served engine's process has used (read from /proc: Linux only), else 0."""
    pid = getattr(engine, "pid", None)
    if not isinstance(pid, int):
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def raw_hands_per_second(seconds: float = 1.0, cpu: list[float] | None = None) -> float:
    """Random first hands per second of the reference alone (wall time); its rate per CPU second
    is appended to ``cpu`` (a busy machine lengthens the wall time, much less the CPU time)."""
    import random

    from guinote_conformance.reference_engine.flags import rules_for
    from guinote_conformance.reference_engine.random_play import new_game, play_hand, uniform_policy

    rules, rng, hands = rules_for("lascuarenta"), random.Random(0), 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        game, hand_rng = new_game(rules, rng.randrange(1 << 30))
        play_hand(game, uniform_policy(hand_rng))
        hands += 1
    if cpu is not None:
        cpu.append(hands / max(time.process_time() - cpu_started, 1e-9))
    return hands / (time.perf_counter() - started)


def _interface_deals(seconds: float) -> Iterator[tuple[ReferenceGame, ...]]:
    """New lascuarenta games of the reference through the engine interface, dealt from shuffled deck
    orders (each deal yields the games of both engines), for about ``seconds``."""
    engine, rng = ReferenceEngine(), random.Random(0)
    flags = dict(resolve(engine.info(), "lascuarenta").flags)
    deck = deck_codes(40)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        rng.shuffle(deck)
        setup: dict[str, JSON] = {"flags": flags, "dealer": 0, "deck": list(deck)}
        yield engine.start(setup), engine.start(setup)


def interface_hands_per_second(seconds: float = 1.0) -> float:
    """Random first hands per second of the reference as ``compare`` drives an engine: through the
    engine interface (the JSON forms of its actions and events), a uniformly random legal action
    at each turn, as :func:`raw_hands_per_second` plays them on the engine's own objects."""
    rng, hands, started = random.Random(1), 0, time.perf_counter()
    for game, _ in _interface_deals(seconds):
        legal = game.legal_actions()
        while legal and legal[0].get("type") != "deal":
            game.apply(rng.choice(legal))
            legal = game.legal_actions()
        hands += 1
    return hands / (time.perf_counter() - started)


def bare_loop_hands_per_second(seconds: float = 1.0) -> float:
    """Random first hands per second of two reference engines in lockstep through the engine
    interface, with no fuzzer: each action applied to both, then their events, the state fields
    ``compare`` reads after it (:func:`~guinote_conformance.fuzz.play.fields_after`) and their legal
    actions compared with ``==``. No steering, probes, coverage or steps: what the engine
    interface alone lets ``compare`` reach in process."""
    rng, hands, started = random.Random(1), 0, time.perf_counter()
    for ours, theirs in _interface_deals(seconds):
        legal = ours.legal_actions()
        agree = legal == theirs.legal_actions()
        while agree and legal and legal[0].get("type") != "deal":
            action = rng.choice(legal)
            mine, other = ours.apply(action), theirs.apply(action)
            agree = isinstance(mine, Accepted) and isinstance(other, Accepted) and mine.events == other.events
            names = fields_after(mine.events) if isinstance(mine, Accepted) else ()
            agree = agree and (not names or read_fields(ours, names) == read_fields(theirs, names))
            legal = ours.legal_actions()
            agree = agree and legal == theirs.legal_actions()
        if not agree:  # pragma: no cover - the reference must agree with itself
            raise SystemExit("the reference disagrees with itself")
        hands += 1
    return hands / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # (100: with fewer, each worker of the jobs rows plays under a second and the run's fixed costs weigh)
    parser.add_argument("--games", type=int, default=100, help="games per configuration (default 100)")
    parser.add_argument("--depth", choices=DEPTHS, default="match", help="a game is a hand, a point or a match")
    parser.add_argument("--profile", action="append", help="profiles (default: lascuarenta and tradicional)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the best is shown (default 1)")
    parser.add_argument("--min", type=float, default=0.0, help="fail if the in-process figure is below this")
    parser.add_argument(
        "--min-ratio",
        type=float,
        default=0.0,
        help="fail if in process plays fewer hands than this share of the two-engine limit",
    )
    parser.add_argument(
        "--max-wire-ratio",
        type=float,
        default=0.0,
        help="fail if the batch is further behind in process (times slower)",
    )
    parser.add_argument("--jobs-seconds", type=float, default=4.0, help="the jobs rows' --seconds (default 4)")
    parser.add_argument("--jobs", type=int, default=0, help="workers of the jobs rows (default: one per core; 1: none)")
    args = parser.parse_args(argv)
    profiles = args.profile or ["lascuarenta", "tradicional"]
    games = f"{args.games} games per profile ({', '.join(profiles)})"
    load = " / ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    print(f"Python {sys.version.split()[0]}; {games}, depth {args.depth}; best of {args.repeat}; load {load}")
    alone: list[float] = []
    alone_cpu: list[float] = []
    figures = []
    options = {"games": args.games, "depth": args.depth, "profiles": profiles, "repeat": args.repeat}
    jobs_options = {"depth": args.depth, "profiles": profiles, "repeat": args.repeat}
    # the limit is measured right before each in-process run (the same machine, as busy); the best of each counts
    figures.append(("in process", *measure(ReferenceEngine(), batch=True, before_each=lambda: alone.append(
        raw_hands_per_second(cpu=alone_cpu)), **options)))  # fmt: skip
    limit = max(alone) / 2
    print(f"reference engine alone: {max(alone):,.0f} random first hands/s (best of {len(alone)}); "
          f"two-engine limit {limit:,.0f} hands/s")  # fmt: skip
    through = max(interface_hands_per_second() for _ in range(args.repeat))
    bare = max(bare_loop_hands_per_second() for _ in range(args.repeat))
    print(f"the same through the engine interface (as compare drives an engine): {through:,.0f} hands/s; "
          f"two-engine limit {through / 2:,.0f} hands/s")  # fmt: skip
    print(f"two engines in lockstep through the interface, no fuzzer (answers and the fields compare reads, "
          f"compared): {bare:,.0f} hands/s, {bare / limit:.2f} of the two-engine limit")  # fmt: skip
    # what `compare --engine py:...` runs: the same engine, its answers checked against the schemas
    figures.append(("in process, schema-checked", *measure(ShapeCheckedEngine(ReferenceEngine()), batch=True,
                                                           **options)))  # fmt: skip
    for label, batch in (("over the wire, batch", True), ("over the wire, one request per call", False)):
        served = SubprocessEngine([sys.executable, "-m", "guinote_conformance.adapters.serve"], timeout=30)
        try:
            figures.append((label, *measure(served, batch=batch, **options)))
        finally:
            served.close()
    base, base_cpu = figures[0][1] / figures[0][2], figures[0][3]
    print(f"{'fuzzer':<38} {'hands':>7} {'seconds':>8} {'hands/s':>9} {'vs in process':>14} {'cpu s':>7} {'cpu vs':>7}")
    for label, hands, seconds, cpu in figures:
        rate = hands / seconds
        print(f"{label:<38} {hands:>7} {seconds:>8.2f} {rate:>9,.0f} {base / rate:>13.1f}x {cpu:>7.2f} "
              f"{cpu / base_cpu:>6.1f}x")  # fmt: skip
    print("cpu s: this process and the served engine (waiting for each other not counted: on a busy machine")
    print("       the wire's wall time grows with the wait for a core, its cpu time does not)")
    jobs = args.jobs or default_jobs()
    parallel = {}
    if jobs > 1:
        print(f"\n{jobs} jobs (compare --jobs {jobs} --seconds {args.jobs_seconds:g}): the hands and wall time beyond "
              f"a run of {WARM_UP_GAMES} games per configuration (the workers' start and first games)")  # fmt: skip
        print(f"{'fuzzer':<38} {'hands':>7} {'seconds':>8} {'hands/s':>9} {'vs in process':>14} "
              f"{'start s':>8} {'wall s':>7}")  # fmt: skip
        for label, spec in (("in process, schema-checked", "reference"), ("over the wire, batch", "serve:reference")):
            hands, seconds, start = measure_jobs(spec, jobs, seconds=args.jobs_seconds, **jobs_options)
            parallel[label] = rate = hands / max(seconds, 1e-9)
            ratio = parallel.get("in process, schema-checked", rate) / rate
            print(f"{label:<38} {hands:>7} {seconds:>8.2f} {rate:>9,.0f} {ratio:>13.1f}x {start:>8.2f} "
                  f"{seconds + start:>7.2f}")  # fmt: skip
    failed = []
    # the targets are checked on the fastest way to run each (with every core when there are several),
    # in process and over the wire alike; the share of the limit, on one process (the limit is one core's)
    in_process = max(base, parallel.get("in process, schema-checked", 0.0))
    share, checked_share = base / limit, figures[1][1] / figures[1][2] / limit
    wire = in_process / max(figures[2][1] / figures[2][2], parallel.get("over the wire, batch", 0.0))
    print(f"\nratio in process / two-engine limit: {share:.2f} (schema-checked {checked_share:.2f})"
          + (f"; target at least {args.min_ratio:g}" if args.min_ratio else ""))  # fmt: skip
    print(f"   of the engines' limit through the interface: {base / (through / 2):.2f}; of the loop with no "
          f"fuzzer: {base / bare:.2f} (the rest of its time is compare's own)")  # fmt: skip
    # the same share in CPU time, which a busy machine changes much less (for a shared machine; not a target)
    cpu_share = figures[0][1] / figures[0][3] / (max(alone_cpu) / 2)
    checked_cpu_share = figures[1][1] / figures[1][3] / (max(alone_cpu) / 2)
    print(f"   in CPU time: {cpu_share:.2f} (schema-checked {checked_cpu_share:.2f})")
    print(f"ratio in process / batch wire: {wire:.2f}x slower over the wire"
          + (f"; target at most {args.max_wire_ratio:g}x" if args.max_wire_ratio else ""))  # fmt: skip
    if in_process < args.min:
        failed.append(f"in process {in_process:,.0f} hands/s < {args.min:,.0f}")
    if share < args.min_ratio:
        failed.append(f"in process is {share:.2f} of the two-engine limit < {args.min_ratio:g}")
    if args.max_wire_ratio and wire > args.max_wire_ratio:
        failed.append(f"the batch is {wire:.2f}x behind in process > {args.max_wire_ratio:g}x")
    for failure in failed:
        print(f"below target: {failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
