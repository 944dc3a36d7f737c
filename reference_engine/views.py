"""Named views of a game: the full state, and what one seat may see (its observation).

Field names are the conformance vocabulary (``guinote_conformance.adapters.vocabulary``). Per-seat and per-side
fields take the index after a dot: ``hand.2``, ``score.0``, ``match.points.1``.
Hidden information (ETIQ, CANTE-15, C-25) is left out of observations: other seats' hands,
the stock, running scores before the hand is over, and the suit of a twenty sung by the
opponents during the arrastre.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from guinote_conformance.reference_engine import scoring
from guinote_conformance.reference_engine.cards import Card
from guinote_conformance.reference_engine.game import Game


class UnknownField(KeyError):
    """A field name that is not part of the vocabulary."""


def _codes(cards: list[Card]) -> list[str]:
    return sorted([card.code for card in cards])


def _hand_result(game: Game, key: str) -> Any:
    if game.hand.result is None:
        return None
    return getattr(game.hand.result, key)


# The fields of the hand in progress are read off the hand, the match's off the game.
_SCALAR: dict[str, Callable[[Game], Any]] = {
    "phase": lambda g: g.phase,
    "players": lambda g: g.players,
    "turn": lambda g: g.hand.turn,
    "leader": lambda g: g.hand.leader,
    "dealer": lambda g: g.hand.dealer,
    "mano": lambda g: g.hand.mano,
    "trump": lambda g: g.hand.trump.value,
    "muestra": lambda g: g.hand.muestra.code if g.hand.muestra else None,
    "stock_count": lambda g: len(g.hand.stock) + (1 if g.hand.muestra else 0),
    "trick": lambda g: [card.code for _, card in g.hand.trick],
    "trick_seats": lambda g: [seat for seat, _ in g.hand.trick],
    "last_trick": lambda g: [card.code for _, card in g.hand.last_trick],
    "last_trick_winner": lambda g: g.hand.last_trick_winner,
    "draw_pending": lambda g: g.hand.draw_pending,
    "tricks_played": lambda g: g.hand.tricks_played,
    "ultimas": lambda g: g.hand.ultimas_side,
    "cantes": lambda g: [dict(c) for c in g.hand.cantes],
    "sung_suits": lambda g: sorted(suit.value for suit in g.hand.sung_suits),
    "exchange_done": lambda g: g.hand.exchange_done,
    "de_vueltas": lambda g: g.hand.hand_in_point > 0,
    "hand_in_point": lambda g: g.hand.hand_in_point,
    "hand_winner": lambda g: _hand_result(g, "winner"),
    "hand_reason": lambda g: _hand_result(g, "reason"),
    "hand_rule": lambda g: _hand_result(g, "rule"),
    "match.winner": lambda g: g.match.winner,
}
_PER_SEAT: dict[str, Callable[[Game, int], Any]] = {
    "hand": lambda g, seat: _codes(g.hand.hands[seat]),
    "hand_size": lambda g, seat: len(g.hand.hands[seat]),
}
_PER_SIDE: dict[str, Callable[[Game, int], Any]] = {
    "card_points": lambda g, side: g.hand.card_points[side],
    "cante_points": lambda g, side: g.hand.cante_points[side],
    "score": lambda g, side: scoring.hand_score(g.hand, side),
    "total": lambda g, side: scoring.total(g.hand, side),
    "tricks_won": lambda g, side: g.hand.tricks_won[side],
    "won_cards": lambda g, side: _codes(g.hand.won_cards[side]),
    # ETIQ-02: each side's most recent trick stays open to view (won cards are kept in trick order)
    "last_trick_won": lambda g, side: [card.code for card in g.hand.won_cards[side][-g.players :]],
    "match.points": lambda g, side: g.match.points[side],
    "match.cotos": lambda g, side: g.match.cotos[side],
}

#: Every state field name; ``<seat>`` and ``<side>`` stand for an index.
FIELDS: list[str] = (
    sorted(_SCALAR)
    + [f"{name}.<seat>" for name in sorted(_PER_SEAT)]
    + [f"{name}.<side>" for name in sorted(_PER_SIDE)]
)


def state_field(game: Game, name: str) -> Any:
    """The value of a named field of the full state."""
    value = _read(game, name)
    if value is _NOT_A_FIELD:
        raise UnknownField(f"unknown state field {name!r}; fields: {', '.join(FIELDS)}")
    return value


def state_fields(game: Game, names: Iterable[str]) -> dict[str, Any]:
    """The values of several named fields of the full state; the names that are not fields
    are left out (one call where a harness reads a few fields after every action)."""
    values: dict[str, Any] = {}
    scalars, indexed, players = _SCALAR, _INDEXED, game.players
    for name in names:
        scalar = scalars.get(name)  # most fields are scalars: read without the indexed look-up
        if scalar is not None:
            values[name] = scalar(game)
            continue
        found = indexed.get(name) or _indexed(name)
        if found is not None:
            table, base, number = found
            if table is _PER_SIDE or number < players:
                values[name] = table[base](game, number)
    return values


_NOT_A_FIELD = object()


def _read(game: Game, name: str) -> Any:
    """The value of the field ``name``, or :data:`_NOT_A_FIELD`."""
    scalar = _SCALAR.get(name)
    if scalar is not None:
        return scalar(game)
    indexed = _INDEXED.get(name) or _indexed(name)
    if indexed is not None:
        table, base, number = indexed
        if table is _PER_SIDE or number < game.players:
            return table[base](game, number)
    return _NOT_A_FIELD


#: ``name.<index>`` fields already read: (their table, the name, the index). The table is looked up at
#: every read, so that a field's function can be replaced (the broken engines of the tests do).
_INDEXED: dict[str, tuple[dict[str, Callable[[Game, int], Any]], str, int]] = {}


def _indexed(name: str) -> tuple[dict[str, Callable[[Game, int], Any]], str, int] | None:
    """A per-seat (``hand.2``) or per-side (``score.0``) field name, split; ``None`` if it is neither."""
    base, _, index = name.rpartition(".")
    if not index.isdigit():
        return None
    number = int(index)
    if base in _PER_SEAT and number < 4:
        found = (_PER_SEAT, base, number)
    elif base in _PER_SIDE and number < 2:
        found = (_PER_SIDE, base, number)
    else:
        return None
    if index == str(number):  # only the canonical spelling is kept: the cache stays small
        _INDEXED[name] = found
    return found


# ETIQ-08; interpretation (ETIQ-08, C-25): running counts are private while the hand is played (S004 has each pair
# count its points in secret de vueltas, ETIQ-07); tricks already gathered may not be looked at
# (ETIQ-01), so neither are the cards won.
_PRIVATE_UNTIL_HAND_OVER = ("card_points", "cante_points", "score", "total", "won_cards")


def observation_field(game: Game, seat: int, name: str) -> Any:
    """The value of ``name`` as seen by ``seat``: hidden information is ``None``."""
    if not 0 <= seat < game.players:
        raise UnknownField(f"seat {seat} does not exist")
    base, _, index = name.rpartition(".")
    if base == "hand" and index.isdigit() and int(index) != seat:
        return None  # other players' cards are hidden
    if base in _PRIVATE_UNTIL_HAND_OVER and game.hand.result is None:
        return None  # C-25: running counts are private during play
    if name == "cantes":
        return [_seen_cante(game, seat, cante) for cante in game.hand.cantes]
    if name == "sung_suits":
        return sorted(
            c["suit"] for c in (_seen_cante(game, seat, c) for c in game.hand.cantes) if c["suit"] is not None
        )
    return state_field(game, name)


def _seen_cante(game: Game, seat: int, cante: dict[str, Any]) -> dict[str, Any]:
    """CANTE-15 / ETIQ-06: a twenty sung in the arrastre does not tell the opponents its suit.

    interpretation (ETIQ-06, C-12): the partner, who may ask for the suit, is shown it; a forty is
    always known (its suit is trumps); mano a mano the opponent never sees it (C-20)."""
    hidden = cante["arrastre"] and cante["value"] == 20 and cante["side"] != game.hand.side(seat)
    return {**cante, "suit": None if hidden else cante["suit"]}
