"""``compare`` names the root of a bug once, not everything that follows from it.

A score bug (no diez de últimas) changes the totals, then who wins the hand, then whether the point
goes de vueltas and the match: only the root is a group, the games ending where the two can no longer
go on from the same state (:mod:`conformance.fuzz.consequences`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from adapters.interface import JSON
from adapters.reference import ReferenceEngine
from adapters.subprocess_adapter import SubprocessEngine
from conformance.fuzz.configs import resolve
from conformance.fuzz.consequences import COUNT, DECISION, MATCH, TRICK, Watch, parts_courses, stage_of
from conformance.fuzz.findings import FuzzReport
from conformance.fuzz.fuzzer import Fuzzer
from conformance.oracle.divergence import Cause
from conformance.oracle.steps import Difference
from tests.broken_engines.engines import CATALOGUE


def served(name: str) -> Iterator[SubprocessEngine]:
    engine = SubprocessEngine(
        [sys.executable, "-m", "adapters.serve", "--engine", f"tests.broken_engines.engines:{name}"], timeout=30
    )
    try:
        yield engine
    finally:
        engine.close()


def fuzz(name: str, games: int) -> FuzzReport:
    entry = CATALOGUE[name]
    for engine in served(name):
        info = engine.info()
        fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth="match", seed=0)
        return fuzzer.run([resolve(info, entry.profile, dict(entry.flags) or None)], games)
    raise AssertionError("unreachable")  # pragma: no cover


def rules(report: FuzzReport) -> dict[str, Cause]:
    return {cause.rule: cause for cause in report.groups}


# ------------------------------------------------------------------------------------ stages


@pytest.mark.parametrize(
    ("kind", "subject", "expected", "got", "stage", "parts"),
    [
        ("event", "ultimas.points", 10, 0, COUNT, False),
        ("event", "hand_over.scores", [80, 50], [70, 50], COUNT, False),
        ("state", "total.1", 110, 100, COUNT, False),
        ("event", "hand_over.winner", 0, 1, DECISION, True),
        ("event", "hand_over", ["hand_over"], [], DECISION, True),
        ("event", "hand_over.reason", "over_100", "last_trick", DECISION, False),
        ("state", "phase", "arrastre", "hand_over", DECISION, True),
        ("state", "phase", "free", "arrastre", None, False),
        ("state", "phase", "hand_over", "match_over", MATCH, True),
        ("legal", "deal (missing)", [], [], MATCH, True),
        ("event", "point_won.points", 1, 2, MATCH, False),
        ("state", "match.points.0", 1, 2, MATCH, False),
        ("event", "coto_won", [], [], MATCH, True),
        ("event", "trick_won.seat", 0, 1, TRICK, False),
        ("event", "cante.side", 0, 1, None, False),
        ("legal", "cante (missing)", [], [], None, False),
    ],
)
def test_each_subject_has_its_stage_and_the_courses_part_where_the_hand_or_point_is_decided_apart(
    kind: str, subject: str, expected: JSON, got: JSON, stage: int | None, parts: bool
) -> None:
    difference = Difference(kind, subject, expected, got)
    assert stage_of(difference) == stage
    assert parts_courses(difference) is parts


def test_a_difference_follows_from_a_root_of_its_stage_or_an_earlier_one_only() -> None:
    watch = Watch()
    count = Cause("event", "ultimas.points", "SCORE-01")
    watch.note(Difference("event", "ultimas.points", 10, 0), count)
    assert watch.root_of(Difference("state", "total.0", 50, 40)) == count
    assert watch.root_of(Difference("event", "hand_over.winner", 0, 1)) == count
    assert watch.root_of(Difference("state", "match.points.1", 1, 0)) == count
    # the root's own field for the other side is the rule broken again, not a consequence
    total = Watch()
    total.note(Difference("state", "total.0", 50, 40), Cause("state", "total.0", "VUELTAS-02"))
    assert total.root_of(Difference("state", "total.1", 50, 40)) is None
    assert total.root_of(Difference("event", "hand_over.totals", [1, 2], [1, 3])) is not None
    # the play before the count does not follow from it: a trick given to another seat is a bug of its own
    assert watch.root_of(Difference("event", "trick_won.seat", 0, 1)) is None
    # a card one engine lets a seat play is never a root: a later trick's winner does not follow from it
    watch.note(Difference("legal", "play (missing)", [], []), Cause("legal", "play (missing)", "ARR-01"))
    assert watch.root_of(Difference("event", "trick_won.seat", 0, 1)) is None
    # but a wrong seat to play follows from a wrong trick, and parts the courses
    trick = Cause("event", "trick_won.seat", "DECK-05")
    watch.note(Difference("event", "trick_won.seat", 0, 1), trick)
    turn = Difference("state", "turn", 0, 1)
    assert watch.root_of(turn) == trick and parts_courses(turn, following=True)


# ------------------------------------------------------------------------------------ the catalogue


def test_a_score_bug_is_one_group_named_by_its_rule_and_its_consequences_end_the_games_counted_there() -> None:
    report = fuzz("no_diez_de_ultimas", 12)
    assert [str(cause) for cause in report.groups] == ["event ultimas.points [SCORE-01]"]
    (group,) = report.groups.values()
    assert group.ended > 0  # a hand won by another side after it: the game ended, counted in its group
    assert report.passed_over > 0
