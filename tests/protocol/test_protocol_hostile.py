"""Hostile engines: every failure is an EngineError with a clear message, in time, and never a hang."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from guinote_conformance.adapters.interface import Accepted, EngineError
from guinote_conformance.adapters.subprocess_adapter import (
    AnswerTooLong,
    EngineClosed,
    EngineCrashed,
    EngineFailure,
    EngineTimeout,
    GameLost,
    GarbageAnswer,
    GaveUp,
    LaunchFailure,
    ReplayMismatch,
    SchemaViolation,
    SubprocessEngine,
    UnsolicitedOutput,
    WrongId,
)

from .conftest import SERVE, EngineFactory, deck_setup, hostile

pytestmark = pytest.mark.timeout(30)

READERS = ["select", "thread"] if os.name == "posix" else ["thread"]


def failure_of(call: object) -> EngineFailure:
    assert callable(call)
    with pytest.raises(EngineFailure) as caught:
        call()
    assert isinstance(caught.value, EngineError)
    return caught.value


def play(game: object, actions: int) -> None:
    for _ in range(actions):
        legal = game.legal_actions()  # type: ignore[attr-defined]
        assert isinstance(game.apply(legal[0]), Accepted)  # type: ignore[attr-defined]


def test_crash_at_start_is_a_launch_failure_then_the_engine_gives_up(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("crash_at_start"), max_failed_launches=2)
    began = time.monotonic()
    failure = failure_of(engine.info)
    assert isinstance(failure, LaunchFailure)
    assert "exited with status 3" in str(failure)
    assert "fatal: cannot load the rules table" in str(failure)  # the stderr tail
    assert "hello" in str(failure)  # what was sent
    assert isinstance(failure_of(lambda: engine.start(deck_setup())), LaunchFailure)
    assert isinstance(failure_of(engine.info), GaveUp)
    assert time.monotonic() - began < 5


def test_a_missing_executable_is_a_launch_failure(make_engine: EngineFactory) -> None:
    failure = failure_of(make_engine(["/nonexistent/engine-binary"]).info)
    assert isinstance(failure, LaunchFailure)
    assert "cannot run the engine" in str(failure)


def test_argv_must_be_a_list() -> None:
    with pytest.raises(TypeError, match="not a shell string"):
        SubprocessEngine("python -m guinote_conformance.adapters.serve")


@pytest.mark.parametrize("reader", READERS)
def test_crash_mid_game_breaks_that_game_and_the_next_start_relaunches(make_engine: EngineFactory, reader: str) -> None:
    engine = make_engine(hostile("crash_mid_game", "3"), reader=reader)
    game = engine.start(deck_setup(1))
    play(game, 2)
    failure = failure_of(lambda: play(game, 1))
    assert isinstance(failure, EngineCrashed)
    assert "exited with status 139" in str(failure)
    assert "segmentation fault while applying action 3" in str(failure)
    assert '"cmd":"apply"' in str(failure)
    # the game is lost for good ...
    assert isinstance(failure_of(game.legal_actions), GameLost)
    assert game.broken is not None and "crash" in game.broken
    # ... but the next game starts on a relaunched process
    fresh = engine.start(deck_setup(2))
    play(fresh, 2)
    assert engine.generation == 2


def test_other_open_games_are_replayed_on_the_relaunched_process(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("crash_mid_game", "4"))
    survivor = engine.start(deck_setup(3))
    play(survivor, 2)
    victim = engine.start(deck_setup(4))
    play(victim, 1)
    assert isinstance(failure_of(lambda: play(victim, 1)), EngineCrashed)  # the 4th apply of the process
    hand_before = survivor.state("hand_size.0")
    # the survivor is rebuilt transparently: setup + its 2 accepted actions
    assert survivor.legal_actions()
    assert survivor.state("hand_size.0") == hand_before
    assert survivor.state("tricks_played") == 0
    play(survivor, 1)
    assert engine.generation == 2


def test_a_crash_on_the_second_game_costs_that_game_only(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("crash_second_game"))
    first = engine.start(deck_setup(5))
    play(first, 1)
    failure = failure_of(lambda: engine.start(deck_setup(6)))
    assert isinstance(failure, EngineCrashed)
    assert "out of memory starting game 2" in str(failure)
    third = engine.start(deck_setup(7))  # relaunched: the first game of the new process
    while third.state("phase") not in ("hand_over", "match_over"):
        play(third, 1)
    assert third.state("tricks_played") == 10


@pytest.mark.parametrize("reader", READERS)
def test_a_hang_is_a_timeout_within_the_deadline(make_engine: EngineFactory, reader: str) -> None:
    engine = make_engine(hostile("hang", "legal"), timeout=0.5, reader=reader)
    game = engine.start(deck_setup())
    began = time.monotonic()
    failure = failure_of(game.legal_actions)
    assert time.monotonic() - began < 3.0
    assert isinstance(failure, EngineTimeout)
    assert "no answer within 0.5 s" in str(failure)
    assert "waiting for a lock that never comes" in str(failure)
    # recovered: the hang is only on 'legal'
    other = engine.start(deck_setup(1))
    assert other.state("phase") == "free"


def test_a_hang_in_the_handshake_is_a_launch_failure(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("hang", "hello"), startup_timeout=0.5)
    began = time.monotonic()
    failure = failure_of(engine.info)
    assert time.monotonic() - began < 3.5
    assert isinstance(failure, LaunchFailure)
    assert "timeout" in str(failure)


def test_close_kills_an_engine_that_hangs_on_stop() -> None:
    engine = SubprocessEngine(hostile("hang", "stop"), timeout=1.0, stop_timeout=0.3)
    engine.info()
    pid = engine.pid
    began = time.monotonic()
    engine.close()
    assert time.monotonic() - began < 3.0
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert isinstance(failure_of(engine.info), EngineClosed)


def test_garbage_names_the_offending_line(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("garbage"))
    game = engine.start(deck_setup())
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, GarbageAnswer)
    assert "DEBUG: computing legal moves for seat 1" in str(failure)
    assert engine.start(deck_setup(1)).state("phase") == "free"


def test_an_answer_nested_too_deep_is_garbage_not_a_crash_of_the_harness(make_engine: EngineFactory) -> None:
    """100,000 nested arrays exhaust a recursive JSON parser's stack: still just an answer that is not JSON."""
    engine = make_engine(hostile("deep_nesting"))
    failure = failure_of(engine.start(deck_setup()).legal_actions)
    assert isinstance(failure, GarbageAnswer) and "not JSON" in str(failure)
    assert engine.start(deck_setup(1)).state("phase") == "free"


@pytest.mark.parametrize("reader", READERS)
def test_a_partial_line_then_a_hang_is_a_timeout_showing_the_partial_line(
    make_engine: EngineFactory, reader: str
) -> None:
    engine = make_engine(hostile("partial_line"), timeout=0.5, reader=reader)
    game = engine.start(deck_setup())
    began = time.monotonic()
    failure = failure_of(game.legal_actions)
    assert time.monotonic() - began < 3.0
    assert isinstance(failure, EngineTimeout)
    assert '"ok": true, "actio' in str(failure)


def test_a_wrong_id_is_reported_with_both_ids(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("wrong_id"))
    game = engine.start(deck_setup())
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, WrongId)
    assert failure.sent is not None and failure.received is not None
    assert "the answer has id" in str(failure) and "the request had id" in str(failure)


@pytest.mark.parametrize("reader", READERS)
def test_a_flood_is_cut_at_max_line_bytes(make_engine: EngineFactory, reader: str) -> None:
    engine = make_engine(hostile("flood"), max_line_bytes=65536, reader=reader)
    game = engine.start(deck_setup())
    began = time.monotonic()
    failure = failure_of(game.legal_actions)
    assert time.monotonic() - began < 3.0
    assert isinstance(failure, AnswerTooLong)
    assert "65536 bytes" in str(failure)
    assert len(str(failure)) < 5000  # the flood is not copied into the message
    assert not engine.alive


def test_exit_after_hello_is_a_crash(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("exit_after_hello"))
    assert engine.info().name == "guinote-reference"
    failure = failure_of(lambda: engine.start(deck_setup()))
    assert isinstance(failure, EngineCrashed)
    assert "exited with status 0" in str(failure)
    assert "bye (hostile: exit_after_hello)" in str(failure)


def test_a_schema_violation_lists_each_problem(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("bad_schema"))
    game = engine.start(deck_setup())
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, SchemaViolation)
    message = str(failure)
    assert "legal.response.json" in message
    assert "$.actions[0].seat: 'one' is not of type 'integer'" in message
    assert "$.actions[0].card" in message


def test_stderr_spam_neither_blocks_nor_grows_unbounded(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("stderr_spam"), stderr_lines=50, timeout=5.0)
    game = engine.start(deck_setup())
    assert game.state("phase") == "free"
    assert len(engine._stderr) <= 50
    # stderr is drained by its own thread: on a loaded machine it may trail the answer a little
    deadline = time.monotonic() + 5.0
    while engine.stderr_tail(1) != ["log: start done"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert engine.stderr_tail(1) == ["log: start done"]
    assert all(len(line) < 1100 for line in engine.stderr_tail(50))


def test_unsolicited_output_is_reported(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("unsolicited"))
    game = engine.start(deck_setup())
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, UnsolicitedOutput | WrongId)
    assert "game started!" in str(failure)


def test_an_engine_killed_between_requests_is_relaunched_and_its_games_replayed(make_engine: EngineFactory) -> None:
    engine = make_engine(SERVE)
    game = engine.start(deck_setup(8))
    play(game, 5)
    before = [game.state(name) for name in ("trick", "hand.0", "hand.1", "stock_count", "turn")]
    legal = game.legal_actions()
    assert engine.pid is not None
    os.kill(engine.pid, signal.SIGKILL)
    time.sleep(0.2)
    assert game.legal_actions() == legal  # relaunched, setup + 5 actions replayed
    assert [game.state(name) for name in ("trick", "hand.0", "hand.1", "stock_count", "turn")] == before
    assert engine.generation == 2
    assert any("exited between requests" in line for line in engine.stderr_tail())
    play(game, 3)


def test_a_nondeterministic_engine_fails_replay(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("nondeterministic"))
    game = engine.start(deck_setup())
    play(game, 2)
    assert engine.pid is not None
    os.kill(engine.pid, signal.SIGKILL)
    time.sleep(0.2)
    failure = failure_of(game.legal_actions)
    assert isinstance(failure, ReplayMismatch)
    assert "different answer" in str(failure)
    assert "first time:" in str(failure)
    assert engine.start(deck_setup(2)).state("phase") == "free"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_no_engine_process_outlives_close(make_engine: EngineFactory) -> None:
    engine = make_engine(hostile("hang", "legal"), timeout=0.3)
    game = engine.start(deck_setup())
    pid = engine.pid
    failure_of(game.legal_actions)
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
