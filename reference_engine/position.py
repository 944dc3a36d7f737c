"""The position format: a hand in progress as JSON, for scenarios that test one situation.

A position is a JSON object::

    {"dealer": 3, "hands": [["Ao", ...], ...], "muestra": "Rb" | null, "trump": "b",
     "stock": ["4c", ...], "leader": 0, "trick": [[0, "Ao"], [1, "2o"]],
     "last_trick_winner": 2, "draw_pending": false, "card_points": [40, 25],
     "tricks_won": [3, 1], "sung": [{"seat": 0, "suit": "o", "arrastre": false}],
     "exchange_done": false, "hand_in_point": 0, "carried": [0, 0], "carried_malas": [0, 0],
     "match_points": [0, 0], "cotos": [0, 0]}

Only ``hands`` and either ``muestra`` or ``trump`` are required. The cards in hands, trick,
stock and muestra must be distinct cards of the deck in use, and every seat must hold the
same number of cards once the current trick is taken into account. A position without a
muestra is in the arrastre (PLAY-13), so its stock must be empty.

The leader defaults to the first seat of the trick, else the winner of the last trick
(PLAY-04), else the mano (the seat after ``dealer``, PRE-09), else seat 0; the dealer
defaults to the seat before the leader. ``tricks_won`` defaults to one trick for the side of
``last_trick_winner``.

Four more fields complete the state, so that the position of any hand in progress
(:meth:`Game.position() <reference_engine.game.Game.position>`) loads back to the same state:

* ``won_cards``: the cards each side has won so far, in the order won (ETIQ-02 shows the
  latest trick of each); they need not account for ``card_points``, which a position may
  give without the cards;
* ``last_trick``: the last trick taken, as ``[seat, card]`` pairs from its leader; it needs
  ``last_trick_winner``, who must be the one who took it;
* ``window_cantes``: the cantes already sung since that trick (CANTE-10,
  ``cante_per_trick=one``); it needs the window open: a last trick and no card led since;
* ``first_over``: in a hand de vueltas, the side whose running total passed 100 first
  (VUELTAS-14).

This module reads the fields of the format; :meth:`Hand.from_position
<reference_engine.hand.Hand.from_position>` checks that they make a possible state of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference_engine.cards import Card, CardError, parse_card
from reference_engine.tricks import next_seat


class PositionError(CardError):
    """A position that is not a possible state of a hand (the message names the field)."""


def read_cards(raw: Any, what: str) -> list[Card]:
    """A list of card codes (field ``what``)."""
    if not isinstance(raw, list):
        raise PositionError(f"position field {what!r} must be a list of cards")
    return [parse_card(str(code)) for code in raw]


def read_pair(position: Mapping[str, Any], key: str) -> list[int]:
    """Two integers, one per side (``[0, 0]`` when absent)."""
    value = position.get(key, [0, 0])
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise PositionError(f"position field {key!r} must be two integers, one per side")
    return list(value)


def read_seat(position: Mapping[str, Any], key: str, players: int) -> int | None:
    """A seat number, or ``None`` when absent or null."""
    value = position.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise PositionError(f"position field {key!r} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def read_side(position: Mapping[str, Any], key: str) -> int | None:
    """A side (0 or 1), or ``None`` when absent or null."""
    value = position.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise PositionError(f"position field {key!r} must be a side, 0 or 1, not {value!r}")
    return value


def read_count(position: Mapping[str, Any], key: str) -> int:
    """A number of zero or more (0 when absent)."""
    value = position.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"position field {key!r} must be a whole number of zero or more, not {value!r}")
    return value


def read_trick(position: Mapping[str, Any], key: str, players: int) -> list[tuple[int, Card]]:
    """``[seat, card]`` pairs in playing order (PRE-20); a trick in progress has fewer than
    ``players`` of them, a trick taken (``last_trick``) exactly ``players``."""
    raw = position.get(key, [])
    if key == "trick":
        if not isinstance(raw, list) or len(raw) >= players:
            raise PositionError(f"position field 'trick' must list fewer than {players} [seat, card] pairs")
    elif not isinstance(raw, list) or len(raw) not in (0, players):
        raise PositionError(f"position field {key!r} must list {players} [seat, card] pairs")
    trick: list[tuple[int, Card]] = []
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)):
            raise PositionError(f"{key} entry {entry!r} must be [seat, card]")
        seat = entry[0]
        if not 0 <= seat < players:
            raise PositionError(f"{key} entry {entry!r}: no seat {seat} at a {players}-player table")
        if trick and seat != next_seat(trick[-1][0], players):
            raise PositionError(f"{key} entry {entry!r}: seat {seat} does not play after seat {trick[-1][0]}")
        trick.append((seat, parse_card(str(entry[1]))))
    return trick


def read_won_cards(position: Mapping[str, Any]) -> list[list[Card]]:
    """The cards won by each side (``[[], []]`` when absent)."""
    raw = position.get("won_cards", [[], []])
    if not (isinstance(raw, list) and len(raw) == 2):
        raise PositionError("position field 'won_cards' must be two lists of cards, one per side")
    return [read_cards(cards, f"won_cards[{side}]") for side, cards in enumerate(raw)]


__all__ = [
    "PositionError",
    "read_cards",
    "read_count",
    "read_pair",
    "read_seat",
    "read_side",
    "read_trick",
    "read_won_cards",
]
