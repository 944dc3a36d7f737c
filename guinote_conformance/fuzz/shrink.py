"""Shrinking a divergence: the smallest example of it that still has its cause.

In: a :class:`~guinote_conformance.oracle.divergence.Divergence` the fuzzer found (its setup, its actions,
its cause), the reference and the engine. Out: a divergence with the same
:class:`~guinote_conformance.oracle.divergence.Cause`, as small as :class:`Shrinker` finds it
(:func:`shrink`), ready to be written as a scenario (:mod:`guinote_conformance.fuzz.scenario`).

The rule: every candidate is replayed on both engines, one action at a time, and kept only if it
diverges with the same cause, the reference accepting every action before the last. The shrinker
drops the probes the reference refused, starts from the deal of a later hand when the earlier hands
do not matter, drops the optional actions (cantes, exchanges, claims, tutes) and puts every card
the example never shows back in deck order (:func:`canonical_tail`), so that the scenario lists
only the cards that matter and ends its stock with ``...``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from guinote_conformance.adapters.interface import JSON, Accepted, Engine
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.vocabulary import EXPLICIT_DEAL, deck_codes
from guinote_conformance.fuzz.differential import first_difference
from guinote_conformance.oracle.divergence import Divergence, cause_of

_OPTIONAL = ("cante", "exchange", "claim", "tute")


def stock_drawn(actions: Sequence[Mapping[str, JSON]], players: int) -> list[int]:
    """Stock cards drawn in each hand of ``actions`` (the muestra aside)."""
    drawn = [0]
    for action in actions:
        if action.get("type") == "deal":
            drawn.append(0)
        elif action.get("type") == "draw":
            drawn[-1] += players
    return drawn


@dataclass
class Shrinker:
    """Shrinks a divergence while it reproduces with the same cause (every candidate is
    replayed on both engines, one action at a time)."""

    reference: Engine
    engine: Engine
    obligations: Obligations
    budget: int = 200
    #: ``time.monotonic()`` after which no candidate is tried (an engine that hangs costs a
    #: timeout per candidate); ``None``: no limit
    deadline: float | None = None

    def reproduces(
        self, example: Divergence, setup: Mapping[str, JSON], actions: list[dict[str, JSON]]
    ) -> Divergence | None:
        """The divergence ``setup`` and ``actions`` lead to, if it has the cause of ``example``
        and the reference accepts every action before the last (the known divergences the
        example passed over are not compared)."""
        if self.budget <= 0 or (self.deadline is not None and time.monotonic() > self.deadline):
            self.budget = 0
            return None
        self.budget -= 1
        try:
            found = first_difference(self.reference, self.engine, setup, actions, obligations=self.obligations,
                                     ignored=frozenset(example.passed_over))  # fmt: skip
            if found is None:
                return None
            index, difference, step = found
            upto = list(actions[:index])
            if _refused_before_last(self.reference, setup, upto):
                return None
            cause = cause_of(self.reference, setup, upto, difference, step)
        except Exception:  # a candidate the engines cannot even set up is simply not a smaller example
            return None
        if cause != example.cause:
            return None
        return replace(example, setup=dict(setup), actions=upto, expected=difference.expected, got=difference.got)

    def shrink(self, example: Divergence) -> Divergence:
        best = example
        try:
            accepted = _accepted_actions(self.reference, example.setup, example.actions)
        except Exception:  # an example the reference cannot replay (a game that failed before its deal): as found
            return example
        if len(accepted) < len(example.actions):  # probes the reference refused change nothing: drop them
            best = self.reproduces(example, example.setup, accepted) or best
        best = self.reproduces(best, best.setup, list(best.actions)) or best
        best = self._drop_earlier_hands(best)
        best = self._drop_actions(best)
        return self._canonical_decks(best)

    def _drop_earlier_hands(self, best: Divergence) -> Divergence:
        """Start from the deal of a later hand, as the first hand of a new game, when the
        divergence does not depend on what the earlier hands carried."""
        deals = [number for number, action in enumerate(best.actions) if action.get("type") == "deal"]
        for number in reversed(deals):
            try:
                game = self.reference.start(best.setup)
                for action in best.actions[: number + 1]:
                    game.apply(action)
                dealer = game.state("dealer")
            except Exception:  # the record does not replay: nothing to drop
                return best
            setup = {"flags": dict(best.setup["flags"]), "dealer": dealer, **dealt_cards(best.actions[number])}
            smaller = self.reproduces(best, setup, list(best.actions[number + 1 :]))
            if smaller is not None:
                return smaller
        return best

    def _drop_actions(self, best: Divergence) -> Divergence:
        index = len(best.actions) - 2  # the last action is where the engines differ: keep it
        while index >= 0 and self.budget > 0:
            if best.actions[index].get("type") in _OPTIONAL:
                candidate = best.actions[:index] + best.actions[index + 1 :]
                smaller = self.reproduces(best, best.setup, candidate)
                if smaller is not None:
                    best = smaller
            index = min(index - 1, len(best.actions) - 2)
        return best

    def _canonical_decks(self, best: Divergence) -> Divergence:
        """Put the cards no one draws back in deck order, in every deal of the example."""
        config = best.config
        players, size = config.players, config.deck_size
        drawn = stock_drawn(best.actions, players)
        setup = _canonical_cards(dict(best.setup), players, drawn[0], size)
        actions = [dict(a) for a in best.actions]
        hand = 0
        for number, action in enumerate(actions):
            if action.get("type") == "deal":
                hand += 1
                actions[number] = _canonical_cards(action, players, drawn[hand], size)
        if setup != best.setup or actions != best.actions:
            best = self.reproduces(best, setup, actions) or best
        return best


def dealt_cards(deal: Mapping[str, JSON]) -> dict[str, JSON]:
    """The cards of a setup or ``deal`` action: its deck order, or its explicit deal (an engine
    that refuses deck orders is given the hands, the muestra and the stock)."""
    if "deck" in deal:
        return {"deck": deal["deck"]}
    return {key: deal[key] for key in EXPLICIT_DEAL if key in deal}


def _canonical_cards(deal: dict[str, JSON], players: int, drawn: int, size: int) -> dict[str, JSON]:
    """A setup or ``deal`` action with the stock cards nobody draws in deck order."""
    deck = deal.get("deck")
    if isinstance(deck, list) and deck:
        return {**deal, "deck": canonical_tail([str(c) for c in deck], players, drawn, size)}
    stock = deal.get("stock")
    if isinstance(stock, list) and isinstance(deal.get("hands"), list):
        kept = [str(c) for c in stock[:drawn]]
        taken = {str(c) for hand in deal["hands"] for c in hand} | {str(deal.get("muestra")), *kept}
        return {**deal, "stock": kept + [c for c in deck_codes(size) if c not in taken]}
    return deal


def canonical_tail(order: Sequence[str], players: int, drawn: int, size: int) -> list[str]:
    """``order`` with the stock cards nobody draws in deck order (a scenario writes them ``...``)."""
    kept = list(order[: players * 6 + 1 + drawn])
    taken = set(kept)
    return kept + [c for c in deck_codes(size) if c not in taken]


def _accepted_actions(
    reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]]
) -> list[dict[str, JSON]]:
    """``actions`` without those the reference refuses, except the last."""
    game = reference.start(setup)
    kept = []
    for number, action in enumerate(actions):
        if isinstance(game.apply(action), Accepted) or number == len(actions) - 1:
            kept.append(action)
    return kept


def _refused_before_last(reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]]) -> bool:
    game = reference.start(setup)
    return any(not isinstance(game.apply(action), Accepted) for action in actions[:-1])


def shrink(
    reference: Engine,
    engine: Engine,
    example: Divergence,
    *,
    obligations: Obligations,
    budget: int = 200,
    deadline: float | None = None,
) -> Divergence:
    """The smallest divergence :class:`Shrinker` finds with the cause of ``example`` (trying
    at most ``budget`` candidates, none after ``deadline``)."""
    return Shrinker(reference, engine, obligations, budget, deadline).shrink(example)


__all__ = [
    "Shrinker",
    "dealt_cards",
    "shrink",
    "stock_drawn",
]
