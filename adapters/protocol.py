"""GCP, the Guiñote conformance protocol, its public names: message constants, schemas and validation.

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

The names are defined in :mod:`guinote_conformance.adapters.gcp` (the messages, their JSON, the schemas and their
checks, the fast validator); this module is their public face: the docs cite them from here, and
code outside the suite imports them from here.
"""

from __future__ import annotations

from guinote_conformance.adapters.gcp.fast_validator import ProtocolSchemaError
from guinote_conformance.adapters.gcp.json_text import MAX_DEPTH, NotProtocolJSON, canonical, decode, encode, same_value
from guinote_conformance.adapters.gcp.messages import (
    COMMAND_ERRORS,
    COMMANDS,
    ERROR_CODES,
    OLDEST_PROTOCOL,
    OPTIONAL_COMMANDS,
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    REGISTRY,
    SCHEMA_BASE,
    Apply,
    CommandSpec,
    End,
    ErrorCode,
    Hello,
    Legal,
    Observe,
    Request,
    Start,
    State,
    Stop,
    command,
)
from guinote_conformance.adapters.gcp.validation import (
    FIELDS_SCHEMA,
    Violation,
    batch_answer_is_valid,
    check_response,
    compile_schemas,
    field_key,
    field_violations,
    load_schemas,
    request_is_valid,
    request_violations,
    response_is_valid,
    response_violations,
    schema,
    schema_name,
)

__all__ = [
    "COMMANDS",
    "COMMAND_ERRORS",
    "ERROR_CODES",
    "FIELDS_SCHEMA",
    "MAX_DEPTH",
    "OLDEST_PROTOCOL",
    "OPTIONAL_COMMANDS",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "REGISTRY",
    "SCHEMA_BASE",
    "Apply",
    "CommandSpec",
    "End",
    "ErrorCode",
    "Hello",
    "Legal",
    "NotProtocolJSON",
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
