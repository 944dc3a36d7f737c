"""The protocol's schemas and every check of a message against them.

The schemas are the JSON Schemas (draft 2020-12) of ``adapters/schemas/``, read from the
package data (:func:`load_schemas`). Validation has two layers:

* :func:`response_is_valid` / :func:`request_is_valid` (and :func:`batch_answer_is_valid`): the
  fast check compiled from the schemas (:mod:`guinote_conformance.adapters.gcp.fast_validator`);
* :func:`response_violations` / :func:`request_violations` / :func:`field_violations`: the
  authoritative check by :mod:`jsonschema`, with one :class:`Violation` per problem, used to
  explain a failure (:mod:`jsonschema` is imported only then).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from guinote_conformance.adapters.gcp.fast_validator import Check, Compiler
from guinote_conformance.adapters.gcp.json_text import known_texts
from guinote_conformance.adapters.gcp.messages import COMMANDS, SCHEMA_BASE, JSONObject


@dataclass(frozen=True)
class Violation:
    """One way a message breaks its schema: where (a JSON path such as ``$.actions[2].card``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


# --------------------------------------------------------------------------- schemas


def schema_name(cmd: str, kind: str) -> str:
    """File name of a message schema: ``schema_name("apply", "response") == "apply.response.json"``."""
    if cmd not in COMMANDS:
        raise KeyError(f"unknown command {cmd!r}; commands: {', '.join(COMMANDS)}")
    if kind not in ("request", "response"):
        raise KeyError(f"kind must be 'request' or 'response', not {kind!r}")
    return f"{cmd}.{kind}.json"


@cache
def load_schemas() -> dict[str, JSONObject]:
    """Every schema of the protocol, by file name (read from the package data)."""
    folder = resources.files("guinote_conformance.adapters.schemas")
    schemas: dict[str, JSONObject] = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            schemas[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return schemas


def schema(cmd: str, kind: str) -> JSONObject:
    """The schema of one message (``kind`` is ``"request"`` or ``"response"``)."""
    return load_schemas()[schema_name(cmd, kind)]


def _by_id() -> dict[str, JSONObject]:
    return {document["$id"]: document for document in load_schemas().values()}


# --------------------------------------------------------------------------- authoritative validation


@cache
def _jsonschema_validator(name: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Any = Registry().with_resources(
        (uri, Resource.from_contents(document)) for uri, document in _by_id().items()
    )
    return Draft202012Validator(load_schemas()[name], registry=registry)


def _json_path(parts: Iterable[Any]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _violations(name: str, message: Any) -> list[Violation]:
    validator = _jsonschema_validator(name)
    found = []
    for error in sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path)):
        leaves = [error]
        if error.validator in ("if", "then", "else", "anyOf", "oneOf", "allOf", "$ref") and error.context:
            leaves = [sub for sub in error.context if not sub.context] or leaves
        for leaf in leaves:
            found.append(Violation(_json_path(leaf.absolute_path), leaf.message))
    return found


FIELDS_SCHEMA = "fields.json"


def field_key(name: str) -> str | None:
    """The entry of ``fields.json`` for a state field name (``hand.2`` -> ``hand.<seat>``), or ``None``."""
    definitions = load_schemas()[FIELDS_SCHEMA]["$defs"]
    if name in definitions:
        return name
    stem, _, index = name.rpartition(".")
    if index.isdigit():
        for placeholder in ("<seat>", "<side>"):
            if f"{stem}.{placeholder}" in definitions:
                return f"{stem}.{placeholder}"
    return None


@cache
def _field_validator(key: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Any = Registry().with_resources(
        (uri, Resource.from_contents(document)) for uri, document in _by_id().items()
    )
    pointer = key.replace("~", "~0").replace("/", "~1")
    return Draft202012Validator({"$ref": f"{SCHEMA_BASE}{FIELDS_SCHEMA}#/$defs/{pointer}"}, registry=registry)


def field_violations(name: str, value: Any) -> list[Violation]:
    """Every way the value of state field ``name`` breaks its shape in ``fields.json`` (empty if
    valid, or if the field is not one of the vocabulary)."""
    key = field_key(name)
    if key is None:
        return []
    return [
        Violation(_json_path(error.absolute_path), error.message) for error in _field_validator(key).iter_errors(value)
    ]


def response_violations(cmd: str, message: Any) -> list[Violation]:
    """Every way ``message`` breaks the schema of the answer to ``cmd`` (empty if valid)."""
    return _violations(schema_name(cmd, "response"), message)


def request_violations(message: Any) -> list[Violation]:
    """Every way a request breaks its schema (the command is read from its ``cmd``)."""
    cmd = message.get("cmd") if isinstance(message, dict) else None
    if cmd not in COMMANDS:
        return [Violation("$.cmd", f"unknown command {cmd!r}; commands: {', '.join(COMMANDS)}")]
    return _violations(schema_name(cmd, "request"), message)


# --------------------------------------------------------------------------- fast validation


@cache
def _compiler() -> Compiler:
    return Compiler(_by_id())


@cache
def _fast_checks() -> dict[str, Check]:
    compiler = _compiler()
    return {name: compiler.compile_ref(SCHEMA_BASE + name, "") for name in load_schemas()}


@cache
def _batch_step_check() -> Check:
    return _compiler().compile_ref(SCHEMA_BASE + "batch.response.json", "#/$defs/step")


def known_batch_steps(answer: Any, expected: Sequence[bytes | None]) -> list[bool] | None:
    """Which steps of a ``batch`` answer have the canonical text ``expected`` gives for them
    (:func:`~guinote_conformance.adapters.gcp.json_text.known_texts`); ``None`` for an answer that
    is not an ``ok`` one with a list of steps."""
    steps = answer.get("steps") if isinstance(answer, dict) and answer.get("ok") is True else None
    return known_texts(steps, expected) if isinstance(steps, list) else None


def batch_answer_is_valid(answer: Any, expected: Sequence[bytes | None], known: Sequence[bool] | None = None) -> bool:
    """:func:`response_is_valid` for a ``batch`` answer, cheaper when most of its steps are known.

    ``expected[i]`` is the canonical text (:func:`~guinote_conformance.adapters.gcp.json_text.canonical`) of a valid
    step the caller expects
    as step ``i`` (the differential fuzzer's: the reference's own answer), or ``None``. A step
    with that very text is valid without a check; every other step, and the rest of the answer,
    is checked. Exactly as strict as :func:`response_is_valid`: the steps' schema has no
    constraint across steps (``minItems``, ``uniqueItems``), so the answer is valid when the rest
    of it is and each step is. ``known``: :func:`known_batch_steps`, when the caller has it already."""
    steps = answer.get("steps") if isinstance(answer, dict) else None
    if not isinstance(steps, list) or answer.get("ok") is not True:
        return response_is_valid("batch", answer)
    if not response_is_valid("batch", {**answer, "steps": []}):
        return False
    check = _batch_step_check()
    known = known_texts(steps, expected) if known is None else known
    return all(known[index] or check(step) for index, step in enumerate(steps))


def compile_schemas() -> None:
    """Compile every schema now (raises :class:`ProtocolSchemaError` for an unsupported feature)."""
    _fast_checks()


def response_is_valid(cmd: str, message: Any) -> bool:
    """Fast check of the answer to ``cmd``; agrees with :func:`response_violations` being empty."""
    return _fast_checks()[f"{cmd}.response.json"](message)


def request_is_valid(message: Any) -> bool:
    """Fast check of a request; agrees with :func:`request_violations` being empty."""
    cmd = message.get("cmd") if isinstance(message, dict) else None
    return cmd in COMMANDS and _fast_checks()[f"{cmd}.request.json"](message)


def check_response(cmd: str, message: Any) -> list[Violation]:
    """The violations of an answer: the fast check first, :mod:`jsonschema` to explain a failure."""
    if response_is_valid(cmd, message):
        return []
    found = response_violations(cmd, message)
    # The fast check is stricter than jsonschema only through a bug; jsonschema is authoritative.
    return found
