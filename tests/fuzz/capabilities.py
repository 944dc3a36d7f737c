"""Doubles for ``compare`` under every set of capabilities: the reference, dressed as an engine that
declares some of them and answers its own way, with a bug planted or none.

:class:`Dressed` wraps the variant double of :mod:`tests.independent.variants` (which varies the
answers' shapes and declares ``positions``, ``observations``, ``match`` and ``reason_codes`` as
told) and adds what that double leaves out: ``automatic_draw`` (it draws as the trick ends, as
:mod:`tests.harness.auto_draw_engine` does), ``own_shuffle`` (it deals the next hand from its own
shuffle, takes the deal with no cards and refuses one with cards), ``batch`` declared (an
in-process engine is never asked for a ``batch``), and a planted bug (:data:`BUGS`). Its rules are
the reference's: ``compare`` must find nothing but the planted bugs.

``py:tests.fuzz.capabilities:NAME`` serves the named doubles to the command line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Action,
    EngineInfo,
    Outcome,
    Rejected,
    Setup,
    UnknownField,
)
from guinote_conformance.adapters.vocabulary import deck_codes
from tests.independent.variants import VariantEngine, Variation

#: The capabilities a double may add to the variant's own.
ADDED = ("automatic_draw", "own_shuffle", "batch")
#: The capabilities the variant double itself declares and answers for.
OWN = ("positions", "observations", "match", "reason_codes")
#: Planted bugs: (the cause's kind, its subject) that ``compare`` must find.
BUGS = {
    "ultimas_zero": ("event", "ultimas.points"),  # SCORE-01: the diez de últimas at 0, in the event
    "forgets_totals": ("state", "total.0"),  # VUELTAS-02: the totals are not carried de vueltas
}


@dataclass(frozen=True)
class Dress:
    """What :class:`Dressed` adds to a variation: capabilities, and bugs."""

    added: tuple[str, ...] = ()
    bugs: tuple[str, ...] = ()
    seed: int = 0


class DressedGame:
    """A game of the variant double with the added capabilities and the planted bugs."""

    def __init__(self, inner: Any, dress: Dress, players: int, deck_size: int) -> None:
        self.inner = inner
        self.dress = dress
        self.players = players
        self.deck_size = deck_size
        self.shuffle = random.Random(dress.seed)

    def _draws(self) -> bool:
        return "automatic_draw" in self.dress.added

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions = list(self.inner.legal_actions())
        if self._draws():
            actions = [action for action in actions if action.get("type") != "draw"]
        if "own_shuffle" in self.dress.added:
            actions = [{"type": "deal", "deck": []} if a.get("type") == "deal" else a for a in actions]
        return actions

    def apply(self, action: Action) -> Outcome:
        kind = action.get("type")
        if kind == "draw" and self._draws():
            return Rejected("BAD_ACTION", "", "this engine draws by itself")
        if kind == "deal" and "own_shuffle" in self.dress.added:
            if action.get("deck") or "hands" in action:
                return Rejected("BAD_ACTION", "", "this engine shuffles the next hand itself")
            action = self._own_deal()
        outcome: Outcome = self.inner.apply(action)
        if isinstance(outcome, Accepted) and self._draws() and self._pending():
            drawn = self.inner.apply({"type": "draw"})
            if isinstance(drawn, Accepted):
                outcome = Accepted([*outcome.events, *drawn.events])
        if isinstance(outcome, Accepted) and "ultimas_zero" in self.dress.bugs:
            return Accepted([{**e, "points": 0} if e.get("type") == "ultimas" else e for e in outcome.events])
        return outcome

    def _pending(self) -> bool:
        return any(action.get("type") == "draw" for action in self.inner.legal_actions())

    def _own_deal(self) -> dict[str, JSON]:
        """The next hand from the double's own shuffle, given to the variant as an explicit deal."""
        deck = deck_codes(self.deck_size)
        self.shuffle.shuffle(deck)
        hands: list[JSON] = [list(deck[seat * 6 : seat * 6 + 6]) for seat in range(self.players)]
        rest: list[JSON] = list(deck[self.players * 6 :])
        return {"type": "deal", "hands": hands, "muestra": rest[0], "stock": rest[1:]}

    def state(self, name: str) -> JSON:
        if name == "draw_pending" and self._draws():
            raise UnknownField(name)  # such an engine has no such field
        if "forgets_totals" in self.dress.bugs and name.startswith("total."):
            try:
                return self.inner.state("score." + name.partition(".")[2])
            except UnknownField:
                return self.inner.state(name)
        return self.inner.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.inner.observation(seat, name)

    def end(self) -> None:
        return None


class Dressed:
    """The variant double of ``variation``, dressed in ``dress``."""

    def __init__(self, variation: Variation, dress: Dress) -> None:
        self.variant = VariantEngine(variation)
        self.dress = dress

    def info(self) -> EngineInfo:
        inner = self.variant.info()
        name = "dressed" + "".join(f"+{bug}" for bug in self.dress.bugs)
        return replace(inner, name=name, capabilities=inner.capabilities | set(self.dress.added))

    def start(self, setup: Setup) -> DressedGame:
        position = setup.get("position")
        if "automatic_draw" in self.dress.added and isinstance(position, dict) and position.get("draw_pending"):
            from guinote_conformance.adapters.interface import SetupRejected

            raise SetupRejected("no draw is ever pending here")
        flags = setup.get("flags", {})
        players = int(flags.get("players", "4")) if isinstance(flags, dict) else 4
        deck_size = int(flags.get("deck", "40")) if isinstance(flags, dict) else 40
        return DressedGame(self.variant.start(setup), self.dress, players, deck_size)

    def close(self) -> None:
        return None


def dressed(
    added: Sequence[str] = (), own: Sequence[str] = OWN, bugs: Sequence[str] = (), *, deck_orders: bool = True
) -> Dressed:
    """The reference in the variant's plainest shape, declaring ``own`` and ``added``, with ``bugs``."""
    variation = Variation(capabilities=tuple(sorted(own)), deck_orders=deck_orders)
    return Dressed(variation, Dress(tuple(sorted(added)), tuple(bugs)))


def own_shuffle() -> Dressed:
    """An engine with every capability of the reference that deals the next hand from its own shuffle."""
    return dressed(["own_shuffle"])


def automatic_draw_own_shuffle() -> Dressed:
    return dressed(["automatic_draw", "own_shuffle"])


def two_bugs() -> Dressed:
    """An engine with two bugs: the diez de últimas at 0 in the event, and the totals not carried."""
    return dressed(bugs=["ultimas_zero", "forgets_totals"])


def own_shuffle_two_bugs() -> Dressed:
    return dressed(["own_shuffle"], bugs=["ultimas_zero", "forgets_totals"])


__all__ = ["ADDED", "BUGS", "OWN", "Dress", "Dressed", "dressed", "own_shuffle", "two_bugs"]
