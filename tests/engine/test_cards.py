"""DECK: cards, notation, decks, ranks and points."""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest

from guinote_conformance.reference_engine.cards import (
    ALL_CARDS,
    Card,
    CardError,
    Rank,
    Suit,
    check_deck,
    deck,
    parse_card,
    shuffled_deck,
    strength_table,
)

from .helpers import cards


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Ao", "Ao"),
        ("Sc", "Sc"),
        ("Cb", "Cb"),
        ("7e", "7e"),
        ("  Rb ", "Rb"),
        ("12o", "Ro"),
        ("11c", "Cc"),
        ("10e", "Se"),
        ("1b", "Ab"),
        ("1O", "Ao"),
        ("as de oros", "Ao"),
        ("Rey de Bastos", "Rb"),
        ("sota de copas", "Sc"),
        ("caballo de espadas", "Ce"),
        ("7 de copas", "7c"),
        ("siete de oros", "7o"),
        ("dos de bastos", "2b"),
        ("12 de oros", "Ro"),
        ("nueve de oros", "9o"),
        ("As de Óros", "Ao"),
    ],
)
def test_parse_card_reads_every_notation(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "Xo", "A", "Aox", "ao", "as de triunfos", "13o", "rey oros", "de de de"])
def test_bad_card_text_is_a_card_error_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(text)
    assert repr(text) in str(error.value)
    assert "'Ao'" in str(error.value)  # the message shows the notation


def test_parse_card_refuses_what_is_not_text() -> None:
    with pytest.raises(CardError, match="written as text"):
        parse_card(12)  # type: ignore[arg-type]


def test_cards_are_interned_and_immutable() -> None:
    ace = Card(Rank.AS, Suit.OROS)
    assert ace is parse_card("Ao") is parse_card("as de oros") is ALL_CARDS["Ao"]
    assert ace == parse_card("1o") and hash(ace) == hash(parse_card("1o"))
    assert copy.deepcopy(ace) is ace
    assert pickle.loads(pickle.dumps(ace)) is ace
    with pytest.raises(AttributeError):
        ace.rank = Rank.DOS
    assert repr(ace) == "Card(Ao)" and str(ace) == "Ao" and ace.spanish == "as de oros"


def test_card_of_impossible_rank_and_suit() -> None:
    with pytest.raises(CardError):
        Card("A", "o")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("size", "ranks"),
    [
        (40, "A 2 3 4 5 6 7 S C R"),  # DECK-01/02: no 8s and 9s
        (48, "A 2 3 4 5 6 7 8 9 S C R"),  # DECK-03
        (36, "A 3 4 5 6 7 S C R"),  # DECK-04: no 2s
    ],
)
def test_decks(size: int, ranks: str) -> None:
    cards_of_deck = deck(size)
    assert len(cards_of_deck) == len(set(cards_of_deck)) == size
    for suit in Suit:
        assert sorted(c.rank.value for c in cards_of_deck if c.suit is suit) == sorted(ranks.split())
    assert sum(c.points for c in cards_of_deck) == 120  # DECK-09, also with 48 and 36 cards


def test_unknown_deck_size_lists_the_valid_ones() -> None:
    with pytest.raises(CardError, match="36, 40, 48"):
        deck(52)


def test_card_points() -> None:  # DECK-07/08
    assert [c.points for c in cards("Ao 3o Ro So Co 7o 6o 5o 4o 2o 9o 8o")] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0, 0, 0]


def test_rank_order_sota_over_caballo() -> None:  # DECK-05/06
    strength = strength_table("below_caballo")
    order = cards("Ao 3o Ro So Co 7o 6o 5o 4o 2o")
    assert [strength[c] for c in order] == sorted((strength[c] for c in order), reverse=True)
    assert strength[card_of("So")] > strength[card_of("Co")]


@pytest.mark.parametrize(
    ("rank_8_9", "order"),
    [("below_caballo", "Ao 3o Ro So Co 9o 8o 7o 6o 5o 4o 2o"), ("below_seven", "Ao 3o Ro So Co 7o 9o 8o 6o 5o 4o 2o")],
)
def test_rank_of_8_and_9(rank_8_9: str, order: str) -> None:  # B-39
    strength = strength_table(rank_8_9)
    ranked = cards(order)
    assert all(strength[a] > strength[b] for a, b in itertools.pairwise(ranked))


def test_shuffled_deck_is_reproducible() -> None:
    assert shuffled_deck(40, 7) == shuffled_deck(40, 7) != shuffled_deck(40, 8)
    assert sorted(c.code for c in shuffled_deck(48, 1)) == sorted(c.code for c in deck(48))


def test_check_deck_names_the_problem() -> None:
    good = list(deck(40))
    check_deck(good, 40)
    with pytest.raises(CardError, match="Ao appears twice"):
        check_deck([*good[:-1], card_of("Ao")], 40)
    with pytest.raises(CardError, match="39 cards, expected 40; missing: Rb"):
        check_deck([c for c in good if c.code != "Rb"], 40)
    with pytest.raises(CardError, match="8o is not in the 40-card deck"):
        check_deck([*good[:-1], card_of("8o")], 40)


def card_of(code: str) -> Card:
    return parse_card(code)
