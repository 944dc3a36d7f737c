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
(:meth:`Game.position() <guinote_conformance.reference_engine.game.Game.position>`) loads back to the same state:

* ``won_cards``: the cards each side has won so far, in the order won (ETIQ-02 shows the
  latest trick of each); they need not account for ``card_points``, which a position may
  give without the cards;
* ``last_trick``: the last trick taken, as ``[seat, card]`` pairs from its leader; it needs
  ``last_trick_winner``, who must be the one who took it;
* ``window_cantes``: the cantes already sung since that trick (CANTE-10,
  ``cante_per_trick=one``); it needs the window open: a last trick and no card led since;
* ``first_over``: in a hand de vueltas, the side whose running total passed 100 first
  (VUELTAS-14).

This module owns the format: it reads the fields and checks that they make a possible state
of a hand (:func:`read_hand`, for :meth:`Hand.from_position
<guinote_conformance.reference_engine.hand.Hand.from_position>`), and writes a hand in progress as a position
(:func:`write_hand`, for :meth:`Hand.position <guinote_conformance.reference_engine.hand.Hand.position>`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from guinote_conformance.reference_engine.cantes import cante_value
from guinote_conformance.reference_engine.cards import Card, CardError, Suit, codes, parse_card, strength_table
from guinote_conformance.reference_engine.deal import HAND_SIZE, check_cards_once
from guinote_conformance.reference_engine.tricks import SEAT_SIDES, next_seat, winning_index

if TYPE_CHECKING:
    from guinote_conformance.reference_engine.flags import Rules
    from guinote_conformance.reference_engine.state import HandState


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


def read_hand(rules: Rules, position: Mapping[str, Any]) -> dict[str, Any]:
    """The state of the hand in ``position``, as the fields :class:`~guinote_conformance.reference_engine.hand.Hand`
    is made from, or a :class:`PositionError` naming the field that makes it impossible. The
    match fields (``match_points``, ``cotos``) are the match's."""
    if not isinstance(position, Mapping):
        raise PositionError("a position is a JSON object")
    players = rules.player_count
    raw_hands = position.get("hands", [])
    if not isinstance(raw_hands, list):
        raise PositionError("position field 'hands' must be a list of hands, one per seat")
    hands = [read_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(raw_hands)]
    if len(hands) != players:
        raise PositionError(f"the position gives {len(hands)} hands, but {players} play")
    muestra_code = position.get("muestra")
    muestra = parse_card(str(muestra_code)) if muestra_code else None
    stock = read_cards(position.get("stock", []), "stock")
    if muestra is None and stock:
        raise PositionError("a position with cards in the stock needs its muestra (it is drawn last)")
    trump_code = position.get("trump")
    if muestra is not None:
        trump = muestra.suit
        if trump_code and trump_code != trump.value:
            raise PositionError(f"trump {trump_code!r} contradicts the muestra {muestra.code}")
    elif trump_code in {suit.value for suit in Suit}:
        trump = Suit(trump_code)
    else:
        raise PositionError("a position without a muestra needs its trump suit: one of o, c, e, b")
    trick = read_trick(position, "trick", players)
    won_cards = read_won_cards(position)
    in_play = [c for hand in hands for c in hand] + stock + ([muestra] if muestra else []) + [c for _, c in trick]
    check_cards_once(in_play + won_cards[0] + won_cards[1], rules.deck_size)
    played = {seat for seat, _ in trick}
    sizes = {len(hand) + (1 if seat in played else 0) for seat, hand in enumerate(hands)}
    if len(sizes) != 1 or (size := sizes.pop()) > HAND_SIZE:
        raise PositionError(
            "every seat must hold the same number of cards (at most six), counting the card it has played to the trick"
        )
    if muestra is not None and (len(stock) + 1) % players:
        # C-19: every draw takes one card per player, the muestra last
        raise PositionError(
            f"the stock and the muestra hold {len(stock) + 1} cards, not a multiple of {players} (a card each per draw)"
        )
    last_winner = read_seat(position, "last_trick_winner", players)
    leader = _leader(position, trick, last_winner, players)
    dealer = read_seat(position, "dealer", players)
    if dealer is None:
        dealer = (leader - 1) % players
    draw_pending = bool(position.get("draw_pending", False))
    if draw_pending and (last_winner is None or trick or muestra is None or size >= HAND_SIZE):
        raise PositionError(
            "draw_pending needs a last_trick_winner, an empty trick, a muestra still to draw and hands of five or fewer"
        )
    last_trick = read_trick(position, "last_trick", players)
    if last_trick:
        check_cards_once(in_play + [c for _, c in last_trick], rules.deck_size)
        taker = last_trick[winning_index(last_trick, trump, strength_table(rules.rank_8_9))][0]
        if taker != last_winner:
            raise PositionError(f"the last trick was taken by seat {taker}, not by last_trick_winner {last_winner}")
    window_cantes = read_count(position, "window_cantes")
    if window_cantes and (last_winner is None or trick):
        raise PositionError("window_cantes needs the cante window open: a last_trick_winner and no card led since")
    default_tricks = [0, 0]
    if last_winner is not None:
        default_tricks[SEAT_SIDES[players][last_winner]] = 1
    tricks_won = read_pair(position, "tricks_won") if "tricks_won" in position else default_tricks
    hand_in_point = int(position.get("hand_in_point", 0))
    first_over = read_side(position, "first_over")
    if first_over is not None and hand_in_point == 0:
        raise PositionError("first_over is a side's first pass of 100 in a hand de vueltas (hand_in_point > 0)")
    return {
        "dealer": dealer,
        "hands": hands,
        "stock": stock,
        "muestra": muestra,
        "trump": trump,
        "leader": leader,
        "trick": trick,
        "draw_pending": draw_pending,
        "last_trick": last_trick,
        "last_trick_winner": last_winner,
        "cantes_in_window": window_cantes,
        "tricks_won": tricks_won,
        "card_points": read_pair(position, "card_points"),
        "won_cards": won_cards,
        "cantes": _sung(position, trump, players),
        "exchange_done": bool(position.get("exchange_done", False)),
        "hand_in_point": hand_in_point,
        "carried": read_pair(position, "carried"),
        "carried_malas": read_pair(position, "carried_malas"),
        "first_over": first_over,
    }


def write_hand(hand: HandState) -> dict[str, Any]:
    """The position of ``hand``, in the JSON that :func:`read_hand` reads back to the same
    state (the match's fields aside). A hand that is over has none."""
    if hand.result is not None:
        raise PositionError("the hand is over: a position is a hand in progress (deal the next hand)")
    position: dict[str, Any] = {
        "dealer": hand.dealer,
        "hands": [codes(held) for held in hand.hands],
        "muestra": hand.muestra.code if hand.muestra is not None else None,
        "trump": hand.trump.value,
        "stock": codes(hand.stock),
        "leader": hand.leader,
        "trick": [[seat, card.code] for seat, card in hand.trick],
        "last_trick_winner": hand.last_trick_winner,
        "draw_pending": hand.draw_pending,
        "card_points": list(hand.card_points),
        "tricks_won": list(hand.tricks_won),
        "sung": [{"seat": c["seat"], "suit": c["suit"], "arrastre": c["arrastre"]} for c in hand.cantes],
        "exchange_done": hand.exchange_done,
        "hand_in_point": hand.hand_in_point,
        "carried": list(hand.carried),
        "carried_malas": list(hand.carried_malas),
    }
    # The fields a hand-written position rarely needs, only when they say something.
    if any(hand.won_cards):
        position["won_cards"] = [codes(cards) for cards in hand.won_cards]
    if hand.last_trick:
        position["last_trick"] = [[seat, card.code] for seat, card in hand.last_trick]
    if hand.cantes_in_window:
        position["window_cantes"] = hand.cantes_in_window
    if hand.first_over is not None:
        position["first_over"] = hand.first_over
    return position


def _leader(position: Mapping[str, Any], trick: list[tuple[int, Card]], last_winner: int | None, players: int) -> int:
    """PLAY-03 / PLAY-04: who leads the trick of a position (the defaults are in the module's docstring)."""
    leader = read_seat(position, "leader", players)
    if trick:
        if leader is not None and leader != trick[0][0]:
            raise PositionError(f"the leader is seat {leader} but the trick starts with seat {trick[0][0]}")
        return trick[0][0]
    if leader is not None:
        return leader
    if last_winner is not None:
        return last_winner  # PLAY-04
    dealer = read_seat(position, "dealer", players)
    return next_seat(dealer, players) if dealer is not None else 0  # PRE-09


def _sung(position: Mapping[str, Any], trump: Suit, players: int) -> list[dict[str, Any]]:
    """CANTE-02 / CANTE-03 / CANTE-15: the cante records of a position's ``sung`` entries."""
    records: list[dict[str, Any]] = []
    for entry in position.get("sung", []):
        suit = Suit(entry["suit"])
        singer = int(entry["seat"])
        if not 0 <= singer < players:
            raise PositionError(f"sung entry {entry!r}: no seat {singer} at a {players}-player table")
        value = cante_value(suit, trump)
        in_arrastre = bool(entry.get("arrastre", False))
        side = SEAT_SIDES[players][singer]
        records.append({"seat": singer, "side": side, "suit": suit.value, "value": value, "arrastre": in_arrastre})
    return records


__all__ = [
    "PositionError",
    "read_cards",
    "read_count",
    "read_hand",
    "read_pair",
    "read_seat",
    "read_side",
    "read_trick",
    "read_won_cards",
    "write_hand",
]
