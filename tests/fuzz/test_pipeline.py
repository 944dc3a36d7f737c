"""Pipelining over the wire: the fuzzer sends a hand's ``batch`` and plays the next hand on the
reference while the served engine answers. What it finds, and what it does after a divergence or
a failure, must be exactly what it finds one call at a time or in process."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import EngineCrashed, EngineTimeout, GameLost, SubprocessEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.differential import begin_compare
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.play import apply_step
from guinote_conformance.oracle.steps import snapshot
from tests.fuzz.engines import FlawedEngine
from tests.fuzz.test_batch import SETUP, actions_of_a_hand

#: what the protocol requires of an engine with every capability (the reference's)
FULL = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))


def serve(engine: str = "", timeout: float = 10) -> SubprocessEngine:
    extra = ["--engine", engine] if engine else []
    return SubprocessEngine([sys.executable, "-m", "guinote_conformance.adapters.serve", *extra], timeout=timeout)


@pytest.fixture
def served() -> Iterator[SubprocessEngine]:
    engine = serve()
    yield engine
    engine.close()


def run(
    engine: Any, profile: str, games: int, *, batch: bool = True, depth: str = "match", max_engine_failures: int = 5
) -> dict[str, Any]:
    """A seeded run's whole report, its time left out."""
    info = engine.info()
    fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=depth, batch=batch, seed=4,
                    max_engine_failures=max_engine_failures)  # fmt: skip
    report: FuzzReport = fuzzer.run([resolve(info, profile)], games)
    found = report.to_json()
    found.pop("seconds")
    return found


def test_a_batch_in_flight_is_read_when_the_engine_is_asked_something_else(served: SubprocessEngine) -> None:
    actions = actions_of_a_hand()
    game = served.start(SETUP)
    receive = game.batch_begin(actions, ["phase", "turn"])
    assert served._in_flight is not None  # sent, not read
    other = served.start(SETUP)  # reads the answer first, and keeps it
    assert served._in_flight is None
    assert other.legal_actions() == ReferenceEngine().start(SETUP).legal_actions()
    answer, again = receive(), served.start(SETUP).batch(actions, ["phase", "turn"])
    assert answer["steps"] == again["steps"] and answer["before"] == again["before"]
    assert answer["steps"][-1]["state"]["phase"] == "hand_over"
    assert game.state("phase") == "hand_over"  # the game went on from the batch


def test_the_engine_has_its_whole_timeout_from_the_moment_an_answer_in_flight_is_awaited() -> None:
    engine = serve("tests.fuzz.engines:hangs", timeout=1.0)
    try:
        actions = actions_of_a_hand()
        game = engine.start(SETUP)
        receive = game.batch_begin(actions, ["phase"])
        time.sleep(1.2)  # longer than the timeout, spent on something else
        started = time.monotonic()
        with pytest.raises(EngineTimeout, match="no answer within"):
            receive()
        assert 0.9 < time.monotonic() - started < 5
        with pytest.raises(GameLost):
            game.legal_actions()
        assert engine.start(SETUP).legal_actions()  # relaunched
    finally:
        engine.close()


def test_a_crash_in_flight_is_a_failure_of_the_hand_traced_to_its_action() -> None:
    engine = serve("tests.fuzz.engines:crashes")
    try:
        actions = actions_of_a_hand()
        crash = next(n for n, a in enumerate(actions, 1) if a.get("card") == "Ao")
        game, ours = engine.start(SETUP), ReferenceEngine().start(SETUP)
        steps = [snapshot(ours, None), *(apply_step(ours, action) for action in actions)]
        comparison = begin_compare(
            game, steps, obligations=FULL, restart=lambda: engine.start(SETUP),
            restart_reference=lambda: ReferenceEngine().start(SETUP),
        )  # fmt: skip
        assert comparison.in_flight
        found = comparison.result()
        assert found is not None
        index, difference = found
        assert (index, difference.kind, difference.subject) == (crash, "failure", EngineCrashed.kind)
    finally:
        engine.close()


@pytest.mark.parametrize("flaw", ["no_cantes", "forgets_totals"])
def test_pipelined_the_fuzzer_finds_exactly_what_it_finds_in_process(flaw: str) -> None:
    engine = serve(f"tests.fuzz.engines:{flaw}")
    try:
        pipelined = run(engine, "tradicional", 8)
        in_turn = run(engine, "tradicional", 8, batch=False)
    finally:
        engine.close()
    in_process = run(FlawedEngine(flaw), "tradicional", 8)
    assert pipelined["groups"], "the flawed engine diverges"
    # the groups, their examples, the coverage, the hands and actions played: all the same
    assert pipelined == in_turn == in_process


def test_after_a_crash_the_fuzzer_goes_on_exactly_as_one_call_at_a_time() -> None:
    engine = serve("tests.fuzz.engines:crashes")
    try:
        # (the circuit breaker off: every game may crash, and each is played all the same)
        pipelined = run(engine, "lascuarenta", 6, max_engine_failures=0)
        in_turn = run(engine, "lascuarenta", 6, batch=False, max_engine_failures=0)
    finally:
        engine.close()
    assert {group["cause"]["kind"] for group in pipelined["groups"]} == {"failure"}
    assert sum(group["count"] for group in pipelined["groups"]) > 1 and pipelined["games"] == 6  # relaunched
    assert pipelined == in_turn
