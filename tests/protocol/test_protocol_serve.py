"""guinote_conformance.adapters.serve: the server side of GCP/1, in process (no subprocess needed)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from guinote_conformance.adapters import protocol
from guinote_conformance.adapters.interface import JSON, Accepted, Action, EngineInfo, Outcome, Setup, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server, load_engine

from .conftest import deck_setup


class OddGame:
    def legal_actions(self) -> list[dict[str, JSON]]:
        raise RuntimeError("legal moves table corrupted")

    def apply(self, action: Action) -> Outcome:
        return Accepted([{"type": "card_played", "when": {1, 2}}])  # a set: not JSON

    def state(self, name: str) -> JSON:
        if name == "nan":
            return float("nan")
        raise KeyError(f"no field {name!r}")

    def observation(self, seat: int, name: str) -> JSON:
        print("a stray print")
        return None


class OddEngine:
    def info(self) -> EngineInfo:
        return EngineInfo(
            "odd", "1", "python", {"p": {"players": "4"}}, {"players": ["4"]}, frozenset({"observations"})
        )

    def start(self, setup: Setup) -> OddGame:
        if setup["flags"].get("players") != "4":
            raise SetupRejected("only four players", [f"players={setup['flags'].get('players')}"])
        if "deck" in setup and len(setup["deck"]) != 40:
            raise SetupRejected("the deck has 40 cards")
        return OddGame()

    def close(self) -> None:
        return None


def session(engine: Any, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    lines = b"".join(
        json.dumps({"id": number, **request}).encode() + b"\n" for number, request in enumerate(requests, 1)
    )
    out = io.BytesIO()
    assert Server(engine).run(io.BytesIO(lines), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_setup_refusals_map_to_unsupported_and_bad_setup() -> None:
    answers = session(
        OddEngine(),
        {"cmd": "start", "setup": {"flags": {"players": "2"}}},
        {"cmd": "start", "setup": {"flags": {"players": "4"}, "deck": ["Ao"]}},
        {"cmd": "start", "setup": {"flags": {"players": "4"}}},
        {"cmd": "start", "setup": "nope"},
    )
    assert answers[0] == {
        "id": 1, "ok": False, "error": "unsupported", "message": "only four players", "unsupported": ["players=2"],
    }  # fmt: skip
    assert answers[1]["error"] == "bad_setup"
    assert answers[2] == {"id": 3, "ok": True, "game": "g1"}
    assert answers[3]["error"] == "bad_request"
    for cmd, answer in zip(["start"] * 4, answers, strict=True):
        assert protocol.response_violations(cmd, answer) == []


def test_engine_failures_become_engine_error_answers_and_serving_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    answers = session(
        OddEngine(),
        {"cmd": "start", "setup": {"flags": {"players": "4"}}},
        {"cmd": "legal", "game": "g1"},
        {"cmd": "apply", "game": "g1", "action": {"type": "draw"}},
        {"cmd": "state", "game": "g1", "field": "nan"},
        {"cmd": "state", "game": "g1", "field": "nope"},
        {"cmd": "legal", "game": "g9"},
        {"cmd": "stop"},
    )
    assert answers[1]["error"] == "engine_error" and "legal moves table corrupted" in answers[1]["message"]
    assert "Traceback" in capsys.readouterr().err
    assert answers[2]["error"] == "engine_error" and "not JSON" in answers[2]["message"]
    assert answers[3]["error"] == "engine_error"
    assert answers[4] == {"id": 5, "ok": False, "error": "unknown_field", "message": "no field 'nope'"}
    assert answers[5]["error"] == "unknown_game"
    assert answers[6] == {"id": 7, "ok": True}


def test_malformed_requests_are_answered_not_fatal() -> None:
    out = io.BytesIO()
    lines = b"".join(
        [b"not json\n", b"[1, 2]\n", b"\n", b'{"cmd": "hello", "protocol": 1}\n', b'{"id": 2, "cmd": "fly"}\n']
    )
    lines += b'{"id": 3, "cmd": "hello", "protocol": 0}\n'
    Server(OddEngine()).run(io.BytesIO(lines), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["error"] for a in answers] == ["bad_request"] * 4 + ["unsupported_protocol"]
    assert [a["id"] for a in answers] == [None, None, None, 2, 3]


def test_hello_speaks_its_own_version_to_a_newer_harness_and_the_harness_s_to_an_older_one() -> None:
    [answer] = session(OddEngine(), {"cmd": "hello", "protocol": protocol.PROTOCOL_VERSION + 1})
    assert answer["protocol"] == protocol.PROTOCOL_VERSION
    assert protocol.response_violations("hello", answer) == []
    [answer] = session(OddEngine(), {"cmd": "hello", "protocol": protocol.OLDEST_PROTOCOL})
    assert answer["protocol"] == protocol.OLDEST_PROTOCOL
    assert protocol.response_violations("hello", answer) == []


def test_stop_ends_serving_and_eof_too() -> None:
    answers = session(OddEngine(), {"cmd": "stop"}, {"cmd": "hello", "protocol": 1})
    assert answers == [{"id": 1, "ok": True}]
    assert session(OddEngine()) == []


def test_load_engine() -> None:
    assert isinstance(load_engine("reference"), ReferenceEngine)
    assert isinstance(load_engine("guinote_conformance.adapters.reference:ReferenceEngine"), ReferenceEngine)
    with pytest.raises(SystemExit, match="module:factory"):
        load_engine("guinote_conformance.adapters.reference")
    with pytest.raises(SystemExit, match="not an Engine"):
        load_engine("guinote_conformance.adapters.protocol:load_schemas")
    with pytest.raises(SystemExit, match="only a Python engine can be served"):
        load_engine("cmd:node engine.js")


def test_the_reference_game_lifecycle() -> None:
    answers = session(
        ReferenceEngine(),
        {"cmd": "start", "setup": deck_setup()},
        {"cmd": "end", "game": "g1"},
        {"cmd": "end", "game": "g1"},
        {"cmd": "observe", "game": "g1", "seat": 0, "field": "phase"},
    )
    assert [a["ok"] for a in answers] == [True, True, False, False]
    assert answers[2]["error"] == answers[3]["error"] == "unknown_game"
