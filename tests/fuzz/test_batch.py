"""The optional 'batch' protocol command: one request answers many actions exactly as 'apply',
'legal' and 'state' would, and the fuzzer falls back when an engine does not declare it."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator

import pytest

from guinote_conformance.adapters import protocol
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.play import apply_step, play_actions
from guinote_conformance.oracle.steps import FIELDS, snapshot

INFO = ReferenceEngine().info()
SETUP = {"flags": INFO.profiles["lascuarenta"], "dealer": 0, "deck": [
    "Ao", "2o", "3o", "4o", "5o", "6o", "7o", "So", "Co", "Ro", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "Sc", "Cc",
    "Rc", "Ae", "2e", "3e", "4e", "5e", "6e", "7e", "Se", "Ce", "Re", "Ab", "2b", "3b", "4b", "5b", "6b", "7b", "Sb",
    "Cb", "Rb"]}  # fmt: skip


@pytest.fixture(scope="module")
def served() -> Iterator[SubprocessEngine]:
    engine = SubprocessEngine([sys.executable, "-m", "guinote_conformance.adapters.serve"], timeout=10)
    yield engine
    engine.close()


def actions_of_a_hand() -> list[dict[str, object]]:
    game = ReferenceEngine().start(SETUP)
    actions: list[dict[str, object]] = [{"type": "draw"}]  # refused first: a refusal is a step too
    while True:
        legal = game.legal_actions()
        if not legal or legal[0]["type"] == "deal":
            return actions
        actions.append(legal[-1])
        game.apply(legal[-1])


def test_a_batch_answers_like_one_call_at_a_time(served: SubprocessEngine) -> None:
    assert "batch" in served.info().capabilities
    actions = actions_of_a_hand()
    batched = play_actions(served.start(SETUP), actions)
    game = ReferenceEngine().start(SETUP)
    one_by_one = [snapshot(game, None)] + [apply_step(game, action, FIELDS) for action in actions]
    assert batched == one_by_one
    assert not batched[1].accepted and batched[1].code == "NOTHING_TO_DRAW"


def test_a_batch_answer_follows_its_schema_and_reads_only_the_fields_asked(served: SubprocessEngine) -> None:
    game = served.start(SETUP)
    answer = game.batch([{"type": "play", "seat": 1, "card": "Ao"}], ["phase", "nonsense"], [["turn"]])
    assert protocol.response_violations("batch", {"id": 1, "ok": True, **answer}) == []
    assert answer["before"]["state"] == {"phase": "free"} and answer["unknown_fields"] == ["nonsense"]
    assert answer["steps"][0]["state"] == {"turn": 2} and answer["steps"][0]["accepted"]
    # the accepted actions of a batch are part of the game's history (replayed after a relaunch)
    assert game.state("hand_size.1") == 5


def test_the_accepted_actions_of_a_batch_are_replayed_on_a_relaunched_engine() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "guinote_conformance.adapters.serve"], timeout=10)
    try:
        game = engine.start(SETUP)
        actions = actions_of_a_hand()[:9]  # a refused draw, then eight accepted plays and draws
        steps = play_actions(game, actions[:5]) + play_actions(game, actions[5:])[1:]
        assert engine.pid is not None
        os.kill(engine.pid, signal.SIGKILL)
        time.sleep(0.2)
        assert game.legal_actions() == steps[-1].legal  # relaunched: the setup and both batches replayed
        assert engine.generation == 2
        reference = ReferenceEngine().start(SETUP)
        for action in actions:
            reference.apply(action)
        assert [game.state(name) for name in FIELDS] == [reference.state(name) for name in FIELDS]
    finally:
        engine.close()


def test_the_fuzzer_agrees_with_and_without_batch(served: SubprocessEngine) -> None:
    reports = [
        Fuzzer(ReferenceEngine(), served, served.info(), depth="point", batch=batch, seed=3).run(
            [resolve(INFO, "tradicional")], 4
        )
        for batch in (True, False)
    ]
    assert reports[0].groups == reports[1].groups == {}
    assert reports[0].actions == reports[1].actions > 100


def test_a_batch_step_that_only_python_equality_would_accept_is_a_schema_failure() -> None:
    """Steps equal to the reference's skip the schema check; ``true`` for seat 1 is not equal."""
    engine = SubprocessEngine(
        [sys.executable, "-m", "guinote_conformance.adapters.serve", "--engine", "tests.fuzz.engines:boolean_seats"],
        timeout=10,
    )
    try:
        info = engine.info()
        report = Fuzzer(ReferenceEngine(), engine, info, depth="hand", seed=1).run([resolve(info, "lascuarenta")], 3)
    finally:
        engine.close()
    assert report.groups, "the fuzzer agreed with an engine whose answers break the schema"
    example = next(iter(report.groups.values())).example
    assert example.cause.kind == "failure" and "schema" in str(example.got)
