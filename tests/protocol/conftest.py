"""Fixtures of the protocol tests: engine commands, setups, and engines closed after each test."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.adapters.vocabulary import deck_codes

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SERVE = [sys.executable, "-m", "guinote_conformance.adapters.serve"]


def hostile(name: str, *args: str) -> list[str]:
    """The command of a hostile engine script in ``hostile/``."""
    return [sys.executable, str(HERE / "hostile" / f"{name}.py"), *args]


def profile_flags(name: str = "lascuarenta") -> dict[str, str]:
    return dict(ReferenceEngine().info().profiles[name])


def deck_setup(seed: int = 0, flags: dict[str, str] | None = None, dealer: int = 0) -> dict[str, Any]:
    """A setup dealing from a seeded shuffle of the deck."""
    flags = profile_flags() if flags is None else flags
    cards = deck_codes(int(flags["deck"]))
    random.Random(seed).shuffle(cards)
    return {"flags": flags, "dealer": dealer, "deck": cards}


EngineFactory = Callable[..., SubprocessEngine]


@pytest.fixture
def make_engine() -> Iterator[EngineFactory]:
    """``make_engine(argv, **options)``: a SubprocessEngine closed at the end of the test."""
    engines: list[SubprocessEngine] = []

    def make(argv: list[str], **options: Any) -> SubprocessEngine:
        options.setdefault("timeout", 1.0)
        options.setdefault("startup_timeout", 10.0)
        engine = SubprocessEngine(argv, **options)
        engines.append(engine)
        return engine

    yield make
    for engine in engines:
        engine.close()
