"""The reference, but its boolean state fields are written as ``0`` and ``1`` (as an engine that
prints its JSON by hand, or keeps its flags as integers, may write them): ``py:`` or served."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from guinote_conformance.adapters.interface import JSON, Setup
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame


def _numeric(value: JSON) -> JSON:
    return int(value) if isinstance(value, bool) else value


class NumericBooleans:
    def __init__(self, game: ReferenceGame) -> None:
        self._game = game

    def state(self, name: str) -> JSON:
        return _numeric(self._game.state(name))

    def state_fields(self, names: Sequence[str]) -> dict[str, JSON]:
        return {name: _numeric(value) for name, value in self._game.state_fields(names).items()}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class NumericBooleansEngine(ReferenceEngine):
    def start(self, setup: Setup) -> Any:
        return NumericBooleans(super().start(setup))


def make() -> NumericBooleansEngine:
    return NumericBooleansEngine()
