"""Benchmark: random complete hands per second on one core.

A "hand" is a new game dealt from a shuffled deck and played to the end of its first hand by
a uniform random policy over ``Game.legal_actions()`` (cantes, exchanges, tutes and claims
included): dealing, listing the legal actions and applying them are all timed.

    python benchmarks/bench_hands.py                    # every profile, 4 players, then the variants
    python benchmarks/bench_hands.py --seconds 5 --profile lascuarenta
    python benchmarks/bench_hands.py --min 5000         # exit 1 if a 4-player figure is lower

The process pins itself to one CPU where the system allows it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass

from guinote_conformance.reference_engine.flags import profile_names, rules_for
from guinote_conformance.reference_engine.random_play import new_game, play_hand, uniform_policy

#: The variants measured for information after the 4-player profiles.
VARIANTS = ("mano_a_mano", "ademuz48", "castellon36")


@dataclass(frozen=True)
class Figure:
    profile: str
    hands: int
    actions: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def measure(profile: str, seconds: float, repeat: int = 1, seed: int = 0) -> Figure:
    """The best of ``repeat`` runs of :func:`measure_once` (the machine may be busy)."""
    return max((measure_once(profile, seconds, seed + run) for run in range(repeat)), key=lambda f: f.hands_per_second)


def measure_once(profile: str, seconds: float, seed: int = 0) -> Figure:
    """Play random first hands under ``profile`` for about ``seconds``."""
    rules = rules_for(profile)
    rng = random.Random(seed)
    hands = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        for _ in range(100):  # check the clock every 100 hands
            game, hand_rng = new_game(rules, rng.randrange(1 << 30))
            play_hand(game, uniform_policy(hand_rng))
            actions += len(game.history)
        hands += 100
        now = time.perf_counter()
    return Figure(profile, hands, actions, now - start)


def pin_to_one_core() -> str:
    """Run on a single CPU if the system supports affinity; say which."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no CPU affinity on this system)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    parser.add_argument("--profile", action="append", help="profile(s) to measure (default: all four)")
    parser.add_argument("--min", type=float, default=0.0, help="fail if a 4-player figure is below this")
    parser.add_argument("--no-variants", action="store_true", help="skip the 2-player, 48- and 36-card figures")
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}, {pin_to_one_core()}, best of {args.repeat} runs of {args.seconds:g} s")
    print(f"{'profile':<40} {'hands/s':>10} {'actions/s':>11} {'actions/hand':>13}")
    profiles = args.profile or profile_names()
    below: list[str] = []

    def report(figure: Figure) -> None:
        per_hand = figure.actions / figure.hands
        print(
            f"{figure.profile:<40} {figure.hands_per_second:>10,.0f} {figure.actions_per_second:>11,.0f} "
            f"{per_hand:>13.1f}",
            flush=True,
        )

    for profile in profiles:
        figure = measure(profile, args.seconds, args.repeat)
        report(figure)
        if figure.hands_per_second < args.min:
            below.append(profile)
    if not args.no_variants:
        for variant in VARIANTS:
            report(measure(f"{profiles[0]}+{variant}", args.seconds, args.repeat))
    if below:
        print(f"below {args.min:,.0f} hands/s: {', '.join(below)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
