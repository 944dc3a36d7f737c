"""Starting a game in the middle of a hand, for scenarios that test one situation.

A position is a JSON object::

    {"dealer": 3, "hands": [["Ao", ...], ...], "muestra": "Rb" | null, "trump": "b",
     "stock": ["4c", ...], "leader": 0, "trick": [[0, "Ao"], [1, "2o"]],
     "last_trick_winner": 2, "draw_pending": false, "card_points": [40, 25],
     "tricks_won": [3, 1], "sung": [{"seat": 0, "suit": "o"}], "exchange_done": false,
     "hand_in_point": 0, "carried": [0, 0], "match_points": [0, 0], "cotos": [0, 0]}

Only ``hands`` and either ``muestra`` or ``trump`` are required. The cards in hands, trick,
stock and muestra must be distinct cards of the deck in use, and every seat must hold the
same number of cards once the current trick is taken into account.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from reference_engine.cards import Card, CardError, Rank, Suit, parse_card
from reference_engine.deal import HAND_SIZE, DealtHand, check_cards_once
from reference_engine.flags import Rules
from reference_engine.tricks import next_seat

if TYPE_CHECKING:
    from reference_engine.game import Game


def _cards(raw: Any, what: str) -> list[Card]:
    if not isinstance(raw, list):
        raise CardError(f"position field {what!r} must be a list of cards")
    return [parse_card(str(code)) for code in raw]


def _pair(position: Mapping[str, Any], key: str) -> list[int]:
    value = position.get(key, [0, 0])
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise CardError(f"position field {key!r} must be two integers, one per side")
    return list(value)


def load_position(cls: type[Game], rules: Rules, position: Mapping[str, Any]) -> Game:
    players = rules.player_count
    hands = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(position.get("hands", []))]
    if len(hands) != players:
        raise CardError(f"the position gives {len(hands)} hands, but {players} play")
    muestra_code = position.get("muestra")
    muestra = parse_card(str(muestra_code)) if muestra_code else None
    stock = _cards(position.get("stock", []), "stock")
    if muestra is None and stock:
        raise CardError("a position with cards in the stock needs its muestra")
    trump_code = position.get("trump")
    if muestra is not None:
        trump = muestra.suit
        if trump_code and Suit(trump_code) is not trump:
            raise CardError(f"trump {trump_code!r} contradicts the muestra {muestra.code}")
    elif trump_code in {suit.value for suit in Suit}:
        trump = Suit(trump_code)
    else:
        raise CardError("a position without a muestra needs its trump suit: one of o, c, e, b")
    trick = [(int(seat), parse_card(str(code))) for seat, code in position.get("trick", [])]
    check_cards_once(
        [c for hand in hands for c in hand] + stock + ([muestra] if muestra else []) + [c for _, c in trick],
        rules.deck_size,
    )
    leader = int(position.get("leader", trick[0][0] if trick else 0))
    played = {seat for seat, _ in trick}
    sizes = {len(hand) + (1 if seat in played else 0) for seat, hand in enumerate(hands)}
    if len(sizes) != 1 or sizes.pop() > HAND_SIZE:
        raise CardError("every seat must hold the same number of cards (at most six), counting the card it has played to the trick")
    dealer = int(position.get("dealer", (leader - 1) % players))
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
    winner = position.get("last_trick_winner")
    game.last_trick_winner = None if winner is None else int(winner)
    game.draw_pending = bool(position.get("draw_pending", False))
    if game.last_trick_winner is not None and not trick:
        game.window_side = game.side(game.last_trick_winner)
    game.card_points = _pair(position, "card_points")
    default_tricks = [0, 0]
    if game.last_trick_winner is not None:
        default_tricks[game.side(game.last_trick_winner)] = 1
    game.tricks_won = list(position.get("tricks_won", default_tricks))
    game.tricks_played = sum(game.tricks_won)
    for entry in position.get("sung", []):
        suit = Suit(entry["suit"])
        side = game.side(int(entry["seat"]))
        value = 40 if suit is trump else 20
        game.sung_suits.add(suit)
        game.cante_points[side] += value
        game.cantes.append({"seat": int(entry["seat"]), "side": side, "suit": suit.value, "value": value, "arrastre": False})
    game.exchange_done = bool(position.get("exchange_done", False))
    game.hand_in_point = int(position.get("hand_in_point", 0))
    game.carried = _pair(position, "carried")
    game.carried_malas = _pair(position, "carried_malas")
    game.match.points = _pair(position, "match_points")
    game.match.cotos = _pair(position, "cotos")
    return game
