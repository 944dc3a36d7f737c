"""How fast ``compare`` finds each deliberately broken engine, and the scenario it writes.

For each engine of ``tests/broken_engines`` (the suite's own and those that break a rule random
play rarely reaches), served over the protocol, the fuzzer plays games under a profile where
the broken rule applies until the first divergence (or the budget), then shrinks it and writes
the scenario; the scenario is run through the suite's plugin on the engine and the reference.

    python benchmarks/fuzz_broken.py                  # every engine, 400 games each at most
    python benchmarks/fuzz_broken.py --engine no_thirty_malas --games 2000 --show
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the broken engines live in tests/

from tests.fuzz.broken import TARGETS, hunt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", choices=sorted(TARGETS), help="only these engines")
    parser.add_argument("--games", type=int, default=400, help="most games per engine (default 400)")
    parser.add_argument("--no-steer", action="store_true", help="uniform deals and play, for comparison")
    parser.add_argument("--show", action="store_true", help="print each scenario")
    args = parser.parse_args(argv)
    heading = f"{'engine':<26} {'configuration':<42} {'first at hand':>13} {'seconds':>8}"
    print(f"{heading}  cause (actions) / scenario check")
    missed = 0
    for name in args.engine or list(TARGETS):
        finding = hunt(name, args.games, steer=not args.no_steer)
        first = str(finding.first) if finding.first is not None else f"> {finding.hands}"
        missed += finding.first is None
        print(f"{name:<26} {finding.config:<42} {first:>13} {finding.seconds:>8.1f}  "
              f"{finding.cause} ({finding.actions}) / {finding.checked or '-'}", flush=True)  # fmt: skip
        if args.show and finding.scenario:
            print(finding.scenario)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
