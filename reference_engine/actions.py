"""Actions a game accepts, the events it emits, and the refusal of an illegal action.

Actions and events have a JSON form (``to_json`` / :func:`action_from_json`) that is the
wire vocabulary of the conformance protocol:

* ``{"type": "play", "seat": 0, "card": "Ao"}``: play a card to the trick.
* ``{"type": "cante", "seat": 2, "suit": "o"}``: sing the Rey and Sota of a suit (20 or 40).
* ``{"type": "exchange", "seat": 1}``: exchange the seven of trumps (or the dos) for the muestra.
* ``{"type": "draw"}``: every player draws after a free-phase trick, winner first.
* ``{"type": "claim", "seat": 3}``: claim 101 in a hand de vueltas (``vueltas_end=claim``).
* ``{"type": "tute", "seat": 0, "rank": "R"}``: sing four Reyes (``R``) or four Sotas (``S``).
* ``{"type": "deal", "deck": ["Ao", ...]}``: deal the next hand from this deck order, top first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from guinote_conformance.reference_engine.cards import ALL_CARDS, Card, CardError, Rank, Suit, parse_card


class IllegalAction(Exception):
    """An action the rules do not allow now, with a reason code and the rule it breaks."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(f"{code} ({rule}): {message}")
        self.code = code
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action may not be done now: a reason code, the rule it breaks and a message.

    The rule modules return a refusal (or ``None``) so that listing the legal actions needs
    no exceptions; :meth:`error` turns it into the :class:`IllegalAction` that ``apply`` raises.
    """

    code: str
    rule: str
    message: str

    def error(self) -> IllegalAction:
        """The exception :meth:`Game.apply <guinote_conformance.reference_engine.game.Game.apply>` raises."""
        return IllegalAction(self.code, self.rule, self.message)


class ActionFormatError(ValueError):
    """A JSON action that is not well formed."""


@dataclass(frozen=True, slots=True)
class Play:
    """PLAY-02: ``seat`` plays ``card`` to the trick."""

    seat: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Cante:
    """CANTE-01: ``seat`` sings the Rey and Sota of ``suit`` (20, or 40 in trumps)."""

    seat: int
    suit: Suit

    def to_json(self) -> dict[str, Any]:
        return {"type": "cante", "seat": self.seat, "suit": self.suit.value}


@dataclass(frozen=True, slots=True)
class Exchange:
    """SEVEN-01 / SEVEN-09: ``seat`` gives the seven (or the dos) of trumps for the muestra."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "exchange", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Draw:
    """PLAY-08: every player draws one card after a free-phase trick, the winner first."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Claim:
    """VUELTAS-05: ``seat`` claims that his side has passed 100 in a hand de vueltas."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "claim", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Tute:
    """CANTE-22: ``seat`` sings four Reyes (``rank`` Rey) or four Sotas."""

    seat: int
    rank: Rank

    def to_json(self) -> dict[str, Any]:
        return {"type": "tute", "seat": self.seat, "rank": self.rank.value}


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next hand. ``deck`` is the deck order, top card first; an empty tuple in a
    legal-action list means "any order of the deck"."""

    deck: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"type": "deal", "deck": [card.code for card in self.deck]}


Action = Play | Cante | Exchange | Draw | Claim | Tute | Deal

#: The one draw action (actions are immutable, so they can be shared).
DRAW = Draw()
_PLAYS: tuple[dict[Card, Play], ...] = tuple(
    {card: Play(seat, card) for card in ALL_CARDS.values()} for seat in range(4)
)


def play_action(seat: int, card: Card) -> Play:
    """The shared :class:`Play` of ``card`` by ``seat`` (0-3)."""
    return _PLAYS[seat][card]


def plays_of(seat: int) -> Mapping[Card, Play]:
    """The shared :class:`Play` of each card by ``seat`` (0-3): listing legal plays builds nothing."""
    return _PLAYS[seat]


def _seat(raw: Mapping[str, Any]) -> int:
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ActionFormatError(f"action {dict(raw)!r} needs an integer 'seat'")
    return seat


def action_from_json(raw: Mapping[str, Any]) -> Action:
    """Read the JSON form of an action; raise :class:`ActionFormatError` naming the problem."""
    kind = raw.get("type")
    if kind == "play":  # most actions: a card in canonical notation by a seat 0-3, read by two look-ups
        seat, code = raw.get("seat"), raw.get("card")
        if type(seat) is int and 0 <= seat < len(_PLAYS) and type(code) is str and code in ALL_CARDS:
            return _PLAYS[seat][ALL_CARDS[code]]
    try:
        if kind == "play":
            return Play(_seat(raw), parse_card(str(raw.get("card", ""))))
        if kind == "cante":
            return Cante(_seat(raw), Suit(raw.get("suit")))
        if kind == "exchange":
            return Exchange(_seat(raw))
        if kind == "draw":
            return DRAW
        if kind == "claim":
            return Claim(_seat(raw))
        if kind == "tute":
            rank = Rank(raw.get("rank"))
            if rank not in (Rank.REY, Rank.SOTA):
                raise ActionFormatError("a tute is four Reyes ('R') or four Sotas ('S')")
            return Tute(_seat(raw), rank)
        if kind == "deal":
            deck = raw.get("deck", [])
            try:
                return Deal(tuple([ALL_CARDS[code] for code in deck]))  # canonical codes: a look-up each
            except (KeyError, TypeError):
                return Deal(tuple(parse_card(str(code)) for code in deck))
    except (CardError, ValueError) as error:
        if isinstance(error, ActionFormatError):
            raise
        raise ActionFormatError(f"bad action {dict(raw)!r}: {error}") from None
    raise ActionFormatError(
        f"unknown action type {kind!r}; valid types: play, cante, exchange, draw, claim, tute, deal"
    )


class Event(NamedTuple):
    """Something that happened: ``kind`` plus JSON-ready details. Immutable (a named tuple,
    which is the cheapest immutable record to build: a hand emits some fifty events)."""

    kind: str
    details: Mapping[str, Any] = MappingProxyType({})

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"type": kind, **details}``."""
        return {"type": self.kind, **self.details}


def events_to_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The wire forms of ``events`` (:meth:`Event.to_json` of each, without a call per event)."""
    return [{"type": kind, **details} for kind, details in events]
