"""Counting a hand, 101, the thirty malas and the hand de vueltas (rule areas SCORE, VUELTAS).

A side's score for a hand is its card points, its cantes and the diez de últimas
(SCORE-01, SCORE-02). In the first hand of a point a side wins with 101 or more (SCORE-04);
if both reach 101 the side with the últimas wins (SCORE-07); if neither does the hand goes
de vueltas (SCORE-13), where the totals carry over (VUELTAS-02). The thirty malas
(SCORE-09) and the end of a hand de vueltas (a side reaching 101, or a claim of it, VUELTAS-05)
follow the flags; each decision names the rule it applies, and :func:`count` is the count shown
when the hand ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from guinote_conformance.reference_engine.actions import Refusal
from guinote_conformance.reference_engine.cantes import window_open_for

if TYPE_CHECKING:
    from guinote_conformance.reference_engine.state import HandState

WIN_THRESHOLD = 101  # SCORE-04: more than 100 ("51 buenas", SCORE-05); C-21: 100 is not enough
THIRTY_MALAS = 30  # SCORE-09
ULTIMAS = 10  # SCORE-01


@dataclass(frozen=True)
class PointDecision:
    """The outcome of a hand: ``winner`` side, or ``None`` when it goes de vueltas."""

    winner: int | None
    reason: str
    rule: str


def hand_score(hand: HandState, side: int) -> int:
    """SCORE-02: card points + cantes + diez de últimas of this hand."""
    ultimas = ULTIMAS if hand.ultimas_side == side else 0
    return hand.card_points[side] + hand.cante_points[side] + ultimas


def total(hand: HandState, side: int) -> int:
    """VUELTAS-02 / VUELTAS-10: the point's running total: the totals carried from earlier
    hands of the point plus this hand's score (cards, cantes and últimas).

    interpretation (MATCH-02, C-09): totals start from zero for every point."""
    return hand.carried[side] + hand_score(hand, side)


def malas(hand: HandState, side: int) -> int:
    """SCORE-10 (B-24 ``thirty_malas_count``): the points that count toward the thirty malas:
    card points, plus the diez de últimas under ``cards_plus_ultimas``; never the cantes.
    (Under ``cards_and_ultimas`` the últimas are a separate requirement: see :func:`has_thirty_malas`.)

    interpretation (SCORE-11, B-25): under ``thirty_malas_scope=all_hands`` they accumulate over the
    hands of the point, like the totals."""
    counted = hand.card_points[side]
    if hand.rules.thirty_malas_count == "cards_plus_ultimas" and hand.ultimas_side == side:
        counted += ULTIMAS
    if hand.rules.thirty_malas_scope == "all_hands":
        counted += hand.carried_malas[side]
    return counted


def has_thirty_malas(hand: HandState, side: int) -> bool:
    """SCORE-10: whether ``side`` made its thirty malas.

    ``cards_and_ultimas`` (S003 read literally): thirty in card points and the diez de
    últimas taken by the side in this hand.
    """
    if hand.rules.thirty_malas_count == "cards_and_ultimas" and hand.ultimas_side != side:
        return False
    return malas(hand, side) >= THIRTY_MALAS


def _thirty_applies(hand: HandState, both_over: bool) -> bool:
    """SCORE-11 (B-25 scope) and B-26 (trigger): whether the thirty malas are checked now."""
    if hand.hand_in_point > 0 and hand.rules.thirty_malas_scope == "first_hand_only":
        return False  # SCORE-11
    if hand.rules.thirty_malas_trigger == "both_over_only":
        return both_over  # B-26, S000
    return True


def _stopped_by_thirty(hand: HandState, candidate: int, both_over: bool) -> bool:
    """SCORE-09: ``candidate`` would take the point but the thirty malas are checked now and
    it lacks them."""
    return _thirty_applies(hand, both_over) and not has_thirty_malas(hand, candidate)


def _apply_thirty(hand: HandState, candidate: int, both_over: bool, rule: str) -> PointDecision:
    """SCORE-09/SCORE-12: give the point to ``candidate`` (under ``rule``) unless it lacks the
    thirty malas; then B-23 ``thirty_malas`` decides (:func:`_short_of_thirty`)."""
    if not _stopped_by_thirty(hand, candidate, both_over):
        return PointDecision(candidate, "over_100", rule)
    return _short_of_thirty(hand, candidate)


def _short_of_thirty(hand: HandState, candidate: int) -> PointDecision:
    """SCORE-12 (B-23 ``thirty_malas``): what becomes of the point when ``candidate`` would
    take it but lacks the thirty malas.

    interpretation (SCORE-12, B-23): under ``cannot_win`` the opponents take the point only if they
    have 101 themselves; otherwise the hand goes de vueltas, as if nobody had reached 101.
    """
    other = 1 - candidate
    flag = hand.rules.thirty_malas
    if flag == "lose":
        return PointDecision(other, "thirty_malas_lose", "SCORE-12")
    if flag == "cannot_win" and total(hand, other) >= WIN_THRESHOLD:
        return PointDecision(other, "thirty_malas_cannot_win", "SCORE-12")
    return PointDecision(None, "thirty_malas_vueltas", "SCORE-12")


def decide_complete_hand(hand: HandState) -> PointDecision:
    """SCORE-06/07/13, VUELTAS-03: the result of a hand played to its last trick."""
    totals = [total(hand, side) for side in range(hand.sides)]
    over = [side for side in range(hand.sides) if totals[side] >= WIN_THRESHOLD]
    if hand.first_over is not None and len(over) == 2:
        # interpretation (VUELTAS-14, C-07): a hand de vueltas played out with both sides past
        # 100 (a claim hand nobody claimed, or a hand the thirty malas kept going) goes to the
        # side that passed 100 first, as under vueltas_end=automatic. (Only a hand de vueltas
        # has a first_over: the first hand of a point is decided at its end, SCORE-06/07.)
        return _apply_thirty(hand, hand.first_over, both_over=True, rule="VUELTAS-14")
    if len(over) == 2:
        assert hand.ultimas_side is not None
        return _apply_thirty(hand, hand.ultimas_side, both_over=True, rule="SCORE-07")
    if len(over) == 1:
        rule = "VUELTAS-03" if hand.hand_in_point > 0 else "SCORE-06"
        return _apply_thirty(hand, over[0], both_over=False, rule=rule)
    return PointDecision(None, "vueltas", "SCORE-13")


def decide_automatic(hand: HandState, side: int) -> PointDecision | None:
    """VUELTAS-07 (``vueltas_end=automatic``): in a hand de vueltas the point is given the
    moment ``side``, which has just scored, reaches 101.

    interpretation (VUELTAS-10, C-08): the check follows every trick (its card points, and at the last
    trick the últimas) and every cante. interpretation (SCORE-11, B-25): if the thirty malas stop the
    win (``thirty_malas_scope=all_hands``) play goes on, unless ``thirty_malas=lose`` gives
    the point to the opponents. interpretation (SCORE-12, B-23): when both sides were carried over
    with 101 or more (``thirty_malas=vueltas``), the first side to score takes the point.
    interpretation (SCORE-09, B-26): the check judges the scoring side alone, so under
    ``thirty_malas_trigger=both_over_only`` the thirty malas are not checked here.
    """
    if hand.hand_in_point == 0 or hand.rules.vueltas_end != "automatic":
        return None  # interpretation (VUELTAS-12, C-22): the first hand of a point is played out
    if total(hand, side) < WIN_THRESHOLD:
        return None
    if not _stopped_by_thirty(hand, side, both_over=False):
        return PointDecision(side, "vueltas_reached_101", "VUELTAS-07")
    decision = _short_of_thirty(hand, side)
    # SCORE-12: the thirty malas give the point to the opponents, or play goes on
    return decision if decision.winner is not None else None


def claim_refusal(hand: HandState, seat: int) -> Refusal | None:
    """VUELTAS-05 / B-28: why ``seat`` may not claim 101 now, or ``None`` if he may.

    interpretation (VUELTAS-13, B-28): the claim is made after a trick won by the claimant's
    side and before the next lead, so after the cantes of that trick (which count) and
    before or after its draw.
    """
    if hand.rules.vueltas_end != "claim" or hand.hand_in_point == 0:
        return Refusal(
            "CLAIM_NOT_ALLOWED", "VUELTAS-05", "a claim is made only in a hand de vueltas with vueltas_end=claim"
        )
    if not window_open_for(hand, seat):
        return Refusal("CLAIM_NOT_NOW", "VUELTAS-05", "a claim follows a trick won by the claimant's side")
    if hand.rules.vueltas_claim_by == "trick_winner" and seat != hand.last_trick_winner:
        return Refusal("CLAIM_NOT_TRICK_WINNER", "VUELTAS-05", "only the player who won the trick may claim")
    return None


def decide_claim(hand: HandState, side: int) -> PointDecision:
    """VUELTAS-06: a claim of 101 is checked against the accumulated total; a false claim
    gives the point to the opponents.

    interpretation (SCORE-11, B-25): where the thirty malas apply in a hand de vueltas, a claim by a
    side that lacks them is false. interpretation (SCORE-09, B-26): a claim judges the claimant
    alone, so under ``thirty_malas_trigger=both_over_only`` the thirty malas are not checked."""
    if total(hand, side) >= WIN_THRESHOLD and not _stopped_by_thirty(hand, side, both_over=False):
        return PointDecision(side, "claim_correct", "VUELTAS-06")
    return PointDecision(1 - side, "claim_false", "VUELTAS-06")


def count(hand: HandState, decision: PointDecision) -> dict[str, Any]:
    """SCORE-02: the count of a hand that ``decision`` ends, as its ``hand_over`` event shows it:
    each side's score for the hand and running total, the card points, and the decision."""
    return {
        "scores": [hand_score(hand, side) for side in range(hand.sides)],
        "totals": [total(hand, side) for side in range(hand.sides)],
        "card_points": list(hand.card_points),
        "winner": decision.winner,
        "reason": decision.reason,
        "rule": decision.rule,
    }
