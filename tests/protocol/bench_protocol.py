"""Benchmark: random complete hands in process vs over GCP/1 (prints figures).

    python tests/protocol/bench_protocol.py [--hands 200] [--repeats 3]

Each hand: ``start`` from a shuffled deck, then ``state phase`` / ``legal`` / ``apply`` (a random
legal action) until the hand is over. The same seeds drive every engine, so the requests are
identical; the figures are the best of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from guinote_conformance.adapters.interface import Engine
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.adapters.vocabulary import deck_codes


def play_hands(engine: Engine, hands: int) -> tuple[float, int]:
    """Seconds and requests to play ``hands`` random hands."""
    flags = dict(engine.info().profiles["lascuarenta"])
    requests = 0
    began = time.perf_counter()
    for seed in range(hands):
        rng = random.Random(seed)
        deck = deck_codes(40)
        rng.shuffle(deck)
        game = engine.start({"flags": flags, "dealer": 0, "deck": deck})
        requests += 1
        while game.state("phase") not in ("hand_over", "match_over"):
            game.apply(rng.choice(game.legal_actions()))
            requests += 3
        requests += 1
    return time.perf_counter() - began, requests


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    serve = [sys.executable, "-m", "guinote_conformance.adapters.serve"]
    engines: dict[str, Engine] = {
        "in process": ReferenceEngine(),
        "GCP/1 (select reader)": SubprocessEngine(serve, reader="select"),
        "GCP/1 (thread reader)": SubprocessEngine(serve, reader="thread"),
    }
    baseline = 0.0
    for name, engine in engines.items():
        play_hands(engine, 10)  # warm up: launch, imports, caches
        seconds, requests = min(play_hands(engine, args.hands) for _ in range(args.repeats))
        baseline = baseline or seconds
        print(
            f"{name:24} {args.hands / seconds:8.1f} hands/s  {seconds / requests * 1e6:6.1f} µs/request"
            f"  {requests / args.hands:5.1f} requests/hand  x{seconds / baseline:.1f}"
        )
        engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
