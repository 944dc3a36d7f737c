"""The reference engine in process, with hostile text in one place (``py:tests.harness.payload_engine:make``).

The place and the text are read from the environment when the engine is made, so that a run's
pytest-xdist workers make the same engine: ``GUINOTE_PAYLOAD_WHERE`` is ``name`` (the info's
name and version), ``profile`` (the name of its profile ``lascuarenta``), ``value`` (the
state field ``turn``) or ``raise`` (reading ``turn`` raises an exception with the text);
``GUINOTE_PAYLOAD_KIND`` is a key of :data:`tests.protocol.hostile.payload.PAYLOADS`. A lone
surrogate (``"\\udcff"``) is a Python string no UTF-8 can carry: the in-process schema check
(:mod:`guinote_conformance.adapters.checked`) must refuse it as the wire does, and nothing may crash on it.
"""

from __future__ import annotations

import os
from dataclasses import replace

from guinote_conformance.adapters.interface import JSON, Action, EngineInfo, GameHandle, Outcome, Setup
from guinote_conformance.adapters.reference import ReferenceEngine
from tests.protocol.hostile.payload import PAYLOADS


class PayloadGame:
    def __init__(self, game: GameHandle, where: str, payload: str) -> None:
        self._game, self._where, self._payload = game, where, payload

    def legal_actions(self) -> list[dict[str, JSON]]:
        return self._game.legal_actions()

    def apply(self, action: Action) -> Outcome:
        return self._game.apply(action)

    def state(self, name: str) -> JSON:
        value = self._game.state(name)
        if self._where == "raise" and name == "turn":
            raise ValueError("bad " + self._payload)  # the engine's own failure, its message hostile
        return "t" + self._payload if self._where == "value" and name == "turn" else value

    def observation(self, seat: int, name: str) -> JSON:
        return self._game.observation(seat, name)

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)  # a position snapshot, a batch...


class PayloadEngine(ReferenceEngine):
    def __init__(self, where: str, payload: str) -> None:
        super().__init__()
        self._where, self._payload = where, payload

    def info(self) -> EngineInfo:
        info = super().info()
        if self._where == "name":
            return replace(info, name="eng" + self._payload, version="1" + self._payload)
        if self._where == "profile":
            return replace(info, profiles={"lascuarenta" + self._payload: info.profiles["lascuarenta"]})
        return info

    def start(self, setup: Setup) -> GameHandle:  # type: ignore[override]  # a wrapped ReferenceGame
        return PayloadGame(super().start(setup), self._where, self._payload)


def make() -> PayloadEngine:
    return PayloadEngine(os.environ["GUINOTE_PAYLOAD_WHERE"], PAYLOADS[os.environ["GUINOTE_PAYLOAD_KIND"]])
