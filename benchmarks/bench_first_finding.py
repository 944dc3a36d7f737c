"""Benchmark: the time to the first finding, what a user waits for from typing ``compare`` to seeing the bug.

Each bug of the broken-engine catalogue (:data:`tests.broken_engines.engines.BUGS`, one at a time, in
the reference's own shape) is planted in an engine served in its own process, and a fresh ``compare``
is started on it as a command (the options ``python -m tests.broken_engines.measure`` gives it: the
profile and flags where the bug applies, ``--no-scenarios``), with ``--jobs 1`` and with ``--jobs 2``.
``compare`` prints each divergence group the moment play first finds it (``found: <cause> [RULE] ...``,
:func:`guinote_conformance.fuzz.findings.found_line`); the figure is the wall time from starting the command
to the first such line whose rule is a planted one, or another rule the bug breaks too (the catalogue
measure's judgement: :func:`tests.broken_engines.measure.named`). Then the command is stopped. A bug
not shown within ``--limit`` seconds counts as not found (``>LIMIT``, the worst).

It prints a line per bug (its rule, the seconds with each number of jobs, and the rule of the first
group shown, found or not), then per number of jobs the median and the worst, with the load average
before and after (the figures are wall times: on a busy machine they grow).

    python benchmarks/bench_first_finding.py                      # every bug, 1 and 2 jobs
    python benchmarks/bench_first_finding.py --jobs 2 --check     # fails over the targets
    python benchmarks/bench_first_finding.py no_thirty_malas exchange_twice --limit 120

``--check`` exits 1 when, for the largest number of jobs measured (the cores of the target machine:
2), the median is not under ``--median`` seconds (5) or a bug takes ``--worst`` seconds or more (60).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the broken engines live in tests/

from tests.broken_engines.engines import BUGS, CATALOGUE
from tests.broken_engines.measure import REPO, command, command_env, compare_args, named

#: A line of ``compare`` announcing a divergence group (:func:`guinote_conformance.fuzz.findings.found_line`): its rule.
FOUND = re.compile(r"^found: .*?(?:\[(?P<rule>[^\]]+)\])?(?: \(known\))? after \d+ hands")
#: Games per configuration: more than any bug needs, so that ``--limit`` is what stops a run.
HANDS = 100_000


@dataclass
class Timing:
    """One compare run on one planted bug."""

    bug: str
    jobs: int
    #: seconds from starting the command to the planted rule's group shown; ``None``: not within the limit
    seconds: float | None
    #: the rule of the first group shown (``""``: none was)
    first_rule: str = ""
    #: how the command ended when it ended by itself before the rule was shown (``""``: it was stopped)
    ended: str = ""

    def cell(self, limit: float) -> str:
        return f"{self.seconds:.1f}" if self.seconds is not None else f">{limit:.0f}"


def time_to_finding(bug: str, jobs: int, limit: float, folder: Path) -> Timing:
    """Start ``compare`` on the engine with ``bug`` planted; the seconds until its planted rule is shown."""
    planted = CATALOGUE[bug].rules
    started = time.perf_counter()
    process = subprocess.Popen(
        command("compare", compare_args(bug, folder, hands=HANDS, seconds=limit + 5, jobs=jobs)),
        cwd=REPO, env={**command_env(), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    # the limit is kept by a timer: a command that prints nothing must not hold the read below
    timer = threading.Timer(limit, _stop, (process,))
    timer.start()
    timing = Timing(bug, jobs, None)
    output: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line)
            found = FOUND.match(line)
            if not found:
                continue
            rule = found.group("rule") or ""
            timing.first_rule = timing.first_rule or rule
            if named(planted, [rule], CATALOGUE[bug].also_breaks):
                timing.seconds = time.perf_counter() - started
                timing.first_rule = rule
                break
    finally:
        timer.cancel()
        _stop(process)
    if timing.seconds is None and process.returncode not in (None, -signal.SIGTERM, -signal.SIGKILL):
        timing.ended = f"exit {process.returncode}: {''.join(output[-3:]).strip()[:300]}"
    if timing.seconds is not None and timing.seconds > limit:
        timing.seconds = None  # (shown after the limit, while the command was being stopped)
    return timing


def _stop(process: subprocess.Popen[str]) -> None:
    """Stop the command and what it started (its served engines, its workers): its own process group."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def summary(timings: Sequence[Timing], limit: float) -> tuple[float, float]:
    """The median and the worst seconds (a bug not found counts as infinitely long)."""
    seconds = [t.seconds if t.seconds is not None else float("inf") for t in timings]
    return statistics.median(seconds), max(seconds)


def _load() -> str:
    return "load average " + " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def _figure(value: float, limit: float) -> str:
    return f"{value:.1f} s" if value != float("inf") else f">{limit:.0f} s (not found)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bugs", nargs="*", help="bugs of tests/broken_engines (default: every one)")
    parser.add_argument("--jobs", type=int, action="append", help="compare --jobs (repeatable; default 1 and 2)")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before a bug counts as not found (60)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure misses its target")
    parser.add_argument("--median", type=float, default=5.0, help="--check: the median must be under this (5 s)")
    parser.add_argument("--worst", type=float, default=60.0, help="--check: every bug must be under this (60 s)")
    options = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # (the commands under way are stopped on the way out)
    unknown = [bug for bug in options.bugs if bug not in BUGS]
    if unknown:
        parser.error(f"not a bug of tests/broken_engines/engines.py: {', '.join(unknown)}")
    bugs = options.bugs or list(BUGS)
    jobs = sorted(set(options.jobs or [1, 2]))
    print(f"{_load()}; {os.cpu_count()} cores; limit {options.limit:.0f} s")
    columns = " ".join(f"{f'{j} job' + 's' * (j > 1):>8}" for j in jobs)
    print(f"{'bug':<28} {'rule':<11} {columns}  first group shown (by jobs)")
    timings: dict[int, list[Timing]] = {j: [] for j in jobs}
    with tempfile.TemporaryDirectory(prefix="first-finding-") as work:
        for bug in bugs:
            row = [time_to_finding(bug, j, options.limit, Path(work) / f"{bug}-{j}") for j in jobs]
            for timing in row:
                timings[timing.jobs].append(timing)
            notes = "; ".join(f"{t.jobs}: {t.first_rule or '-'}" + (f" ({t.ended})" if t.ended else "") for t in row)
            also = [rule for rules in CATALOGUE[bug].also_breaks.values() for rule in rules]
            notes += f" ({', '.join(also)}: a rule the bug breaks too)" if also else ""
            print(f"{bug:<28} {' '.join(CATALOGUE[bug].rules):<11} "
                  + " ".join(f"{t.cell(options.limit):>8}" for t in row) + f"  {notes}", flush=True)  # fmt: skip
    print(_load())
    failed = False
    for j in jobs:
        median, worst = summary(timings[j], options.limit)
        slowest = max(timings[j], key=lambda t: t.seconds if t.seconds is not None else float("inf"))
        print(f"--jobs {j}: median {_figure(median, options.limit)}, worst {_figure(worst, options.limit)} "
              f"({slowest.bug}) over {len(timings[j])} bugs")  # fmt: skip
    median, worst = summary(timings[jobs[-1]], options.limit)
    if options.check and (median >= options.median or worst >= options.worst):
        print(f"FAILED: with --jobs {jobs[-1]} the median must be under {options.median:g} s and every bug under "
              f"{options.worst:g} s")  # fmt: skip
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
