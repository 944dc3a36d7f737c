"""DEAL / PRE: dealing from a deck order or an explicit deal, and bad deals."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.cards import CardError, deck, shuffled_deck
from guinote_conformance.reference_engine.game import Game

from .helpers import card, cards, rules


def numbered_deck(size: int) -> list[str]:
    return [c.code for c in deck(size)]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_three_three_deals_two_packets_of_three_from_the_mano(dealer: int) -> None:  # DEAL-03, PRE-09
    order = deck(40)
    game = Game.from_deck(rules("lascuarenta", deal="three_three"), order, dealer)
    mano = (dealer + 1) % 4
    assert game.mano == mano and game.leader == mano and game.turn == mano and game.dealer == dealer
    for k in range(4):  # k-th seat to receive, from the mano
        seat = (mano + k) % 4
        expected = [*order[3 * k : 3 * k + 3], *order[12 + 3 * k : 12 + 3 * k + 3]]
        assert game.hands[seat] == expected
    assert game.muestra is order[24]  # DEAL-06: card 25
    assert game.stock == list(order[25:])
    assert game.trump is order[24].suit  # DEAL-05


def test_one_by_one_deals_a_card_at_a_time() -> None:  # DEAL-02
    order = deck(40)
    game = Game.from_deck(rules("ludoteka"), order, dealer=3)
    for k in range(4):
        seat = k  # the mano is seat 0
        assert game.hands[seat] == [order[k + 4 * rnd] for rnd in range(6)]
    assert game.muestra is order[24]


def test_two_players_get_twelve_cards_and_card_thirteen_is_the_muestra() -> None:  # DEAL-07, TWO-01
    order = deck(40)
    game = Game.from_deck(rules("lascuarenta+mano_a_mano"), order, dealer=0)
    assert game.hands[1] == [*order[0:3], *order[6:9]]
    assert game.hands[0] == [*order[3:6], *order[9:12]]
    assert game.muestra is order[12]
    assert len(game.stock) == 27


@pytest.mark.parametrize(
    ("profile", "stock"),
    [
        ("lascuarenta", 15),
        ("lascuarenta+mano_a_mano", 27),
        ("lascuarenta+ademuz48", 23),
        ("lascuarenta+mano_a_mano+ademuz48", 35),
        ("lascuarenta+castellon36", 11),
        ("lascuarenta+mano_a_mano+castellon36", 23),
    ],
)
def test_stock_sizes(profile: str, stock: int) -> None:  # C-19: the stock and muestra divide evenly
    game_rules = rules(profile)
    game = Game.from_deck(game_rules, shuffled_deck(game_rules.deck_size, 3))
    assert len(game.stock) == stock
    assert (stock + 1) % game_rules.player_count == 0
    assert all(len(hand) == 6 for hand in game.hands)


def test_explicit_deal() -> None:
    game_rules = rules("lascuarenta+mano_a_mano")
    hands = [cards("Ao 2o 3o 4o 5o 6o"), cards("Ac 2c 3c 4c 5c 6c")]
    rest = [c for c in deck(40) if c not in hands[0] + hands[1] and c.code != "Rb"]
    game = Game.from_deal(game_rules, hands, card("Rb"), rest, dealer=1)
    assert game.hands == hands and game.muestra is card("Rb") and game.mano == 0 and game.trump.value == "b"


def test_duplicate_card_in_a_deck_order() -> None:
    order = list(deck(40))
    order[5] = order[6]
    with pytest.raises(CardError, match=f"card {order[6].code} appears twice"):
        Game.from_deck(rules(), order)


def test_wrong_number_of_cards_in_a_deck_order() -> None:
    with pytest.raises(CardError, match="the deck has 39 cards, expected 40"):
        Game.from_deck(rules(), deck(40)[:39])
    with pytest.raises(CardError, match="is not in the 40-card deck"):
        Game.from_deck(rules(), deck(48)[:40])
    with pytest.raises(CardError, match="card 2o is not in the 36-card deck"):
        Game.from_deck(rules("lascuarenta+castellon36"), deck(40))
    with pytest.raises(CardError, match="the deck has 47 cards, expected 48; missing: Rb"):
        Game.from_deck(rules("lascuarenta+ademuz48"), [c for c in deck(48) if c.code != "Rb"])


def test_dealer_must_be_a_seat() -> None:
    with pytest.raises(CardError, match="dealer seat 4"):
        Game.from_deck(rules(), deck(40), dealer=4)
    with pytest.raises(CardError, match="dealer seat 2"):
        Game.from_deck(rules("lascuarenta+mano_a_mano"), deck(40), dealer=2)


def explicit() -> tuple[list[list[str]], str, list[str]]:
    codes = numbered_deck(40)
    return [codes[6 * s : 6 * s + 6] for s in range(4)], codes[24], codes[25:]


def build(hands: list[list[str]], muestra: str, stock: list[str], dealer: int = 0) -> Game:
    return Game.from_deal(rules(), [cards(" ".join(h)) for h in hands], card(muestra), cards(" ".join(stock)), dealer)


def test_bad_explicit_deals() -> None:
    hands, muestra, stock = explicit()
    build(hands, muestra, stock)
    with pytest.raises(CardError, match="seat 1 is dealt 5 cards, expected 6"):
        build([hands[0], hands[1][:5], hands[2], hands[3]], muestra, [hands[1][5], *stock])
    with pytest.raises(CardError, match="hands to 3 seats, but 4 play"):
        build(hands[:3], muestra, stock)
    with pytest.raises(CardError, match=f"card {hands[0][0]} is dealt twice"):
        build([hands[0], [hands[0][0], *hands[1][1:]], hands[2], hands[3]], muestra, stock)
    with pytest.raises(CardError, match="the stock has 14 cards, expected 15"):
        build(hands, muestra, stock[:-1])
    with pytest.raises(CardError, match="card 9o is not in the 40-card deck"):
        build(hands, muestra, [*stock[:-1], "9o"])
    with pytest.raises(CardError, match="dealer seat 5"):
        build(hands, muestra, stock, dealer=5)
