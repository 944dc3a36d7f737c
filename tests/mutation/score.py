"""The mutation score of the reference engine, with every surviving mutant explained or listed.

``tox -e mutation`` runs mutmut (config in ``pyproject.toml [tool.mutmut]``: the conformance
scenarios, played through the capability-less path, are the only tests), then this script::

    python -m tests.mutation.score [--explained tests/mutation/explained.toml] [--goal 95]

A mutant is *killed* (a scenario failed or timed out), *survived* (every scenario passed) or
*no tests* (no scenario reaches the mutated function). A survivor that changes no outcome is
not a gap, and is taken out of the score with its reason:

* **prose**: the mutation only changes free text for people (an f-string, or a string with a
  space: a refusal's message, an error's wording), which the protocol leaves to each engine
  and no rule reads. Found from the diff itself; identifiers and codes have no spaces, so a
  mutated reason code or flag value is never taken for prose.
* **equivalent**: an entry of ``explained.toml`` names the function, the original code and the
  mutated code (``"*"`` for both: any mutant of the function), and says in one line why the
  outcome cannot change.
* **out of scope**: an entry of ``explained.toml`` names functions that are not rules played
  by the scenarios (game records, random play, the position loader of the ``positions``
  capability), with the tests that check them instead.

The score is killed / (mutants - prose - equivalent - out of scope). The script prints the
figures by module and every unexplained survivor with its diff, and exits 1 when the score
is below the goal or an entry of ``explained.toml`` explains nothing (stale), 2 on a bad file.
It reads mutmut's results through ``mutmut results`` and the diffs through mutmut's own diff
function: this module is the one place that knows mutmut's internals.

A run stopped part way (every mutant takes an hour or more on two cores) is scored by
**strata** (``--stratified DIR``, written by ``tests/mutation/sample.py --rest``): the mutants
checked by then are counted exactly, and a uniform random sample of the others estimates
theirs; the estimate of the whole is printed with its 95 % margin.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import math
import subprocess
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from guinote_conformance.base.toml_entries import Entry, read_entries

HERE = Path(__file__).resolve().parent
#: the mutants drawn by tests/mutation/sample.py, one name per line (beside mutmut's results)
SAMPLE_FILE = Path("mutants") / "sample.txt"
#: with ``sample.py --rest``: every mutant that had no result when the sample was drawn
REST_FILE = Path("mutants") / "rest.txt"
KINDS = ("equivalent", "out_of_scope")
KEYS = ("kind", "function", "original", "mutated", "reason")
DETECTED = ("killed", "timeout", "caught by type check")


class ExplainedFileError(ValueError):
    """A mistake in ``explained.toml`` (the message starts with file:line)."""


@dataclass(frozen=True)
class Mutant:
    name: str  #: mutmut's key, e.g. ``guinote_conformance.reference_engine.hand.xǁHandǁ_claim__mutmut_3``
    status: str

    @property
    def function(self) -> str:
        """The mutated function as Python names it: ``guinote_conformance.reference_engine.hand.Hand._claim``."""
        qualified = self.name.rsplit("__mutmut_", 1)[0]
        module, _, last = qualified.rpartition(".")
        if last.startswith("xǁ"):
            return f"{module}.{'.'.join(part for part in last[2:].split('ǁ') if part)}"
        return f"{module}.{last.removeprefix('x_')}"

    @property
    def module(self) -> str:
        """The rule module of the reference engine the function is in (``hand``, ``cantes``...)."""
        return self.function.removeprefix("guinote_conformance.").split(".")[1]


@dataclass(frozen=True)
class Explanation:
    entry: Entry
    kind: str

    def explains(self, mutant: Mutant, removed: str, added: str) -> bool:
        if not fnmatch.fnmatchcase(mutant.function, self.entry.get("function")):
            return False
        if self.kind == "out_of_scope":
            return True
        original, mutated = self.entry.get("original"), self.entry.get("mutated")
        if original == mutated == "*":  # every mutant of the function changes no outcome
            return True
        # mutated "*": any change to the original code (a removed argument leaves no added line)
        return original in removed and (mutated == "*" or mutated in added)


@dataclass
class Verdicts:
    by_module: dict[str, Counter[str]] = field(default_factory=dict)
    unexplained: list[tuple[Mutant, str]] = field(default_factory=list)
    used: set[int] = field(default_factory=set)

    def count(self, mutant: Mutant, verdict: str) -> None:
        self.by_module.setdefault(mutant.module, Counter())[verdict] += 1

    def total(self) -> Counter[str]:
        return sum(self.by_module.values(), Counter())


def load_explained(path: Path) -> list[Explanation]:
    """Read ``explained.toml``: each entry a kind, a function glob and a reason (equivalent:
    also the original and mutated code, as substrings of the diff's lines)."""
    explanations = []
    for entry in read_entries(path, "mutant", KEYS, what="list of explained mutants", error=ExplainedFileError):
        kind = entry.get("kind")
        if kind not in KINDS:
            raise ExplainedFileError(f"{entry.where('kind')}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if not entry.get("function"):
            raise ExplainedFileError(f"{entry.where()}: the entry needs a function (a glob on module.function)")
        if kind == "equivalent" and not (entry.get("original") and entry.get("mutated")):
            raise ExplainedFileError(f"{entry.where()}: an equivalent mutant needs the original and mutated code")
        explanations.append(Explanation(entry, kind))
    return explanations


def changed_lines(diff: str) -> tuple[str, str]:
    """The removed and the added lines of a unified diff, each stripped and joined by newlines."""
    removed = [line[1:].strip() for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    return "\n".join(removed), "\n".join(added)


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    skipped = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENDMARKER}
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type not in skipped:
                found.append(token)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # a fragment of a call ends inside brackets: the tokens read so far are enough
    return found


def _is_prose(token: tokenize.TokenInfo) -> bool:
    if token.type != tokenize.STRING:
        return False
    prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
    return "f" in prefix.lower() or " " in token.string


def is_prose_only(removed: str, added: str) -> bool:
    """Whether the mutation only rewrites (or blanks with ``None``) strings that are prose."""
    before, after = _tokens(removed), _tokens(added)
    if not before or len(before) != len(after):
        return False
    differing = [(old, new) for old, new in zip(before, after, strict=True) if old.string != new.string]
    return bool(differing) and all(
        _is_prose(old) and (new.type == tokenize.STRING or new.string == "None") for old, new in differing
    )


def out_of_scope(mutant: Mutant, explanations: Sequence[Explanation]) -> int | None:
    """The index of the out-of-scope entry that covers the mutant's function, if any."""
    scopes = (n for n, e in enumerate(explanations) if e.kind == "out_of_scope" and e.explains(mutant, "", ""))
    return next(scopes, None)


def judge(mutants: Iterable[Mutant], diff_of: Callable[[str], str], explanations: Sequence[Explanation]) -> Verdicts:
    verdicts = Verdicts()
    for mutant in mutants:
        # out of scope by its function alone, checked or not: a run may leave these for last
        scope = out_of_scope(mutant, explanations)
        if scope is not None:
            verdicts.used.add(scope)
            verdicts.count(mutant, "out of scope")
            continue
        if mutant.status == "not checked":
            verdicts.count(mutant, "not checked")
            continue
        if mutant.status in DETECTED:
            verdicts.count(mutant, "killed")
            continue
        diff = diff_of(mutant.name)
        removed, added = changed_lines(diff)
        if mutant.status == "survived" and is_prose_only(removed, added):
            verdicts.count(mutant, "prose")
            continue
        found = next((n for n, e in enumerate(explanations) if e.explains(mutant, removed, added)), None)
        if found is not None:
            verdicts.used.add(found)
            verdicts.count(mutant, "equivalent")
            continue
        verdicts.count(mutant, mutant.status)
        verdicts.unexplained.append((mutant, diff))
    return verdicts


def score(counts: Counter[str]) -> float | None:
    judged = sum(counts.values()) - counts["prose"] - counts["equivalent"] - counts["out of scope"]
    judged -= counts["not checked"]
    return 100.0 * counts["killed"] / judged if judged else None


def margin(killed: int, judged: int) -> float:
    """Half-width, in percentage points, of the 95 % normal interval of a score measured on a
    uniform sample of ``judged`` mutants (a partial run is such a sample only if drawn at random)."""
    if judged == 0:
        return 0.0
    rate = killed / judged
    return 196.0 * math.sqrt(rate * (1 - rate) / judged)


@dataclass(frozen=True)
class Strata:
    """A partial run scored in two strata: ``checked``, every mutant of it with a result, and
    ``sample``, a uniform random draw from the ``population`` of the others."""

    checked: Counter[str]
    sample: Counter[str]
    sample_size: int
    population: int

    def estimate(self) -> tuple[float, float, float] | None:
        """The estimated score of all the mutants and its 95 % interval, in percent.

        The checked stratum counts as it is; the sampled one adds its judged mutants in
        proportion (``population / sample_size`` for each), at the kill rate of the sample for
        the estimate and at the ends of that rate's Wilson interval for the bounds, which stay
        honest when every sampled mutant was killed (a normal interval would be zero wide)."""
        n, big_n = self.sample_size, self.population
        if big_n and not n:
            return None  # the unchecked stratum has no sample: nothing can be said of it
        killed_c, judged_c = self.checked["killed"], _judged(self.checked)
        killed_s, judged_s = self.sample["killed"], _judged(self.sample)
        judged_rest = big_n * judged_s / n if n else 0.0
        if judged_c + judged_rest == 0:
            return None

        def whole(rate: float) -> float:
            return 100.0 * (killed_c + judged_rest * rate) / (judged_c + judged_rest)

        if not judged_s:
            return whole(0.0), whole(0.0), whole(0.0)
        low, high = wilson(killed_s, judged_s, finite=1 - n / big_n)
        return whole(killed_s / judged_s), whole(low), whole(high)


def wilson(successes: int, trials: int, *, finite: float = 1.0, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion; ``finite`` scales the variance (the finite
    population correction of a sample drawn without replacement)."""
    rate = successes / trials
    z2 = z * z * finite
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    spread = math.sqrt(z2 * (rate * (1 - rate) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _judged(counts: Counter[str]) -> int:
    excluded = ("prose", "equivalent", "out of scope", "not checked")
    return sum(counts.values()) - sum(counts[c] for c in excluded)


def read_results() -> list[Mutant]:
    """Every mutant and its status, from ``mutmut results --all true``."""
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"mutmut results failed (run `mutmut run` first): {done.stderr.strip()[-500:]}")
    mutants = []
    for line in done.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            mutants.append(Mutant(name, status))
    return mutants


def mutmut_diff(name: str) -> str:
    """The mutant's diff, from mutmut's own function (a subprocess per mutant would take minutes)."""
    try:
        from mutmut.mutation.diff_apply import get_diff_for_mutant  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # another mutmut layout: its command line says the same, slowly
        shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], capture_output=True, text=True)
        return shown.stdout
    return str(get_diff_for_mutant(name))


def report(
    verdicts: Verdicts, explanations: Sequence[Explanation], goal: float, out: TextIO, *, sample: bool = False
) -> int:
    """Print the figures; 0 if the score meets ``goal`` and no entry is stale (a ``sample``
    cannot be expected to meet every entry, so there none is)."""
    _table(verdicts, out)
    total = verdicts.total()
    value = score(total)
    _unexplained(verdicts, out)
    stale = [] if sample else [e for n, e in enumerate(explanations) if n not in verdicts.used]
    for explanation in stale:
        out.write(f"{explanation.entry.where()}: explains no mutant of this run (stale: remove or update it)\n")
    if value is None:
        out.write("no mutant has been checked: run `mutmut run` first\n")
        return 1
    judged = sum(total.values()) - sum(total[c] for c in ("prose", "equivalent", "out of scope", "not checked"))
    verdict = "meets" if value >= goal else "is below"
    out.write(
        f"\nmutation score {value:.1f}% {verdict} the goal of {goal:g}%: {total['killed']} killed of {judged} "
        f"({sum(total.values())} mutants: {total['prose']} prose, {total['equivalent']} equivalent, "
        f"{total['out of scope']} out of scope, {total['not checked']} not checked)\n"
    )
    if total["not checked"]:
        out.write(
            f"{total['not checked']} mutants were not checked: if the checked ones are a random sample "
            f"(tests/mutation/sample.py), the score is {value:.1f}% ± {margin(total['killed'], judged):.1f} (95 %)\n"
        )
    # An entry is stale only if every mutant was checked: a partial run leaves others unused.
    stale_matters = bool(stale) and total["not checked"] == 0
    return 0 if value >= goal and not stale_matters else 1


COLUMNS = ("killed", "survived", "no tests", "prose", "equivalent", "out of scope", "not checked")


def _table(verdicts: Verdicts, out: TextIO) -> None:
    """The counts by module, and their total, with the score of each."""
    out.write(f"{'module':<14}" + "".join(f"{c:>14}" for c in COLUMNS) + f"{'score':>8}\n")
    rows = [*sorted(verdicts.by_module.items()), ("all", verdicts.total())]
    for module, counts in rows:
        value = score(counts)
        shown = f"{value:7.1f}%" if value is not None else "      -"
        out.write(f"{module:<14}" + "".join(f"{counts[c]:>14}" for c in COLUMNS) + f"{shown}\n")


def _unexplained(verdicts: Verdicts, out: TextIO) -> None:
    for mutant, diff in verdicts.unexplained:
        out.write(f"\n{mutant.status}: {mutant.name} ({mutant.function})\n{diff}\n")


def report_strata(checked: Verdicts, sample: Verdicts, population: int, goal: float, out: TextIO) -> int:
    """Print both strata and the estimated score of all the mutants; 0 if it meets ``goal``."""
    out.write("checked in full (every mutant that had a result when the sample was drawn):\n")
    _table(checked, out)
    size = sum(sample.total().values())
    out.write(f"\na uniform sample of {size} of the {population} others:\n")
    _table(sample, out)
    _unexplained(checked, out)
    _unexplained(sample, out)
    strata = Strata(checked.total(), sample.total(), size, population)
    estimate = strata.estimate()
    if estimate is None:
        out.write("no estimate: no mutant was judged, or the unchecked ones have no sample\n")
        return 1
    value, low, high = estimate
    verdict = "meets" if value >= goal else "is below"
    out.write(
        f"\nmutation score {value:.1f}% (95 % interval {low:.1f}-{high:.1f}%) {verdict} the goal of {goal:g}%: "
        f"{strata.checked['killed']} killed of {_judged(strata.checked)} judged among the "
        f"{sum(strata.checked.values())} checked in full, {strata.sample['killed']} of "
        f"{_judged(strata.sample)} in the sample of {size} of the {population} others\n"
    )
    return 0 if value >= goal else 1


def _names(path: Path) -> set[str]:
    try:
        return set(path.read_text(encoding="utf-8").split())
    except OSError as error:
        raise SystemExit(f"{path}: cannot read the list of mutants: {error.strerror or error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--explained", type=Path, default=HERE / "explained.toml", help="the explained mutants")
    parser.add_argument("--goal", type=float, default=95.0, help="the score to reach, in percent (default 95)")
    parser.add_argument("--only", type=Path, help="a file of mutant names, one per line: score those only (a sample)")
    parser.add_argument(
        "--stratified",
        action="store_true",
        help=f"score a partial run: the mutants not in {REST_FILE} in full, {SAMPLE_FILE} as a sample of the rest",
    )
    args = parser.parse_args(argv)
    try:
        explanations = load_explained(args.explained)
    except ExplainedFileError as error:
        print(error, file=sys.stderr)
        return 2
    mutants = read_results()
    if args.stratified:
        rest, drawn = _names(REST_FILE), _names(SAMPLE_FILE)
        checked = [mutant for mutant in mutants if mutant.name not in rest]
        sample = [mutant for mutant in mutants if mutant.name in drawn]
        pending = [
            mutant.name
            for mutant in [*checked, *sample]
            if mutant.status == "not checked" and out_of_scope(mutant, explanations) is None
        ]
        if pending:
            print(
                f"{len(pending)} mutants of the strata have no result (first: {pending[0]}): "
                "python -m tests.mutation.sample --rest resumes the sample",
                file=sys.stderr,
            )
            return 1
        return report_strata(
            judge(checked, mutmut_diff, explanations),
            judge(sample, mutmut_diff, explanations),
            len(rest),
            args.goal,
            sys.stdout,
        )
    if args.only:
        wanted = _names(args.only)
        mutants = [mutant for mutant in mutants if mutant.name in wanted]
    verdicts = judge(mutants, mutmut_diff, explanations)
    return report(verdicts, explanations, args.goal, sys.stdout, sample=args.only is not None)


if __name__ == "__main__":
    raise SystemExit(main())
