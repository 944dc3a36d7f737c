"""The search for one hand's history: a deal and the legal plays that lead from it to a scenario's position.

How the search works. The tricks already completed are found first
(:mod:`guinote_conformance.run.trick_search`). The search then places the cantes and the exchange after
tricks their side won, works out which cards each seat must have been dealt and which it drew
(the stock is then the draws in drawing order followed by the position's stock), and has the
candidate judged (by default: replayed on the reference, :func:`~guinote_conformance.run.position.check`).

In: a position of the hand (its point and match keys left out), the flags, a seeded random
generator, and how long to try. Out: a :class:`~guinote_conformance.run.position.Realisation` of the
position in its first hand (:func:`search_hand`), or :class:`~guinote_conformance.run.position.Unreachable`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.reference_engine.deal import HAND_SIZE
from guinote_conformance.reference_engine.tricks import draw_order
from guinote_conformance.run.position import Flags, Position, Realisation, Shape, Unreachable, check, shape_of
from guinote_conformance.run.trick_search import Cards, TrickSearch, pair_cards


@dataclass
class Plan:
    """One candidate history of the hand, built by :func:`_attempt`."""

    dealer: int
    tricks: list[list[tuple[int, str]]] = field(default_factory=list)  # completed tricks, in playing order
    winners: list[int] = field(default_factory=list)
    cantes: dict[int, list[tuple[int, str]]] = field(default_factory=dict)  # after trick k (1-based)
    exchange: tuple[int, int, str, str] | None = None  # (after trick k, seat, card given, muestra taken)


def _exchange_card(shape: Shape) -> str:
    """The trump given for the muestra: the seven, or the dos when the seven was the muestra."""
    return shape.muestra if shape.muestra else f"7{shape.trump.value}"


class _Search:
    def __init__(self, position: Position, flags: Flags, rng: random.Random) -> None:
        self.position = position
        self.flags = flags
        self.rng = rng
        self.shape = shape_of(position, flags)
        self.cards = Cards(flags)
        self.trick_search = TrickSearch(self.shape, self.cards, flags, rng)
        self.node_budget = 400
        self.last = "no ordering of the tricks fits"
        self.accept: Callable[[Realisation], str | None] = lambda candidate: None

    # -------------------------------------------------------------- who held what

    def owner_of_visible(self) -> dict[str, int]:
        owners = {c: seat for seat, hand in enumerate(self.shape.hands) for c in hand}
        owners.update({c: seat for seat, c in self.shape.trick})
        return owners

    def partition(self, exchanger: int | None) -> list[list[str]] | None:
        """Share out the cards already played: ``t`` to each seat, the pairs sung with their singer."""
        shape = self.shape
        owners = self.owner_of_visible()
        forced: dict[str, int] = {}
        for seat, suit in shape.sung:
            for code in pair_cards(suit):
                holder = owners.get(code, forced.get(code))
                if holder is not None and holder != seat:
                    raise Unreachable(f"seat {seat} sang {suit} but {code} is with seat {holder}")
                if code in shape.gone:
                    forced[code] = seat
        shares: list[list[str]] = [[] for _ in range(shape.players)]
        for code, seat in forced.items():
            shares[seat].append(code)
        rest = [c for c in shape.gone if c not in forced]
        self.rng.shuffle(rest)
        if exchanger is not None and shape.free:
            # the exchanger took the original muestra, a trump he holds now or has played
            trumps = [c for c in rest if self.cards.card(c).suit is shape.trump]
            mine = [c for c in shape.hands[exchanger] if self.cards.card(c).suit is shape.trump]
            if not mine and trumps and len(shares[exchanger]) < shape.tricks_done:
                pick = self.rng.choice(trumps)
                rest.remove(pick)
                shares[exchanger].append(pick)
        for code in rest:
            open_seats = [s for s in range(shape.players) if len(shares[s]) < shape.tricks_done]
            if not open_seats:
                return None
            shares[self.rng.choice(open_seats)].append(code)
        if any(len(share) != shape.tricks_done for share in shares):
            return None
        return shares

    # -------------------------------------------------------------- the tricks
    # -------------------------------------------------------------- cantes and the exchange

    def play_index(self, tricks: list[list[tuple[int, str]]]) -> dict[str, int]:
        """The trick (1-based) in which each played card went."""
        return {code: number for number, trick in enumerate(tricks, start=1) for _, code in trick}

    def place_cantes(self, plan: Plan, played: Mapping[str, int]) -> bool:
        """Each cante after a free-phase trick its side won, while the singer still held the pair."""
        shape = self.shape
        used: set[int] = set()
        last_free = min(shape.tricks_done, shape.draws_total)
        for seat, suit in shape.sung:
            latest = min(played.get(code, shape.tricks_done + 1) for code in pair_cards(suit)) - 1
            windows = [
                k for k in range(1, min(latest, last_free) + 1) if shape.side(plan.winners[k - 1]) == shape.side(seat)
            ]
            if not windows:
                return False
            # windows of their own first (some flags allow one cante per trick); the open window last
            windows.sort(key=lambda k: (k in used, k == shape.tricks_done, self.rng.random()))
            plan.cantes.setdefault(windows[0], []).append((seat, suit))
            used.add(windows[0])
        return True

    def place_exchange(self, plan: Plan, played: Mapping[str, int]) -> bool:
        """The exchange after a trick the exchanger won, before its draw, while the muestra is out."""
        shape = self.shape
        given = _exchange_card(shape)
        owners = self.owner_of_visible()
        candidates = []
        for k in range(1, min(shape.tricks_done, shape.draws_total) + 1):
            seat = plan.winners[k - 1]
            if given in owners and owners[given] != seat and shape.free:
                continue
            if not shape.free and played.get(given, 99) <= k:
                continue
            # the original muestra: a trump the exchanger plays after the exchange or holds now
            taken = [
                c
                for c in shape.gone + shape.hands[seat] + [card for s, card in shape.trick if s == seat]
                if self.cards.card(c).suit is shape.trump
                and c != given
                and (c not in played or played[c] > k)
                and (c not in owners or owners[c] == seat)
                and (c in owners or self._share_of(plan, c) == seat)
            ]
            sung_before = {
                code for j, entries in plan.cantes.items() if j <= k for _, suit in entries for code in pair_cards(suit)
            }
            for muestra in taken:
                if muestra not in sung_before:
                    candidates.append((k, seat, given, muestra))
        if not candidates:
            return False
        plan.exchange = self.rng.choice(candidates)
        return True

    def _share_of(self, plan: Plan, code: str) -> int | None:
        for trick in plan.tricks:
            for seat, card in trick:
                if card == code:
                    return seat
        return None

    # -------------------------------------------------------------- the deal

    def build(self, plan: Plan) -> Realisation | None:
        """The deal and actions of ``plan``: who was dealt what and the stock in drawing order."""
        shape = self.shape
        players = shape.players
        played = self.play_index(plan.tricks)
        exchange = plan.exchange
        # the muestra the hand was dealt with, and the card that lies as muestra at the last draw
        if exchange is not None:
            dealt_muestra = exchange[3]
            final_muestra = exchange[2]
        else:
            dealt_muestra = shape.muestra or ""
            final_muestra = dealt_muestra
        last_drawer: int | None = None
        if not shape.free:
            last_drawer = draw_order(plan.winners[shape.draws_total - 1], players)[-1]
            if not dealt_muestra:
                owners = self.owner_of_visible()
                sung = {code for entries in plan.cantes.values() for _, suit in entries for code in pair_cards(suit)}
                candidates = [
                    c
                    for c in shape.gone
                    + shape.hands[last_drawer]
                    + [card for s, card in shape.trick if s == last_drawer]
                    if self.cards.card(c).suit is shape.trump
                    and c not in sung
                    and (c not in played or played[c] > shape.draws_total)
                    and (owners.get(c, self._share_of(plan, c)) == last_drawer)
                ]
                if not candidates:
                    return None
                dealt_muestra = final_muestra = self.rng.choice(candidates)
        # need[s][card]: draws made before seat s must hold card
        need: list[dict[str, int]] = [{} for _ in range(players)]
        for number, trick in enumerate(plan.tricks, start=1):
            for seat, code in trick:
                need[seat][code] = min(number - 1, shape.draws_done)
        for seat, hand in enumerate(shape.hands):
            for code in hand:
                need[seat][code] = shape.draws_done
        for seat, code in shape.trick:
            need[seat][code] = shape.draws_done
        for k, entries in plan.cantes.items():
            for seat, suit in entries:
                for code in pair_cards(suit):
                    need[seat][code] = min(need[seat].get(code, k - 1), k - 1)
        reserved: dict[int, str] = {}  # cards not drawn from the stock: the muestra taken, the muestra drawn last
        if exchange is not None:
            k, seat, given, taken = exchange
            if shape.free:
                need[seat][given] = k - 1  # held, then given away
            else:
                need[seat][given] = k - 1
            reserved[seat] = taken
            need[seat].pop(taken, None)
        if last_drawer is not None:
            need[last_drawer].pop(final_muestra, None)
        initial: list[list[str]] = []
        draws: list[list[str]] = []
        for seat in range(players):
            order = sorted(need[seat], key=lambda c: (need[seat][c], self.rng.random()))
            slots = shape.draws_done - (1 if seat == last_drawer else 0)
            if len(order) != HAND_SIZE + slots:
                return None
            for index, code in enumerate(order):
                if index >= HAND_SIZE + need[seat][code]:
                    return None  # not held in time
            initial.append(order[:HAND_SIZE])
            draws.append(order[HAND_SIZE:])
        stock: list[str] = []
        taken_count = [0] * players
        for number in range(1, shape.draws_done + 1):
            for seat in draw_order(plan.winners[number - 1], players):
                if number == shape.draws_total and seat == last_drawer:
                    continue  # the last drawer takes the muestra
                stock.append(draws[seat][taken_count[seat]])
                taken_count[seat] += 1
        stock += shape.stock
        setup = {"dealer": plan.dealer, "hands": initial, "muestra": dealt_muestra, "stock": stock}
        return Realisation(setup, self.actions(plan))

    def actions(self, plan: Plan) -> list[dict[str, Any]]:
        shape = self.shape
        actions: list[dict[str, Any]] = []
        for number, trick in enumerate(plan.tricks, start=1):
            actions += [{"type": "play", "seat": seat, "card": code} for seat, code in trick]
            for seat, suit in plan.cantes.get(number, []):
                actions.append({"type": "cante", "seat": seat, "suit": suit})
            if plan.exchange is not None and plan.exchange[0] == number:
                actions.append({"type": "exchange", "seat": plan.exchange[1]})
            if number <= shape.draws_done:
                actions.append({"type": "draw"})
        actions += [{"type": "play", "seat": seat, "card": code} for seat, code in shape.trick]
        return actions

    # -------------------------------------------------------------- one attempt

    def attempt(self, dealer: int | None) -> Realisation | None:
        shape = self.shape
        players = shape.players
        if shape.tricks_done == 0:
            dealer = (shape.leader - 1) % players if dealer is None else dealer
            if (dealer + 1) % players != shape.leader:
                return None
        elif dealer is None:
            dealer = self.rng.randrange(players)
        mano = (dealer + 1) % players
        for leaves, (tricks, winners) in enumerate(self.trick_search.tricks(mano, self.node_budget)):
            if leaves >= 40:
                return None
            plan = Plan(dealer, tricks, winners)
            index = self.play_index(tricks)
            if shape.sung and not self.place_cantes(plan, index):
                continue
            if shape.exchanged and not self.place_exchange(plan, index):
                continue
            built = self.build(plan)
            if built is not None:
                why = self.accept(built)
                if why is None:
                    return built
                self.last = why
        return None


def search_hand(
    position: Position,
    flags: Flags,
    *,
    rng: random.Random,
    dealer: int | None = None,
    attempts: int = 1_000_000,
    seconds: float = 30.0,
    accept: Callable[[Realisation], str | None] | None = None,
) -> Realisation:
    """A deal and actions reaching ``position`` in its first hand (dealt by ``dealer`` if given)."""
    search = _Search(position, flags, rng)
    search.accept = accept if accept is not None else (lambda candidate: check(candidate, position, flags))
    deadline = time.monotonic() + seconds
    tried = 0
    while tried < attempts and (tried == 0 or time.monotonic() < deadline):
        tried += 1
        candidate = search.attempt(dealer)
        if candidate is not None:
            return candidate
    raise Unreachable(f"no history of the hand fits the position ({tried} attempts: {search.last})")
