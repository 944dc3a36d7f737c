"""Game.position(): the position JSON of any hand in progress loads back to the same state.

Random play (``guinote_conformance.reference_engine.random_play``) in every profile and overlay combination: at
every step of up to three hands of a match, the position is written, sent through JSON, loaded
with ``Game.from_position``, and the loaded game must hold the same hand field for field, the
same match score and the same legal actions; from one random step the two games then play
the same actions to the end of the hand and must emit the same events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guinote_conformance.reference_engine.actions import Cante, Deal
from guinote_conformance.reference_engine.cards import CardError, Suit
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.hand import Hand
from guinote_conformance.reference_engine.position import PositionError
from guinote_conformance.reference_engine.random_play import new_game, uniform_policy

from .helpers import play, position, rules
from .test_properties import COMBINATIONS

HANDS_PER_EXAMPLE = 3

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def hand_state(hand: Hand) -> dict[str, Any]:
    """Every public field of the hand (the private ones are caches)."""
    return {name: getattr(hand, name) for name in Hand.__slots__ if not name.startswith("_")}


def reloaded(game: Game) -> Game:
    """The game loaded back from its position, sent through JSON text as an engine would get it."""
    text = json.dumps(game.position())
    return Game.from_position(game.rules, json.loads(text))


def check_round_trip(game: Game) -> Game:
    again = reloaded(game)
    assert hand_state(again.hand) == hand_state(game.hand)
    assert (again.match.points, again.match.cotos) == (game.match.points, game.match.cotos)
    assert again.phase == game.phase
    assert again.legal_actions() == game.legal_actions()
    assert again.position() == game.position()  # and the position of the loaded game is the same JSON
    return again


@pytest.mark.parametrize("profile", COMBINATIONS)
@given(seed=seeds)
def test_the_position_of_random_play_loads_back_to_the_same_state(profile: str, seed: int) -> None:
    game, rng = new_game(profile, seed)
    policy = uniform_policy(rng)
    for _ in range(HANDS_PER_EXAMPLE):
        follow_from = rng.randrange(45)
        step = 0
        while game.hand.result is None:
            again = check_round_trip(game)
            if step == follow_from:
                while game.hand.result is None:  # both play the rest of the hand the same way
                    action = policy(game, game.legal_actions())
                    assert again.apply(action) == game.apply(action)
                    assert hand_state(again.hand) == hand_state(game.hand)
                break
            game.apply(policy(game, game.legal_actions()))
            step += 1
        if game.match.winner is not None:
            break
        with pytest.raises(PositionError, match="the hand is over"):
            game.position()
        game.apply(policy(game, [Deal()]))


def test_a_dealt_hand_round_trips() -> None:
    game = Game.from_seed(rules("tradicional"), 5, dealer=2)
    assert game.position()["dealer"] == 2 and game.position()["leader"] == 3
    check_round_trip(game)


def test_the_fields_of_a_played_hand_round_trip() -> None:
    # a trick taken in the arrastre, then a twenty sung in its window under cante_per_trick=one
    game = position(
        rules("tradicional", cante_per_trick="one"),
        ["Ao Ro So", "2c 4c 5c", "6c 7c Sc", "Rc Cc Ac"],
        trump="b",
        tricks_won=[2, 1],
    )
    play(game, "Ao", "2c", "6c", "Rc")
    game.apply(Cante(0, Suit.OROS))
    written = game.position()
    assert written["won_cards"] == [["Ao", "2c", "6c", "Rc"], []]
    assert written["last_trick"] == [[0, "Ao"], [1, "2c"], [2, "6c"], [3, "Rc"]]
    assert written["window_cantes"] == 1
    assert written["sung"] == [{"seat": 0, "suit": "o", "arrastre": True}]
    assert (written["card_points"], written["tricks_won"]) == ([15, 0], [3, 1])
    check_round_trip(game)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"last_trick": [[0, "Rb"], [1, "Sb"], [2, "Cb"], [3, "Ab"]]},
            "taken by seat 3, not by last_trick_winner None",
        ),
        (
            {"last_trick": [[0, "Rb"], [1, "Sb"], [2, "Cb"], [3, "Ab"]], "last_trick_winner": 0},
            "taken by seat 3, not by last_trick_winner 0",
        ),
        ({"last_trick": [[0, "Rb"], [1, "Sb"]]}, "must list 4 \\[seat, card\\] pairs"),
        ({"last_trick": [[0, "Ao"], [1, "Sb"], [2, "Cb"], [3, "Ab"]], "last_trick_winner": 3}, "Ao is dealt twice"),
        ({"won_cards": [["Ao"], []]}, "Ao is dealt twice"),
        ({"won_cards": [["Rb"]]}, "two lists of cards"),
        ({"window_cantes": 1}, "window_cantes needs the cante window open"),
        ({"window_cantes": -1, "last_trick_winner": 0}, "'window_cantes' must be a whole number"),
        ({"first_over": 0}, "first_over is a side's first pass of 100 in a hand de vueltas"),
        ({"first_over": 2, "hand_in_point": 1}, "'first_over' must be a side"),
    ],
)
def test_impossible_completions_are_refused(fields: dict[str, Any], message: str) -> None:
    hands = [["Ao", "2o"], ["3o", "4o"], ["5o", "6o"], ["7o", "Ro"]]
    with pytest.raises(CardError, match=message):  # a PositionError, or a card dealt twice
        Game.from_position(rules("ludoteka"), {"hands": hands, "trump": "b", **fields})


def test_the_hand_is_read_only_through_the_game() -> None:
    game = Game.from_seed(rules("ludoteka"), 1)
    with pytest.raises(AttributeError):
        game.turn = 3
    assert game.turn == game.hand.turn
