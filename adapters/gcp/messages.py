"""GCP's messages: the protocol versions, the error codes and the commands (typed requests).

Each command is a class registered with its name, the error codes its answer may carry and the
names of the schemas of its request and answer (:class:`CommandSpec`); :data:`COMMANDS` lists
them in the order a session uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as member
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

#: The protocol version this module speaks (the ``protocol`` member of ``hello``): the harness
#: asks for it, and takes an answer down to :data:`OLDEST_PROTOCOL` from an engine written for an
#: earlier version (what changed in each is ``docs/checking/changelog.md``; what a later version
#: added is optional for such an engine: :mod:`guinote_conformance.adapters.obligations`,
#: :mod:`guinote_conformance.adapters.versions`).
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
