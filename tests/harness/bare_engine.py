"""A test double with no capabilities at all: the reference engine as an engine that can only be
dealt a hand and play it, like most real engines (no position loader, no observations, no reason
codes, no match beyond one point). Served over the protocol by the tests:
``python -m guinote_conformance.adapters.serve --engine tests.harness.bare_engine:make``."""

from __future__ import annotations

from dataclasses import replace

from guinote_conformance.adapters.interface import EngineInfo, Setup, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame


class BareEngine(ReferenceEngine):
    def info(self) -> EngineInfo:
        return replace(super().info(), name="bare", capabilities=frozenset())

    def start(self, setup: Setup) -> ReferenceGame:
        if "position" in setup:
            raise SetupRejected("this engine cannot start from a position")
        return super().start(setup)


def make() -> BareEngine:
    return BareEngine()
