"""Pipelining over the wire: the fuzzer sends a hand's ``batch`` and plays the next hand on the
reference while the served engine answers. What it finds, and what it does after a divergence or
a failure, must be exactly what it finds one call at a time or in process."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import EngineCrashed, EngineTimeout, GameLost, SubprocessEngine
from guinote_conformance.fuzz import fuzzer as fuzzer_module
from guinote_conformance.fuzz.ahead import drop_ahead, take_ahead
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


@pytest.mark.parametrize(
    ("flaw", "depth", "diverges_at_the_end"),
    [("no_cantes", "hand", False), ("forgets_totals", "match", False), ("no_cantes", "point", False),
     ("refuses_cantes", "hand", True), ("refuses_draw", "hand", True)],
)  # fmt: skip
def test_the_next_game_is_played_ahead_and_the_run_is_the_one_played_game_after_game(
    flaw: str, depth: str, diverges_at_the_end: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the engine answers the last hand of a game, the fuzzer deals the next game and plays its
    first hand on the reference. After a last hand that diverges where play cannot go past (an
    action the engine refuses), that game is dropped, the steering wound back, and it is dealt again
    in its turn. The run is the one an in-process engine gets, game after game."""
    taken, dropped = [], []

    def counted_take(fuzzer: Fuzzer, *args: Any) -> Any:
        ahead = take_ahead(fuzzer, *args)
        taken.append(ahead is not None)
        return ahead

    def counted_drop(fuzzer: Fuzzer) -> None:
        dropped.append(fuzzer.ahead is not None)
        drop_ahead(fuzzer)

    monkeypatch.setattr(fuzzer_module, "take_ahead", counted_take)
    monkeypatch.setattr(fuzzer_module, "drop_ahead", counted_drop)
    engine = serve(f"tests.fuzz.engines:{flaw}")
    try:
        pipelined = run(engine, "tradicional", 12, depth=depth)
    finally:
        engine.close()
    in_process = run(FlawedEngine(flaw), "tradicional", 12, depth=depth)
    assert pipelined["groups"], "the flawed engine diverges"
    if not diverges_at_the_end:  # (an engine that refuses the draw diverges in every hand: every game is dropped)
        assert sum(taken) >= 4, "games were dealt and begun while the engine answered the game before"
    assert any(dropped) == diverges_at_the_end, "a game played ahead of one that diverged is played in its turn"
    assert pipelined == in_process


def test_a_run_stopped_by_its_time_leaves_no_choice_made_for_a_game_it_did_not_play(
    served: SubprocessEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game played ahead during the last game a run had time for is not played: the steering is
    left as the games played left it (a later run goes on from there)."""
    clock = iter([0.0] * 4 + [100.0] * 10)  # (the start, then before each game: the fourth is past the time)
    monkeypatch.setattr(fuzzer_module, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    info = served.info()
    config = resolve(info, "tradicional")
    stopped = Fuzzer(ReferenceEngine(), served, info, depth="hand", seed=4)
    report = stopped.run([config], 10, seconds=10.0)
    assert report.games == 3
    assert stopped.ahead is None
    monkeypatch.undo()
    in_process = Fuzzer(ReferenceEngine(), ReferenceEngine(), info, depth="hand", seed=4)
    in_process.run([config], 3)
    assert stopped.steering.checkpoint() == in_process.steering.checkpoint()


def test_a_batch_step_lacking_a_member_its_capabilities_require_is_refused_unless_it_is_the_text_expected() -> None:
    """The members an engine's capabilities require (the rule of ``hand_over``, for ``reason_codes``)
    are looked for in every step of a batch answer but the steps whose text is the one the caller
    expected (the fuzzer's: the reference's own answer, every member in)."""
    from guinote_conformance.adapters.gcp.json_text import canonical
    from guinote_conformance.adapters.subprocess_adapter import SchemaViolation

    engine, reference = serve("tests.fuzz.engines:hand_over_without_rule"), serve()
    try:
        actions, fields = actions_of_a_hand(), ["phase", "turn"]
        ours = reference.start(SETUP).batch(actions, fields)
        expected = [canonical(step) if step["accepted"] else None for step in ours["steps"]]
        with pytest.raises(SchemaViolation, match="lacks a member the engine's capabilities require") as refused:
            engine.start(SETUP).batch_begin(actions, fields, None, expected)()
        last = len(actions) - 1
        assert any(f"$.steps[{last}].events[" in detail and "'rule'" in detail for detail in refused.value.details)
        theirs = [dict(step) for step in ours["steps"]]
        theirs[-1]["events"] = [{k: v for k, v in e.items() if k != "rule"} if e["type"] == "hand_over" else e
                                for e in theirs[-1]["events"]]  # fmt: skip
        trusted = [canonical(step) if step["accepted"] else None for step in theirs]
        answer = engine.start(SETUP).batch_begin(actions, fields, None, trusted)()
        assert answer["steps"][-1]["events"] == theirs[-1]["events"]
    finally:
        engine.close()
        reference.close()
