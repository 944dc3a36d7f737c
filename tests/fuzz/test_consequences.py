"""``compare`` names the root of a bug once, not everything that follows from it, and goes on past a wrong mano.

A score bug (no diez de últimas) changes the totals, then who wins the hand, then whether the point
goes de vueltas and the match: only the root is a group, the games ending where the two can no longer
go on from the same state (:mod:`guinote_conformance.fuzz.consequences`). An engine that leads each hand from
the wrong seat has its mano recorded as PRE-09 and its hands played on from its own mano, so that its
other bugs are found in the same run (:mod:`guinote_conformance.fuzz.mano`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from guinote_conformance.adapters.interface import JSON
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.engines.explicit_draw import ExplicitDrawEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.consequences import COUNT, DECISION, MATCH, TRICK, Watch, parts_courses, stage_of
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.mano import Origin, aligned, breaks_mano, follow_draw, follow_winner, mano_cause
from guinote_conformance.oracle.divergence import Cause
from guinote_conformance.oracle.steps import Difference
from tests.broken_engines.engines import CATALOGUE
from tests.fuzz.misled import MisledEngine


def served(name: str) -> Iterator[SubprocessEngine]:
    engine = SubprocessEngine(
        [
            sys.executable,
            "-m",
            "guinote_conformance.adapters.serve",
            "--engine",
            f"tests.broken_engines.engines:{name}",
        ],
        timeout=30,
    )
    try:
        yield engine
    finally:
        engine.close()


def fuzz(name: str, games: int) -> FuzzReport:
    entry = CATALOGUE[name]
    for served_engine in served(name):
        engine = ExplicitDrawEngine(served_engine)  # (as compare sees it: an automatic draw is made explicit)
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


# ------------------------------------------------------------------------------------ the mano


def test_a_mano_that_follows_the_engines_own_dealer_is_not_a_mano_bug() -> None:
    assert breaks_mano(3, 0, 4, dealer_differs=False)  # the seat before the dealer
    assert not breaks_mano(1, 0, 4, dealer_differs=False)  # the seat after its (wrong) dealer
    assert breaks_mano(3, None, 4, dealer_differs=False)  # no dealer told, none found to differ
    assert not breaks_mano(3, None, 4, dealer_differs=True)
    assert mano_cause() == Cause("state", "mano", "PRE-09")


def test_the_reference_is_set_to_another_mano_at_the_same_deal() -> None:
    reference = ReferenceEngine()
    flags = dict(resolve(reference.info(), "lascuarenta").flags)
    game = reference.start({"flags": flags, "dealer": 0, "deck": deck_codes(40)})
    assert game.state("turn") == 1
    setup, again = aligned(reference, game, flags, 3)
    assert again.state("turn") == 3 and "position" in setup
    for name in ("hand.0", "hand.3", "muestra", "stock_count", "total.0", "dealer"):
        assert again.state(name) == game.state(name)
    assert {action.get("seat") for action in again.legal_actions() if action.get("type") == "play"} == {3}


# ------------------------------------------------------------------------------------ the catalogue


def test_a_score_bug_is_one_group_named_by_its_rule_and_its_consequences_end_the_games_counted_there() -> None:
    report = fuzz("no_diez_de_ultimas", 12)
    assert [str(cause) for cause in report.groups] == ["event ultimas.points [SCORE-01]"]
    (group,) = report.groups.values()
    assert group.ended > 0  # a hand won by another side after it: the game ended, counted in its group
    assert report.passed_over > 0


def test_an_engine_leading_from_the_wrong_seat_is_named_pre09_and_its_other_bugs_are_found_in_the_same_run() -> None:
    report = fuzz("triple_mano_forty_trump_lead", 20)
    found = rules(report)
    assert found.get("PRE-09") == Cause("state", "mano", "PRE-09")
    # the forty in oros, played on from the engine's mano (the rule is the cante's: see the naming of cante.value)
    assert any(cause.subject == "cante.value" for cause in report.groups)
    # nothing is named by the wrong seat's consequences: no turn, no card refused as out of turn
    assert not any(cause.subject == "turn" or cause.kind == "acceptance" for cause in report.groups)
    assert report.hands > report.games  # the games went on past their first hand


@pytest.mark.parametrize("own_shuffle", [False, True])
def test_a_wrong_mano_is_followed_in_every_hand_and_a_second_bug_found_whoever_deals(own_shuffle: bool) -> None:
    engine = MisledEngine(own_shuffle=own_shuffle, ultimas_zero=True)
    info = engine.info()
    report = Fuzzer(ReferenceEngine(), engine, info, depth="match", seed=3).run([resolve(info, "lascuarenta")], 6)
    assert {str(cause) for cause in report.groups} == {"state mano [PRE-09]", "event ultimas.points [SCORE-01]"}
    assert report.groups[mano_cause()].count >= report.hands > report.games  # every hand, and past the first
    assert report.ended_early == {}
    assert (report.own_deals > 0) is own_shuffle


def test_a_trick_given_to_another_seat_is_followed_and_the_engines_other_bugs_are_found_in_the_same_run() -> None:
    """DECK-11 (a card of a third suit takes the trick) would end every game where it first shows:
    the reference is set to the engine's winner and the hand goes on, so the hand ended at exactly
    100 (SCORE-04) of the same engine is found too, and no group is named by the winner's
    consequences (the turn, the count)."""
    report = fuzz("triple_suit_cante_match", 40)
    found = rules(report)
    assert {"DECK-11", "CANTE-05", "SCORE-04"} <= set(found), sorted(found)
    assert not any(cause.subject in ("turn", "trick_won.side") for cause in report.groups)
    # the reference follows every time, but where the trick was the hand's last (the hand is over there)
    assert all("hand is over" in reason for reason in report.ended_early), report.ended_early


def test_following_a_winner_moves_the_trick_to_his_side() -> None:
    """The position the reference is set to: the engine's winner leads, and the trick's cards,
    its points and its count go to his side."""
    engine = ReferenceEngine()
    info = engine.info()
    config = resolve(info, "lascuarenta")
    setup = {"flags": dict(config.flags), "position": {
        "hands": [["2e"], ["Ac", "Sc"], ["So", "Rc"], ["Co", "Ce"]], "trick": [[0, "4o"]], "leader": 0,
        "trump": "b", "muestra": None, "stock": []}}  # fmt: skip
    done = [{"type": "play", "seat": 1, "card": "Ac"}, {"type": "play", "seat": 2, "card": "So"},
            {"type": "play", "seat": 3, "card": "Co"}]  # fmt: skip
    origin = Origin(setup, setup, [])
    ours, _ = follow_winner(engine, engine, origin, done, config, 1)  # the reference gives it to seat 2 (Sota)
    assert ours.state("turn") == 1 and ours.state("last_trick_winner") == 1
    assert ours.state("card_points.1") == 11 + 3 + 2 and ours.state("card_points.0") == 0
    assert origin.engine_actions == done


@pytest.mark.parametrize("shape", ["", "__auto_draw", "__minimal"])
def test_a_draw_in_another_order_is_followed_and_the_engines_other_bugs_are_found_in_the_same_run(shape: str) -> None:
    """PLAY-08 (the trick's winner draws last) differs at the first draw of every game: the
    reference's hands are set to the engine's and the hand goes on, so the same engine's exchange
    of a seven for a low muestra (SEVEN-02) and its duty to beat only when oros are led (ARR-02)
    are found in the same run, as are hands past the first."""
    report = fuzz(f"triple_draw_seven_arrastre{shape}", 20)
    found = rules(report)
    assert {"PLAY-08", "SEVEN-02", "ARR-02"} <= set(found), sorted(found)
    assert report.hands > report.games and report.ended_early == {}, report.ended_early
    # the draw is followed at every draw: no group is named by the hands it would have left apart
    assert not any(cause.kind == "state" and cause.subject.startswith("hand") for cause in report.groups)


def test_following_a_draw_gives_the_reference_the_engines_hands() -> None:
    reference = ReferenceEngine()
    config = resolve(reference.info(), "lascuarenta")
    setup: dict[str, Any] = {"flags": dict(config.flags), "position": {
        "hands": [["2e", "4e"], ["Ac", "Sc"], ["So", "Rc"], ["Co", "Ce"]], "trick": [], "leader": 3,
        "last_trick_winner": 3, "draw_pending": True, "trump": "b", "muestra": "3b",
        "stock": ["7o", "6o", "5o"]}}  # fmt: skip
    ours_drawn = reference.start(setup)
    ours_drawn.apply({"type": "draw"})
    for engine in served("winner_draws_last"):  # (seat 3 took the trick: seat 0 draws first)
        origin = Origin(setup, setup, [])
        ours, theirs = follow_draw(reference, engine, origin, [{"type": "draw"}], config)
        hands = [sorted(theirs.state(f"hand.{seat}")) for seat in range(4)]
        assert [sorted(ours.state(f"hand.{seat}")) for seat in range(4)] == hands
        assert sorted(ours_drawn.state("hand.3")) != hands[3]  # (the engine's draw did differ)
        assert ours.state("phase") == theirs.state("phase") and ours.state("turn") == 3
        assert origin.engine_actions == [{"type": "draw"}] and "position" in origin.setup


def test_an_engine_that_deals_its_own_hands_has_its_three_bugs_found_without_a_failure_of_the_suite() -> None:
    """The hands it deals from its own shuffle after a trick given to another seat start from the
    reference set to its mano (the deal step skipped in the records): a difference found at the
    hand's last step is judged at that very step (it was read one step on, past the end)."""
    report = fuzz("triple_suit_cante_match__own_shuffle", 40)
    found = rules(report)
    assert {"DECK-11", "CANTE-05", "SCORE-04"} <= set(found), sorted(found)
    assert not any(cause.kind == "failure" for cause in report.groups), sorted(map(str, report.groups))
    assert report.own_deals > 0


def test_in_a_hand_the_engine_deals_itself_the_choices_are_those_the_reference_takes_too() -> None:
    """The engine plays its own hands first: a card it offers that the rules refuse (no duty to
    trump when copas are led, ARR-03) is not chosen while the shadow can tell (it ended the game
    where the reference, given the same actions, refused it), so the window bug (CANTE-25) of the
    same engine is found too."""
    report = fuzz("triple_trump_phase_score__own_shuffle", 40)
    found = rules(report)
    assert {"ARR-03", "CANTE-25", "CANTE-04"} <= set(found), sorted(found)
    arrastre = [group for group in report.groups.values() if group.cause.rule == "ARR-03"]
    assert arrastre and sum(group.ended for group in arrastre) == 0
    assert report.own_deals > 0
