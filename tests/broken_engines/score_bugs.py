"""Planted bugs of the count and the match: the diez de últimas, the cantes in the score, the
threshold of 101, the thirty malas, who wins when both pass 100, and what carries from one point
or coto to the next (each breaks one rule of features/index)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guinote_conformance.reference_engine import game, hand, match, scoring
from guinote_conformance.reference_engine.actions import Event
from guinote_conformance.reference_engine.cards import Card
from guinote_conformance.reference_engine.scoring import PointDecision
from tests.broken_engines.base import Breakage, replace_everywhere


def _ultimas_counted_twice() -> None:
    original = scoring.hand_score

    def twice(g: Any, side: int) -> int:
        extra = scoring.ULTIMAS if g.ultimas_side == side else 0
        return int(original(g, side)) + extra

    replace_everywhere(original, twice)


def _cantes_not_counted() -> None:
    original = scoring.hand_score

    def cards_and_ultimas(g: Any, side: int) -> int:
        cantes: int = g.cante_points[side]
        return int(original(g, side)) - cantes

    replace_everywhere(original, cards_and_ultimas)


def _threshold_100() -> None:
    scoring.WIN_THRESHOLD = 100


def _malas_with_cantes() -> None:
    original = scoring.malas

    def with_cantes(g: Any, side: int) -> int:
        cantes: int = g.cante_points[side]
        return int(original(g, side)) + cantes

    replace_everywhere(original, with_cantes)


def _both_over_most_points() -> None:
    original = scoring.decide_complete_hand

    def most_points(g: Any) -> PointDecision:
        totals = [scoring.total(g, side) for side in range(g.sides)]
        if g.first_over is None and min(totals) >= scoring.WIN_THRESHOLD and totals[0] != totals[1]:
            leader = 0 if totals[0] > totals[1] else 1  # the higher count wins, whoever took the últimas
            return scoring._apply_thirty(g, leader, both_over=True, rule="SCORE-07")
        decision: PointDecision = original(g)
        return decision

    replace_everywhere(original, most_points)


def _first_hand_stops_at_101() -> None:
    original = hand.Hand._after_scoring

    def after(self: hand.Hand, side: int) -> list[Event]:
        over = self.hand_in_point == 0 and self.result is None and scoring.total(self, side) >= scoring.WIN_THRESHOLD
        if over and scoring.has_thirty_malas(self, side):
            return self._finish(PointDecision(side, "over_100", "SCORE-06"))  # stopped at once
        found: list[Event] = original(self, side)
        return found

    hand.Hand._after_scoring = after  # type: ignore[method-assign]


def _totals_into_next_point() -> None:
    original_close = game.Game._close_hand
    original_deal = game.Game._deal

    def close(self: game.Game, closed: hand.Hand, decision: PointDecision) -> list[Event]:
        events: list[Event] = original_close(self, closed, decision)
        if decision.winner is not None:
            self._stale_totals = [scoring.total(closed, side) for side in range(closed.sides)]  # type: ignore[attr-defined]
        return events

    def deal(self: game.Game, order: Sequence[Card]) -> list[Event]:
        stale = getattr(self, "_stale_totals", None)
        if self._carry_over is not None or not stale:
            found: list[Event] = original_deal(self, order)
            return found
        dealer = self.next_dealer()
        self.hand = hand.Hand.from_deck(self.rules, order, dealer, 0, stale, (0, 0))  # the last point's totals kept
        self._stale_totals = None  # type: ignore[attr-defined]
        assert self.hand.muestra is not None
        return [Event("hand_dealt", {"dealer": dealer, "mano": self.hand.mano, "muestra": self.hand.muestra.code})]

    game.Game._close_hand = close  # type: ignore[method-assign,assignment]
    game.Game._deal = deal  # type: ignore[method-assign]


def _coto_points_kept() -> None:
    def award_point(self: match.MatchScore, side: int) -> list[str]:
        completed: list[str] = []
        self.points[side] += 1
        if self.points[side] >= self.points_per_coto:
            self.cotos[side] += 1
            self.points[side] = 0  # only the winner's points restart
            completed.append("coto")
            if self.cotos[side] >= self.cotos_to_win:
                self.winner = side
                completed.append("match")
        return completed

    match.MatchScore.award_point = award_point  # type: ignore[method-assign]


#: The last trick of a hand, seat 0 to lead the 7 of trumps and take it: side 0 ends on 15 card points,
#: the diez de últimas and 100 in cantes (125, but only 25 malas), side 1 on 105 card points.
SHORT_OF_MALAS: dict[str, Any] = {
    "hands": [["7o"], ["2c"], ["4c"], ["5c"]], "trump": "o", "leader": 0, "card_points": [15, 105],
    "tricks_won": [3, 6], "sung": [{"seat": 0, "suit": suit} for suit in "oceb"],
}  # fmt: skip
#: The last trick, seat 1 to lead the 7 of trumps and take it: side 0 ends on 120 (60 in cards, the
#: forty and a twenty), side 1 on 110 with the diez de últimas (60 in cards, two twenties).
BOTH_OVER: dict[str, Any] = {
    "hands": [["2c"], ["7o"], ["4c"], ["5c"]], "trump": "o", "leader": 1, "card_points": [60, 60],
    "tricks_won": [4, 5],
    "sung": [{"seat": 0, "suit": "o"}, {"seat": 2, "suit": "c"}, {"seat": 1, "suit": "e"}, {"seat": 3, "suit": "b"}],
}  # fmt: skip

SCORE_BUGS: dict[str, Breakage] = {
    "ultimas_counted_twice": Breakage(
        "SCORE-02", "the diez de últimas are added twice to the score", None, _ultimas_counted_twice, area="scoring"
    ),
    "cantes_not_counted": Breakage(
        "CANTE-04", "the cantes are left out of the score and the totals", None, _cantes_not_counted, area="scoring"
    ),
    "threshold_100": Breakage("SCORE-04", "100 points win, instead of 101", None, _threshold_100, area="scoring"),
    "malas_with_cantes": Breakage(
        "SCORE-10",
        "the cantes count toward the thirty malas",
        None,
        _malas_with_cantes,
        area="scoring",
        witness=SHORT_OF_MALAS,
        also_breaks=("SCORE-09",),
    ),
    "both_over_most_points": Breakage(
        "SCORE-07",
        "when both sides pass 100 the higher count wins, not the side with the últimas",
        None,
        _both_over_most_points,
        area="scoring",
        witness=BOTH_OVER,
    ),
    "first_hand_stops_at_101": Breakage(
        "VUELTAS-12",
        "the first hand of a point stops as soon as a side reaches 101",
        None,
        _first_hand_stops_at_101,
        area="scoring",
    ),
    "totals_into_next_point": Breakage(
        "MATCH-02",
        "the totals of a won point carry into the first hand of the next point",
        None,
        _totals_into_next_point,
        area="match",
    ),
    "coto_points_kept": Breakage(
        "MATCH-12",
        "when a coto is won only the winner's points restart; the loser keeps his",
        frozenset({"MATCH-03", "MATCH-04", "MATCH-05", "MATCH-06"}),
        _coto_points_kept,
        profile="tradicional",
        area="match",
    ),
}
