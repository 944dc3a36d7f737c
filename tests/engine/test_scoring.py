"""SCORE: counting a hand, 101, the diez de últimas and the thirty malas under every flag value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.scoring import malas

from .helpers import event, play, position, rules

LAST_TRICK = ("6o", "2o", "5o", "4o")  # seat 0 takes it: no card points, the diez de últimas to side 0


def last_trick(
    card_points: tuple[int, int],
    sung: Sequence[tuple[int, str]] = (),
    profile: str = "ludoteka",
    **fields: Any,
) -> tuple[Game, dict[str, Any]]:
    """Play the last trick of a hand with ``card_points`` already won and cantes ``sung``."""
    flags = {k: v for k, v in fields.items() if k.startswith("thirty") or k == "vueltas_end"}
    rest = {k: v for k, v in fields.items() if k not in flags}
    game = position(
        rules(profile, **flags),
        ["6o", "2o", "5o", "4o"],
        trump="b",
        card_points=list(card_points),
        tricks_won=[5, 4],
        sung=[{"seat": seat, "suit": suit} for seat, suit in sung],
        **rest,
    )
    events = play(game, *LAST_TRICK)
    assert event(events, "ultimas") == {"side": 0, "points": 10}  # SCORE-01
    return game, dict(event(events, "hand_over"))


def test_the_hand_score_is_cards_cantes_and_ultimas() -> None:  # SCORE-02
    _, over = last_trick((50, 50), [(0, "o"), (1, "b")])
    assert over["scores"] == [50 + 20 + 10, 50 + 40]
    assert over["card_points"] == [50, 50]


def test_101_wins() -> None:  # SCORE-04, SCORE-06
    game, over = last_trick((91, 29))
    assert over["scores"] == [101, 29]
    assert (over["winner"], over["reason"], over["rule"]) == (0, "over_100", "SCORE-06")
    assert game.match.points == [1, 0]


def test_100_is_not_enough() -> None:  # C-21, SCORE-13
    _, over = last_trick((90, 30))
    assert over["scores"] == [100, 30]
    assert (over["winner"], over["reason"], over["rule"]) == (None, "vueltas", "SCORE-13")


def test_a_side_past_100_with_cantes() -> None:
    _, over = last_trick((30, 90), [(1, "b"), (1, "o")])
    assert over["scores"] == [40, 150]
    assert over["winner"] == 1


def test_both_past_100_the_ultimas_decide() -> None:  # SCORE-07, SCORE-08
    _, over = last_trick((45, 75), [(0, "o"), (0, "b"), (1, "c"), (3, "e")])
    assert over["scores"] == [115, 115]
    assert (over["winner"], over["rule"]) == (0, "SCORE-07")
    _, over = last_trick((40, 80), [(0, "o"), (2, "b"), (1, "c"), (3, "e")])
    assert over["scores"] == [110, 120]
    assert over["winner"] == 0  # not the side with more points


# Both sides past 100; side 0 has the últimas but only 15 + 10 = 25 malas (80 in cantes).
BOTH_OVER_POINTS = (15, 105)
SIDE_0_SINGS_80 = [(0, "o"), (2, "e"), (0, "b")]


@pytest.mark.parametrize(
    ("thirty_malas", "winner", "reason"),
    [
        ("lose", 1, "thirty_malas_lose"),
        ("cannot_win", 1, "thirty_malas_cannot_win"),
        ("vueltas", None, "thirty_malas_vueltas"),
    ],
)
@pytest.mark.parametrize("count", ["cards_plus_ultimas", "cards_only"])
@pytest.mark.parametrize("trigger", ["any_winner", "both_over_only"])
def test_thirty_malas_with_both_past_100(
    thirty_malas: str, winner: int | None, reason: str, count: str, trigger: str
) -> None:  # SCORE-09, SCORE-12, B-23, B-24, B-26
    game, over = last_trick(
        BOTH_OVER_POINTS,
        SIDE_0_SINGS_80,
        thirty_malas=thirty_malas,
        thirty_malas_count=count,
        thirty_malas_trigger=trigger,
    )
    assert over["scores"] == [105, 105]
    assert malas(game.hand, 0) == (25 if count == "cards_plus_ultimas" else 15)
    assert (over["winner"], over["reason"], over["rule"]) == (winner, reason, "SCORE-12")
    assert game.match.points == ([0, 0] if winner is None else [1 - winner, winner])


def test_thirty_malas_met() -> None:  # SCORE-09: 30 are enough
    _, over = last_trick((20, 100), SIDE_0_SINGS_80, thirty_malas="lose")
    assert over["scores"] == [110, 100] and over["winner"] == 0


# Only side 0 is past 100: 22 in cards + 10 de últimas = 32 malas, 22 without the últimas (B-24).
ONE_OVER_POINTS = (22, 98)


@pytest.mark.parametrize(
    ("count", "trigger", "thirty_malas", "winner", "reason"),
    [
        ("cards_plus_ultimas", "any_winner", "lose", 0, "over_100"),
        ("cards_only", "any_winner", "lose", 1, "thirty_malas_lose"),
        ("cards_only", "any_winner", "cannot_win", None, "thirty_malas_vueltas"),  # interpretation (B-23)
        ("cards_only", "any_winner", "vueltas", None, "thirty_malas_vueltas"),
        ("cards_only", "both_over_only", "lose", 0, "over_100"),  # B-26: only checked when both are past 100
    ],
)
def test_thirty_malas_count_and_trigger(
    count: str, trigger: str, thirty_malas: str, winner: int | None, reason: str
) -> None:  # B-24, B-26
    _, over = last_trick(
        ONE_OVER_POINTS,
        SIDE_0_SINGS_80,
        thirty_malas=thirty_malas,
        thirty_malas_count=count,
        thirty_malas_trigger=trigger,
    )
    assert over["scores"] == [112, 98]
    assert (over["winner"], over["reason"]) == (winner, reason)


@pytest.mark.parametrize(
    ("scope", "thirty_malas", "carried_malas", "winner", "reason"),
    [
        ("first_hand_only", "lose", [0, 0], 0, "over_100"),  # SCORE-11: not checked de vueltas
        ("all_hands", "lose", [0, 0], 1, "thirty_malas_lose"),  # B-25: "nunca se gana"
        ("all_hands", "cannot_win", [0, 0], None, "thirty_malas_vueltas"),
        ("all_hands", "cannot_win", [10, 0], 0, "over_100"),  # interpretation (B-25): malas accumulate
    ],
)
def test_thirty_malas_scope_in_a_hand_de_vueltas(
    scope: str, thirty_malas: str, carried_malas: list[int], winner: int | None, reason: str
) -> None:  # SCORE-11, B-25
    _, over = last_trick(
        (15, 20),
        [(0, "b")],
        profile="tradicional_literal",
        thirty_malas=thirty_malas,
        thirty_malas_scope=scope,
        vueltas_end="claim",
        hand_in_point=1,
        carried=[60, 40],
        carried_malas=carried_malas,
    )
    assert over["totals"] == [125, 60]
    assert (over["winner"], over["reason"]) == (winner, reason)
