"""Tricks, turn order, sides and the draw (rule areas PLAY and PRE).

Seats are numbered ``0..n-1`` in playing order: seat ``s + 1`` (mod n) plays after seat ``s``,
which at the table is the player on ``s``'s right (PRE-20, counter-clockwise). With four
players the partnerships are seats {0, 2} (side 0) and {1, 3} (side 1) (PRE-01); with two
players each seat is its own side (TWO-07).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from guinote_conformance.reference_engine.cards import Card, Suit

Trick = Sequence[tuple[int, Card]]


def next_seat(seat: int, players: int) -> int:
    """PRE-20: play passes to the player on the right.

    interpretation (PRE-20, C-01/B-02): S002 gives no direction and S000's wording is ambiguous; play
    goes counter-clockwise, the mano being on the dealer's right (PRE-09) as every source says.
    """
    return (seat + 1) % players


def side_of(seat: int, players: int) -> int:
    """PRE-01 / TWO-07: partners sit opposite, so seats of equal parity form a side."""
    return seat % 2 if players == 4 else seat


#: PRE-01 / TWO-07: each seat's side, and each side's seats, by number of players.
SEAT_SIDES: dict[int, tuple[int, ...]] = {
    players: tuple(side_of(s, players) for s in range(players)) for players in (2, 4)
}
SIDE_SEATS: dict[int, tuple[tuple[int, ...], ...]] = {
    players: tuple(tuple(s for s in range(players) if side_of(s, players) == side) for side in (0, 1))
    for players in (2, 4)
}


def partner_of(seat: int, players: int) -> int | None:
    """PRE-01: the partner's seat (opposite), or ``None`` mano a mano (TWO-07)."""
    return (seat + 2) % 4 if players == 4 else None


def beats(card: Card, other: Card, trump: Suit, strength: Mapping[Card, int]) -> bool:
    """PLAY-05 / DECK-10: ``card`` beats ``other`` if it is a higher card of the same suit,
    or a trump played against a non-trump. (A card of a third suit never beats.)"""
    if card.suit is other.suit:
        return strength[card] > strength[other]
    return card.suit is trump


def winning_index(trick: Trick, trump: Suit, strength: Mapping[Card, int]) -> int:
    """PLAY-05 / PLAY-17: index in ``trick`` of the card taking it: the highest trump, or
    if no trump was played, the highest card of the suit led."""
    best = 0
    best_card = trick[0][1]
    for index in range(1, len(trick)):
        card = trick[index][1]
        # beats(card, best_card) written out, as this runs for every card of every trick
        if card.suit is best_card.suit:
            if strength[card] > strength[best_card]:
                best, best_card = index, card
        elif card.suit is trump:
            best, best_card = index, card
    return best


def trick_points(trick: Trick) -> int:
    """DECK-07: the card points a trick carries."""
    points = 0
    for _, card in trick:  # (a plain loop: a comprehension costs a call, more than four cards)
        points += card.points
    return points


def draw_order(winner: int, players: int) -> list[int]:
    """PLAY-08: after a free-phase trick every player draws, the winner first, then in turn."""
    order = []
    for offset in range(players):  # (a loop: a comprehension costs a call, more than four seats)
        order.append((winner + offset) % players)
    return order
