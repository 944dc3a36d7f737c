"""Realisations: a deal and the legal plays that lead from it to a scenario's mid-hand position.

A scenario that starts "Given a hand in the arrastre ..." describes a position
(:mod:`guinote_conformance.run.position`). Only an engine with the ``positions`` capability can
load such a position. Every engine can be dealt a hand and play it, so for each position the
suite keeps a *realisation*: an explicit deal and a sequence of actions, legal under the
scenario's flags, after which the reference engine is in exactly that position.

The position stays the source of truth; realisations are derived data, found by :func:`search`
with the reference engine as the judge of every action, stored beside the features
(:mod:`guinote_conformance.run.realisations`) and checked against their position by
:func:`~guinote_conformance.run.position.difference`.

In: a position and the flags of a run. Out: a :class:`~guinote_conformance.run.position.Realisation`
(:func:`search`), or :class:`~guinote_conformance.run.position.Unreachable`. The hand of the position is
searched by :func:`~guinote_conformance.run.hand_search.search_hand`; earlier hands (de vueltas, the match
score) are played first, here, with random legal play, until their outcome is the one the
position needs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.interface import JSON, Accepted, GameHandle
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.reference_engine.cards import parse_card
from guinote_conformance.reference_engine.deal import HAND_SIZE, deal_from_deck
from guinote_conformance.run.hand_search import search_hand
from guinote_conformance.run.position import Flags, Position, Realisation, Unreachable, check, replay, shape_of

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
