"""A test double: the reference engine dealing its own way, so it refuses every deck order
(``start`` answers ``unsupported``) and takes explicit deals only."""

from __future__ import annotations

from adapters.interface import Setup, SetupRejected
from adapters.reference import ReferenceEngine, ReferenceGame


class ExplicitDealEngine(ReferenceEngine):
    def start(self, setup: Setup) -> ReferenceGame:
        if "deck" in setup:
            raise SetupRejected("this engine deals its own way: give the hands", ["deal=deck order"])
        return super().start(setup)


def make() -> ExplicitDealEngine:
    return ExplicitDealEngine()
