"""GCP, the Guiñote conformance protocol: message constants, schemas and validation.

An engine written in any language is checked by running it as ONE long-lived process that
reads requests from stdin and writes answers to stdout, one JSON object per line (UTF-8,
``\\n``-terminated); stderr is free for logs. Every request carries an ``id`` that its answer
echoes. The full reference is ``docs/checking/protocol.md``; the messages are defined by the
JSON Schemas (draft 2020-12) in ``adapters/schemas/``: ``<cmd>.request.json`` and
``<cmd>.response.json`` for each command, and ``common.json`` for the shared definitions.

Validation has two layers:

* :func:`response_is_valid` / :func:`request_is_valid`: a fast check compiled from the schemas
  (a few microseconds per message, used on every answer by the subprocess adapter);
* :func:`response_violations` / :func:`request_violations`: the authoritative check by
  :mod:`jsonschema`, with one :class:`Violation` per problem, used to explain a failure.

The fast check implements the subset of JSON Schema the protocol's schemas use and refuses to
compile anything else; the tests check that it agrees with :mod:`jsonschema`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as member
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, ClassVar, TypeVar
from urllib.parse import urldefrag, urljoin

import orjson

#: The protocol version this module speaks (the ``protocol`` member of ``hello``): the harness
#: asks for it, and takes an answer down to :data:`OLDEST_PROTOCOL` from an engine written for an
#: earlier version (what changed in each is ``docs/checking/changelog.md``; what a later version
#: added is optional for such an engine: :mod:`adapters.obligations`, :mod:`adapters.versions`).
PROTOCOL_VERSION = 2
OLDEST_PROTOCOL = 1
PROTOCOL_VERSIONS = tuple(range(OLDEST_PROTOCOL, PROTOCOL_VERSION + 1))
PROTOCOL_NAME = f"GCP/{PROTOCOL_VERSION}"
#: Base of every schema ``$id``; the ids are names, not locations (nothing is fetched).
SCHEMA_BASE = f"https://guinote-conformance.invalid/gcp/{PROTOCOL_VERSION}/"

JSONObject = dict[str, Any]


class ErrorCode(StrEnum):
    """The error codes of an ``{"ok": false}`` answer."""

    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    UNSUPPORTED = "unsupported"
    BAD_SETUP = "bad_setup"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_FIELD = "unknown_field"
    BAD_REQUEST = "bad_request"
    ENGINE_ERROR = "engine_error"


ERROR_CODES = {
    ErrorCode.UNSUPPORTED_PROTOCOL: "hello: the engine does not speak the requested protocol version",
    ErrorCode.UNSUPPORTED: "start: the setup needs flag values or capabilities the engine does not have",
    ErrorCode.BAD_SETUP: "start: the setup is impossible or malformed (e.g. a card dealt twice)",
    ErrorCode.UNKNOWN_GAME: "the game id is not (or no longer) known to the engine",
    ErrorCode.UNKNOWN_FIELD: "state/observe: the field name (or the seat) does not exist",
    ErrorCode.BAD_REQUEST: "the request is not valid JSON, not an object, or not a known command",
    ErrorCode.ENGINE_ERROR: "the engine failed internally while answering (a bug, or not implemented)",
}

# --------------------------------------------------------------------------- commands
# Typed requests, after bowtie's ``@command(Response=...)``: each class is one command, knows its
# name, the error codes its answer may carry and the schemas of its request and answer.


@dataclass(frozen=True)
class CommandSpec:
    name: str
    errors: tuple[ErrorCode, ...]

    @property
    def request_schema(self) -> str:
        return f"{self.name}.request.json"

    @property
    def response_schema(self) -> str:
        return f"{self.name}.response.json"


#: Every command, in the order a session uses them.
REGISTRY: dict[str, CommandSpec] = {}
_COMMON = (ErrorCode.BAD_REQUEST, ErrorCode.ENGINE_ERROR)
_T = TypeVar("_T", bound="Request")


def command(name: str, *errors: ErrorCode) -> Callable[[type[_T]], type[_T]]:
    """Register a request class as the command ``name`` whose answer may carry ``errors``."""

    def register(cls: type[_T]) -> type[_T]:
        cls.spec = CommandSpec(name, (*errors, *_COMMON))
        REGISTRY[name] = cls.spec
        return cls

    return register


class Request:
    """A request of the protocol; :meth:`to_json` is the message without its ``id``."""

    spec: ClassVar[CommandSpec]

    def to_json(self) -> JSONObject:
        members = {
            key: dict(value) if isinstance(value, Mapping) else value
            for key, value in vars(self).items()
            if value is not None
        }
        return {"cmd": self.spec.name, **members}


@command("hello", ErrorCode.UNSUPPORTED_PROTOCOL)
@dataclass(frozen=True)
class Hello(Request):
    protocol: int = PROTOCOL_VERSION
    harness: Mapping[str, Any] = member(default_factory=lambda: {"name": "guinote-conformance"})


@command("start", ErrorCode.UNSUPPORTED, ErrorCode.BAD_SETUP)
@dataclass(frozen=True)
class Start(Request):
    setup: Mapping[str, Any]


@command("legal", ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class Legal(Request):
    game: str


@command("apply", ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class Apply(Request):
    game: str
    action: Mapping[str, Any]


@command("state", ErrorCode.UNKNOWN_FIELD, ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class State(Request):
    game: str
    field: str


@command("observe", ErrorCode.UNKNOWN_FIELD, ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class Observe(Request):
    game: str
    seat: int
    field: str


@command("end", ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class End(Request):
    game: str


@command("stop")
@dataclass(frozen=True)
class Stop(Request):
    pass


@command("batch", ErrorCode.UNKNOWN_GAME)
@dataclass(frozen=True)
class Batch(Request):
    """Optional (capability ``batch``): several actions applied in turn, each answered with what
    ``apply`` would say, the legal actions and the named state fields that follow it."""

    game: str
    actions: list[Mapping[str, Any]]
    fields: list[str]
    step_fields: list[list[str]] | None = None


#: The commands, in the order a session uses them.
COMMANDS = tuple(REGISTRY)
#: Optional commands: sent only to an engine that declares the capability of the same name.
OPTIONAL_COMMANDS = ("batch",)
#: The error codes each command may answer.
COMMAND_ERRORS = {name: tuple(str(code) for code in spec.errors) for name, spec in REGISTRY.items()}


class ProtocolSchemaError(Exception):
    """A schema uses a JSON Schema feature the fast validator does not implement."""


@dataclass(frozen=True)
class Violation:
    """One way a message breaks its schema: where (a JSON path such as ``$.actions[2].card``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


# --------------------------------------------------------------------------- encoding


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a protocol line: compact JSON, ASCII-only, ``\\n``-terminated."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


#: The deepest nesting of arrays and objects a message may have (the protocol's own messages
#: nest a few levels): deeper is not a protocol line, so no code of the harness, recursive or
#: not, ever meets a deeper value. It is the depth orjson encodes (its limit, checked by the tests).
MAX_DEPTH = 254


class NotProtocolJSON(ValueError):
    """A line that is JSON but not protocol JSON: nested too deep, or a name repeated in one object."""


def decode(line: bytes | str) -> Any:
    """Parse one protocol line (without or with its ``\\n``); raise :class:`ValueError` if it is
    not JSON (RFC 8259, UTF-8: ``NaN``, ``Infinity``, a lone surrogate, a number beyond a double's
    range are not), or :class:`NotProtocolJSON` if it nests deeper than :data:`MAX_DEPTH` or
    repeats a member name in one object (I-JSON, RFC 7493: every parser then reads it alike)."""
    value = orjson.loads(line)  # orjson.JSONDecodeError is a ValueError
    if not isinstance(value, dict | list):
        return value
    try:
        again = orjson.dumps(value)  # C code, bounded: refuses what nests deeper than MAX_DEPTH
    except orjson.JSONEncodeError:
        raise NotProtocolJSON(f"arrays and objects nested deeper than {MAX_DEPTH} levels") from None
    data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    # Every ':' outside a string separates a member; orjson keeps the last of repeated names, so
    # the text read back has fewer. A colon written as an escape (\u003a) is counted the slow way.
    if data.count(b":") != again.count(b":") and not _ESCAPED_COLON.search(data):
        raise NotProtocolJSON("a member name is repeated in one object")
    if _ESCAPED_COLON.search(data):
        json.loads(data, object_pairs_hook=_unique_members)
    return value


_ESCAPED_COLON = re.compile(rb"\\u003[aA]")


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        raise NotProtocolJSON("a member name is repeated in one object")
    return members


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
    folder = resources.files("adapters.schemas")
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

Check = Callable[[Any], bool]

#: ``x-capability`` and ``x-since`` say what an entry asks of an engine (:mod:`adapters.obligations`)
_ANNOTATIONS = {
    *("$schema", "$id", "$defs", "title", "description", "$comment", "examples", "default"),
    *("x-capability", "x-since"),
}
_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == 1.0`` but ``true != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


class _Compiler:
    """Compile the protocol's schemas to nested closures returning ``True`` for a valid instance."""

    def __init__(self, documents: Mapping[str, JSONObject]) -> None:
        self.documents = documents
        self.compiled: dict[str, Check] = {}

    def compile_ref(self, base: str, ref: str) -> Check:
        uri = urljoin(base, ref)
        if uri not in self.compiled:
            slot: list[Check] = []
            self.compiled[uri] = lambda v: slot[0](v)  # allows recursive references
            document_uri, fragment = urldefrag(uri)
            if document_uri not in self.documents:
                raise ProtocolSchemaError(f"unresolvable $ref {ref!r} from {base}")
            target: Any = self.documents[document_uri]
            for token in [t for t in fragment.split("/") if t]:
                target = target[token.replace("~1", "/").replace("~0", "~")]
            check = self.compile(document_uri, target)
            if isinstance(target, dict) and target.get("type") == "object":
                check = _remembering(check)
            slot.append(check)
            self.compiled[uri] = slot[0]
        return self.compiled[uri]

    def compile(self, base: str, node: Any) -> Check:
        if node is True:
            return _always
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise ProtocolSchemaError(f"not a schema: {node!r}")
        base = node.get("$id", base)
        unknown = set(node) - _ANNOTATIONS - _KEYWORDS
        if unknown:
            raise ProtocolSchemaError(f"the fast validator does not implement {sorted(unknown)}")
        checks: list[Check] = []
        if "$ref" in node:
            checks.append(self.compile_ref(base, node["$ref"]))
        # "type": "object" (or "array") is folded into the check of the members (of the items):
        # one call per object instead of three, and a batch answer holds hundreds of them
        typed = node.get("type") if node.get("type") in ("object", "array") else None
        if typed == "object" and not _OBJECT_KEYWORDS & node.keys():
            typed = None
        if typed == "array" and "items" not in node:
            typed = None
        if "type" in node and typed is None:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            tests = [_TYPES[name] for name in names]
            checks.append(_any(tests))
        if "const" in node:
            checks.append(_const_check(node["const"]))
        if "enum" in node:
            checks.append(_enum_check(node["enum"]))
        if "minimum" in node:
            low = node["minimum"]
            checks.append(lambda v: not _TYPES["number"](v) or v >= low)
        if "minLength" in node:
            shortest = node["minLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) >= shortest)
        if "maxLength" in node:
            longest = node["maxLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) <= longest)
        if "pattern" in node:
            search = re.compile(node["pattern"]).search
            checks.append(lambda v: not isinstance(v, str) or search(v) is not None)
        checks.extend(self._object_checks(base, node, typed == "object"))
        checks.extend(self._array_checks(base, node, typed == "array"))
        if "allOf" in node:
            checks.append(
                self._dispatch(base, node["allOf"]) or _all([self.compile(base, sub) for sub in node["allOf"]])
            )
        if "anyOf" in node:
            alternatives = [self.compile(base, sub) for sub in node["anyOf"]]
            checks.append(lambda v: any(alternative(v) for alternative in alternatives))
        if "oneOf" in node:
            options = [self.compile(base, sub) for sub in node["oneOf"]]
            checks.append(lambda v: sum(1 for option in options if option(v)) == 1)
        if "if" in node:
            condition = self.compile(base, node["if"])
            then = self.compile(base, node.get("then", True))
            otherwise = self.compile(base, node.get("else", True))
            checks.append(lambda v: then(v) if condition(v) else otherwise(v))
        return _all(checks)

    def _dispatch(self, base: str, branches: list[Any]) -> Check | None:
        """``allOf`` of ``if {"properties": {K: {"const": "..."}}} then S`` as a table lookup on ``K``.

        Exactly equivalent: a non-object, or an object without ``K``, satisfies every ``if``.
        """
        keys: set[str] = set()
        table: dict[str, Check] = {}
        for branch in branches:
            if not isinstance(branch, dict) or set(branch) - {"if", "then"}:
                return None
            condition = branch.get("if")
            if not isinstance(condition, dict) or set(condition) != {"properties"} or len(condition["properties"]) != 1:
                return None
            [(key, test)] = condition["properties"].items()
            if not isinstance(test, dict) or set(test) != {"const"} or not isinstance(test["const"], str):
                return None
            if test["const"] in table:
                return None
            keys.add(key)
            table[test["const"]] = self.compile(base, branch.get("then", True))
        if len(keys) != 1:
            return None
        [key] = keys
        every = _all(list(table.values()))

        def check_dispatch(v: Any) -> bool:
            if not isinstance(v, dict) or key not in v:
                return every(v)
            value = v[key]
            branch = table.get(value) if isinstance(value, str) else None
            return branch is None or branch(v)

        return check_dispatch

    def _object_checks(self, base: str, node: JSONObject, typed: bool = False) -> list[Check]:
        """The checks of an object's members; ``typed``: also that it is an object (``"type": "object"``)."""
        checks: list[Check] = []
        required = frozenset(node.get("required", ()))
        properties = {key: self.compile(base, sub) for key, sub in node.get("properties", {}).items()}
        patterns = [
            (re.compile(p).search, self.compile(base, sub)) for p, sub in node.get("patternProperties", {}).items()
        ]
        extra = node.get("additionalProperties", True)
        additional = None if extra is True else self.compile(base, extra)
        if additional is None and not patterns:
            listed = tuple(properties.items())

            def check_listed(v: Any) -> bool:
                if not isinstance(v, dict):
                    return not typed
                if not v.keys() >= required:
                    return False
                for key, test in listed:  # noqa: SIM110 - a plain loop is faster than all() over a generator
                    if key in v and not test(v[key]):
                        return False
                return True

            if listed or required or typed:
                checks.append(check_listed)
            return checks

        # patterns whose schema takes anything (the protocol's "x-" extension members) only free
        # their keys from additionalProperties: a key listed in properties needs no search
        searched = any(pattern_test is not _always for _, pattern_test in patterns)

        def check_object(v: Any) -> bool:
            if not isinstance(v, dict):
                return not typed
            if not v.keys() >= required:
                return False
            for key, value in v.items():
                test = properties.get(key)
                matched = test is not None
                if matched:
                    if not test(value):  # type: ignore[misc]
                        return False
                    if not searched:
                        continue
                for search, pattern_test in patterns:
                    if search(key) is not None:
                        matched = True
                        if not pattern_test(value):
                            return False
                if not matched and additional is not None and not additional(value):
                    return False
            return True

        checks.append(check_object)
        return checks

    def _array_checks(self, base: str, node: JSONObject, typed: bool = False) -> list[Check]:
        """The checks of an array's items; ``typed``: also that it is an array (``"type": "array"``)."""
        checks: list[Check] = []
        if "items" in node:
            item = self.compile(base, node["items"])

            def check_items(v: Any) -> bool:
                if not isinstance(v, list):
                    return not typed
                for x in v:  # noqa: SIM110 - a plain loop is faster than all() over a generator
                    if not item(x):
                        return False
                return True

            checks.append(check_items)
        if "minItems" in node:
            fewest = node["minItems"]
            checks.append(lambda v: not isinstance(v, list) or len(v) >= fewest)
        if node.get("uniqueItems"):
            checks.append(
                lambda v: (
                    not isinstance(v, list)
                    or not any(_equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))
                )
            )
        return checks


_KEYWORDS = {
    "type", "enum", "const", "required", "properties", "patternProperties", "additionalProperties",
    "items", "minItems", "uniqueItems", "minimum", "minLength", "maxLength", "pattern",
    "anyOf", "oneOf", "allOf", "if", "then", "else", "$ref",
}  # fmt: skip


#: The keywords of an object's members, whose check can tell an object from anything else.
_OBJECT_KEYWORDS = {"required", "properties", "patternProperties", "additionalProperties"}


def _always(v: Any) -> bool:
    return True


#: How many valid objects each remembering check keeps.
_REMEMBERED = 4096


def _remembering(check: Check) -> Check:
    """``check`` of a JSON object, remembering the objects of plain members (strings, numbers,
    booleans, null) it found valid: a ``batch`` answer lists the same actions again and again.

    The members' types are part of what is remembered, so ``1``, ``1.0`` and ``true`` stay apart.
    A check whose objects have so far always held a list or an object stops trying."""
    valid: set[tuple[Any, ...]] = set()
    tries = [0, 0]  # objects seen, objects that could be remembered

    def check_remembering(v: Any) -> bool:
        if type(v) is not dict or (tries[0] > 64 and not tries[1]):
            return check(v)
        key = (*v.items(), *map(type, v.values()))  # the members, then their types
        tries[0] += 1
        try:
            if key in valid:
                return True
        except TypeError:  # a member holds a list or an object: checked every time
            return check(v)
        tries[1] = 1
        if not check(v):
            return False
        if len(valid) < _REMEMBERED:
            valid.add(key)
        return True

    return check_remembering


def _any(tests: list[Check]) -> Check:
    """Whether one of ``tests`` passes (for a list of types, ``["integer", "null"]``)."""
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        first, second = tests
        return lambda v: first(v) or second(v)
    return lambda v: any(test(v) for test in tests)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    frozen = tuple(checks)

    def check_all(v: Any) -> bool:
        for check in frozen:  # noqa: SIM110 - a plain loop is faster than all() over a generator
            if not check(v):
                return False
        return True

    return check_all


def _const_check(constant: Any) -> Check:
    if isinstance(constant, str):
        return lambda v: isinstance(v, str) and v == constant
    if isinstance(constant, bool):
        return lambda v: v is constant
    return lambda v: _equal(v, constant)


def _enum_check(options: list[Any]) -> Check:
    if all(isinstance(option, str) for option in options):
        allowed = frozenset(options)
        return lambda v: isinstance(v, str) and v in allowed
    return lambda v: any(_equal(v, option) for option in options)


@cache
def _compiler() -> _Compiler:
    return _Compiler(_by_id())


@cache
def _fast_checks() -> dict[str, Check]:
    compiler = _compiler()
    return {name: compiler.compile_ref(SCHEMA_BASE + name, "") for name in load_schemas()}


@cache
def _batch_step_check() -> Check:
    return _compiler().compile_ref(SCHEMA_BASE + "batch.response.json", "#/$defs/step")


def canonical(value: Any) -> bytes | None:
    """``value`` as canonical JSON text (members sorted by key), or ``None`` if it is not JSON.

    Two values have the same canonical text exactly when they are the same JSON value: unlike
    Python's ``==``, ``1``, ``1.0`` and ``true`` differ."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError: a set, an integer too large for JSON numbers...
        return None


def same_value(expected: Any, got: Any) -> bool:
    """Whether ``got`` is the JSON value ``expected``: equal, with a boolean never taken for a
    number (Python has ``True == 1`` and ``False == 0``; JSON has ``true`` and ``1`` apart, and an
    engine that writes a boolean field as ``0`` or ``1`` is wrong). Numbers compare by value
    (``1`` is ``1.0``, as for JSON Schema's integers); objects and arrays member by member, an
    object's ``x-`` members left out (extensions: the harness ignores them wherever they are).

    Values of the same scalar type are compared at once; containers equal by ``==`` whose
    canonical texts (:func:`canonical`) agree are the same; only the rest are walked."""
    kind = type(expected)
    if kind is type(got) and kind is not list and kind is not dict:
        return bool(expected == got)
    if expected != got:
        return _same_but_extensions(expected, got)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return _same_text(expected, got) or all(same_value(a, b) for a, b in zip(expected, got, strict=True))
    if isinstance(expected, dict) and isinstance(got, dict):
        return _same_text(expected, got) or all(same_value(value, got[key]) for key, value in expected.items())
    return isinstance(expected, bool) == isinstance(got, bool)


def _same_but_extensions(expected: Any, got: Any) -> bool:
    """Containers that differ by ``==``: the same value if they differ only by ``x-`` members."""
    if isinstance(expected, dict) and isinstance(got, dict):
        mine = {key: value for key, value in expected.items() if not key.startswith("x-")}
        theirs = {key: value for key, value in got.items() if not key.startswith("x-")}
        return mine.keys() == theirs.keys() and all(same_value(value, theirs[key]) for key, value in mine.items())
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)) and len(expected) == len(got):
        return all(same_value(a, b) for a, b in zip(expected, got, strict=True))
    return False


def _same_text(expected: Any, got: Any) -> bool:
    text = canonical(expected)
    return text is not None and text == canonical(got)


def batch_answer_is_valid(answer: Any, expected: Sequence[bytes | None]) -> bool:
    """:func:`response_is_valid` for a ``batch`` answer, cheaper when most of its steps are known.

    ``expected[i]`` is the canonical text (:func:`canonical`) of a valid step the caller expects
    as step ``i`` (the differential fuzzer's: the reference's own answer), or ``None``. A step
    with that very text is valid without a check; every other step, and the rest of the answer,
    is checked. Exactly as strict as :func:`response_is_valid`: the steps' schema has no
    constraint across steps (``minItems``, ``uniqueItems``), so the answer is valid when the rest
    of it is and each step is."""
    steps = answer.get("steps") if isinstance(answer, dict) else None
    if not isinstance(steps, list) or answer.get("ok") is not True:
        return response_is_valid("batch", answer)
    if not response_is_valid("batch", {**answer, "steps": []}):
        return False
    check = _batch_step_check()
    for index, step in enumerate(steps):
        known = expected[index] if index < len(expected) else None
        if (known is None or canonical(step) != known) and not check(step):
            return False
    return True


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


__all__ = [
    "COMMANDS",
    "COMMAND_ERRORS",
    "ERROR_CODES",
    "FIELDS_SCHEMA",
    "OPTIONAL_COMMANDS",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "REGISTRY",
    "SCHEMA_BASE",
    "Apply",
    "CommandSpec",
    "End",
    "ErrorCode",
    "Hello",
    "Legal",
    "Observe",
    "ProtocolSchemaError",
    "Request",
    "Start",
    "State",
    "Stop",
    "Violation",
    "batch_answer_is_valid",
    "canonical",
    "check_response",
    "command",
    "compile_schemas",
    "decode",
    "encode",
    "field_key",
    "field_violations",
    "load_schemas",
    "request_is_valid",
    "request_violations",
    "response_is_valid",
    "response_violations",
    "same_value",
    "schema",
    "schema_name",
]
