"""Dealing a hand from an explicit deck order (rule area DEAL).

Six cards go to each player (DEAL-01), from the top of the deck, starting with the mano, the
player to the dealer's right (PRE-09), either one at a time (DEAL-02, ``deal=one_by_one``)
or in two rounds of three (DEAL-03, ``deal=three_three``). The next card is the muestra: it
is turned face up under the stock, fixes the trump suit and is drawn last (DEAL-05..08).
The rest is the stock, drawn from the top (DEAL-12, PLAY-18).

Shuffling and cutting (PRE-11..17) are not modelled: a deal starts from a deck order, which
stands for the pack as the dealer holds it after the cut (C-04). Misdeals cannot happen
(C-05); a deck order that is not the whole deck once is refused with a :class:`CardError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from guinote_conformance.reference_engine.cards import Card, CardError, check_deck, deck_set
from guinote_conformance.reference_engine.tricks import next_seat

HAND_SIZE = 6  # DEAL-01


@dataclass(frozen=True)
class DealtHand:
    """The result of a deal: each seat's six cards, the muestra and the stock."""

    hands: tuple[tuple[Card, ...], ...]
    muestra: Card
    stock: tuple[Card, ...]  # face down, top first; the muestra lies under it


def deal_from_deck(order: Sequence[Card], players: int, dealer: int, method: str, deck_size: int) -> DealtHand:
    """DEAL-01..07: deal ``order`` (top card first) to ``players`` seats, the mano first.

    interpretation (DEAL-04/B-02): the cards go round in playing order, so the mano gets
    the first card (or packet of three) and the dealer the last.
    """
    check_deck(order, deck_size)
    if not 0 <= dealer < players:
        raise CardError(f"dealer seat {dealer} is not a seat of a {players}-player table")
    packets = (1,) * HAND_SIZE if method == "one_by_one" else (3, 3)
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for packet in packets:
        seat = next_seat(dealer, players)  # PRE-09: the mano receives first
        for _ in range(players):
            hands[seat].extend(order[position : position + packet])
            position += packet
            seat = next_seat(seat, players)
    muestra = order[position]  # DEAL-06/07: card 25 (4 players) or 13 (2 players)
    return DealtHand(tuple(map(tuple, hands)), muestra, tuple(order[position + 1 :]))


def check_explicit_deal(
    hands: Sequence[Sequence[Card]], muestra: Card, stock: Sequence[Card], players: int, deck_size: int
) -> None:
    """DEAL-01 / C-19: an explicit deal gives six cards to each seat and uses the whole deck
    once: the hands, the muestra and a stock of the remaining cards."""
    if len(hands) != players:
        raise CardError(f"the deal gives hands to {len(hands)} seats, but {players} play")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise CardError(f"seat {seat} is dealt {len(hand)} cards, expected {HAND_SIZE}")
    check_cards_once([card for hand in hands for card in hand] + [muestra] + list(stock), deck_size)
    expected_stock = deck_size - players * HAND_SIZE - 1
    if len(stock) != expected_stock:
        raise CardError(f"the stock has {len(stock)} cards, expected {expected_stock}")


def check_cards_once(cards: Sequence[Card], deck_size: int) -> None:
    """DECK-01 / DEAL-01: no card twice, and every card belongs to the deck in use."""
    valid = deck_set(deck_size)
    seen: set[Card] = set()
    for card in cards:
        if card not in valid:
            raise CardError(f"card {card.code} is not in the {deck_size}-card deck")
        if card in seen:
            raise CardError(f"card {card.code} is dealt twice")
        seen.add(card)


def order_of_deal(dealt: DealtHand, players: int, dealer: int, method: str) -> list[Card]:
    """The deck order (top card first) that :func:`deal_from_deck` deals as ``dealt`` from
    ``dealer``: the inverse of DEAL, so that an explicit deal can be played as a deck order.

    The hands must hold six cards each (see :func:`check_explicit_deal`)."""
    packets = (1,) * HAND_SIZE if method == "one_by_one" else (3, 3)
    taken = [0] * players
    order: list[Card] = []
    for packet in packets:
        seat = next_seat(dealer, players)  # the same walk as deal_from_deck: the mano first
        for _ in range(players):
            order.extend(dealt.hands[seat][taken[seat] : taken[seat] + packet])
            taken[seat] += packet
            seat = next_seat(seat, players)
    return [*order, dealt.muestra, *dealt.stock]
