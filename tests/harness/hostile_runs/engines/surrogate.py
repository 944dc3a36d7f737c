"""Serves the reference engine, but a lone surrogate (``"\\udcff"``, legal JSON) ends every
text value of the state it answers: text no UTF-8 file can hold as it is. Over the wire
(``python surrogate.py``) or in process (:func:`make`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from guinote_conformance.adapters.interface import JSON, Engine, EngineInfo, GameHandle, Setup
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Surrogate(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if request.get("cmd") == "state" and answer.get("ok") and isinstance(answer.get("value"), str):
            answer["value"] += "\udcff"  # written as the escape \udcff by the json module: legal JSON
        return answer


class _SurrogateGame:
    """An in-process game whose text state values end with the lone surrogate."""

    def __init__(self, game: GameHandle) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def state(self, name: str) -> JSON:
        value = self._game.state(name)
        return value + "\udcff" if isinstance(value, str) else value


class _SurrogateEngine(ReferenceEngine):
    def start(self, setup: Setup) -> Any:
        return _SurrogateGame(super().start(setup))


def make() -> Engine:
    """The same engine in process: ``--engine py:tests.harness.hostile_runs.engines.surrogate:make``."""
    return _SurrogateEngine()


class _SurrogateNamed(ReferenceEngine):
    def info(self) -> EngineInfo:
        return replace(super().info(), name="surrogate\udcff")


def make_named() -> Engine:
    """An engine in process whose name ends with the lone surrogate (its state is the reference's)."""
    return _SurrogateNamed()


if __name__ == "__main__":
    raise SystemExit(Surrogate(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
