"""The GCP/1 schemas: well formed, versioned, in step with the vocabulary, and the fast check agrees."""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from guinote_conformance.adapters import protocol
from guinote_conformance.adapters.gcp.fast_validator import Compiler
from guinote_conformance.adapters.gcp.json_text import decode, encode, known_texts
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server
from guinote_conformance.adapters.vocabulary import ACTION_TYPES, EVENT_TYPES, STATE_FIELDS

from .conftest import deck_setup

pytestmark = pytest.mark.timeout(60)


def test_every_command_has_a_request_and_a_response_schema() -> None:
    names = set(protocol.load_schemas())
    for cmd in protocol.COMMANDS:
        assert protocol.schema_name(cmd, "request") in names
        assert protocol.schema_name(cmd, "response") in names
    assert names == {f"{cmd}.{kind}.json" for cmd in protocol.COMMANDS for kind in ("request", "response")} | {
        "common.json",
        protocol.FIELDS_SCHEMA,
    }


def test_every_state_field_and_event_of_the_vocabulary_has_its_shape() -> None:
    fields = protocol.load_schemas()[protocol.FIELDS_SCHEMA]["$defs"]
    assert set(fields) == set(STATE_FIELDS)
    shaped = {
        branch["if"]["properties"]["type"]["const"]
        for branch in protocol.load_schemas()["common.json"]["$defs"]["event"]["allOf"]
    }
    assert shaped == set(EVENT_TYPES)
    assert protocol.field_violations("hand.3", ["Ao", "3c"]) == []
    assert [v.path for v in protocol.field_violations("hand.3", ["Ao", "x"])] == ["$[1]"]
    assert protocol.field_violations("no_such_field", 1) == []


@pytest.mark.parametrize("name", sorted(protocol.load_schemas()))
def test_schemas_are_valid_draft_2020_12_and_versioned(name: str) -> None:
    document = protocol.load_schemas()[name]
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"] == protocol.SCHEMA_BASE + name
    assert f"/gcp/{protocol.PROTOCOL_VERSION}/" in document["$id"]
    assert document.get("title") and document.get("description")


def test_schemas_follow_the_vocabulary_and_the_protocol_module() -> None:
    common = protocol.load_schemas()["common.json"]["$defs"]
    assert common["action"]["properties"]["type"]["enum"] == list(ACTION_TYPES)
    assert common["error"]["properties"]["error"]["enum"] == list(protocol.ERROR_CODES)
    for cmd in protocol.COMMANDS:
        response = protocol.schema(cmd, "response")
        assert response["else"]["properties"]["error"]["enum"] == list(protocol.COMMAND_ERRORS[cmd])
        assert protocol.schema(cmd, "request")["properties"]["cmd"] == {"const": cmd}
    hello = protocol.schema("hello", "response")["then"]["properties"]["protocol"]
    assert hello["enum"] == list(protocol.PROTOCOL_VERSIONS)


def test_the_fast_validator_refuses_unknown_keywords() -> None:
    compiler = Compiler({})
    with pytest.raises(protocol.ProtocolSchemaError, match="maxItems"):
        compiler.compile("x:", {"type": "array", "maxItems": 3})


# --------------------------------------------------------------------------- a corpus of real messages


def recorded_session(seed: int) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(cmd, request, answer) of a served reference session: one random hand and some errors."""
    server = Server(ReferenceEngine())
    rng = random.Random(seed)
    number = 0

    def ask(message: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
        nonlocal number
        number += 1
        request = {"id": number, **message}
        return message["cmd"], request, server.answer_line(json.dumps(request).encode())

    yield ask({"cmd": "hello", "protocol": 1})
    yield ask({"cmd": "start", "setup": {**deck_setup(seed), "flags": {"players": "9"}}})
    yield ask({"cmd": "start", "setup": {**deck_setup(seed), "deck": ["Ao", "Ao"]}})
    yield ask({"cmd": "start", "setup": deck_setup(seed)})
    for step in range(200):
        cmd, request, answer = ask({"cmd": "legal", "game": "g1"})
        yield cmd, request, answer
        yield ask(
            {"cmd": "state", "game": "g1", "field": rng.choice(["phase", "trick", "cantes", "hand.1", "score.0"])}
        )
        yield ask({"cmd": "observe", "game": "g1", "seat": step % 4, "field": "hand.0"})
        if not answer["actions"] or answer["actions"][0]["type"] == "deal":
            break
        yield ask({"cmd": "apply", "game": "g1", "action": {"type": "play", "seat": 9, "card": "Ao"}})
        yield ask({"cmd": "apply", "game": "g1", "action": rng.choice(answer["actions"])})
    yield ask({"cmd": "state", "game": "g1", "field": "nope"})
    yield ask({"cmd": "observe", "game": "g1", "seat": 8, "field": "phase"})
    yield ask({"cmd": "legal", "game": "g2"})
    yield ask({"cmd": "end", "game": "g1"})
    yield ask({"cmd": "stop"})


CORPUS = [message for seed in range(3) for message in recorded_session(seed)]


def test_the_served_reference_sends_only_valid_answers_to_valid_requests() -> None:
    assert len(CORPUS) > 300
    for cmd, request, answer in CORPUS:
        assert protocol.request_violations(request) == [], request
        assert protocol.request_is_valid(request)
        assert protocol.response_violations(cmd, answer) == [], (request, answer)
        assert protocol.response_is_valid(cmd, answer)
        assert protocol.check_response(cmd, answer) == []


def mutations(message: Any, rng: random.Random) -> Iterator[Any]:
    """Variants of a message, most of them invalid: a member dropped, retyped, added..."""
    odd_values: list[Any] = [None, True, 0, 1.5, -1, "", "x", "Zz", [], {}, [1], {"type": 3}]
    paths: list[list[Any]] = []

    def walk(node: Any, path: list[Any]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, [*path, key])
        elif isinstance(node, list):
            for index, value in enumerate(node[:3]):
                walk(value, [*path, index])

    walk(message, [])
    for path in paths:
        if not path:
            yield rng.choice(odd_values)
            continue
        *parents, last = path
        for change in ("drop", "retype", "retype"):
            variant = copy.deepcopy(message)
            parent = variant
            for key in parents:
                parent = parent[key]
            if change == "drop":
                if isinstance(parent, dict):
                    del parent[last]
                else:
                    parent.pop(last)
            else:
                parent[last] = rng.choice(odd_values)
            yield variant
    for extra in ("x-note", "unexpected"):
        variant = copy.deepcopy(message)
        if isinstance(variant, dict):
            variant[extra] = 1
        yield variant


def test_the_fast_validator_agrees_with_jsonschema_on_mutated_answers() -> None:
    rng = random.Random(7)
    checked = invalid = 0
    for cmd, _, answer in CORPUS[::6]:
        for variant in mutations(answer, rng):
            violations = protocol.response_violations(cmd, variant)
            assert protocol.response_is_valid(cmd, variant) == (not violations), (cmd, variant, violations)
            checked += 1
            invalid += bool(violations)
    assert checked > 500 and invalid > checked // 2


def test_the_fast_validator_agrees_with_jsonschema_on_mutated_requests() -> None:
    rng = random.Random(8)
    for _, request, _ in CORPUS[::5]:
        for variant in mutations(request, rng):
            violations = protocol.request_violations(variant)
            assert protocol.request_is_valid(variant) == (not violations), (variant, violations)


@pytest.mark.parametrize(
    ("cmd", "answer", "expected"),
    [
        ("hello", {"id": 1, "ok": True, "protocol": protocol.PROTOCOL_VERSION + 1, "engine": {}}, "$.protocol"),
        ("hello", {"id": 1, "ok": True, "protocol": 1, "engine": {"name": "x"}}, "'version' is a required property"),
        ("start", {"id": 1, "ok": True}, "'game' is a required property"),
        (
            "start",
            {"id": 1, "ok": False, "error": "unsupported", "message": ""},
            "'unsupported' is a required property",
        ),
        ("start", {"id": 1, "ok": False, "error": "oops", "message": ""}, "$.error"),
        ("legal", {"id": 1, "ok": True, "actions": [{"type": "play", "seat": 0}]}, "'card' is a required property"),
        ("legal", {"id": 1, "ok": True, "actions": [{"type": "play", "seat": 0, "card": "1o"}]}, "$.actions[0].card"),
        ("legal", {"id": 1, "ok": True, "actions": [{"type": "fly"}]}, "$.actions[0].type"),
        ("legal", {"id": 1, "ok": False, "error": "unknown_field", "message": ""}, "$.error"),
        ("apply", {"id": 1, "ok": True, "accepted": True}, "'events' is a required property"),
        ("apply", {"id": 1, "ok": True, "accepted": False}, "'code' is a required property"),
        ("apply", {"id": 1, "ok": True, "accepted": True, "events": [{"kind": "x"}]}, "'type' is a required property"),
        ("state", {"id": 1, "ok": True}, "'value' is a required property"),
        ("state", {"id": "1", "ok": True, "value": 1}, "$.id"),
        ("state", {"id": 1, "ok": True, "value": 1, "extra": 2}, "extra"),
        ("observe", {"ok": True, "value": 1}, "'id' is a required property"),
        ("end", {"id": 1, "ok": "yes"}, "$.ok"),
        ("stop", [], "is not of type 'object'"),
    ],
)
def test_schema_validation_catches_malformed_answers(cmd: str, answer: Any, expected: str) -> None:
    assert not protocol.response_is_valid(cmd, answer)
    violations = protocol.check_response(cmd, answer)
    assert violations
    assert any(expected in str(violation) for violation in violations), violations


def test_extension_members_are_allowed() -> None:
    assert protocol.response_is_valid("state", {"id": 1, "ok": True, "value": None, "x-elapsed-us": 12})
    assert protocol.request_is_valid({"id": 1, "cmd": "stop", "x-trace": "abc"})


def test_encode_is_one_ascii_line() -> None:
    line = protocol.encode({"id": 1, "cmd": "state", "field": "año\n"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line.isascii()
    assert protocol.decode(line) == {"id": 1, "cmd": "state", "field": "año\n"}


def served_batch_answer(seed: int) -> dict[str, Any]:
    """The served reference's answer to a ``batch`` of the first tricks of a random hand (a probe
    refused among them)."""
    server = Server(ReferenceEngine())
    server.answer_line(json.dumps({"id": 1, "cmd": "hello", "protocol": 1}).encode())
    server.answer_line(json.dumps({"id": 2, "cmd": "start", "setup": deck_setup(seed)}).encode())
    game = ReferenceEngine().start(deck_setup(seed))
    rng, actions = random.Random(seed), list[dict[str, Any]]()
    while (legal := game.legal_actions()) and legal[0]["type"] != "deal" and len(actions) < 12:
        action = rng.choice(legal)
        actions.append(action)
        game.apply(action)
    actions.insert(3, {"type": "play", "seat": 9, "card": "Ao"})  # refused: NO_SUCH_SEAT
    request = {"id": 3, "cmd": "batch", "game": "g1", "actions": actions, "fields": ["phase", "turn", "trick"]}
    return server.answer_line(json.dumps(request).encode())


def test_canonical_text_tells_apart_what_python_equality_confuses() -> None:
    assert 1 == 1.0 == True
    assert len({protocol.canonical(1), protocol.canonical(1.0), protocol.canonical(True)}) == 3
    assert protocol.canonical({"b": [1], "a": None}) == protocol.canonical({"a": None, "b": [1]})
    assert protocol.canonical({1, 2}) is None  # a set is not JSON


def test_known_texts_tells_each_value_whose_canonical_text_is_the_one_expected() -> None:
    """Runs of known texts are compared in one go; a run that differs anywhere, value by value."""
    values: list[Any] = [{"a": 1}, {"b": [1, 2]}, {"c": None}, {"d": 1}, {"e": "x"}, {"f": 2}]
    texts: list[bytes | None] = [protocol.canonical(value) for value in values]
    assert known_texts(values, texts) == [True] * 6
    texts[2] = None  # no text known: never taken as known
    assert known_texts(values, texts) == [True, True, False, True, True, True]
    values[4] = {"e": "x", "x-extra": 1}  # in a run: the others of the run stay known
    values[0] = {"a": True}  # True == 1 in Python, not in JSON
    assert known_texts(values, texts) == [False, True, False, True, False, True]
    assert known_texts(values, texts[:2]) == [False, True, False, False, False, False]  # past the texts: unknown
    assert known_texts([], texts) == []


def test_a_protocol_line_is_the_json_of_the_message_or_refused_as_json_refuses_it() -> None:
    """orjson writes the line when it reads back as the message; what json refuses stays refused."""
    message = {"id": 1, "ok": True, "legal": [{"type": "play", "seat": 0, "card": "Ao"}], "state": {"x": None}}
    assert encode(message) == json.dumps(message, separators=(",", ":")).encode() + b"\n"
    assert decode(encode(message)) == message
    assert encode({"name": "caña"}) == b'{"name":"ca\\u00f1a"}\n'  # ASCII only
    assert decode(encode({"big": 2**70})) == {"big": 2**70}  # beyond orjson's 64 bits: json writes it
    assert decode(encode({"key": (1, 2)})) == {"key": [1, 2]}
    for not_json in ({"value": float("nan")}, {"value": float("inf")}, {"value": {1, 2}}):
        with pytest.raises((TypeError, ValueError)):
            encode(not_json)

    @dataclasses.dataclass
    class Point:
        x: int

    class Colour(enum.Enum):
        RED = "red"

    for other in (Point(1), Colour.RED):  # orjson would write them; json does not
        with pytest.raises(TypeError):
            encode({"value": other})


def test_a_batch_answer_checked_against_expected_steps_agrees_with_jsonschema() -> None:
    """A step whose canonical text is the expected one skips the schema; any other is checked."""
    answer = served_batch_answer(3)
    expected = [protocol.canonical(step) for step in answer["steps"]]
    expected[0] = None  # an unknown step: always checked
    assert protocol.batch_answer_is_valid(answer, expected)
    rng, checked, invalid = random.Random(9), 0, 0
    for variant in mutations(answer, rng):
        violations = protocol.response_violations("batch", variant)
        assert protocol.batch_answer_is_valid(variant, expected) == (not violations), (variant, violations)
        checked += 1
        invalid += bool(violations)
    assert checked > 100 and invalid > checked // 3
    # the steps themselves mutated (not only the first three that `mutations` walks)
    for index in range(len(answer["steps"])):
        variant = copy.deepcopy(answer)
        variant["steps"][index]["legal"] = [{"type": "play", "seat": True, "card": "Ao"}]  # True == 1 in Python
        assert not protocol.batch_answer_is_valid(variant, expected)
        assert protocol.response_violations("batch", variant)
