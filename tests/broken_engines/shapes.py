"""Capability shapes: the same broken engine as engines of different shapes, the way real engines
differ in what they can do besides playing by the rules.

* ``full``: the reference's capabilities (positions, observations, reason codes, match);
* ``auto_draw``: draws by itself after a free-phase trick (``automatic_draw``), no ``draw`` action;
* ``own_shuffle``: deals its own way, as real engines do: declares ``own_shuffle``, takes explicit
  deals only at the start (refuses every deck order) and deals the next hand from its own shuffle
  (:mod:`tests.harness.next_deal_engine`);
* ``no_positions``: cannot start from a mid-hand position, so the suite reaches positions by play;
* ``minimal``: no capabilities at all, its own profile names, explicit deals only, stripped events
  and generic refusals (the minimal double of ``tests/independent``).

Each wraps an engine of the reference's shape (a :class:`~tests.broken_engines.engines.BrokenEngine`)
and reuses the test doubles that define the shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from guinote_conformance.adapters.interface import Engine, EngineInfo, GameHandle, Setup, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine
from tests.harness.auto_draw_engine import AutoDrawGame
from tests.harness.next_deal_engine import REFUSE_ALL, NextDealEngine
from tests.independent.minimal_engine import OWN_PROFILES, MinimalEngine


class _Wrapped:
    """An engine that is ``inner`` with another name and capabilities."""

    shape = ""

    def __init__(self, inner: ReferenceEngine) -> None:
        self.inner = inner

    def info(self) -> EngineInfo:
        full = self.inner.info()
        return replace(full, name=f"{full.name}-{self.shape}", capabilities=self.capabilities(full.capabilities))

    def capabilities(self, full: frozenset[str]) -> frozenset[str]:
        return full

    def start(self, setup: Setup) -> GameHandle:
        return self.inner.start(setup)

    def close(self) -> None:
        self.inner.close()


class AutoDrawn(_Wrapped):
    shape = "auto_draw"

    def capabilities(self, full: frozenset[str]) -> frozenset[str]:
        return full | {"automatic_draw"}

    def start(self, setup: Setup) -> GameHandle:
        position = setup.get("position")
        if isinstance(position, dict) and position.get("draw_pending"):
            raise SetupRejected("no draw is ever pending here")
        return AutoDrawGame(self.inner.start(setup))


class NoPositions(_Wrapped):
    shape = "no_positions"

    def capabilities(self, full: frozenset[str]) -> frozenset[str]:
        return full - {"positions"}

    def start(self, setup: Setup) -> GameHandle:
        if "position" in setup:
            raise SetupRejected("this engine cannot start from a position", ["setup=position"])
        return self.inner.start(setup)


class BrokenMinimal(MinimalEngine):
    """The minimal double over a broken reference."""

    def __init__(self, inner: ReferenceEngine) -> None:
        super().__init__()
        self.reference = inner


def _full(inner: ReferenceEngine) -> Engine:
    return inner


def _own_shuffle(inner: ReferenceEngine) -> Engine:
    return NextDealEngine(REFUSE_ALL, own_shuffle=True, deck_setups=False, inner=inner)


#: shape -> how an engine of the reference's shape is made into it
SHAPES: dict[str, Callable[[ReferenceEngine], Engine]] = {
    "full": _full,
    "auto_draw": AutoDrawn,
    "own_shuffle": _own_shuffle,
    "no_positions": NoPositions,
    "minimal": BrokenMinimal,
}

#: the minimal shape names its profiles its own way
_MINIMAL_PROFILES = {theirs: own for own, theirs in OWN_PROFILES.items()}


def profile_in_shape(profile: str, shape: str) -> str:
    """The name an engine of ``shape`` gives the reference profile ``profile``."""
    return _MINIMAL_PROFILES[profile] if shape == "minimal" else profile
