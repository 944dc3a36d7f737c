"""Differential play: the reference agrees with itself over the protocol, and a broken engine
is caught at the first action where it departs from the rules."""

from __future__ import annotations

import sys

from adapters.reference import ReferenceEngine
from adapters.subprocess_adapter import SubprocessEngine
from conformance.differential import compare, compare_hand

FLAGS = ReferenceEngine().info().profiles


def test_the_reference_agrees_with_itself_over_the_protocol() -> None:
    served = SubprocessEngine([sys.executable, "-m", "adapters.serve"], timeout=10)
    try:
        for profile in ("ludoteka", "lascuarenta"):
            result = compare(ReferenceEngine(), served, FLAGS[profile], profile, range(10))
            assert result.divergences == [] and result.hands == 10 and result.actions > 300
    finally:
        served.close()


def test_a_broken_engine_is_caught_with_a_replayable_record() -> None:
    broken = SubprocessEngine(
        [sys.executable, "-m", "adapters.serve", "--engine", "tests.broken_engines.engines:caballo_above_sota"],
        timeout=10,
    )
    try:
        result = compare(ReferenceEngine(), broken, FLAGS["ludoteka"], "ludoteka", range(30), stop_after=1)
    finally:
        broken.close()
    (divergence,) = result.divergences
    assert divergence.actions and divergence.setup["deck"]
    # replaying the record on the reference reaches the same point without any refusal
    game = ReferenceEngine().start(divergence.setup)
    for action in divergence.actions:
        assert game.apply(action).__class__.__name__ == "Accepted"
    assert "profile ludoteka" in divergence.describe()


def test_one_hand_on_identical_engines_is_played_to_its_end() -> None:
    actions = compare_hand(ReferenceEngine(), ReferenceEngine(), FLAGS["tradicional"], "tradicional", seed=3)
    assert isinstance(actions, int) and actions >= 40
