"""Benchmark: the differential fuzzer (``guinote-conformance compare``) in process and over the wire.

Three figures side by side, in one run, on the same games (the reference against itself, so
nothing diverges and every game is played to its end):

* **in process**: the engine under test is the reference engine, in this process;
* **over the wire, batch**: the reference served over the protocol (``python -m adapters.serve``),
  asked for a whole hand in one ``batch`` request;
* **over the wire, one request per call**: the same served engine without ``batch`` (what an
  engine that does not declare the capability costs).

The raw speed of the reference engine on its own (random first hands, as ``bench_hands.py``)
is printed beside them: on a busy machine every figure drops, their ratios much less.

    python benchmarks/bench_fuzz.py                       # 40 games per configuration
    python benchmarks/bench_fuzz.py --games 100 --depth hand
"""

from __future__ import annotations

import argparse
import sys
import time

from adapters.interface import Engine
from adapters.reference import ReferenceEngine
from adapters.subprocess_adapter import SubprocessEngine
from conformance.fuzz import DEPTHS, Fuzzer, resolve


def measure(engine: Engine, *, games: int, depth: str, profiles: list[str], batch: bool) -> tuple[int, float]:
    info = engine.info()
    fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=depth, seed=7, batch=batch)
    started = time.perf_counter()
    report = fuzzer.run([resolve(info, name) for name in profiles], games)
    seconds = time.perf_counter() - started
    if report.groups:  # pragma: no cover - the reference must agree with itself
        raise SystemExit(f"the reference diverged from itself: {[str(cause) for cause in report.groups]}")
    return report.hands, seconds


def raw_hands_per_second(seconds: float = 1.0) -> float:
    import random

    from reference_engine.flags import rules_for
    from reference_engine.random_play import new_game, play_hand, uniform_policy

    rules, rng, hands = rules_for("lascuarenta"), random.Random(0), 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game, hand_rng = new_game(rules, rng.randrange(1 << 30))
        play_hand(game, uniform_policy(hand_rng))
        hands += 1
    return hands / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per configuration (default 40)")
    parser.add_argument("--depth", choices=DEPTHS, default="match", help="a game is a hand, a point or a match")
    parser.add_argument("--profile", action="append", help="profiles (default: lascuarenta and tradicional)")
    args = parser.parse_args(argv)
    profiles = args.profile or ["lascuarenta", "tradicional"]
    games = f"{args.games} games per profile ({', '.join(profiles)})"
    print(f"Python {sys.version.split()[0]}; {games}, depth {args.depth}")
    print(f"reference engine alone: {raw_hands_per_second():,.0f} random first hands/s")
    figures = []
    hands, seconds = measure(ReferenceEngine(), games=args.games, depth=args.depth, profiles=profiles, batch=True)
    figures.append(("in process", hands, seconds))
    for label, batch in (("over the wire, batch", True), ("over the wire, one request per call", False)):
        served = SubprocessEngine([sys.executable, "-m", "adapters.serve"], timeout=30)
        try:
            hands, seconds = measure(served, games=args.games, depth=args.depth, profiles=profiles, batch=batch)
        finally:
            served.close()
        figures.append((label, hands, seconds))
    base = figures[0][1] / figures[0][2]
    print(f"{'fuzzer':<38} {'hands':>7} {'seconds':>8} {'hands/s':>9} {'vs in process':>14}")
    for label, hands, seconds in figures:
        rate = hands / seconds
        print(f"{label:<38} {hands:>7} {seconds:>8.2f} {rate:>9,.0f} {base / rate:>13.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
