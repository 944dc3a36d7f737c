"""How well ``run`` and ``compare`` find the catalogue's planted bugs, and name them.

For each engine of :data:`~tests.broken_engines.engines.CATALOGUE` (or those named), served in its own
process, it runs ``guinote-conformance run`` under the profile where its bugs apply (``--jobs 1``) and a
bounded ``compare`` (``--hands``, ``--seconds``), reads ``results.json`` and ``fuzz.json``, and prints
one line per engine:

* **run**: ``yes`` when a planted rule is among the rules of the failing scenarios, with the first
  likely cause the report names (:func:`guinote_conformance.oracle.causes.likely_causes`);
* **compare**: ``yes`` when a divergence group's cause names a planted rule; ``crash`` when compare
  ended with neither 0 nor 1 or wrote no report (it goes on with the next engine);
* the seconds each took.

``--table FILE.jsonl`` (repeatable) prints the table of measures already made, e.g. in pieces.

Each engine's line is appended to ``measure.jsonl`` in ``--work`` as soon as it is measured, so a long
measure can be watched, stopped and continued (``--resume``). ``--check`` exits 1 when a planted
rule is found by neither ``run`` nor ``compare``.

    python -m tests.broken_engines.measure --shape full --check
    python -m tests.broken_engines.measure third_suit_wins third_suit_wins__minimal --hands 40 --seconds 60
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tests.broken_engines.engines import CATALOGUE, Entry

REPO = Path(__file__).resolve().parents[2]
MODULE = "tests.broken_engines.engines"


@dataclass
class Measure:
    """What ``run`` and ``compare`` made of one catalogue engine."""

    engine: str
    shape: str
    planted: list[str]
    run_found: list[str] = field(default_factory=list)
    run_cause: str = ""
    run_status: str = ""
    run_seconds: float = 0.0
    compare_found: list[str] = field(default_factory=list)
    compare_rules: list[str] = field(default_factory=list)
    compare_status: str = ""
    compare_seconds: float = 0.0
    #: planted rule -> why the engine's shape cannot show it: every scenario of the rule is not
    #: applicable to it (the reason run gives: a capability the shape does not declare, such as
    #: ``match`` for the minimal double), so no command can find the bug on it
    unobservable: dict[str, str] = field(default_factory=dict)

    @property
    def missed(self) -> list[str]:
        """Planted rules neither command named, of those the engine's shape can show."""
        return [
            rule
            for rule in self.planted
            if rule not in self.run_found and rule not in self.compare_found and rule not in self.unobservable
        ]


def command(name: str, args: Sequence[str]) -> list[str]:
    """The command line of ``guinote-conformance NAME ARGS`` from this checkout (run it in :data:`REPO`
    with :func:`command_env`)."""
    return [sys.executable, "-m", "guinote_conformance", name, *args]


def command_env() -> dict[str, str]:
    """The environment of :func:`command`: this checkout first on the path."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def compare_args(name: str, folder: Path, *, hands: int, seconds: float, jobs: int = 1) -> list[str]:
    """The options of ``compare`` on the catalogue engine ``name``: served in its own process, under the
    profile and flags where its bugs apply, bounded by ``hands`` games per configuration and ``seconds``,
    no scenarios written, its report into ``folder``."""
    entry = CATALOGUE[name]
    flags = ",".join(f"{flag}={value}" for flag, value in entry.flags.items())
    return [
        "--engine", f"serve:{MODULE}:{name}", "--profile", entry.profile, *(["--flags", flags] if flags else []),
        "--hands", str(hands), "--seconds", str(seconds), "--jobs", str(jobs), "--no-scenarios",
        "--report-dir", str(folder),
    ]  # fmt: skip


def named(planted: Sequence[str], rules: Iterable[str], also: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The planted rules that ``compare`` found: those a divergence group's cause names (``rules``: the
    groups' rules), by the rule itself or by another rule its bug breaks too (``also``:
    :attr:`~tests.broken_engines.engines.Entry.also_breaks`)."""
    causes, also = set(rules), also or {}
    return [rule for rule in planted if rule in causes or not causes.isdisjoint(also.get(rule, ()))]


def _command(name: str, args: Sequence[str], timeout: float) -> tuple[int | None, str, float]:
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command(name, args), cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False,
            env=command_env(),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None, "", time.perf_counter() - started
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - started


def measure_run(entry: Entry, name: str, folder: Path, result: Measure) -> None:
    from guinote_conformance.oracle.causes import likely_causes
    from guinote_conformance.results.report import Report

    code, output, result.run_seconds = _command(
        "run",
        ["--engine", f"serve:{MODULE}:{name}", "--profile", entry.profile, "--jobs", "1", "--report-dir", str(folder)],
        timeout=1800,
    )
    path = folder / "results.json"
    if code not in (0, 1) or not path.exists():
        result.run_status = "timeout" if code is None else f"crash ({code})"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "output.txt").write_text(output, encoding="utf-8")
        return
    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] not in ("pass", "not_applicable")]
    flagged = {rule for r in failed for rule in r["rules"]}
    result.run_found = [rule for rule in result.planted if rule in flagged]
    for rule in result.planted:  # (a rule no scenario of which the engine can play: out of its reach)
        runs = [r for r in results if rule in r["rules"]]
        if runs and all(r["status"] == "not_applicable" for r in runs):
            result.unobservable[rule] = str(runs[0].get("message") or "not applicable")
    causes = likely_causes(Report.load(path))
    result.run_cause = (causes[0].rule or "-") if causes else "-"
    result.run_status = f"{len(failed)} fail" if failed else "pass"


def measure_compare(entry: Entry, name: str, folder: Path, result: Measure, hands: int, seconds: float) -> None:
    code, output, result.compare_seconds = _command(
        "compare", compare_args(name, folder, hands=hands, seconds=seconds), timeout=seconds + 900
    )
    path = folder / "fuzz.json"
    if code not in (0, 1) or not path.exists() or "Traceback" in output:
        result.compare_status = "timeout" if code is None else f"crash ({code})"
        (folder / "output.txt").parent.mkdir(parents=True, exist_ok=True)
        (folder / "output.txt").write_text(output, encoding="utf-8")
        return
    data = json.loads(path.read_text(encoding="utf-8"))
    rules: list[str] = [str(group["cause"].get("rule") or "") for group in data["groups"]]
    result.compare_rules = sorted(set(rules))
    result.compare_found = named(result.planted, rules, entry.also_breaks)
    result.compare_status = f"{len(rules)} groups, {data.get('hands', 0)} hands"


def measure(name: str, work: Path, *, hands: int, seconds: float, run: bool, compare: bool) -> Measure:
    entry = CATALOGUE[name]
    result = Measure(name, entry.shape, list(entry.rules))
    if run:
        measure_run(entry, name, work / name / "run", result)
    if compare:
        measure_compare(entry, name, work / name / "compare", result, hands, seconds)
    return result


def _found(found: list[str], planted: list[str], status: str) -> str:
    if status.startswith(("crash", "timeout")):
        return status
    if not status:
        return "-"
    return "yes" if len(found) == len(planted) else (f"{len(found)}/{len(planted)}" if found else "no")


def _rules_named(measure: Measure) -> str:
    """The rules compare's groups name: the planted ones first, then how many others (consequences of
    the bugs, or rules a bug also breaks). Cut to four names, the table once left out planted rules
    that were found, and read as if compare had missed them. A planted rule named by another rule its
    bug breaks too reads ``SCORE-09 (SCORE-10)``."""
    also = CATALOGUE[measure.engine].also_breaks if measure.engine in CATALOGUE else {}
    naming = {rule: [name for name in (rule, *also.get(rule, ())) if name in measure.compare_rules]
              for rule in measure.planted}  # fmt: skip
    others = [rule for rule in measure.compare_rules if not any(rule in names for names in naming.values())]
    named = [names[0] if names[0] == rule else f"{names[0]} ({rule})" for rule, names in naming.items() if names]
    return " ".join([*named, *([f"+{len(others)} other"] if others else [])]) or "-"


def table(results: Sequence[Measure]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| engine | shape | planted | run found | run 1st cause | compare found | compare rules | s run | s compare |",
        "| --- | --- | --- | --- | --- | --- | --- | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.engine} | {r.shape} | {' '.join(r.planted)} | {_found(r.run_found, r.planted, r.run_status)} "
            f"| {r.run_cause or '-'} | {_found(r.compare_found, r.planted, r.compare_status)} "
            f"| {_rules_named(r)} | {r.run_seconds:.0f} | {r.compare_seconds:.0f} |"
        )
    reach = {r.engine: [p for p in r.unobservable if p not in (*r.run_found, *r.compare_found)] for r in results}
    found = [r for r in results if not r.missed and not reach[r.engine]]
    out_of_reach = [r for r in results if reach[r.engine] and not r.missed]
    by_run = [r for r in results if len(r.run_found) == len(r.planted)]
    by_compare = [r for r in results if len(r.compare_found) == len(r.planted)]
    first = [r for r in results if r.run_cause in r.planted]
    crashes = [r for r in results if r.compare_status.startswith(("crash", "timeout"))]
    lines.append("")
    lines.append(
        f"{len(results)} engines: every planted rule found by run or compare in {len(found)}; "
        f"by run in {len(by_run)} (named first cause in {len(first)}); by compare in {len(by_compare)}; "
        f"compare crashed or timed out on {len(crashes)}; out of the shape's reach in {len(out_of_reach)}"
    )
    for r in out_of_reach:
        lines += [f"  {r.engine}: {rule} cannot be shown by this shape: {r.unobservable[rule]}"
                  for rule in reach[r.engine]]  # fmt: skip
    return "\n".join(lines)


def _selected(names: Sequence[str], shapes: Sequence[str]) -> list[str]:
    unknown = [name for name in names if name not in CATALOGUE]
    if unknown:
        raise SystemExit(f"not in the catalogue: {', '.join(unknown)} (see tests/broken_engines/engines.py)")
    chosen = list(names) or list(CATALOGUE)
    return [name for name in chosen if not shapes or CATALOGUE[name].shape in shapes]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.broken_engines.measure", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("names", nargs="*", help="catalogue engines (default: all)")
    parser.add_argument("--shape", action="append", default=[], help="only engines of this shape (repeatable)")
    parser.add_argument("--hands", type=int, default=40, help="compare: games per configuration")
    parser.add_argument("--seconds", type=float, default=60, help="compare: stop after this many seconds")
    parser.add_argument("--no-run", action="store_true", help="skip run")
    parser.add_argument("--no-compare", action="store_true", help="skip compare")
    parser.add_argument("--work", type=Path, default=Path("reports/catalogue"), help="report folders and measure.jsonl")
    parser.add_argument("--resume", action="store_true", help="skip engines already in measure.jsonl")
    parser.add_argument("--check", action="store_true", help="exit 1 when a planted rule is found by neither command")
    parser.add_argument("--list", action="store_true", help="list the selected engines and exit")
    parser.add_argument(
        "--table", type=Path, action="append", default=[], metavar="JSONL", help="print the table of measures made"
    )
    options = parser.parse_args(argv)
    if options.table:
        made = [Measure(**json.loads(line)) for path in options.table for line in path.read_text("utf-8").splitlines()]
        print(table(made))
        return 0
    names = _selected(options.names, options.shape)
    if options.list:
        for name in names:
            entry = CATALOGUE[name]
            print(f"{name}\t{entry.shape}\t{' '.join(entry.rules)}\t{entry.profile}")
        return 0
    options.work.mkdir(parents=True, exist_ok=True)
    log = options.work / "measure.jsonl"
    done: dict[str, Measure] = {}
    if options.resume and log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            data: dict[str, Any] = json.loads(line)
            done[data["engine"]] = Measure(**data)
    results: list[Measure] = []
    for number, name in enumerate(names, 1):
        if name in done:
            results.append(done[name])
            continue
        result = measure(
            name, options.work, hands=options.hands, seconds=options.seconds,
            run=not options.no_run, compare=not options.no_compare,
        )  # fmt: skip
        results.append(result)
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(result)) + "\n")
        print(f"[{number}/{len(names)}] {table([result]).splitlines()[2]}", flush=True)
    report = table(results)
    (options.work / "table.md").write_text(report + "\n", encoding="utf-8")
    print(report)
    missed = [r for r in results if r.missed]
    if options.check and missed:
        print(
            "planted rules found by neither run nor compare: "
            + ", ".join(f"{r.engine} ({' '.join(r.missed)})" for r in missed)
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
