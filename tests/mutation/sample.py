"""Mutation testing on a random sample of the mutants (``tox -e mutation-sample``).

Every mutant of the reference engine takes an hour or more on two cores; a seeded random
sample of a few hundred estimates the score in a fraction of that, and names the gaps it
finds the same way. The sample is uniform over all mutants, so the score it gives is an
unbiased estimate; the script prints its 95 % margin::

    python -m tests.mutation.sample --size 400 --seed 1

It asks mutmut to generate the mutants (a run that matches none of them), draws the sample
from ``mutmut results``, runs mutmut on those mutants only, then prints the score with
:mod:`tests.mutation.score`.

After a full run stopped part way, ``--rest`` draws the sample from the mutants that have no
result yet (their names go to ``mutants/rest.txt``; those of out-of-scope functions are left
out, as the score leaves them out): the score then counts the checked ones exactly and
estimates the others from the sample (``score --stratified``)::

    python -m tests.mutation.sample --rest --size 300 --seed 1
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from collections.abc import Sequence

from tests.mutation.score import HERE, REST_FILE, SAMPLE_FILE, load_explained, out_of_scope, read_results
from tests.mutation.score import main as score_main

NO_MUTANT = "no-such-mutant-just-generate"


def draw(names: Sequence[str], size: int, seed: int) -> list[str]:
    """A uniform sample of ``size`` names (all of them if there are fewer), in a stable order."""
    chosen = random.Random(seed).sample(sorted(names), min(size, len(names)))
    return sorted(chosen)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=400, help="mutants in the sample (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    parser.add_argument("--goal", type=float, default=95.0, help="the score to reach, in percent (default 95)")
    parser.add_argument(
        "--rest",
        action="store_true",
        help="draw from the mutants with no result yet (kept in mutants/rest.txt: delete it to draw anew), "
        "and score the checked ones in full (a stopped full run)",
    )
    args = parser.parse_args(argv)
    subprocess.run([sys.executable, "-m", "mutmut", "run", NO_MUTANT], check=False)
    names = [mutant.name for mutant in read_results()]
    if not names:
        print("mutmut generated no mutants", file=sys.stderr)
        return 1
    if args.rest:
        # drawn once: a resumed sample keeps the population it was drawn from
        if not REST_FILE.exists():
            explanations = load_explained(HERE / "explained.toml")
            unchecked = [
                mutant.name
                for mutant in read_results()
                if mutant.status == "not checked" and out_of_scope(mutant, explanations) is None
            ]
            REST_FILE.write_text("".join(f"{name}\n" for name in sorted(unchecked)), encoding="utf-8")
        names = REST_FILE.read_text(encoding="utf-8").split()
    sample = draw(names, args.size, args.seed)
    SAMPLE_FILE.write_text("".join(f"{name}\n" for name in sample), encoding="utf-8")
    # mutmut re-runs every mutant it is given by name: give it only those with no result yet,
    # so an interrupted sample resumes where it stopped
    checked = {mutant.name for mutant in read_results() if mutant.status != "not checked"}
    pending = [name for name in sample if name not in checked]
    print(f"sample: {len(sample)} of {len(names)} mutants (seed {args.seed}), {len(pending)} to run")
    if pending:
        done = subprocess.run([sys.executable, "-m", "mutmut", "run", *pending], check=False)
        if done.returncode != 0:
            print(f"mutmut run exited with {done.returncode}", file=sys.stderr)
            return 1
    if args.rest:
        return score_main(["--goal", str(args.goal), "--stratified"])
    return score_main(["--goal", str(args.goal), "--only", str(SAMPLE_FILE)])


if __name__ == "__main__":
    raise SystemExit(main())
