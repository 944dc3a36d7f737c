"""A test double: an engine dealing its own way, so it refuses every deck order (``start``
answers ``unsupported``, and a ``deal`` action with a deck is refused) and takes explicit deals
only: the setup's hands, muestra and stock, and the explicit form of the next hand's ``deal``.

``ExplicitDealEngine`` wraps any engine that takes both (the reference, or a broken one)."""

from __future__ import annotations

from guinote_conformance.adapters.interface import (
    JSON,
    Action,
    Engine,
    EngineInfo,
    GameHandle,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
)
from guinote_conformance.adapters.reference import ReferenceEngine


class ExplicitDealGame:
    def __init__(self, game: GameHandle) -> None:
        self.game = game

    def legal_actions(self) -> list[dict[str, JSON]]:
        return self.game.legal_actions()

    def apply(self, action: Action) -> Outcome:
        if action.get("type") == "deal" and action.get("deck"):
            return Rejected("BAD_ACTION", "", "this engine deals its own way: give the hands, muestra and stock")
        return self.game.apply(action)

    def state(self, name: str) -> JSON:
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.game.observation(seat, name)


class ExplicitDealEngine:
    def __init__(self, inner: Engine | None = None) -> None:
        self.inner = inner or ReferenceEngine()

    def info(self) -> EngineInfo:
        return self.inner.info()

    def start(self, setup: Setup) -> ExplicitDealGame:
        if "deck" in setup:
            raise SetupRejected("this engine deals its own way: give the hands", ["deal=deck order"])
        return ExplicitDealGame(self.inner.start(setup))

    def close(self) -> None:
        self.inner.close()


def make() -> ExplicitDealEngine:
    return ExplicitDealEngine()
