"""Building hand-made situations for the engine's unit tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from guinote_conformance.reference_engine.actions import (
    Action,
    Cante,
    Claim,
    Draw,
    Event,
    Exchange,
    IllegalAction,
    Play,
)
from guinote_conformance.reference_engine.cards import Card, Suit, deck, parse_card
from guinote_conformance.reference_engine.flags import Rules, rules_for
from guinote_conformance.reference_engine.game import Game


def rules(profile: str = "lascuarenta", **flags: str) -> Rules:
    """The rules of ``profile`` with some flags changed."""
    return rules_for(profile, flags)


def cards(text: str) -> list[Card]:
    """``"Ao 3o Rb"`` -> the three cards."""
    return [parse_card(code) for code in text.split()]


def card(code: str) -> Card:
    return parse_card(code)


def deal(game_rules: Rules, hands: Iterable[str], muestra: str, dealer: int = 0, stock: str | None = None) -> Game:
    """A game from an explicit deal. ``hands`` are card strings in seat order; the stock is
    ``stock`` (top first) followed by the rest of the deck in deck order."""
    hand_cards = [cards(hand) for hand in hands]
    first = cards(stock) if stock else []
    used = {c for hand in hand_cards for c in hand} | {card(muestra)} | set(first)
    rest = [c for c in deck(game_rules.deck_size) if c not in used]
    return Game.from_deal(game_rules, hand_cards, card(muestra), first + rest, dealer)


def position(game_rules: Rules, hands: Iterable[str], **fields: Any) -> Game:
    """A game in the middle of a hand; card fields may be written as strings of codes."""
    raw: dict[str, Any] = {"hands": [hand.split() for hand in hands]}
    for key, value in fields.items():
        if key == "stock" and isinstance(value, str):
            value = value.split()
        if key == "trick" and isinstance(value, str):
            value = [[int(seat), code] for seat, code in (item.split(":") for item in value.split())]
        raw[key] = value
    return Game.from_position(game_rules, raw)


def play(game: Game, *codes: str) -> list[Event]:
    """Play ``codes`` in turn, each by the seat whose turn it is."""
    events: list[Event] = []
    for code in codes:
        assert game.turn is not None, f"nobody's turn to play {code}"
        events += game.apply(Play(game.turn, card(code)))
    return events


def refusal(game: Game, action: Action) -> IllegalAction:
    """Apply ``action``, expecting a refusal; return it."""
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    return caught.value


def kinds(events: Iterable[Event]) -> list[str]:
    return [event.kind for event in events]


def event(events: Iterable[Event], kind: str) -> Mapping[str, Any]:
    """The details of the one event of ``kind``."""
    found = [e.details for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]


def legal_json(game: Game) -> list[dict[str, Any]]:
    return [action.to_json() for action in game.legal_actions()]


def playable(game: Game) -> set[str]:
    """The codes of the cards the seat to play may play."""
    assert game.turn is not None
    return {c.code for c in game.playable_cards(game.turn)}


__all__ = [
    "Cante",
    "Claim",
    "Draw",
    "Exchange",
    "Play",
    "Suit",
    "card",
    "cards",
    "deal",
    "event",
    "kinds",
    "legal_json",
    "play",
    "playable",
    "position",
    "refusal",
    "rules",
]
