"""A scenario's mid-hand position as the realisations see it, and whether a game is in it.

A scenario that starts "Given a hand in the arrastre ..." describes a position: the hands, the
cards on the table, who leads, the stock and the muestra, and whatever its other ``Given`` steps
set (points and tricks won so far, cantes sung, the exchange made, a pending draw, totals carried
into a hand de vueltas, the match score). A :class:`Realisation` is an explicit deal and the
actions after which the reference engine is in exactly that position (:mod:`guinote_conformance.run.realise`).

In: a position and the flags of a run. Out: the realisation record and its replay on the reference
(:func:`replay`), whether a game is in the position (:func:`difference`, :func:`check`, the fields
compared: :func:`compared_fields` and :func:`read_field`, which the driver also reads an engine's
game by), and the :class:`Shape` of the position: what it says about the hand it belongs to, the
ground of the search (:mod:`guinote_conformance.run.hand_search`). :class:`Unreachable` says why a position
cannot be reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import JSON, GameHandle, Rejected, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.reference_engine.cards import Suit, parse_card
from guinote_conformance.reference_engine.deal import HAND_SIZE

Position = Mapping[str, Any]
Flags = Mapping[str, str]


class Unreachable(Exception):
    """No legal play leads to the position (or the search gave up): the message says why."""


@dataclass(frozen=True)
class Realisation:
    """An explicit deal (``dealer``, ``hands``, ``muestra``, ``stock``) and the actions from it."""

    setup: dict[str, Any]
    actions: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "actions": self.actions}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Realisation:
        setup, actions = data.get("setup"), data.get("actions")
        if not isinstance(setup, dict) or not isinstance(actions, list):
            raise ValueError("a realisation has a 'setup' object and an 'actions' list")
        return cls(dict(setup), [dict(action) for action in actions])


# ------------------------------------------------------------------------------ comparing positions


def _per(players: int, name: str, count: int | None = None) -> list[str]:
    return [f"{name}.{index}" for index in range(players if count is None else count)]


def compared_fields(position: Position, players: int) -> list[str]:
    """The state fields that must match for a game to be "in" ``position``.

    Always: the hands, the table, who leads and plays, the stock, the muestra and trumps, the
    pending draw, the cantes, the exchange, the hand's place in the point and the match score
    (a position that does not set them means none). Card points, tricks won and the winner of
    the last trick only when the position states them: otherwise they are whatever the play
    that reaches the position makes them.
    """
    names = ["phase", "trump", "muestra", *_per(players, "hand"), "trick", "trick_seats", "leader", "turn"]
    names += ["stock_count", "draw_pending", "cantes", "exchange_done", "hand_in_point"]
    names += _per(2, "match.points") + _per(2, "match.cotos")
    if "last_trick_winner" in position:
        names.append("last_trick_winner")
    if "card_points" in position:
        names += _per(2, "card_points")
    if "tricks_won" in position:
        names += _per(2, "tricks_won")
    if "carried" in position:
        names += _per(2, "carried")
    return names


def read_field(game: GameHandle, name: str) -> JSON:
    """A state field, normalised for comparison (``carried.<side>`` is total minus this hand's score)."""
    if name.startswith("carried."):
        side = name.rpartition(".")[2]
        return int(game.state(f"total.{side}")) - int(game.state(f"score.{side}"))
    value = game.state(name)
    if name == "cantes" and isinstance(value, list):
        return sorted(value, key=lambda c: (c.get("seat"), c.get("suit")))
    return value


def stock_of(game: GameHandle) -> list[str] | None:
    """The stock, top first, of a reference game (no state field shows its order)."""
    inner = getattr(game, "game", None)
    hand = getattr(inner, "hand", inner)
    stock = getattr(hand, "stock", None)
    return None if stock is None else [card.code for card in stock]


def loaded(position: Position, flags: Flags) -> GameHandle:
    """The reference engine started in ``position`` (raises :class:`Unreachable` if it refuses)."""
    try:
        return ReferenceEngine().start({"flags": dict(flags), "position": dict(position)})
    except SetupRejected as error:
        raise Unreachable(f"the position is not a possible state of a hand: {error}") from None


def difference(game: GameHandle, position: Position, flags: Flags) -> str | None:
    """The first field in which ``game`` is not in ``position`` (``None`` if it is)."""
    target = loaded(position, flags)
    players = int(flags["players"])
    for name in compared_fields(position, players):
        expected, got = read_field(target, name), read_field(game, name)
        if expected != got:
            return f"{name}: the position has {expected!r}, the realisation reaches {got!r}"
    expected_stock, got_stock = stock_of(target), stock_of(game)
    if expected_stock is not None and got_stock is not None and expected_stock != got_stock:
        return f"stock: the position has {expected_stock}, the realisation reaches {got_stock}"
    return None


@dataclass
class Replay:
    """A realisation replayed on the reference: the game it ends in and each action's events."""

    game: GameHandle
    events: list[list[dict[str, JSON]]]


def replay(realisation: Realisation, flags: Flags) -> Replay:
    """Play ``realisation`` on the reference; :class:`Unreachable` if an action is refused."""
    try:
        game = ReferenceEngine().start({"flags": dict(flags), **realisation.setup})
    except SetupRejected as error:
        raise Unreachable(f"the reference refuses the deal: {error}") from None
    events: list[list[dict[str, JSON]]] = []
    for number, action in enumerate(realisation.actions, start=1):
        outcome = game.apply(action)
        if isinstance(outcome, Rejected):
            raise Unreachable(f"action {number} {action} is refused: {outcome.code} {outcome.rule} {outcome.message}")
        events.append(list(outcome.events))
    return Replay(game, events)


def check(realisation: Realisation, position: Position, flags: Flags) -> str | None:
    """Why ``realisation`` does not reach ``position`` under ``flags`` (``None`` when it does)."""
    try:
        return difference(replay(realisation, flags).game, position, flags)
    except Unreachable as error:
        return str(error)


# ------------------------------------------------------------------------------ the shape of a position


@dataclass
class Shape:
    """What a position says about the hand it belongs to."""

    players: int
    deck: list[str]
    trump: Suit
    muestra: str | None
    hands: list[list[str]]
    trick: list[tuple[int, str]]
    stock: list[str]
    leader: int
    draw_pending: bool
    draws_total: int
    draws_done: int
    tricks_done: int
    gone: list[str]
    exchanged: bool
    sung: list[tuple[int, str]]
    card_points: list[int] | None
    tricks_won: list[int] | None
    last_winner: int | None

    @property
    def free(self) -> bool:
        return self.muestra is not None

    def side(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat


def shape_of(position: Position, flags: Flags) -> Shape:
    loaded(position, flags)  # the reference's own validation of the position comes first
    players, size = int(flags["players"]), int(flags["deck"])
    deck = deck_codes(size)
    hands = [[str(c) for c in hand] for hand in position.get("hands", [])]
    trick = [(int(seat), str(card)) for seat, card in position.get("trick", [])]
    stock = [str(c) for c in position.get("stock", [])]
    muestra = position.get("muestra") or None
    trump = parse_card(muestra).suit if muestra else Suit(position["trump"])
    draw_pending = bool(position.get("draw_pending", False))
    draws_total = (size - HAND_SIZE * players) // players
    played = {seat for seat, _ in trick}
    held = len(hands[0]) + (1 if 0 in played else 0)
    if muestra:
        draws_done = draws_total - (len(stock) + 1) // players
        tricks_done = draws_done + (1 if draw_pending else 0)
        if held != HAND_SIZE - (1 if draw_pending else 0):
            raise Unreachable(
                f"in the free phase each seat holds {HAND_SIZE} cards (5 before a draw), counting its card on the"
                f" table; here {held}"
            )
    else:
        draws_done = draws_total
        tricks_done = size // players - held
    visible = (
        {c for hand in hands for c in hand} | {c for _, c in trick} | set(stock) | ({muestra} if muestra else set())
    )
    gone = [c for c in deck if c not in visible]
    if len(gone) != players * tricks_done:
        raise Unreachable(f"{len(gone)} cards are out of play, but {tricks_done} tricks take {players * tricks_done}")
    leader = int(position.get("leader", trick[0][0] if trick else 0))
    sung = [(int(entry["seat"]), str(entry["suit"])) for entry in position.get("sung", [])]
    if any(entry.get("arrastre") for entry in position.get("sung", [])):
        raise Unreachable("the search places cantes in the free phase only")
    last = position.get("last_trick_winner")
    return Shape(
        players=players,
        deck=deck,
        trump=trump,
        muestra=muestra,
        hands=hands,
        trick=trick,
        stock=stock,
        leader=leader,
        draw_pending=draw_pending,
        draws_total=draws_total,
        draws_done=draws_done,
        tricks_done=tricks_done,
        gone=gone,
        exchanged=bool(position.get("exchange_done", False)),
        sung=sung,
        card_points=list(position["card_points"]) if "card_points" in position else None,
        tricks_won=list(position["tricks_won"]) if "tricks_won" in position else None,
        last_winner=None if last is None else int(last),
    )
