"""Counting a hand, 101, the thirty malas and the hand de vueltas (rule areas SCORE, VUELTAS).

A side's score for a hand is its card points, its cantes and the diez de últimas
(SCORE-01, SCORE-02). In the first hand of a point a side wins with 101 or more (SCORE-04);
if both reach 101 the side with the últimas wins (SCORE-07); if neither does the hand goes
de vueltas (SCORE-13). The thirty malas (SCORE-09) and everything about vueltas follow
the flags; each decision names the rule it applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reference_engine.game import Game

WIN_THRESHOLD = 101  # SCORE-04: more than 100 ("51 buenas", SCORE-05)
THIRTY_MALAS = 30  # SCORE-09
ULTIMAS = 10  # SCORE-01


@dataclass(frozen=True)
class PointDecision:
    """The outcome of a hand: ``winner`` side, or ``None`` when it goes de vueltas."""

    winner: int | None
    reason: str
    rule: str


def hand_score(game: Game, side: int) -> int:
    """SCORE-02: card points + cantes + diez de últimas of this hand."""
    ultimas = ULTIMAS if game.ultimas_side == side else 0
    return game.card_points[side] + game.cante_points[side] + ultimas


def total(game: Game, side: int) -> int:
    """VUELTAS-02: the point's running total, carried from earlier hands of the point."""
    return game.carried[side] + hand_score(game, side)


def malas(game: Game, side: int) -> int:
    """SCORE-10 (``thirty_malas_count``): the points that count toward the thirty malas.
    Under ``thirty_malas_scope=all_hands`` they accumulate over the point (interpretation)."""
    counted = game.card_points[side]
    if game.rules.thirty_malas_count == "cards_plus_ultimas" and game.ultimas_side == side:
        counted += ULTIMAS
    if game.rules.thirty_malas_scope == "all_hands":
        counted += game.carried_malas[side]
    return counted


def _thirty_applies(game: Game, both_over: bool) -> bool:
    if game.hand_in_point > 0 and game.rules.thirty_malas_scope == "first_hand_only":
        return False  # SCORE-11
    if game.rules.thirty_malas_trigger == "both_over_only":
        return both_over  # B-26, S000
    return True


def _apply_thirty(game: Game, candidate: int, both_over: bool) -> PointDecision:
    """SCORE-09/SCORE-12: a would-be winner without thirty malas, per ``thirty_malas``."""
    other = 1 - candidate
    if not _thirty_applies(game, both_over) or malas(game, candidate) >= THIRTY_MALAS:
        return PointDecision(candidate, "over_100", "SCORE-07" if both_over else "SCORE-06")
    rule = game.rules.thirty_malas
    if rule == "lose":
        return PointDecision(other, "thirty_malas_lose", "SCORE-12")
    if rule == "cannot_win" and total(game, other) >= WIN_THRESHOLD:
        return PointDecision(other, "thirty_malas_cannot_win", "SCORE-12")
    return PointDecision(None, "thirty_malas_vueltas", "SCORE-12")


def decide_complete_hand(game: Game) -> PointDecision:
    """The result of a hand played to its last trick."""
    totals = [total(game, side) for side in range(game.sides)]
    over = [side for side in range(game.sides) if totals[side] >= WIN_THRESHOLD]
    if game.hand_in_point > 0 and game.first_over is not None and len(over) == 2:
        # interpretation (C-07): in a hand de vueltas played out, the first side past 100 wins
        return _apply_thirty(game, game.first_over, both_over=True)
    if len(over) == 2:
        assert game.ultimas_side is not None
        return _apply_thirty(game, game.ultimas_side, both_over=True)  # SCORE-07
    if len(over) == 1:
        return _apply_thirty(game, over[0], both_over=False)  # SCORE-06
    return PointDecision(None, "vueltas", "SCORE-13")


def decide_automatic(game: Game, side: int) -> PointDecision | None:
    """VUELTAS-07 (``vueltas_end=automatic``): in a hand de vueltas the point is given the
    moment a side reaches 101, unless the thirty-malas rule stops it (then play goes on)."""
    if game.hand_in_point == 0 or game.rules.vueltas_end != "automatic":
        return None
    if total(game, side) < WIN_THRESHOLD:
        return None
    decision = _apply_thirty(game, side, both_over=False)
    if decision.winner is None:
        return None
    return PointDecision(decision.winner, "vueltas_reached_101" if decision.winner == side else decision.reason, "VUELTAS-07")


def decide_claim(game: Game, side: int) -> PointDecision:
    """VUELTAS-06: a claim of 101 is checked against the accumulated total; a false claim
    gives the point to the opponents."""
    other = 1 - side
    if total(game, side) >= WIN_THRESHOLD:
        decision = _apply_thirty(game, side, both_over=False)
        if decision.winner == side:
            return PointDecision(side, "claim_correct", "VUELTAS-06")
    return PointDecision(other, "claim_false", "VUELTAS-06")
