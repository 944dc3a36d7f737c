"""Mid-hand positions (Game.from_position): defaults and the checks of a possible state."""

from __future__ import annotations

from typing import Any

import pytest

from guinote_conformance.reference_engine.cards import CardError
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.position import PositionError
from guinote_conformance.reference_engine.views import observation_field

from .helpers import rules

HANDS = [["Ao", "2o"], ["3o", "4o"], ["5o", "6o"], ["7o", "Ro"]]


def at(**fields: Any) -> Game:
    return Game.from_position(rules("ludoteka"), {"hands": HANDS, "trump": "b", **fields})


def test_the_winner_of_the_last_trick_leads() -> None:  # PLAY-04 (a bug: seat 0 used to lead)
    game = at(last_trick_winner=2)
    assert game.leader == 2 and game.turn == 2 and game.dealer == 1
    assert game.window_side == 0


def test_leader_defaults() -> None:
    assert at().turn == 0
    assert at(dealer=1).turn == 2  # the mano (PRE-09)
    assert at(leader=3, last_trick_winner=2).turn == 3  # an explicit leader wins
    game = Game.from_position(
        rules("ludoteka"),
        {"hands": [["Ao"], ["3o", "4o"], ["5o"], ["7o"]], "trump": "b", "trick": [[2, "6o"], [3, "Ro"], [0, "2o"]]},
    )
    assert game.leader == 2 and game.turn == 1


def test_the_trick_must_follow_the_playing_order() -> None:
    with pytest.raises(PositionError, match="seat 3 does not play after seat 1"):
        Game.from_position(
            rules("ludoteka"),
            {"hands": [["Ao"], ["3o"], ["5o", "6o"], ["7o"]], "trump": "b", "trick": [[0, "2o"], [1, "4o"], [3, "Ro"]]},
        )
    with pytest.raises(PositionError, match="the leader is seat 1 but the trick starts with seat 0"):
        at(leader=1, trick=[[0, "Ao"]], hands=[["2o"], ["3o", "4o"], ["5o", "6o"], ["7o", "Ro"]])


def test_draw_pending_needs_a_possible_state() -> None:
    hands = [["Ao"], ["3o"], ["5o"], ["7o"]]
    base = {"hands": hands, "muestra": "Rb", "stock": ["4o", "6o", "2o"], "draw_pending": True}
    with pytest.raises(PositionError, match="draw_pending needs a last_trick_winner"):
        Game.from_position(rules("ludoteka"), base)  # it used to fail only at the draw
    game = Game.from_position(rules("ludoteka"), {**base, "last_trick_winner": 1})
    assert game.draw_pending and game.turn == 1


def test_the_stock_and_the_muestra_divide_among_the_players() -> None:  # C-19
    with pytest.raises(PositionError, match="not a multiple of 4"):
        Game.from_position(rules("ludoteka"), {"hands": HANDS, "muestra": "Rb", "stock": ["Sb", "Cb"]})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"hands": HANDS[:3]}, "gives 3 hands, but 4 play"),
        ({"hands": [["Ao"], ["3o", "4o"], ["5o", "6o"], ["7o", "Ro"]]}, "same number of cards"),
        ({"hands": [["Ao", "2o"], ["3o", "4o"], ["5o", "6o"], ["7o", "Ao"]]}, "Ao is dealt twice"),
        ({"stock": ["Sb", "Cb", "Rb"]}, "needs its muestra"),
        ({"trump": "x"}, "needs its trump suit"),
        ({"muestra": "Rb", "trump": "o", "stock": ["Sb", "Cb", "Ab"]}, "contradicts the muestra"),
        ({"last_trick_winner": 4}, "'last_trick_winner' must be a seat"),
        ({"card_points": [1]}, "'card_points' must be two integers"),
        ({"sung": [{"seat": 7, "suit": "o"}]}, "no seat 7"),
        ({"hands": "Ao"}, "'hands' must be a list"),
        ({"trick": [[0, "Ao"], [1, "3o"], [2, "5o"], [3, "7o"]]}, "fewer than 4"),
    ],
)
def test_impossible_positions_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(CardError, match=message):
        Game.from_position(rules("ludoteka"), {"hands": HANDS, "trump": "b", **fields})


def test_a_position_remembers_twentys_sung_in_the_arrastre() -> None:  # CANTE-15
    game = at(sung=[{"seat": 0, "suit": "o", "arrastre": True}, {"seat": 1, "suit": "c"}])
    assert game.cante_points == [20, 20]
    assert [c["suit"] for c in observation_field(game, 1, "cantes")] == [None, "c"]


def test_the_rest_of_the_state() -> None:
    game = at(
        card_points=[30, 40],
        tricks_won=[3, 4],
        exchange_done=True,
        hand_in_point=1,
        carried=[50, 60],
        match_points=[1, 2],
        cotos=[1, 0],
    )
    assert game.card_points == [30, 40] and game.tricks_played == 7 and game.exchange_done
    assert game.hand_in_point == 1 and game.carried == [50, 60]
    assert game.match.points == [1, 2] and game.match.cotos == [1, 0]
    assert game.start == {
        "position": {
            "hands": HANDS,
            "trump": "b",
            "card_points": [30, 40],
            "tricks_won": [3, 4],
            "exchange_done": True,
            "hand_in_point": 1,
            "carried": [50, 60],
            "match_points": [1, 2],
            "cotos": [1, 0],
        }
    }
