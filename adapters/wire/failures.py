"""How an engine run as a subprocess fails: :class:`EngineFailure` and its kinds.

Each failure says what was sent, what came back, the end of the engine's stderr and details
(e.g. each schema violation); :attr:`EngineFailure.fatal` failures kill the process (the
:class:`~guinote_conformance.adapters.wire.process.EngineProcess` that raised them, or the
:class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine` that caught them, kills it). A line
quoted in a failure is escaped (:data:`CONTROL`): no control character reaches a terminal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import ClassVar

from guinote_conformance.adapters.interface import EngineError

SHOWN = 300  # characters of a sent or received line quoted in an error message
#: Seconds an engine has, by default, to start and answer its first ``hello`` (the ``startup_timeout``
#: of :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`; ``--start-timeout`` of the CLI): past
#: it,
#: :class:`StartTimeout`. A cold JVM, a container or an engine that loads a model may need more.
STARTUP_TIMEOUT = 10.0


class EngineFailure(EngineError):
    """The engine failed; the subclass says how (``kind`` names it in reports).

    Each carries what was sent, what came back, the end of the engine's stderr and details
    (e.g. each schema violation). :attr:`fatal` failures kill the process (the next call
    relaunches it).
    """

    kind: ClassVar[str] = "failure"
    fatal: ClassVar[bool] = False

    def __init__(
        self,
        summary: str,
        *,
        argv: Sequence[str] = (),
        sent: bytes | None = None,
        received: bytes | None = None,
        stderr: Sequence[str] = (),
        details: Sequence[str] = (),
    ) -> None:
        self.summary = summary
        self.argv = list(argv)
        self.sent = sent
        self.received = received
        self.stderr = list(stderr)
        self.details = list(details)
        super().__init__(self._compose())

    def _compose(self) -> str:
        lines = [self.summary]
        lines.extend(f"  {detail}" for detail in self.details)
        if self.argv:
            lines.append(f"  engine:   {shlex.join(self.argv)}")
        if self.sent is not None:
            lines.append(f"  sent:     {_show(self.sent)}")
        if self.received is not None:
            lines.append(f"  received: {_show(self.received) if self.received else '(nothing)'}")
        if self.stderr:
            lines.append(f"  stderr (last {len(self.stderr)} lines):")
            lines.extend(f"    | {line}" for line in self.stderr)
        elif self.argv:
            lines.append("  stderr:   (empty)")
        return "\n".join(lines)

    def with_context(
        self, summary: str, *, argv: Sequence[str], sent: bytes | None, stderr: Sequence[str]
    ) -> EngineFailure:
        """The same failure, of the same class, with what the engine knows about the request."""
        return type(self)(
            summary, argv=argv, sent=sent if self.sent is None else self.sent, received=self.received,
            stderr=stderr, details=self.details,
        )  # fmt: skip


class LaunchFailure(EngineFailure):
    """The engine could not be started, or failed its handshake."""

    kind = "launch"
    fatal = True


class StartTimeout(LaunchFailure):
    """The engine did not answer its first ``hello`` within the start timeout (``startup_timeout``)."""


class GaveUp(EngineFailure):
    """The engine failed to start too many times in a row; it is not tried again."""

    kind = "gave_up"


class TransportFailure(EngineFailure):
    """The answer could not be read as the protocol says: the process is killed."""

    fatal = True


class EngineTimeout(TransportFailure):
    kind = "timeout"


class EngineCrashed(TransportFailure):
    """The process exited, or closed its stdin or stdout."""

    kind = "crash"


class GarbageAnswer(TransportFailure):
    """The answer is not a JSON object."""

    kind = "garbage"


class AnswerTooLong(TransportFailure):
    kind = "too_long"


class WrongId(TransportFailure):
    kind = "wrong_id"


class SchemaViolation(TransportFailure):
    """The answer breaks the schema of its command (each violation is a detail)."""

    kind = "schema"


class UnsolicitedOutput(TransportFailure):
    """The engine wrote output nobody asked for."""

    kind = "unsolicited"


class EngineReportedError(EngineFailure):
    """The engine answered ``engine_error``: its own failure (the process is kept)."""

    kind = "engine_error"


class UnexpectedError(EngineFailure):
    """The engine answered an error code its command cannot answer."""

    kind = "unexpected"


class ReplayMismatch(EngineFailure):
    """A game rebuilt on a relaunched process came out different (a nondeterministic engine)."""

    kind = "replay"


class GameLost(EngineFailure):
    """The game was lost by an earlier failure, or ended."""

    kind = "broken"


class EngineClosed(EngineFailure):
    kind = "closed"


#: How the engine process failed when a circuit breaker counts it (``run`` and ``compare``
#: ``--max-engine-failures``): it hung, died, or could not be (re)started. A rule failure, a
#: protocol rejection or an answer the schema refuses do not count: the engine answered.
ENGINE_DOWN: tuple[type[EngineFailure], ...] = (EngineTimeout, EngineCrashed, LaunchFailure, GaveUp)


def _show(data: bytes) -> str:
    """An excerpt of a line, escaped: invalid UTF-8 and control characters (an ESC that would
    restyle a terminal, a NUL...) are shown as escapes, never written as they are."""
    text = data[: SHOWN * 4].rstrip(b"\n").decode("utf-8", errors="backslashreplace")
    text = CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    if len(text) > SHOWN or len(data) > SHOWN * 4:
        return f"{text[:SHOWN]}... ({len(data)} bytes)"
    return text


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
