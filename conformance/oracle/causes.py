"""Likely causes: which rule an engine most probably breaks, with the evidence.

One broken rule makes dozens of scenarios fail under many rule IDs (a missing diez de
últimas spoils every count of a hand played out). Two kinds of evidence tell the root cause
from its knock-on effects:

* **the first divergence** (:func:`~conformance.oracle.transcript.find_divergence`, stored with
  each failure): the first call where the engine answered otherwise than the reference, and the
  rule its answer breaks there (the rule that decides what differs, :mod:`conformance.oracle.owners`),
  is the likely broken rule; a failure that went wrong there before reaching its own rule is
  blocked by it (:attr:`~conformance.results.case.CaseResult.blocked_by`) and counts for it;
* **shared numeric differences** (:func:`numeric_differences`): many "expected 94, got 84"
  off by the same amount point at one missing or extra count.

In: a results file (:class:`~conformance.results.report.Report`). Out: :func:`likely_causes`, the
root causes ranked by how many failures each explains, those it blocked before their own rule
included (a failure without a first divergence is shared among the rules its scenario is tagged
with), each :class:`Cause` with its evidence; :func:`failures_by_cause`, every failure once, under
the highest-ranked cause that explains it (the terminal shows the failures so).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from conformance.results.case import CaseResult, Divergence
from conformance.results.report import FailureGroup, Report
from conformance.results.status import Status

_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
PHASE_WORDS = {"free": "free phase", "arrastre": "arrastre", "hand_over": "count after the hand"}


@dataclass(frozen=True)
class NumericDifference:
    """Several checks off by the same amount (``got - expected``)."""

    delta: float
    groups: tuple[FailureGroup, ...]

    @property
    def text(self) -> str:
        sample = self.groups[0].first
        amount = f"{self.delta:+g}"
        return (
            f"{len(self.groups)} failures are off by {amount} "
            f"(e.g. {sample.what or 'a count'}: expected {sample.expected}, got {sample.got})"
        )


@dataclass
class Cause:
    """A rule the engine probably breaks, with the failures it explains; or, where the
    reference applied no rule of its own (the engine refuses what any rule allows...), the
    way the engine parted from it, shared by the failures (:attr:`pattern`)."""

    rule: str | None
    score: float = 0.0
    pattern: str | None = None
    groups: list[FailureGroup] = field(default_factory=list)
    #: failures whose first divergence the reference decides by this rule
    diverged: list[FailureGroup] = field(default_factory=list)
    #: failures of other rules that went wrong at this one first (:attr:`CaseResult.blocked_by`)
    blocked: list[FailureGroup] = field(default_factory=list)
    #: ``flag=value`` readings the engine plays as, with how many failures show each
    flags: Counter[str] = field(default_factory=Counter)
    numeric: list[NumericDifference] = field(default_factory=list)
    tagged_failing: int = 0
    tagged_total: int = 0

    @property
    def title(self) -> str:
        return self.rule or f"no single rule: {self.pattern}"

    @property
    def evidence(self) -> list[str]:
        lines = []
        if self.diverged and self.rule is None:
            lines.append(
                f"{_count(len(self.diverged), 'failing scenario')} first part from the reference this way, "
                "where the reference applies no rule of its own"
            )
        elif self.diverged:
            places = Counter(group.first.divergence.what for group in self.diverged if group.first.divergence)
            where, count = places.most_common(1)[0]
            lines.append(
                f"{_count(len(self.diverged), 'failing scenario')} first part from the reference at {self.rule} "
                f"(most often: {where}{f', {count}×' if count > 1 else ''})"
            )
        if self.blocked:
            one = len(self.blocked) == 1
            lines.append(
                f"{len(self.blocked)} of them {'is a scenario' if one else 'are scenarios'} of other rules blocked "
                f"here, before reaching {'its' if one else 'their'} own"
            )
        phases = Counter(group.first.divergence.phase for group in self.diverged if group.first.divergence)
        if self.diverged and len(phases) == 1 and None not in phases:
            (phase,) = phases
            every = "" if len(self.diverged) == 1 else f"all {len(self.diverged)} "
            lines.append(f"{every}in the {PHASE_WORDS.get(str(phase), phase)}")
        elif phases:
            phase, count = phases.most_common(1)[0]
            if phase and count * 2 > len(self.diverged):
                lines.append(f"{count} of them in the {PHASE_WORDS.get(str(phase), phase)}")
        for flag, count in self.flags.most_common(2):
            lines.append(f"the engine answers as the reference does under {flag} ({_count(count, 'scenario')})")
        lines.extend(difference.text for difference in self.numeric)
        if self.tagged_total:
            lines.append(f"{self.tagged_failing} of the {self.tagged_total} scenarios of {self.rule} fail")
        return lines


def pattern_of(divergence: Divergence) -> str:
    """How the engine parted from the reference, without the particulars (cards, seats)."""
    what = divergence.what
    if what.startswith("the engine offers besides") or what.startswith("the engine does not offer"):
        kinds = sorted(set(re.findall(r'"type": "(\w+)"', what)))
        return f"legal actions differ ({', '.join(kinds) or 'actions'})"
    if what == "a different value":
        name = re.sub(r"\.\d+\b", ".<n>", divergence.call)
        return f"{name}: a different value"
    return re.sub(r"\s*\[.*", "", what)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _delta(result: CaseResult) -> float | None:
    if result.expected is None or result.got is None:
        return None
    if not (_NUMBER.match(result.expected) and _NUMBER.match(result.got)):
        return None
    return float(result.got) - float(result.expected)


def numeric_differences(groups: Sequence[FailureGroup], minimum: int = 2) -> list[NumericDifference]:
    """Failures whose expected and got numbers differ by the same amount, most shared first."""
    by_delta: dict[float, list[FailureGroup]] = defaultdict(list)
    for group in groups:
        delta = _delta(group.first)
        if delta:
            by_delta[delta].append(group)
    shared = [NumericDifference(delta, tuple(found)) for delta, found in by_delta.items() if len(found) >= minimum]
    return sorted(shared, key=lambda d: (-len(d.groups), abs(d.delta)))


def likely_causes(report: Report, limit: int | None = 5) -> list[Cause]:
    """The rules most likely broken, ranked by the failures each explains.

    A failure whose first divergence is named by a rule counts fully for that rule (a failure
    blocked by another rule before its own counts for the rule that blocked it, the root cause,
    not for its own); a failure without one is shared among the rules its scenario is tagged with."""
    # a rule is broken where the engine answered wrongly: not where it crashed or hung, nor
    # where a known failure now passes
    groups = [group for group in report.failure_groups() if group.first.status is Status.FAIL]
    causes: dict[str, Cause] = {}
    for group in groups:
        divergence = group.first.divergence
        if divergence is not None and not divergence.rule:
            pattern = pattern_of(divergence)
            cause = causes.setdefault(f"\x00{pattern}", Cause(None, pattern=pattern))
            cause.score += 1.0
            cause.diverged.append(group)
            cause.groups.append(group)
            continue
        if divergence is not None and divergence.rule:
            cause = causes.setdefault(divergence.rule, Cause(divergence.rule))
            cause.score += 1.0
            cause.diverged.append(group)
            cause.groups.append(group)
            if group.blocked_by:
                cause.blocked.append(group)
            if divergence.as_if_flag:
                cause.flags[divergence.as_if_flag] += 1
            continue
        rules = group.first.rules or ("(untagged)",)
        for rule in rules:
            cause = causes.setdefault(rule, Cause(rule))
            cause.score += 1.0 / len(rules)
            cause.groups.append(group)
    scenarios_of: dict[str, set[str]] = defaultdict(set)
    failing_of: dict[str, set[str]] = defaultdict(set)
    for result in report.results:
        for rule in result.rules:
            if result.status is not Status.NOT_APPLICABLE:
                scenarios_of[rule].add(result.id)
            if result.status.is_problem:
                failing_of[rule].add(result.id)
    for cause in causes.values():
        cause.numeric = numeric_differences(cause.groups)[:2]
        if cause.rule is not None:
            cause.tagged_total = len(scenarios_of.get(cause.rule, ()))
            cause.tagged_failing = len(failing_of.get(cause.rule, ()))
    ranked = sorted(
        causes.values(),
        key=lambda c: (-c.score, -(c.tagged_failing / c.tagged_total if c.tagged_total else 0), c.title),
    )
    return ranked[:limit]


def failures_by_cause(report: Report) -> list[tuple[Cause | None, list[FailureGroup]]]:
    """Every failure group of ``report`` once, under the highest-ranked cause that counts it
    (:func:`likely_causes`, unlimited), the causes in their rank; last, under ``None``, the groups
    no cause counts: runs that ended in an engine error or a timeout, and known failures that now
    pass (a rule is broken where the engine answered wrongly, not where it crashed or hung)."""
    seen: set[str] = set()
    sections: list[tuple[Cause | None, list[FailureGroup]]] = []
    for cause in likely_causes(report, limit=None):
        mine = [group for group in cause.groups if group.key not in seen]
        seen.update(group.key for group in mine)
        if mine:
            sections.append((cause, mine))
    rest = [group for group in report.failure_groups() if group.key not in seen]
    if rest:
        sections.append((None, rest))
    return sections
