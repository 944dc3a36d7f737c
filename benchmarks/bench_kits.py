"""Benchmark: an engine kit's ``batch`` against one request per call, over the wire.

Every kit in ``kits/`` answers the optional command ``batch`` in its protocol loop (and declares
the capability), so that an engine written from a kit is compared in one request per hand. This
measures what that is worth, for any engine command (a built kit, or your engine built from one):

* **compare**: the differential fuzzer (``guinote-conformance compare``, hand depth) against the
  engine, with its ``batch`` and without it (one ``apply``, ``legal`` and ``state`` per call), on
  the same games; the two runs must find the same (it is checked). A kit's untouched skeleton
  diverges from the reference in most hands (no cantes, no exchange...): each divergence is traced
  by replaying its hand one request at a time, batch or not, so this ratio is lower than for an
  engine that agrees;
* **replay**: hands the reference played (explicit deals, random legal actions) replayed on the
  engine, every field of the comparison read after every action (``guinote_conformance.fuzz.play``'s
  ``play_actions``), in one ``batch`` per hand or one request per call: the protocol's own cost,
  without the fuzzer's.

    python benchmarks/bench_kits.py -- kits/go/guinote-engine
    python benchmarks/bench_kits.py --games 60 --repeat 3 -- java -cp kits/java/out guinote.kit.Main

Each figure is the best of ``--repeat`` runs; the machine's load is printed with them: on a busy
machine every figure drops, their ratios much less.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from guinote_conformance.adapters.harness.setups import explicit_deal
from guinote_conformance.adapters.interface import JSON, Accepted
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.play import play_actions
from guinote_conformance.oracle.steps import FIELDS


def compare_rate(argv: Sequence[str], *, games: int, batch: bool) -> tuple[int, float, list[tuple[str, int]]]:
    """The hands the fuzzer played against the engine, the seconds it took and what it found."""
    engine = SubprocessEngine(list(argv), timeout=30.0, startup_timeout=60.0)
    try:
        info = engine.info()
        if "batch" not in info.capabilities:
            raise SystemExit(f"{' '.join(argv)} does not declare the capability 'batch'")
        fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth="hand", seed=7, batch=batch)
        started = time.perf_counter()
        report = fuzzer.run([resolve(info, name) for name in info.profiles], games)
        seconds = time.perf_counter() - started
    finally:
        engine.close()
    return report.hands, seconds, sorted((str(cause), group.count) for cause, group in report.groups.items())


def reference_hands(flags: dict[str, str], count: int) -> list[tuple[dict[str, JSON], list[dict[str, JSON]]]]:
    """``count`` hands of the reference: each an explicit deal and the random legal actions it took."""
    reference, rng, hands = ReferenceEngine(), random.Random(7), []
    for seed in range(count):
        setup: dict[str, JSON] = {"flags": dict(flags), "dealer": 0, **explicit_deal(flags, seed)}
        game, actions = reference.start(setup), []
        while game.state("phase") == "free" or game.state("phase") == "arrastre":
            action = rng.choice(list(game.legal_actions()))
            if isinstance(game.apply(action), Accepted):
                actions.append(action)
        hands.append((setup, actions))
    return hands


def replay_rate(argv: Sequence[str], hands: Sequence[tuple[dict[str, Any], list[dict[str, Any]]]], *, batch: bool
                ) -> tuple[int, float]:  # fmt: skip
    """The requests' worth of the hands replayed on the engine, and the seconds it took."""
    engine = SubprocessEngine(list(argv), timeout=30.0, startup_timeout=60.0)
    try:
        engine.info()
        started = time.perf_counter()
        for setup, actions in hands:
            game = engine.start(setup)
            play_actions(game, actions, [FIELDS] * (len(actions) + 1), use_batch=batch)
            game.end()
        seconds = time.perf_counter() - started
    finally:
        engine.close()
    return len(hands), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games (hands) per run (default 40)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the best is shown (default 1)")
    parser.add_argument("command", nargs="+", help="the engine's command, after --")
    args = parser.parse_args(argv)
    load = " / ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    print(f"{' '.join(args.command)}: {args.games} hands per run, best of {args.repeat}; load {load}")
    rows: dict[str, dict[bool, float]] = {"compare": {}, "replay": {}}
    found: dict[bool, list[tuple[str, int]]] = {}
    info = SubprocessEngine(args.command, startup_timeout=60.0)
    try:
        flags = dict(next(iter(info.info().profiles.values())))
    finally:
        info.close()
    hands = reference_hands(flags, args.games)
    for batch in (True, False):
        best = min((compare_rate(args.command, games=args.games, batch=batch) for _ in range(args.repeat)),
                   key=lambda run: run[1])  # fmt: skip
        rows["compare"][batch], found[batch] = best[0] / best[1], best[2]
        played, seconds = min((replay_rate(args.command, hands, batch=batch) for _ in range(args.repeat)),
                              key=lambda run: run[1])  # fmt: skip
        rows["replay"][batch] = played / seconds
    print(f"{'':<10} {'batch hands/s':>14} {'one per call':>13} {'ratio':>7}")
    for label, rates in rows.items():
        print(f"{label:<10} {rates[True]:>14,.1f} {rates[False]:>13,.1f} {rates[True] / rates[False]:>6.1f}x")
    if found[True] != found[False]:
        print(f"compare found different things with batch and without:\n  {found[True]}\n  {found[False]}")
        return 1
    print(f"compare found the same with batch and without ({len(found[True])} causes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
