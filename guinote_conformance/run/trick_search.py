"""The search for the tricks already played before a scenario's position: who played what, in which trick.

The cards that are neither in a hand, on the table, in the stock nor the muestra were played in
the tricks already completed. The search shares them out among the seats and orders each seat's
share into those tricks (free play while the stock lasts; in the arrastre only the cards the
reference allows), and keeps an ordering whose trick winners give the position its leader,
points and tricks.

In: the :class:`~guinote_conformance.run.position.Shape` of the position, the flags and a seeded random
generator. Out: histories of the completed tricks (each trick's cards in playing order, and its
winner), for :mod:`guinote_conformance.run.hand_search` to complete with cantes, the exchange and the deal;
and :class:`Cards`, the card facts the search needs quickly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from guinote_conformance.reference_engine.arrastre import legal_cards
from guinote_conformance.reference_engine.cards import Card, Suit, parse_card, strength_table
from guinote_conformance.reference_engine.flags import make_rules
from guinote_conformance.reference_engine.tricks import winning_index
from guinote_conformance.run.position import Flags, Shape


class Cards:
    """Card facts the search needs quickly: points, strength and trick winners."""

    def __init__(self, flags: Flags) -> None:
        self.strength = strength_table(flags["rank_8_9"])
        self.cache: dict[str, Card] = {}

    def card(self, code: str) -> Card:
        if code not in self.cache:
            self.cache[code] = parse_card(code)
        return self.cache[code]

    def points(self, codes: Sequence[str]) -> int:
        return sum(self.card(c).points for c in codes)

    def winner(self, trick: Sequence[tuple[int, str]], trump: Suit) -> int:
        cards = [(seat, self.card(code)) for seat, code in trick]
        return cards[winning_index(cards, trump, self.strength)][0]


def pair_cards(suit: str) -> tuple[str, str]:
    return f"R{suit}", f"S{suit}"


class TrickSearch:
    """The completed tricks of the hand whose position is ``shape``."""

    def __init__(self, shape: Shape, cards: Cards, flags: Flags, rng: random.Random) -> None:
        self.shape = shape
        self.cards = cards
        self.rules = make_rules(flags)
        self.rng = rng
        self.width = 4

    def tricks(self, mano: int, budget: int) -> Iterator[tuple[list[list[tuple[int, str]]], list[int]]]:
        """Histories of the completed tricks whose winners fit the position.

        A depth-first search in random order. While the stock lasts any seat may play any card
        that is out of play now (PLAY-07), except that a pair someone sang stays with the singer;
        at the arrastre the cards still to be played are shared out among the seats and each plays
        only what the rules let it (ARR), judged by the reference's own
        :func:`~guinote_conformance.reference_engine.arrastre.legal_cards`. The points and tricks the position states,
        its leader and its cantes prune the search."""
        shape = self.shape
        players = shape.players
        free_tricks = min(shape.tricks_done, shape.draws_total)
        kept = [
            [self.cards.card(c) for c in shape.hands[s] + [c for p, c in shape.trick if p == s]] for s in range(players)
        ]
        pairs = {code: seat for seat, suit in shape.sung for code in pair_cards(suit)}
        forced = {code: seat for code, seat in pairs.items() if code in shape.gone}
        pool = set(shape.gone)
        remaining: list[list[str]] = [[] for _ in range(players)]
        tricks: list[list[tuple[int, str]]] = []
        winners: list[int] = []
        points, won = [0, 0], [0, 0]
        nodes = 0
        target_points, target_tricks = shape.card_points, shape.tricks_won

        def sang_in_time(seat: int, number: int) -> bool:
            """Whether a trick before ``number`` in the free phase was won by ``seat``'s side."""
            side = shape.side(seat)
            return any(shape.side(w) == side for w in winners[: min(number - 1, free_tricks)])

        def fits_so_far(left: int) -> bool:
            for side in (0, 1):
                if target_points is not None and points[side] > target_points[side]:
                    return False
                if target_tricks is not None and (
                    won[side] > target_tricks[side] or target_tricks[side] - won[side] > left
                ):
                    return False
                if (
                    target_points is not None
                    and target_tricks is not None
                    and won[side] == target_tricks[side]
                    and points[side] != target_points[side]
                ):
                    return False  # a side with all its tricks has all its points
            return True

        def fits_with(trick: list[tuple[int, str]], number: int) -> bool:
            side = shape.side(self.cards.winner(trick, shape.trump))
            gained = self.cards.points([c for _, c in trick])
            points[side] += gained
            won[side] += 1
            fits = fits_so_far(shape.tricks_done - number)
            points[side] -= gained
            won[side] -= 1
            return fits

        def choices(seat: int, trick: list[tuple[int, str]], number: int) -> list[str]:
            if number <= free_tricks:
                mine = [c for c in pool if forced.get(c) == seat]
                left = shape.tricks_done - number + 1
                options = mine if len(mine) >= left else [c for c in pool if forced.get(c, seat) == seat]
            else:
                hand = [self.cards.card(c) for c in remaining[seat]] + kept[seat]
                table = [(s, self.cards.card(c)) for s, c in trick]
                legal = legal_cards(hand, seat, table, shape.trump, self.cards.strength, self.rules)
                codes = {card.code for card in legal}
                options = [c for c in remaining[seat] if c in codes]
            self.rng.shuffle(options)
            return options

        def share_out() -> bool:
            """Give every seat the cards it plays in the arrastre."""
            need = shape.tricks_done - free_tricks
            rest = [c for c in pool if c not in forced]
            self.rng.shuffle(rest)
            for seat in range(players):
                remaining[seat] = [c for c in pool if forced.get(c) == seat]
                if len(remaining[seat]) > need:
                    return False
                while len(remaining[seat]) < need:
                    remaining[seat].append(rest.pop())
            return True

        def sampled(number: int, leader: int) -> list[list[tuple[int, str]]]:
            """A few random free-phase tricks that keep the position in reach (enumerating them all
            would be far too wide)."""
            seats = [(leader + i) % players for i in range(players)]
            allowed: dict[int, list[str]] = {}
            for seat in seats:
                allowed[seat] = [
                    c
                    for c in choices(seat, [], number)
                    if not (pairs.get(c) == seat and not sang_in_time(seat, number))
                ]
                if not allowed[seat]:
                    return []
            found: dict[tuple[str, ...], list[tuple[int, str]]] = {}
            for _ in range(25 * self.width):
                trick: list[tuple[int, str]] = []
                taken: set[str] = set()
                for seat in seats:
                    card = self.rng.choice(allowed[seat])
                    if card in taken:
                        break
                    trick.append((seat, card))
                    taken.add(card)
                else:
                    if fits_with(trick, number):
                        found.setdefault(tuple(taken), trick)
                        if len(found) >= self.width:
                            break
            return list(found.values())

        def trick_at(number: int, leader: int) -> Iterator[None]:
            nonlocal nodes
            if number > shape.tricks_done:
                last_ok = shape.last_winner is None or (winners and winners[-1] == shape.last_winner)
                if leader == shape.leader and last_ok:
                    yield None
                return
            if number == free_tricks + 1:
                for _ in range(4):
                    if share_out():
                        yield from seat_at(number, leader, [], 0)
                return
            if number > free_tricks:
                yield from seat_at(number, leader, [], 0)
                return
            for trick in sampled(number, leader):
                nodes += 1
                if nodes > budget:
                    return
                for _, card in trick:
                    pool.discard(card)
                yield from seat_at(number, leader, trick, players)
                for _, card in trick:
                    pool.add(card)

        def seat_at(number: int, leader: int, trick: list[tuple[int, str]], index: int) -> Iterator[None]:
            nonlocal nodes
            if index == players:
                winner = self.cards.winner(trick, shape.trump)
                side = shape.side(winner)
                gained = self.cards.points([c for _, c in trick])
                points[side] += gained
                won[side] += 1
                tricks.append(list(trick))
                winners.append(winner)
                if fits_so_far(shape.tricks_done - number):
                    yield from trick_at(number + 1, winner)
                tricks.pop()
                winners.pop()
                points[side] -= gained
                won[side] -= 1
                return
            seat = (leader + index) % players
            arrastre = number > free_tricks
            for card in choices(seat, trick, number):
                nodes += 1
                if nodes > budget:
                    return
                if pairs.get(card) == seat and not sang_in_time(seat, number):
                    continue  # a pair is sung before either of its cards is played
                if arrastre:
                    remaining[seat].remove(card)
                else:
                    pool.discard(card)
                trick.append((seat, card))
                yield from seat_at(number, leader, trick, index + 1)
                trick.pop()
                if arrastre:
                    remaining[seat].append(card)
                else:
                    pool.add(card)

        for _ in trick_at(1, mano):
            yield [list(t) for t in tricks], list(winners)
