"""A test double: the reference engine drawing by itself when a free-phase trick ends, as many
third-party engines do. It declares ``automatic_draw`` and never lists nor accepts ``draw``;
the whole suite must run on it with no emulation on its side."""

from __future__ import annotations

from dataclasses import replace

from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Action,
    EngineInfo,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
)
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame


class AutoDrawGame:
    def __init__(self, game: ReferenceGame) -> None:
        self.game = game

    def legal_actions(self) -> list[dict[str, JSON]]:
        return [action for action in self.game.legal_actions() if action["type"] != "draw"]

    def apply(self, action: Action) -> Outcome:
        if action.get("type") == "draw":
            return Rejected("BAD_ACTION", "", "this engine draws by itself")
        outcome = self.game.apply(action)
        if isinstance(outcome, Accepted) and self.game.state("draw_pending"):
            drawn = self.game.apply({"type": "draw"})
            if isinstance(drawn, Accepted):  # not when the trick ended the hand
                return Accepted([*outcome.events, *drawn.events])
        return outcome

    def state(self, name: str) -> JSON:
        if name == "draw_pending":
            raise KeyError(name)  # such an engine has no such field
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.game.observation(seat, name)


class AutoDrawEngine(ReferenceEngine):
    def info(self) -> EngineInfo:
        full = super().info()
        return replace(full, name="auto-draw", capabilities=full.capabilities | {"automatic_draw"})

    def start(self, setup: Setup) -> AutoDrawGame:  # type: ignore[override]
        position = setup.get("position")
        if isinstance(position, dict) and position.get("draw_pending"):
            raise SetupRejected("no draw is ever pending here")
        return AutoDrawGame(super().start(setup))


def make() -> AutoDrawEngine:
    return AutoDrawEngine()


class MisorderedDrawGame(AutoDrawGame):
    """A broken automatic drawer: its ``cards_drawn`` event lists the draws last seat first."""

    def apply(self, action: Action) -> Outcome:
        outcome = super().apply(action)
        if isinstance(outcome, Accepted):
            events = [
                {**event, "draws": list(reversed(event["draws"]))} if event.get("type") == "cards_drawn" else event
                for event in outcome.events
            ]
            return Accepted(events)
        return outcome


class MisorderedDrawEngine(AutoDrawEngine):
    def start(self, setup: Setup) -> AutoDrawGame:  # type: ignore[override]
        return MisorderedDrawGame(super().start(setup).game)


def make_misordered() -> MisorderedDrawEngine:
    return MisorderedDrawEngine()
