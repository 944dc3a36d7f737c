"""The realisation search: deals and plays that reach a position, and the checks that catch a stale one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.reference_engine.cards import parse_card
from guinote_conformance.reference_engine.deal import deal_from_deck
from guinote_conformance.run.position import Realisation, Unreachable, check
from guinote_conformance.run.realise import deck_order_for, search

PROFILES = ReferenceEngine().info().profiles
LASCUARENTA = dict(PROFILES["lascuarenta"])

#: After three free-phase tricks and their draws: six cards each, the muestra and three to draw.
FREE: dict[str, Any] = {
    "hands": [
        ["Rc", "Sc", "2e", "5b", "6b", "Ab"],
        ["Rb", "Sb", "4c", "5c", "6c", "7b"],
        ["Ro", "So", "7c", "2b", "4b", "3b"],
        ["Ce", "4e", "5e", "6e", "7e", "Cb"],
    ],
    "muestra": "4o",
    "stock": ["2c", "3c", "Ac"],
    "leader": 2,
}
#: The arrastre: two cards each after eight tricks, oros led by seat 0.
ARRASTRE: dict[str, Any] = {
    "hands": [["6c"], ["4o", "2o"], ["6e", "7e"], ["4e", "5e"]],
    "trump": "b",
    "trick": [[0, "5o"]],
    "leader": 0,
}


@pytest.mark.parametrize("position", [FREE, ARRASTRE], ids=["free", "arrastre"])
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_search_reaches_the_position_under_every_profile(position: dict[str, object], profile: str) -> None:
    flags = dict(PROFILES[profile])
    found = search(position, flags, seed=3, seconds=20)
    assert check(found, position, flags) is None
    assert found.setup["dealer"] in range(4)
    assert all(len(hand) == 6 for hand in found.setup["hands"])


def test_a_realisation_that_no_longer_reaches_its_position_names_the_first_field_that_differs() -> None:
    found = search(FREE, LASCUARENTA, seed=1)
    edited = {**FREE, "hands": [FREE["hands"][0], FREE["hands"][2], FREE["hands"][1], FREE["hands"][3]]}
    why = check(found, edited, LASCUARENTA)
    assert why is not None and why.startswith("hand.1:")


def test_a_realisation_whose_actions_the_reference_refuses_says_which_action() -> None:
    found = search(FREE, LASCUARENTA, seed=1)
    broken = Realisation(found.setup, [{"type": "play", "seat": 3, "card": "Ao"}, *found.actions])
    why = check(broken, FREE, LASCUARENTA)
    assert why is not None and "action 1" in why and "NOT_YOUR_TURN" in why


def test_stated_points_that_the_cards_out_of_play_cannot_make_are_unreachable() -> None:
    position = {**FREE, "card_points": [10, 10]}
    with pytest.raises(Unreachable):
        search(position, LASCUARENTA, seed=1, attempts=50, seconds=5)


def test_carried_totals_no_hand_can_leave_are_refused_with_the_reason() -> None:
    position = {**FREE, "hand_in_point": 1, "carried": [60, 35]}
    with pytest.raises(Unreachable, match="130"):
        search(position, LASCUARENTA, seed=1)


def test_a_hand_de_vueltas_is_reached_by_playing_the_first_hand_of_the_point() -> None:
    position = {**FREE, "hand_in_point": 1, "carried": [70, 60]}
    found = search(position, LASCUARENTA, seed=2)
    assert check(found, position, LASCUARENTA) is None
    assert sum(1 for action in found.actions if action["type"] == "deal") == 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), dealer=st.integers(0, 3), method=st.sampled_from(["one_by_one", "three_three"]))
def test_deck_order_for_inverts_the_deal(seed: int, dealer: int, method: str) -> None:
    deck = deck_codes(40)
    random.Random(seed).shuffle(deck)
    setup = {
        "dealer": dealer,
        "hands": [deck[6 * s : 6 * s + 6] for s in range(4)],
        "muestra": deck[24],
        "stock": deck[25:],
    }
    flags = {**LASCUARENTA, "deal": method}
    dealt = deal_from_deck([parse_card(c) for c in deck_order_for(setup, flags)], 4, dealer, method, 40)
    assert [[c.code for c in hand] for hand in dealt.hands] == setup["hands"]
    assert dealt.muestra.code == setup["muestra"]
    assert [c.code for c in dealt.stock] == setup["stock"]
