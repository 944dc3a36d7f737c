"""Realisations: a deal and the legal plays that lead from it to a scenario's mid-hand position.

A scenario that starts "Given a hand in the arrastre ..." describes a position: the hands, the
cards on the table, who leads, the stock and the muestra, and whatever its other ``Given`` steps
set (points and tricks won so far, cantes sung, the exchange made, a pending draw, totals carried
into a hand de vueltas, the match score). Only an engine with the ``positions`` capability can
load such a position. Every engine can be dealt a hand and play it, so for each position the
suite keeps a *realisation*: an explicit deal and a sequence of actions, legal under the
scenario's flags, after which the reference engine is in exactly that position.

The position stays the source of truth; realisations are derived data, found by :func:`search`
with the reference engine as the judge of every action, stored beside the features
(:mod:`conformance.run.realisations`) and checked against their position by :func:`difference`.

How the search works. The cards that are neither in a hand, on the table, in the stock nor the
muestra were played in the tricks already completed. The search shares them out among the seats,
orders each seat's share into those tricks (free play while the stock lasts; in the arrastre
only the cards the reference allows), and keeps an ordering whose trick winners give the position
its leader, points and tricks. It then places the cantes and the exchange after tricks their side
won, works out which cards each seat must have been dealt and which it drew (the stock is then the
draws in drawing order followed by the position's stock), and replays everything on the
reference. Earlier hands (de vueltas, the match score) are played first, with random legal play,
until their outcome is the one the position needs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adapters.interface import JSON, Accepted, GameHandle, Rejected, SetupRejected
from adapters.reference import ReferenceEngine
from adapters.vocabulary import deck_codes
from reference_engine.arrastre import legal_cards
from reference_engine.cards import Card, Suit, parse_card, strength_table
from reference_engine.deal import HAND_SIZE, deal_from_deck
from reference_engine.flags import make_rules
from reference_engine.tricks import draw_order, winning_index

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


# ------------------------------------------------------------------------------ the search


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


@dataclass
class Plan:
    """One candidate history of the hand, built by :func:`_attempt`."""

    dealer: int
    tricks: list[list[tuple[int, str]]] = field(default_factory=list)  # completed tricks, in playing order
    winners: list[int] = field(default_factory=list)
    cantes: dict[int, list[tuple[int, str]]] = field(default_factory=dict)  # after trick k (1-based)
    exchange: tuple[int, int, str, str] | None = None  # (after trick k, seat, card given, muestra taken)


class _Cards:
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


def _pair_cards(suit: str) -> tuple[str, str]:
    return f"R{suit}", f"S{suit}"


def _exchange_card(shape: Shape) -> str:
    """The trump given for the muestra: the seven, or the dos when the seven was the muestra."""
    return shape.muestra if shape.muestra else f"7{shape.trump.value}"


class _Search:
    def __init__(self, position: Position, flags: Flags, rng: random.Random) -> None:
        self.position = position
        self.flags = flags
        self.rng = rng
        self.shape = shape_of(position, flags)
        self.cards = _Cards(flags)
        self.rules = make_rules(flags)
        self.node_budget = 400
        self.width = 4
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
            for code in _pair_cards(suit):
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

    def tricks(self, mano: int, budget: int) -> Iterator[tuple[list[list[tuple[int, str]]], list[int]]]:
        """Histories of the completed tricks whose winners fit the position.

        A depth-first search in random order. While the stock lasts any seat may play any card
        that is out of play now (PLAY-07), except that a pair someone sang stays with the singer;
        at the arrastre the cards still to be played are shared out among the seats and each plays
        only what the rules let it (ARR), judged by the reference's own
        :func:`~reference_engine.arrastre.legal_cards`. The points and tricks the position states,
        its leader and its cantes prune the search."""
        shape = self.shape
        players = shape.players
        free_tricks = min(shape.tricks_done, shape.draws_total)
        kept = [
            [self.cards.card(c) for c in shape.hands[s] + [c for p, c in shape.trick if p == s]] for s in range(players)
        ]
        pairs = {code: seat for seat, suit in shape.sung for code in _pair_cards(suit)}
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
            latest = min(played.get(code, shape.tricks_done + 1) for code in _pair_cards(suit)) - 1
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
                code
                for j, entries in plan.cantes.items()
                if j <= k
                for _, suit in entries
                for code in _pair_cards(suit)
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
                sung = {code for entries in plan.cantes.values() for _, suit in entries for code in _pair_cards(suit)}
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
                for code in _pair_cards(suit):
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
        for leaves, (tricks, winners) in enumerate(self.tricks(mano, self.node_budget)):
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


# ------------------------------------------------------------------------------ earlier hands

#: Position keys that belong to the point and the match rather than to the hand.
POINT_KEYS = ("hand_in_point", "carried", "carried_malas", "match_points", "cotos")


def deck_order_for(setup: Mapping[str, Any], flags: Flags) -> list[str]:
    """The deck order (top first) that the ``deal`` flag turns into the explicit deal ``setup``."""
    players, size = int(flags["players"]), int(flags["deck"])
    markers = [parse_card(code) for code in deck_codes(size)]
    dealt = deal_from_deck(markers, players, int(setup["dealer"]), flags["deal"], size)
    where: dict[str, str] = {}
    for seat, hand in enumerate(dealt.hands):
        for index, card in enumerate(hand):
            where[card.code] = setup["hands"][seat][index]
    where[dealt.muestra.code] = setup["muestra"]
    for index, card in enumerate(dealt.stock):
        where[card.code] = setup["stock"][index]
    return [where[card.code] for card in markers]


def _random_deal(flags: Flags, rng: random.Random, dealer: int) -> dict[str, Any]:
    players, size = int(flags["players"]), int(flags["deck"])
    deck = deck_codes(size)
    rng.shuffle(deck)
    hands = [deck[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(players)]
    return {
        "dealer": dealer,
        "hands": hands,
        "muestra": deck[HAND_SIZE * players],
        "stock": deck[HAND_SIZE * players + 1 :],
    }


@dataclass
class _Prefix:
    setup: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)

    def game(self, flags: Flags) -> GameHandle:
        assert self.setup is not None
        return replay(Realisation(self.setup, self.actions), flags).game


def _play_hand(
    game: GameHandle, flags: Flags, rng: random.Random, *, sing: bool
) -> tuple[list[dict[str, Any]], dict[str, JSON]]:
    """Random legal play to the end of the hand; returns the actions and the hand_over event."""
    actions: list[dict[str, Any]] = []
    for _ in range(1000):
        legal = [a for a in game.legal_actions() if a.get("type") not in ("claim", "tute")]
        if not sing:
            legal = [a for a in legal if a.get("type") != "cante"] or legal
        if not legal:
            break
        action = dict(rng.choice(legal))
        outcome = game.apply(action)
        if not isinstance(outcome, Accepted):
            raise Unreachable(f"the reference refused its own legal action {action}")
        actions.append(action)
        for event in outcome.events:
            if event.get("type") == "hand_over":
                return actions, event
    raise Unreachable("a random hand did not end")


def _next_hand(prefix: _Prefix, flags: Flags, rng: random.Random) -> tuple[GameHandle, list[dict[str, Any]]]:
    """A game at the start of a new hand after ``prefix`` (a fresh deal when there is none)."""
    if prefix.setup is None:
        setup = _random_deal(flags, rng, rng.randrange(int(flags["players"])))
        fresh: GameHandle = ReferenceEngine().start({"flags": dict(flags), **setup})
        return fresh, [{"__setup__": setup}]
    game = prefix.game(flags)
    deck = deck_codes(int(flags["deck"]))
    rng.shuffle(deck)
    deal = {"type": "deal", "deck": deck}
    if not isinstance(game.apply(deal), Accepted):
        raise Unreachable("the reference refused to deal the next hand")
    return game, [deal]


def _extend(prefix: _Prefix, start: list[dict[str, Any]], actions: list[dict[str, Any]]) -> _Prefix:
    if start and "__setup__" in start[0]:
        return _Prefix(start[0]["__setup__"], list(actions))
    return _Prefix(prefix.setup, prefix.actions + start + actions)


def _win_point(prefix: _Prefix, side: int, flags: Flags, rng: random.Random, tries: int) -> _Prefix:
    for _ in range(tries):
        game, start = _next_hand(prefix, flags, rng)
        actions, over = _play_hand(game, flags, rng, sing=True)
        if over.get("winner") == side:
            return _extend(prefix, start, actions)
    raise Unreachable(f"no random hand gave side {side} the point in {tries} tries")


def _vueltas_hand(
    prefix: _Prefix, carried: list[int], flags: Flags, rng: random.Random, dealer: int | None, tries: int
) -> _Prefix:
    extra = sum(carried) - 130
    if extra < 0 or extra % 20:
        raise Unreachable(
            f"totals of {carried[0]} and {carried[1]} cannot be carried from one hand: a hand's totals add up to"
            " 130 (card points and the diez de últimas) plus 20 or 40 per cante"
        )
    for _ in range(tries):
        game, start = _next_hand(prefix, flags, rng)
        actions, over = _play_hand(game, flags, rng, sing=extra > 0)
        if over.get("winner") is not None or list(over.get("totals", [])) != carried:
            continue
        if dealer is not None and game.state("last_trick_winner") != dealer:
            continue
        return _extend(prefix, start, actions)
    raise Unreachable(f"no random hand went de vueltas with totals {carried} in {tries} tries")


def earlier_hands(position: Position, flags: Flags, rng: random.Random, dealer: int | None) -> _Prefix:
    """Hands played before the position's hand: the points of the match score, then the hand de vueltas."""
    points = list(position.get("match_points", [0, 0]))
    cotos = list(position.get("cotos", [0, 0]))
    in_point = int(position.get("hand_in_point", 0))
    if in_point > 1:
        raise Unreachable("the search reaches the first hand de vueltas of a point only")
    per_coto = int(flags["points_per_coto"])
    wins = [side for side in (0, 1) for _ in range(cotos[side] * per_coto)]
    wins += [side for side in (0, 1) for _ in range(points[side])]
    prefix = _Prefix()
    for number, side in enumerate(wins):
        last = number == len(wins) - 1 and in_point == 0
        for _ in range(50):
            candidate = _win_point(prefix, side, flags, rng, 200)
            if not last or dealer is None or candidate.game(flags).state("last_trick_winner") == dealer:
                prefix = candidate
                break
        else:
            raise Unreachable(f"no point won by side {side} left seat {dealer} to deal")
    if in_point:
        prefix = _vueltas_hand(prefix, list(position.get("carried", [0, 0])), flags, rng, dealer, 20000)
    return prefix


def search(
    position: Position, flags: Flags, *, seed: int = 0, attempts: int = 1_000_000, seconds: float = 30.0
) -> Realisation:
    """A realisation of ``position`` under ``flags`` (raises :class:`Unreachable`)."""
    rng = random.Random(seed)
    if not any(position.get(key) for key in POINT_KEYS):
        return search_hand(position, flags, rng=rng, attempts=attempts, seconds=seconds)
    hand_position = {key: value for key, value in position.items() if key not in POINT_KEYS}
    shape = shape_of(hand_position, flags)
    fixed_dealer = (shape.leader - 1) % shape.players if shape.tricks_done == 0 else None
    last = ""
    for _ in range(20):
        prefix = earlier_hands(position, flags, rng, fixed_dealer)
        assert prefix.setup is not None
        dealer = int(prefix.game(flags).state("last_trick_winner"))

        def whole(candidate: Realisation, prefix: _Prefix = prefix) -> Realisation:
            deal = {"type": "deal", "deck": deck_order_for(candidate.setup, flags)}
            assert prefix.setup is not None
            return Realisation(prefix.setup, [*prefix.actions, deal, *candidate.actions])

        try:
            hand = search_hand(
                hand_position,
                flags,
                rng=rng,
                dealer=dealer,
                attempts=attempts,
                seconds=seconds / 4,
                accept=lambda candidate: check(whole(candidate), position, flags),
            )
        except Unreachable as error:
            last = str(error)
            continue
        return whole(hand)
    raise Unreachable(f"no realisation found after the earlier hands ({last})")
