"""PLAY: tricks, the free phase and the draw."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.actions import Draw, Exchange, Play
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.random_play import new_game

from .helpers import card, deal, event, kinds, play, playable, position, refusal, rules

HANDS_4 = ["Ao 2o 3c 4c 5e 6e", "Ro 7o Sc 6c Ce 2b", "So 5o Rc Ac 3b 4b", "Co 4o 7c 2c Rb Sb"]


def test_any_card_may_be_played_in_the_free_phase() -> None:  # PLAY-07
    game = deal(rules(), HANDS_4, muestra="7b", dealer=3)
    play(game, "2o")
    assert playable(game) == {"Ro", "7o", "Sc", "6c", "Ce", "2b"}
    play(game, "6c")  # neither follows nor beats, holding oros
    play(game, "4b")  # trumps although holding oros
    assert game.turn == 3


@pytest.mark.parametrize(
    ("cards_played", "winner"),
    [
        ("2o Ro So Co", 1),  # highest of the suit led
        ("2o 6c 5o 4o", 2),  # a third suit never wins
        ("2o 6c 4b Sb", 3),  # the highest trump wins
        ("2o 6c 3b Sb", 2),  # the Tres outranks the Sota
        ("2o 2b 5o 4o", 1),  # any trump beats the suit led
        ("3c 2b Ac 7c", 1),
        ("Ao Ro So Co", 0),  # the leader keeps it when nobody kills (PLAY-17)
    ],
)
def test_trick_winner(cards_played: str, winner: int) -> None:  # PLAY-05, PLAY-17
    game = deal(rules(), HANDS_4, muestra="7b", dealer=3)
    events = play(game, *cards_played.split())
    won = event(events, "trick_won")
    assert won["seat"] == winner and won["side"] == winner % 2
    assert game.last_trick_winner == winner and game.leader == winner and game.turn == winner  # PLAY-04


def test_the_winner_draws_first_then_in_turn() -> None:  # PLAY-08, PLAY-09
    game = deal(rules(), HANDS_4, muestra="7b", dealer=3, stock="Ab 3o 6o 7e")
    play(game, "2o", "Ro", "So", "Co")
    assert game.draw_pending
    assert refusal(game, Play(1, card("7o"))).code == "MUST_DRAW_FIRST"
    events = game.apply(Draw())
    assert event(events, "cards_drawn")["draws"] == [[1, "Ab"], [2, "3o"], [3, "6o"], [0, "7e"]]
    assert all(len(hand) == 6 for hand in game.hands)
    assert refusal(game, Draw()).code == "NOTHING_TO_DRAW"
    assert game.turn == 1


def test_the_last_drawer_takes_the_muestra_and_the_arrastre_begins() -> None:  # PLAY-10, PLAY-11, PLAY-13
    game = position(
        rules(),
        ["Ao 2o 3c 4c 5e", "Ro 7o Sc 6c Ce", "So 5o Rc Ac 3b", "Co 4o 7c 2c Rb"],
        muestra="Sb",
        stock="6o 7e 4b",
        last_trick_winner=1,
        draw_pending=True,
    )
    assert game.phase == "free"
    events = game.apply(Draw())
    assert event(events, "cards_drawn")["draws"] == [[1, "6o"], [2, "7e"], [3, "4b"], [0, "Sb"]]
    assert "arrastre_begins" in kinds(events)
    assert game.muestra is None and game.phase == "arrastre" and game.stock == []


def test_the_last_drawer_takes_the_exchanged_seven() -> None:  # SEVEN-11
    game = position(
        rules("ludoteka"),
        ["Ao 2o 3c 4c 5e", "Ro 7o Sc 6c 7b", "So 5o Rc Ac 3b", "Co 4o 7c 2c Rb"],
        muestra="Ab",
        stock="6o 7e 4b",
        last_trick_winner=1,
        draw_pending=True,
    )
    assert event(game.apply(Exchange(1)), "exchange") == {"seat": 1, "gave": "7b", "took": "Ab"}
    assert game.muestra is card("7b")
    game.apply(Draw())
    assert card("7b") in game.hands[0] and card("Ab") in game.hands[1]


def test_mano_a_mano_the_loser_of_the_last_free_trick_draws_the_muestra() -> None:  # TWO-04
    game = position(
        rules("lascuarenta+mano_a_mano"),
        ["Ao 2o 3c 4c 5e", "Ro 7o Sc 6c Ce"],
        muestra="Sb",
        stock="6o",
        last_trick_winner=0,
        draw_pending=True,
    )
    assert event(game.apply(Draw()), "cards_drawn")["draws"] == [[0, "6o"], [1, "Sb"]]


def test_turn_and_card_checks() -> None:  # PLAY-02, RENUNCIO-04 / C-18
    game = deal(rules(), HANDS_4, muestra="7b", dealer=3)
    wrong_turn = refusal(game, Play(1, card("Ro")))
    assert (wrong_turn.code, wrong_turn.rule) == ("NOT_YOUR_TURN", "PLAY-02")
    assert refusal(game, Play(0, card("Rb"))).code == "CARD_NOT_IN_HAND"
    assert refusal(game, Play(0, card("9o"))).code == "CARD_NOT_IN_HAND"
    assert refusal(game, Play(4, card("Ao"))).code == "NO_SUCH_SEAT"
    arrastre = position(rules(), ["Ao", "Ro", "So", "Co"], trump="b", last_trick_winner=0)
    wrong_turn = refusal(arrastre, Play(2, card("So")))
    assert (wrong_turn.code, wrong_turn.rule) == ("NOT_YOUR_TURN", "RENUNCIO-04")


@pytest.mark.parametrize(
    ("profile", "free_tricks", "tricks"),
    [
        ("lascuarenta", 4, 10),
        ("lascuarenta+mano_a_mano", 14, 20),
        ("lascuarenta+ademuz48", 6, 12),
        ("lascuarenta+mano_a_mano+ademuz48", 18, 24),
        ("lascuarenta+castellon36", 3, 9),
        ("lascuarenta+mano_a_mano+castellon36", 12, 18),
    ],
)
def test_free_tricks_then_six_arrastre_tricks(profile: str, free_tricks: int, tricks: int) -> None:  # C-19, PLAY-12
    game, _ = new_game(profile, 11, {"tute": "none"})
    free = None
    while game.hand_result is None:
        action = next(a for a in game.legal_actions() if isinstance(a, Play | Draw))
        events = game.apply(action)
        if "arrastre_begins" in kinds(events):
            free = game.tricks_played
    assert free == free_tricks
    assert game.tricks_played == tricks


def test_a_hand_has_ten_tricks_and_130_points() -> None:  # PLAY-01, SCORE-03
    game = Game.from_seed(rules("tradicional"), 5)
    while game.hand_result is None:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Play | Draw)))
    assert game.tricks_played == 10
    assert sum(game.card_points) == 120 and game.ultimas_side is not None
