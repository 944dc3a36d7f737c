"""Reading the protocol's JSON actions: every form, both ways, and a clear error for the rest."""

from __future__ import annotations

from typing import Any

import pytest

from guinote_conformance.reference_engine.actions import (
    DRAW,
    ActionFormatError,
    Cante,
    Claim,
    Deal,
    Exchange,
    Play,
    Tute,
    action_from_json,
)
from guinote_conformance.reference_engine.cards import ALL_CARDS, Rank, Suit, parse_card

EVERY_KIND = [
    Play(0, parse_card("Ao")),
    Play(3, parse_card("2b")),
    Cante(1, Suit.COPAS),
    Exchange(2),
    DRAW,
    Claim(3),
    Tute(0, Rank.REY),
    Tute(1, Rank.SOTA),
    Deal(tuple(ALL_CARDS[code] for code in ("Ao", "3o", "Ro"))),
    Deal(()),
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda action: type(action).__name__)
def test_every_action_reads_back_from_its_json(action: Any) -> None:
    assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"type": "play", "seat": 1, "card": "12o"}, Play(1, parse_card("Ro"))),  # number notation
        ({"type": "play", "seat": 2, "card": "as de oros"}, Play(2, parse_card("Ao"))),  # Spanish words
        ({"type": "deal", "deck": ["1o", "3o"]}, Deal((parse_card("Ao"), parse_card("3o")))),
    ],
)
def test_cards_in_other_notations_are_read_too(raw: dict[str, Any], expected: Any) -> None:
    assert action_from_json(raw) == expected


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "dance"}, "unknown action type 'dance'; valid types: play, cante"),
        ({"seat": 0}, "unknown action type None"),
        ({"type": "play", "card": "Ao"}, "needs an integer 'seat'"),
        ({"type": "play", "seat": "0", "card": "Ao"}, "needs an integer 'seat'"),
        ({"type": "play", "seat": 0, "card": "Zz"}, "bad action"),
        ({"type": "cante", "seat": 0, "suit": "x"}, "bad action"),
        ({"type": "tute", "seat": 0, "rank": "A"}, "a tute is four Reyes ('R') or four Sotas ('S')"),
        ({"type": "deal", "deck": ["Ao", "Zz"]}, "bad action"),
    ],
)
def test_a_malformed_action_is_refused_naming_the_problem(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ActionFormatError) as raised:
        action_from_json(raw)
    assert message in str(raised.value)
