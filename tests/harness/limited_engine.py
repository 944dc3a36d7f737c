"""A test double: the reference engine declaring fewer flag values and capabilities, as a
third-party engine that plays only one reading would."""

from __future__ import annotations

from dataclasses import replace

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.adapters.reference import ReferenceEngine


class LimitedEngine(ReferenceEngine):
    def info(self) -> EngineInfo:
        full = super().info()
        only = full.profiles["lascuarenta"]
        return replace(
            full,
            name="limited",
            profiles={"mine": only},
            flags={name: [value] for name, value in only.items()},
            capabilities=frozenset({"reason_codes"}),
        )


def make() -> LimitedEngine:
    return LimitedEngine()
