"""Test doubles: the reference engine giving the suite's reason codes for some rule areas only.

``make`` declares ``reason_codes_arrastre`` and answers every other refusal with its own code,
as an engine that follows the suite's codes for the arrastre and not (yet) for the cantes;
``make_wrong`` declares the same but gives a wrong code in the arrastre too.
"""

from __future__ import annotations

from dataclasses import replace

from guinote_conformance.adapters.interface import JSON, Action, EngineInfo, Outcome, Rejected, Setup
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame


class OwnCodesGame:
    def __init__(self, game: ReferenceGame, keep: tuple[str, ...]) -> None:
        self.game = game
        self.keep = keep

    def legal_actions(self) -> list[dict[str, JSON]]:
        return self.game.legal_actions()

    def apply(self, action: Action) -> Outcome:
        outcome = self.game.apply(action)
        if isinstance(outcome, Rejected) and not outcome.rule.startswith(self.keep):
            return Rejected("E_MY_OWN_CODE", "", outcome.message)
        return outcome

    def state(self, name: str) -> JSON:
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.game.observation(seat, name)


class PartialCodesEngine(ReferenceEngine):
    keep: tuple[str, ...] = ("ARR-",)

    def info(self) -> EngineInfo:
        full = super().info()
        capabilities = (full.capabilities - {"reason_codes"}) | {"reason_codes_arrastre"}
        return replace(full, name="partial-codes", capabilities=capabilities)

    def start(self, setup: Setup) -> OwnCodesGame:  # type: ignore[override]
        return OwnCodesGame(super().start(setup), self.keep)


class WrongArrastreCodes(PartialCodesEngine):
    keep = ("NONE",)


def make() -> PartialCodesEngine:
    return PartialCodesEngine()


def make_wrong() -> WrongArrastreCodes:
    return WrongArrastreCodes()
