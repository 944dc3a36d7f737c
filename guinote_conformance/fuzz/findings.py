"""What a fuzzing run found: the divergences grouped by their cause, and what was played.

In: each :class:`~guinote_conformance.oracle.divergence.Divergence` the fuzzer records, and the hands,
games, actions and rules it played. Out: the :class:`FuzzReport`: per configuration the hands
played (or why none could be), one :class:`Group` per :class:`~guinote_conformance.oracle.divergence.Cause`
(its count, its configurations, its smallest example, the known divergence it matches), the rule
coverage, the run as ``fuzz.json`` (:meth:`FuzzReport.to_json`), and the reports of the workers of
one run as one (:meth:`FuzzReport.merged`).

The rule: a group keeps the smallest example of its cause (the fewest actions); a group of a
known divergence is not a failure (:attr:`FuzzReport.failures`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.fuzz.known import Known
from guinote_conformance.oracle.divergence import Cause, Divergence, subsuming
from guinote_conformance.oracle.rules import observable_rules


@dataclass
class Group:
    """The divergences of one cause: how many, under which configurations, and the smallest."""

    cause: Cause
    example: Divergence
    count: int = 0
    configs: dict[str, int] = field(default_factory=dict)
    known: Known | None = None
    first_hand: int = 0
    #: games that ended at a divergence of this cause, one play cannot go past (an acceptance, a
    #: failure; for a ``legal`` cause, an action of that type one engine refused)
    ended: int = 0
    #: why no scenario was written for the group (or its scenario was dropped), or ``""``
    unwritten: str = ""

    def add(self, divergence: Divergence) -> None:
        self.count += 1
        self.configs[divergence.config.label] = self.configs.get(divergence.config.label, 0) + 1
        if better_example(divergence, self.example):
            self.example = divergence


def better_example(candidate: Divergence, example: Divergence) -> bool:
    """Whether ``candidate`` makes a better example of its cause than ``example``: one found with
    no divergence passed over before it (its scenario shows this divergence alone), then the
    smaller."""
    return (bool(candidate.passed_over), candidate.size) < (bool(example.passed_over), example.size)


@dataclass
class FuzzReport:
    """What one run found: per configuration, the hands and actions played; the groups; the coverage."""

    engine: str
    hands: int = 0
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    played: dict[str, int] = field(default_factory=dict)
    not_applicable: dict[str, str] = field(default_factory=dict)
    groups: dict[Cause, Group] = field(default_factory=dict)
    coverage: Counter[str] = field(default_factory=Counter)
    #: hands played before the first (not known) divergence, counting that hand
    first_divergence: int | None = None
    strategies: dict[str, int] = field(default_factory=dict)
    #: why the run stopped before its games were played (the circuit breaker), or ``""``
    stopped: str = ""
    #: known divergences passed over: play went on past them, their subject no longer compared in their game
    passed_over: int = 0
    #: per configuration, the last failure of the engine to start one of its games (no game of
    #: that configuration was played if :attr:`played` has none)
    start_failures: dict[str, str] = field(default_factory=dict)
    #: games that ended where the next hand would be dealt, because the engine deals it from its own
    #: shuffle (capability ``own_shuffle``) and that deal could not be read back (the reason counted
    #: in :attr:`ended_early`)
    own_shuffle_ends: int = 0
    #: games that ended before their end without a divergence, by the reason: play the suite cannot
    #: follow on this engine (an automatic draw's view, an own deal it cannot read back)
    ended_early: dict[str, int] = field(default_factory=dict)
    #: hands the engine dealt from its own shuffle (``own_shuffle``) that were read back and compared
    own_deals: int = 0
    #: the hands among :attr:`hands` that earlier runs of a campaign played (not counted in this run's rate)
    resumed_hands: int = 0

    @property
    def failures(self) -> list[Group]:
        return [g for g in self.groups.values() if g.known is None]

    @property
    def ended_at_known(self) -> dict[Cause, int]:
        """The games that ended at a known divergence play cannot go past, by its cause."""
        return {cause: group.ended for cause, group in self.groups.items() if group.ended and group.known}

    @property
    def ended_at(self) -> dict[Cause, int]:
        """The games that ended at a divergence play cannot go past (known or not), by its cause."""
        return {cause: group.ended for cause, group in self.groups.items() if group.ended}

    def end_early(self, reason: str) -> None:
        """Count a game that ended, with no divergence, where play could not go on for ``reason``."""
        self.ended_early[reason] = self.ended_early.get(reason, 0) + 1

    @classmethod
    def merged(cls, reports: Sequence[FuzzReport], seconds: float) -> FuzzReport:
        """The reports of the workers of one run (``compare --jobs``), which took ``seconds``,
        as one: counts added, each cause's group with its smallest example.

        ``first_divergence`` (and a group's ``first_hand``) counts the hands of every worker: the
        earliest worker's count times the number of workers, as they play side by side."""
        merged = cls(reports[0].engine if reports else "", seconds=seconds)
        jobs = len(reports)
        for report in reports:
            merged._add_totals(report)
            if report.first_divergence is not None:
                first = report.first_divergence * jobs
                if merged.first_divergence is None or first < merged.first_divergence:
                    merged.first_divergence = first
            for cause, group in report.groups.items():
                mine = merged._add_group(cause, group, group.first_hand * jobs)
                mine.first_hand = min(mine.first_hand, group.first_hand * jobs)
        return merged

    def add(self, later: FuzzReport) -> None:
        """Add what ``later`` found, played after this report's hands (the next batch of a run shared
        among workers, :mod:`guinote_conformance.fuzz.batch`): counts added, each cause's group with its
        smallest example (the earlier one where two are as small), its first hand counted from here."""
        before = self.hands
        self._add_totals(later)
        self.seconds += later.seconds
        if self.first_divergence is None and later.first_divergence is not None:
            self.first_divergence = before + later.first_divergence
        for cause, group in later.groups.items():
            self._add_group(cause, group, before + group.first_hand)

    def _add_totals(self, other: FuzzReport) -> None:
        """The counts of ``other`` added to this report's (the first reason it stopped kept)."""
        self.hands += other.hands
        self.games += other.games
        self.actions += other.actions
        self.coverage.update(other.coverage)
        _add_counts(self.played, other.played)
        _add_counts(self.strategies, other.strategies)
        self.not_applicable.update(other.not_applicable)
        self.start_failures.update(other.start_failures)
        self.passed_over += other.passed_over
        self.own_shuffle_ends += other.own_shuffle_ends
        self.own_deals += other.own_deals
        _add_counts(self.ended_early, other.ended_early)
        self.stopped = self.stopped or other.stopped

    def _add_group(self, cause: Cause, group: Group, first_hand: int) -> Group:
        """``group`` added to this report's group of ``cause`` (a new one first found at ``first_hand``):
        counts added, the smaller example kept (the earlier one where two are as small)."""
        mine = self.groups.get(cause)
        if mine is None:
            mine = self.groups[cause] = Group(cause, group.example, group.count, dict(group.configs), group.known,
                                              first_hand, group.ended)  # fmt: skip
            return mine
        mine.count += group.count
        mine.ended += group.ended
        _add_counts(mine.configs, group.configs)
        if better_example(group.example, mine.example):
            mine.example = group.example
        return mine

    def fold_subsumed(self) -> None:
        """Fold each group into the group of the plain rule that takes it in, where the run found
        both (:func:`~guinote_conformance.oracle.divergence.subsuming`): one bug, one group. A known
        divergence keeps its own group."""
        folded = True
        while folded:  # (a group folded into one that folds in turn: cante refused, cante missing, CANTE-01)
            folded = self._fold_once()

    def _fold_once(self) -> bool:
        for cause, group in self.groups.items():
            into = subsuming(cause, self.groups)
            if into is None or group.known is not None:
                continue
            target = self.groups[into]
            target.count += group.count
            target.ended += group.ended
            target.first_hand = min(target.first_hand, group.first_hand)
            _add_counts(target.configs, group.configs)
            del self.groups[cause]
            return True
        return False

    def coverage_summary(self) -> tuple[int, int, list[str]]:
        """(rules seen, rules the fuzzer can observe, the observable rules never seen)."""
        observable = observable_rules()
        seen = {rule for rule in self.coverage if rule in observable}
        return len(seen), len(observable), sorted(observable - seen)

    def to_json(self) -> dict[str, Any]:
        seen, observable, unseen = self.coverage_summary()
        return {
            "format": "guinote-fuzz-report/1",
            "engine": self.engine,
            "hands": self.hands,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "played": self.played,
            "not_applicable": self.not_applicable,
            "start_failures": self.start_failures,
            "first_divergence": self.first_divergence,
            "passed_over": self.passed_over,
            "own_shuffle_ends": self.own_shuffle_ends,
            "own_deals": self.own_deals,
            "ended_early": dict(self.ended_early),
            "resumed_hands": self.resumed_hands,
            "ended_at_known": {
                "games": sum(self.ended_at_known.values()),
                "by_cause": {str(cause): games for cause, games in self.ended_at_known.items()},
            },
            "ended_at": {
                "games": sum(self.ended_at.values()),
                "by_cause": {str(cause): games for cause, games in self.ended_at.items()},
            },
            "groups": [
                {
                    "cause": {"kind": g.cause.kind, "subject": g.cause.subject, "rule": g.cause.rule},
                    "count": g.count,
                    "configs": g.configs,
                    "known": g.known.reason if g.known else None,
                    "ended_games": g.ended,
                    "unwritten": g.unwritten or None,
                    "example": g.example.record(),
                }
                for g in self.groups.values()
            ],
            "coverage": {"seen": seen, "observable": observable, "unseen": unseen, "counts": self.coverage},
            "strategies": self.strategies,
            "stopped": self.stopped or None,
        }


def _add_counts(total: dict[str, int], more: Mapping[str, int]) -> None:
    for key, count in more.items():
        total[key] = total.get(key, 0) + count


def found_line(cause: Cause, known: bool, hands: int, seconds: float) -> str:
    """The line ``compare`` prints the moment play first finds a divergence group, above the progress
    line: its cause and rule, whether it is a known divergence, the hands played and the seconds of play
    so far. A user sees each bug as it is found, not only in the table at the end of the run (after
    play and shrinking); ``benchmarks/bench_first_finding.py`` times the first of a planted rule."""
    return f"found: {cause}{' (known)' if known else ''} after {hands} hands, {seconds:.1f} s"


__all__ = [
    "FuzzReport",
    "Group",
    "better_example",
    "found_line",
]
