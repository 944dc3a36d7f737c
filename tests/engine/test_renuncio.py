"""RENUNCIO: an illegal card in the arrastre is blocked, or stands and costs the point."""

from __future__ import annotations

from guinote_conformance.reference_engine.actions import Cante, Play
from guinote_conformance.reference_engine.cards import Suit

from .helpers import card, event, kinds, play, position, refusal, rules

# arrastre, trumps bastos; seat 0 led the Ao; seat 1 holds oros but plays copas
HANDS = ["3c 4c", "2o Rc 6e", "So 5o 6c", "Co 4o 7c"]


def test_block_refuses_the_card() -> None:  # RENUNCIO-08 (renuncio_handling=block)
    game = position(rules("lascuarenta"), HANDS, trump="b", trick="0:Ao")
    error = refusal(game, Play(1, card("Rc")))
    assert (error.code, error.rule) == ("MUST_FOLLOW_SUIT", "ARR-01")
    assert game.hand_result is None and game.turn == 1 and card("Rc") in game.hands[1]


def test_lose_point_the_card_stands_and_the_side_loses_the_point() -> None:  # RENUNCIO-02, RENUNCIO-07
    game = position(rules("tradicional"), HANDS, trump="b", trick="0:Ao")
    events = game.apply(Play(1, card("Rc")))
    assert kinds(events) == ["card_played", "renuncio", "hand_over", "point_won"]
    assert event(events, "renuncio") == {"seat": 1, "card": "Rc", "code": "MUST_FOLLOW_SUIT", "rule": "ARR-01"}
    over = event(events, "hand_over")
    assert (over["winner"], over["reason"], over["rule"]) == (0, "renuncio", "RENUNCIO-07")
    assert game.match.points == [1, 0] and game.phase == "hand_over"


def test_lose_point_also_for_not_beating() -> None:  # RENUNCIO-03
    game = position(rules("ludoteka"), ["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], trump="b", trick="0:5o")
    events = game.apply(Play(1, card("2o")))
    assert event(events, "renuncio")["code"] == "MUST_BEAT"
    assert event(events, "hand_over")["winner"] == 0


def test_lose_point_in_a_hand_de_vueltas() -> None:  # interpretation (C-17)
    game = position(rules("tradicional"), HANDS, trump="b", trick="0:Ao", hand_in_point=1, carried=[30, 95])
    events = game.apply(Play(1, card("Rc")))
    assert event(events, "hand_over")["winner"] == 0


def test_legal_cards_are_not_a_renuncio() -> None:
    game = position(rules("tradicional"), HANDS, trump="b", trick="0:Ao")
    events = play(game, "2o")
    assert "renuncio" not in kinds(events)


def test_out_of_turn_is_refused_under_block_and_play_duties() -> None:  # RENUNCIO-04, C-18
    for profile in ("lascuarenta", "ludoteka"):
        game = position(rules(profile), HANDS, trump="b", trick="0:Ao")
        error = refusal(game, Play(2, card("So")))
        assert (error.code, error.rule) == ("NOT_YOUR_TURN", "RENUNCIO-04")


def test_out_of_turn_in_the_arrastre_is_a_renuncio_under_s004() -> None:  # RENUNCIO-04, B-34
    game = position(rules("tradicional"), HANDS, trump="b", trick="0:Ao")
    events = game.apply(Play(2, card("So")))
    assert kinds(events)[:2] == ["card_played", "renuncio"]
    assert event(events, "renuncio")["code"] == "NOT_YOUR_TURN"
    assert event(events, "hand_over")["winner"] == 1


def test_a_premature_cante_is_a_renuncio_only_with_out_of_turn_and_cante() -> None:  # RENUNCIO-05, B-34
    hands = ["Rc Sc", "4o 5o", "6e 7e", "4e 5e"]
    strict = rules("tradicional", renuncio_faults="out_of_turn_and_cante")
    game = position(strict, hands, trump="b", last_trick_winner=1)
    events = game.apply(Cante(0, Suit.COPAS))
    assert kinds(events)[0] == "renuncio" and event(events, "renuncio")["suit"] == "c"
    assert event(events, "hand_over")["winner"] == 1
    refused = refusal(position(rules("tradicional"), hands, trump="b", last_trick_winner=1), Cante(0, Suit.COPAS))
    assert refused.code == "CANTE_NO_WON_TRICK"


def test_no_renuncio_in_the_free_phase() -> None:  # ARR-11
    game = position(
        rules("tradicional"),
        ["3c 4c", "2o Rc 6e", "So 5o 6c", "Co 4o 7c"],
        muestra="7b",
        stock="Sb 5b 6b",
        trick="0:Ao",
    )
    assert "renuncio" not in kinds(game.apply(Play(1, card("Rc"))))
