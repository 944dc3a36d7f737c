"""SEVEN: exchanging the seven of trumps (or the dos) for the muestra."""

from __future__ import annotations

from typing import Any

import pytest

from guinote_conformance.reference_engine.actions import Draw, Exchange
from guinote_conformance.reference_engine.game import Game

from .helpers import card, event, legal_json, play, position, refusal, rules

# trumps are bastos; seat 1 holds the 7b, seat 3 the 2b
HANDS = ["Ao 2o 3c 4c 5e", "Ro 7o Sc 6c 7b", "So 5o Rc Ac 3b", "Co 4o 7c 2c 2b"]


def game_with(
    profile: str,
    muestra: str = "Ab",
    hands: list[str] = HANDS,
    stock: str = "6o 7e 4b",
    flags: dict[str, str] | None = None,
    **fields: Any,
) -> Game:
    """A free-phase position under ``profile`` (with ``flags``), trumps from ``muestra``."""
    return position(rules(profile, **(flags or {})), hands, muestra=muestra, stock=stock, **fields)


def exchange_allowed(game: Game, seat: int) -> bool:
    return {"type": "exchange", "seat": seat} in legal_json(game)


def test_the_exchange() -> None:  # SEVEN-01, SEVEN-11
    game = game_with("ludoteka", last_trick_winner=1, draw_pending=True)
    assert exchange_allowed(game, 1)
    assert event(game.apply(Exchange(1)), "exchange") == {"seat": 1, "gave": "7b", "took": "Ab"}
    assert card("Ab") in game.hands[1] and card("7b") not in game.hands[1]
    assert game.muestra is card("7b") and game.exchange_done


@pytest.mark.parametrize(
    ("requires", "seat", "last_winner", "tricks_won", "allowed", "rule"),
    [
        ("exchanger_won_last_trick", 1, 1, [0, 1], True, ""),
        ("exchanger_won_last_trick", 3, 1, [0, 1], False, "SEVEN-03"),  # the partner won it
        ("own_side_won_last_trick", 3, 1, [0, 1], True, ""),
        ("own_side_won_last_trick", 1, 0, [1, 1], False, "SEVEN-05"),
        ("own_side_won_any_trick", 1, 0, [1, 1], True, ""),  # an earlier trick of the side counts
        ("own_side_won_any_trick", 1, 0, [2, 0], False, "SEVEN-04"),
    ],
)
def test_which_won_trick_entitles(
    requires: str, seat: int, last_winner: int, tricks_won: list[int], allowed: bool, rule: str
) -> None:  # B-11
    hands = HANDS if seat == 1 else [HANDS[0], "Ro 7o Sc 6c 2b", HANDS[2], "Co 4o 7c 2c 7b"]
    game = game_with(
        "ludoteka",
        hands=hands,
        flags={"seven_exchange_requires": requires},
        last_trick_winner=last_winner,
        tricks_won=tricks_won,
        draw_pending=True,
    )
    assert exchange_allowed(game, seat) is allowed
    if allowed:
        game.apply(Exchange(seat))
    else:
        error = refusal(game, Exchange(seat))
        assert (error.code, error.rule) == ("EXCHANGE_NO_WON_TRICK", rule)


def test_window_after_the_won_trick_before_the_draw() -> None:  # B-12, SEVEN-03
    game = game_with("ludoteka", last_trick_winner=1, draw_pending=True, stock="6o 7e 4b 6e 5c Ce 3e")
    game.apply(Draw())
    error = refusal(game, Exchange(1))
    assert (error.code, error.rule) == ("EXCHANGE_WINDOW_CLOSED", "SEVEN-03")
    assert not exchange_allowed(game, 1)


def test_window_while_the_muestra_is_visible() -> None:  # B-12, SEVEN-16 (interpretation)
    flags = {"seven_exchange_window": "while_muestra_visible"}
    game = game_with("lascuarenta", flags=flags, last_trick_winner=1, draw_pending=True, stock="6o 7e 4b 6e 5c Ce 3e")
    game.apply(Draw())
    play(game, "Ro")  # seat 1 leads; mid-trick, seat 2 to play
    assert exchange_allowed(game, 1)
    game.apply(Exchange(1))


def test_window_between_tricks() -> None:  # B-12, SEVEN-04/SEVEN-16: S002/S003, the lascuarenta profile
    assert rules("lascuarenta").seven_exchange_window == "between_tricks"
    # before the draw, after it, and by a seat that is not to lead: any moment between two tricks
    game = game_with("lascuarenta", last_trick_winner=0, tricks_won=[1, 1], draw_pending=True,
                     stock="6o 7e 4b 6e 5c Ce 3e")  # fmt: skip
    assert exchange_allowed(game, 1)
    game.apply(Draw())
    assert exchange_allowed(game, 1)
    play(game, "Ao")  # seat 0 leads: a trick has begun
    assert not exchange_allowed(game, 1)
    error = refusal(game, Exchange(1))
    assert (error.code, error.rule) == ("EXCHANGE_WINDOW_CLOSED", "SEVEN-03")
    assert "between tricks" in error.message and game.muestra is card("Ab")
    play(game, "Ro", "So", "Co")  # the trick ends: the window opens again
    assert exchange_allowed(game, 1)
    game.apply(Exchange(1))
    assert game.muestra is card("7b")


@pytest.mark.parametrize(
    ("muestra", "allowed"),
    [("Ab", True), ("3b", True), ("Rb", True), ("Sb", True), ("Cb", True), ("6b", False), ("5b", False), ("4b", False)],
)
def test_only_a_muestra_above_the_seven(muestra: str, allowed: bool) -> None:  # SEVEN-02, B-13
    hands = [h.replace("3b", "Ab") if muestra == "3b" else h for h in HANDS]
    stock = "6o 7e Ce" if muestra == "4b" else "6o 7e 4b"
    game = game_with("ludoteka", muestra=muestra, hands=hands, stock=stock, last_trick_winner=1, draw_pending=True)
    assert exchange_allowed(game, 1) is allowed
    if not allowed:
        error = refusal(game, Exchange(1))
        assert (error.code, error.rule) == ("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02")


def test_a_seven_muestra_is_taken_with_the_dos() -> None:  # SEVEN-09, B-14 swap_with_two
    hands = [HANDS[0], "Ro 7o Sc 6c Ab", HANDS[2], HANDS[3]]
    game = game_with("lascuarenta", muestra="7b", hands=hands, last_trick_winner=3, tricks_won=[0, 1])
    assert exchange_allowed(game, 3)
    assert event(game.apply(Exchange(3)), "exchange") == {"seat": 3, "gave": "2b", "took": "7b"}
    assert game.muestra is card("2b")


def test_a_seven_muestra_is_not_exchanged_without_swap_with_two() -> None:  # B-14 none
    hands = [HANDS[0], "Ro 7o Sc 6c Ab", HANDS[2], HANDS[3]]
    game = game_with("ludoteka", muestra="7b", hands=hands, last_trick_winner=3, draw_pending=True)
    assert refusal(game, Exchange(3)).code == "EXCHANGE_MUESTRA_NOT_ELIGIBLE"


def test_36_cards_a_seven_muestra_cannot_be_exchanged() -> None:  # B-40 (no dos in the deck)
    hands = ["Ao 4o 3c 4c 5e", "Ro 7o Sc 6c Ab", "So 5o Rc Ac 3b", "Co 6o 7c 5c 4b"]
    game = position(
        rules("lascuarenta+castellon36"), hands, muestra="7b", stock="6e 7e Cb", last_trick_winner=3, tricks_won=[0, 1]
    )
    assert refusal(game, Exchange(3)).code == "EXCHANGE_MUESTRA_NOT_ELIGIBLE"
    assert not any(a["type"] == "exchange" for a in legal_json(game))


def test_36_cards_low_muestras() -> None:  # B-40, B-13: the 4, 5 and 6 are below the seven
    hands = ["Ao 4o 3c 4c 5e", "Ro 7o Sc 6c 7b", "So 5o Rc Ac 3b", "Co 6o 7c 5c Ab"]
    for muestra, allowed in (("4b", False), ("5b", False), ("6b", False), ("Cb", True)):
        stock = "6e 7e Sb" if muestra != "Cb" else "6e 7e 4b"
        game = position(
            rules("ludoteka+castellon36"), hands, muestra=muestra, stock=stock, last_trick_winner=1, draw_pending=True
        )
        assert exchange_allowed(game, 1) is allowed, muestra


@pytest.mark.parametrize(
    ("minimum", "rank_8_9", "allowed"),
    [
        ("higher_than_seven", "below_caballo", True),
        ("value_card", "below_caballo", False),  # a nine is worth nothing
        ("higher_than_seven", "below_seven", False),
    ],
)
def test_48_cards_a_nine_muestra(minimum: str, rank_8_9: str, allowed: bool) -> None:  # B-13, B-39
    game = position(
        rules("ludoteka+ademuz48", seven_exchange_min=minimum, rank_8_9=rank_8_9),
        HANDS,
        muestra="9b",
        stock="6o 7e 4b",
        last_trick_winner=1,
        draw_pending=True,
    )
    assert exchange_allowed(game, 1) is allowed


def test_exchange_at_the_last_draw() -> None:  # SEVEN-07, SEVEN-11
    game = game_with(
        "ludoteka",
        stock="6e 5c Ce",
        hands=["Ao 2o 3c 4c 5e", "Ro 7o Sc 6c 7b", "So 5o Rc Ac 3b", "Co 4o 7c 2c 6o"],
        last_trick_winner=1,
        draw_pending=True,
    )
    game.apply(Exchange(1))
    draws = event(game.apply(Draw()), "cards_drawn")["draws"]
    assert draws[-1] == [0, "7b"]
    assert game.phase == "arrastre"


def test_the_exchanger_may_draw_the_seven_back() -> None:  # C-16
    hands = ["Ao 2o 3c 4c 7b", "Ro 7o Sc 6c 5e", "So 5o Rc Ac 3b", "Co 4o 7c 2c 6o"]
    game = game_with(
        "lascuarenta", stock="6e 5c Ce", hands=hands, last_trick_winner=1, tricks_won=[1, 1], draw_pending=True
    )
    game.apply(Exchange(0))
    game.apply(Draw())
    assert card("7b") in game.hands[0] and card("Ab") in game.hands[0]


def test_once_per_hand() -> None:  # C-15
    hands = [HANDS[0], "Ro 7o Sc 6c 7b", HANDS[2], "Co 4o 7c 2c 2b"]
    game = game_with("lascuarenta", hands=hands, last_trick_winner=1, tricks_won=[0, 1])
    game.apply(Exchange(1))
    assert game.muestra is card("7b")
    error = refusal(game, Exchange(3))
    assert error.code == "EXCHANGE_MUESTRA_NOT_ELIGIBLE" and "already been exchanged" in error.message


def test_the_card_must_be_held_and_the_muestra_visible() -> None:  # SEVEN-01, SEVEN-06
    game = game_with("ludoteka", last_trick_winner=0, draw_pending=True)
    error = refusal(game, Exchange(0))
    assert (error.code, error.rule) == ("EXCHANGE_CARD_NOT_HELD", "SEVEN-01")
    arrastre = position(rules("lascuarenta"), ["Ao", "7b", "So", "Co"], trump="b", last_trick_winner=1)
    error = refusal(arrastre, Exchange(1))
    assert (error.code, error.rule) == ("EXCHANGE_NO_MUESTRA", "SEVEN-06")
