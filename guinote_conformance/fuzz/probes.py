"""Probes: now and then an action that is not legal, to see both engines refuse it alike.

In: the reference's game and its legal actions, where the fuzzer's play chooses the next action
(at its ``probe_rate``). Out: an action that is not legal there (:func:`probe`), or ``None``.

The rule: most probes are near misses, where the refusal rests on one rule (a cante or tute of
cards the seat holds, the exchange by the holder of the seven); the others are cards out of turn
or out of the duties, draws, claims and a seat that does not exist.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from guinote_conformance.adapters.interface import JSON, GameHandle
from guinote_conformance.oracle.steps import action_key, read_fields

_SUITS = ("o", "c", "e", "b")
#: What :func:`probe` reads, in one call (``hand.2`` and ``hand.3`` mano a mano: unknown, unread).
_PROBE_FIELDS = ("players", "turn", "trump", *(f"hand.{seat}" for seat in range(4)))


def probe(rng: random.Random, game: GameHandle, legal: Sequence[dict[str, JSON]]) -> dict[str, JSON] | None:
    """An action that is not legal now (to see both engines refuse it alike), or ``None``.

    Most probes are near misses, where the refusal rests on one rule: a cante or tute of
    cards the seat holds, the exchange by the holder of the seven; the others are cards out
    of turn or out of the duties, draws, claims and a seat that does not exist."""
    keys = {_probe_key(a) for a in legal}
    table = read_fields(game, _PROBE_FIELDS)
    players = int(table["players"])
    turn = table["turn"]
    hands = [list(table[f"hand.{seat}"] or []) for seat in range(players)]
    trump = table["trump"]
    near: list[dict[str, JSON]] = []
    seven, dos = "7" + str(trump), "2" + str(trump)
    for seat, hand in enumerate(hands):
        ranks = "".join([c[0] for c in hand])
        if "R" in ranks:
            for card in hand:
                if card[0] == "R" and "S" + card[1] in hand:
                    near.append({"type": "cante", "seat": seat, "suit": card[1]})
        if len(hand) >= 4:  # (a tute is four cards of one rank)
            for rank in "RS":
                if ranks.count(rank) == 4:
                    near.append({"type": "tute", "seat": seat, "rank": rank})
        if seven in hand or dos in hand:
            near.append({"type": "exchange", "seat": seat})
    seat = rng.randrange(players)
    other: list[dict[str, JSON]] = [
        {"type": "cante", "seat": seat, "suit": rng.choice(_SUITS)},
        {"type": "exchange", "seat": seat},
        {"type": "draw"},
        {"type": "claim", "seat": seat},
        {"type": "play", "seat": players, "card": "Ao"},
    ]
    if isinstance(turn, int):
        near += [{"type": "play", "seat": turn, "card": card} for card in hands[turn]]
        following = hands[(turn + 1) % players]
        if following:
            other.append({"type": "play", "seat": (turn + 1) % players, "card": rng.choice(following)})
    near = [a for a in near if _probe_key(a) not in keys]
    other = [a for a in other if _probe_key(a) not in keys]
    pool = near if near and (rng.random() < 0.75 or not other) else other
    return rng.choice(pool) if pool else None


def _probe_key(action: Mapping[str, JSON]) -> tuple[JSON, ...]:
    """What tells one in-hand action from another (cheaper than
    :func:`~guinote_conformance.oracle.steps.action_key`, which is the same for these: the reference's
    actions and the probes have no other members)."""
    return (action.get("type"), action.get("seat"), action.get("card"), action.get("suit"), action.get("rank"))


#: A policy's pick among the legal actions given (its random source and reader bound).
Chooser = Callable[[list[dict[str, JSON]]], Mapping[str, JSON]]


def choose_action(
    rng: random.Random,
    game: GameHandle,
    legal: list[dict[str, JSON]],
    choose: Chooser,
    *,
    probe_rate: float,
    follow_draw: Callable[[list[dict[str, JSON]]], list[dict[str, JSON]]] | None = None,
    avoid: AbstractSet[str] = frozenset(),
) -> dict[str, JSON]:
    """The next action on ``game``: now and then a probe (at ``probe_rate``), else ``choose``'s
    pick among ``legal``. While a draw is pending for an ``automatic_draw`` engine,
    ``follow_draw`` keeps the actions its explicit draw's view can follow, and no probe is made.
    An action of ``avoid`` (one the engine under test was found not to take in this game: the
    fuzzer plays around it) is neither probed nor chosen while another is legal."""
    if avoid:
        legal = [action for action in legal if action_key(action) not in avoid] or legal
    if follow_draw is not None and any(action.get("type") == "draw" for action in legal):
        legal = follow_draw(legal)
    elif probe_rate and rng.random() < probe_rate:
        action = probe(rng, game, legal)
        if action is not None and not (avoid and action_key(action) in avoid):
            return action
    picked = choose(legal)
    # the form listed itself, not a copy: the reference reads back the forms it listed by identity
    # (guinote_conformance.adapters.reference), and nothing changes an action once chosen (a checked engine is handed a
    # copy)
    return picked if isinstance(picked, dict) else dict(picked)


__all__ = [
    "Chooser",
    "choose_action",
    "probe",
]
