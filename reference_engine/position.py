"""Starting a game in the middle of a hand, for scenarios that test one situation.

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
defaults to the seat before the leader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from reference_engine.cantes import cante_value
from reference_engine.cards import Card, CardError, Rank, Suit, parse_card
from reference_engine.deal import HAND_SIZE, DealtHand, check_cards_once
from reference_engine.flags import Rules
from reference_engine.tricks import next_seat

if TYPE_CHECKING:
    from reference_engine.game import Game


class PositionError(CardError):
    """A position that is not a possible state of a hand (the message names the field)."""


def _cards(raw: Any, what: str) -> list[Card]:
    if not isinstance(raw, list):
        raise PositionError(f"position field {what!r} must be a list of cards")
    return [parse_card(str(code)) for code in raw]


def _pair(position: Mapping[str, Any], key: str) -> list[int]:
    value = position.get(key, [0, 0])
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise PositionError(f"position field {key!r} must be two integers, one per side")
    return list(value)


def _seat(position: Mapping[str, Any], key: str, players: int) -> int | None:
    value = position.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise PositionError(f"position field {key!r} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def _trick(position: Mapping[str, Any], players: int) -> list[tuple[int, Card]]:
    raw = position.get("trick", [])
    if not isinstance(raw, list) or len(raw) >= players:
        raise PositionError(f"position field 'trick' must list fewer than {players} [seat, card] pairs")
    trick: list[tuple[int, Card]] = []
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)):
            raise PositionError(f"trick entry {entry!r} must be [seat, card]")
        seat = entry[0]
        if not 0 <= seat < players:
            raise PositionError(f"trick entry {entry!r}: no seat {seat} at a {players}-player table")
        if trick and seat != next_seat(trick[-1][0], players):
            raise PositionError(f"trick entry {entry!r}: seat {seat} does not play after seat {trick[-1][0]}")
        trick.append((seat, parse_card(str(entry[1]))))
    return trick


def _leader(position: Mapping[str, Any], trick: list[tuple[int, Card]], last_winner: int | None, players: int) -> int:
    leader = _seat(position, "leader", players)
    if trick:
        if leader is not None and leader != trick[0][0]:
            raise PositionError(f"the leader is seat {leader} but the trick starts with seat {trick[0][0]}")
        return trick[0][0]
    if leader is not None:
        return leader
    if last_winner is not None:
        return last_winner  # PLAY-04
    dealer = _seat(position, "dealer", players)
    return next_seat(dealer, players) if dealer is not None else 0  # PRE-09


def load_position(cls: type[Game], rules: Rules, position: Mapping[str, Any]) -> Game:
    """Build a :class:`~reference_engine.game.Game` in the position described above."""
    players = rules.player_count
    raw_hands = position.get("hands", [])
    if not isinstance(raw_hands, list):
        raise PositionError("position field 'hands' must be a list of hands, one per seat")
    hands = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(raw_hands)]
    if len(hands) != players:
        raise PositionError(f"the position gives {len(hands)} hands, but {players} play")
    muestra_code = position.get("muestra")
    muestra = parse_card(str(muestra_code)) if muestra_code else None
    stock = _cards(position.get("stock", []), "stock")
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
    trick = _trick(position, players)
    check_cards_once(
        [c for hand in hands for c in hand] + stock + ([muestra] if muestra else []) + [c for _, c in trick],
        rules.deck_size,
    )
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
    last_winner = _seat(position, "last_trick_winner", players)
    leader = _leader(position, trick, last_winner, players)
    dealer = _seat(position, "dealer", players)
    if dealer is None:
        dealer = (leader - 1) % players
    draw_pending = bool(position.get("draw_pending", False))
    if draw_pending and (last_winner is None or trick or muestra is None or size >= HAND_SIZE):
        raise PositionError(
            "draw_pending needs a last_trick_winner, an empty trick, a muestra still to draw and hands of five or fewer"
        )

    placeholder = muestra or Card(Rank.AS, trump)  # only fixes the trump; replaced below
    game = cls(rules, DealtHand(tuple(tuple(h) for h in hands), placeholder, tuple(stock)), dealer)
    game.muestra = muestra
    game.trump = trump
    game.trick = trick
    game.leader = leader
    seat = leader
    for _ in trick:
        seat = next_seat(seat, players)
    game.turn = seat
    game.last_trick_winner = last_winner
    game.draw_pending = draw_pending
    if last_winner is not None and not trick:
        game.window_side = game.side(last_winner)  # CANTE-06: the window of the last trick is open
    game.card_points = _pair(position, "card_points")
    default_tricks = [0, 0]
    if last_winner is not None:
        default_tricks[game.side(last_winner)] = 1
    game.tricks_won = _pair(position, "tricks_won") if "tricks_won" in position else default_tricks
    game.tricks_played = sum(game.tricks_won)
    for entry in position.get("sung", []):
        suit = Suit(entry["suit"])
        singer = int(entry["seat"])
        if not 0 <= singer < players:
            raise PositionError(f"sung entry {entry!r}: no seat {singer} at a {players}-player table")
        side = game.side(singer)
        value = cante_value(suit, trump)
        game.sung_suits.add(suit)
        game.cante_points[side] += value
        in_arrastre = bool(entry.get("arrastre", False))
        game.cantes.append({"seat": singer, "side": side, "suit": suit.value, "value": value, "arrastre": in_arrastre})
    game.exchange_done = bool(position.get("exchange_done", False))
    game.hand_in_point = int(position.get("hand_in_point", 0))
    game.carried = _pair(position, "carried")
    game.carried_malas = _pair(position, "carried_malas")
    game.match.points = _pair(position, "match_points")
    game.match.cotos = _pair(position, "cotos")
    return game
