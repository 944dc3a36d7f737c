"""Check an engine written in any language: run it as a subprocess speaking the conformance protocol (GCP).

:class:`SubprocessEngine` implements the :class:`~guinote_conformance.adapters.interface.Engine` interface by
sending protocol requests (:mod:`guinote_conformance.adapters.protocol`) to ONE long-lived engine process::

    engine = SubprocessEngine(["node", "my_engine.js"], timeout=5.0)
    game = engine.start({"flags": {...}, "dealer": 0, "deck": [...]})
    game.apply(game.legal_actions()[0])
    engine.close()

What it guarantees, whatever the engine does:

* **never hangs**: every request has a deadline (``timeout``; ``startup_timeout`` for the
  launch and handshake), reading and writing alike; a request sent ahead of reading its
  answer (:meth:`SubprocessGame.batch_begin`: the fuzzer plays on while the engine works) has
  its whole ``timeout`` from the moment its answer is awaited, and is answered before any
  other request is sent, so the engine still sees one request at a time;
* **every answer is checked**: it must be one JSON line, echo the request ``id`` and match the
  schema of its command; a line longer than ``max_line_bytes`` is refused unread;
* **useful failures**: an :class:`EngineFailure` (an :class:`~guinote_conformance.adapters.interface.EngineError`)
  says what was sent, what came back and the end of the engine's stderr, which is kept in a
  bounded ring buffer (:meth:`SubprocessEngine.stderr_tail`);
* **one crash costs one scenario**: when the process crashes, hangs or breaks the protocol
  while answering a request, it is killed and the game that sent the request is *broken*
  (every later call on that handle raises); the next call relaunches the process and replays
  the handshake, and every other open game is rebuilt on the new process, when it is next
  used, by replaying its setup and accepted actions (the events must come out the same, or
  the game is broken as nondeterministic). A process found dead between requests is
  relaunched the same way, and no game is broken;
* **a crash is seen as one**: while an answer is awaited the process itself is watched, so an
  engine that exits is an :class:`EngineCrashed` at once, even if a child of its keeps its
  stdout open (no end of file would ever come);
* **no process outlives it**: the engine runs in a process group of its own, and every
  process of a launch carries :data:`MARK_VARIABLE` in its environment; each kill (a failure,
  a relaunch, :meth:`SubprocessEngine.close` after ``stop``, the finalizer of a forgotten
  engine) kills the group whatever state the engine is in, and on Linux every process that
  still carries the mark (those that left the group).

An ``engine_error`` answer (the engine reports its own failure) raises an
:class:`EngineFailure` but keeps the process; after an ``apply`` it also breaks the game,
whose state is then unknown.

The parts are in :mod:`guinote_conformance.adapters.wire` (the failures, the pipes, the process and its tree, the
game handle); the names above are importable from here.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from guinote_conformance.adapters.gcp.json_text import encode
from guinote_conformance.adapters.gcp.messages import (
    PROTOCOL_VERSIONS,
    Apply,
    End,
    ErrorCode,
    Hello,
    Request,
    Start,
    Stop,
)
from guinote_conformance.adapters.gcp.validation import (
    batch_answer_is_valid,
    known_batch_steps,
    response_is_valid,
    response_violations,
)
from guinote_conformance.adapters.interface import EngineInfo, Setup, SetupRejected, UnknownField
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.wire.failures import (
    SHOWN,
    STARTUP_TIMEOUT,
    AnswerTooLong,
    EngineClosed,
    EngineCrashed,
    EngineFailure,
    EngineReportedError,
    EngineTimeout,
    GameLost,
    GarbageAnswer,
    GaveUp,
    LaunchFailure,
    ReplayMismatch,
    SchemaViolation,
    StartTimeout,
    TransportFailure,
    UnexpectedError,
    UnsolicitedOutput,
    WrongId,
)
from guinote_conformance.adapters.wire.game import Slot, SubprocessGame
from guinote_conformance.adapters.wire.pipes import Reader
from guinote_conformance.adapters.wire.process import EngineProcess, InFlight
from guinote_conformance.adapters.wire.process_tree import MARK_VARIABLE

_LAUNCH_MARK = "--- gcp: launch "


class KnownSteps(dict[str, Any]):
    """A ``batch`` answer, and which of its steps have the canonical text the caller expected
    (:func:`~guinote_conformance.adapters.gcp.json_text.known_texts`): found once, when the answer
    is checked, and read again by the differential fuzzer's comparison (:attr:`known_steps`), so that
    a hand's steps are written out once, not twice. It reads, compares and encodes as the plain
    answer it holds."""

    __slots__ = ("known_steps",)

    def __init__(self, answer: Mapping[str, Any], known: list[bool]) -> None:
        super().__init__(answer)
        self.known_steps = known

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return dict, (dict(self),)


class SubprocessEngine:
    """An engine process speaking the conformance protocol (GCP/1 or later), as an
    :class:`~guinote_conformance.adapters.interface.Engine`.

    ``argv`` is an argument list (never a shell string). Not thread-safe: one caller at a time.
    """

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float = 5.0,
        *,
        startup_timeout: float = STARTUP_TIMEOUT,
        max_line_bytes: int = 1 << 20,
        stderr_lines: int = 200,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        max_failed_launches: int = 3,
        stop_timeout: float = 1.0,
        reader: Reader = "auto",
    ) -> None:
        if isinstance(argv, str | bytes):
            raise TypeError("argv is a list of arguments, not a shell string: use shlex.split() if you must")
        if not argv:
            raise ValueError("argv is empty")
        self.argv = [str(arg) for arg in argv]
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_line_bytes = max_line_bytes
        self.cwd = cwd
        self.env = env
        self.max_failed_launches = max_failed_launches
        self.stop_timeout = stop_timeout
        self.reader: Reader = reader
        self._stderr: deque[str] = deque(maxlen=stderr_lines)
        self._process: EngineProcess | None = None
        self._info: EngineInfo | None = None
        self._hello: dict[str, Any] | None = None
        self._obligations: Obligations | None = None
        self._gated = False
        self._failed_launches = 0
        self._closed = False
        self._orphans: list[Slot] = []
        self._last_raw = b""
        #: the request sent whose answer has not been read yet (see :meth:`_post_on`)
        self._in_flight: InFlight | None = None
        #: how many times the process was launched (1 + restarts)
        self.generation = 0

    # ------------------------------------------------------------------ Engine

    def info(self) -> EngineInfo:
        """What the engine declared in its handshake (launches it if needed)."""
        self._ensure_process()
        assert self._info is not None
        return self._info

    @property
    def hello(self) -> dict[str, Any]:
        """The raw ``engine`` object of the last handshake."""
        self._ensure_process()
        assert self._hello is not None
        return self._hello

    def start(self, setup: Setup) -> SubprocessGame:
        """Start a game; raise :class:`SetupRejected` for an unsupported or impossible setup."""
        self._end_orphans()
        slot = self._start_slot(setup)
        return SubprocessGame(self, json.dumps(dict(setup)), slot)

    def close(self) -> None:
        """Send ``stop``, then end of stdin; terminate, then kill if the engine does not exit."""
        if self._closed:
            return
        self._closed = True
        self._settle()
        process, self._process = self._process, None
        if process is None:
            return
        if process.alive():
            with contextlib.suppress(EngineFailure):
                self._exchange(process, Stop(), self.stop_timeout)
        process.stop(self.stop_timeout)

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stderr_tail(self, lines: int = 20) -> list[str]:
        """The last ``lines`` lines the engine wrote to stderr, across restarts (each launch
        is marked by a line ``--- gcp: launch N ---``)."""
        tail = list(self._stderr)
        return tail[-lines:] if lines > 0 else []

    def _process_stderr(self, lines: int = 20) -> list[str]:
        """The end of the current process's stderr (after its launch marker)."""
        tail = list(self._stderr)
        marker = f"{_LAUNCH_MARK}{self.generation} ---"
        if marker in tail:
            tail = tail[len(tail) - tail[::-1].index(marker) :]
        return tail[-lines:]

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.alive()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    # ------------------------------------------------------------------ process management

    def _ensure_process(self) -> EngineProcess:
        self._settle()  # a request in flight is answered before anything else happens
        if self._closed:
            raise EngineClosed("the engine was closed", argv=self.argv)
        if self._process is not None and not self._process.dead:
            status = self._process.popen.poll()
            if status is None:
                return self._process
            # it died between requests: nobody's request failed, so relaunch and replay silently
            self._stderr.append(f"--- gcp: the engine exited between requests (status {status}) ---")
            self._drop(self._process)
        if self._failed_launches >= self.max_failed_launches:
            raise GaveUp(
                f"the engine failed to start {self._failed_launches} times in a row; not trying again",
                argv=self.argv,
                stderr=self._process_stderr(),
            )
        self.generation += 1
        self._stderr.append(f"{_LAUNCH_MARK}{self.generation} ---")
        try:
            process = EngineProcess(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                ring=self._stderr,
                max_line_bytes=self.max_line_bytes,
                reader=self.reader,
            )
        except OSError as error:
            self._failed_launches += 1
            raise LaunchFailure(f"cannot run the engine: {error}", argv=self.argv) from None
        self._process = process
        try:
            answer = self._call_on(process, Hello(), self.startup_timeout)
            for older in reversed(PROTOCOL_VERSIONS[:-1]):
                # an engine that takes only the version it was written for: ask for the older ones in turn
                if answer["ok"] or answer.get("error") != ErrorCode.UNSUPPORTED_PROTOCOL:
                    break
                answer = self._call_on(process, Hello(protocol=older), self.startup_timeout)
            if not answer["ok"]:
                raise LaunchFailure(
                    f"the engine refused the handshake: {answer['error']}: {answer['message']}",
                    argv=self.argv,
                )
        except EngineFailure as failure:
            self._failed_launches += 1
            if not process.dead:
                self._drop(process)
            if isinstance(failure, LaunchFailure):
                raise
            raise (StartTimeout if isinstance(failure, EngineTimeout) else LaunchFailure)(
                f"the engine failed its handshake ({failure.kind}): {failure.summary}",
                argv=self.argv,
                sent=failure.sent,
                received=failure.received,
                stderr=failure.stderr,
                details=failure.details,
            ) from None
        self._failed_launches = 0
        engine = answer["engine"]
        self._hello = engine
        self._obligations = Obligations(frozenset(engine["capabilities"]), answer["protocol"])
        # whether any event member is required of this engine beyond the schema's (checked at every answer)
        self._gated = self._obligations.beyond_schema
        self._info = EngineInfo(
            name=engine["name"],
            version=engine["version"],
            language=engine["language"],
            profiles=engine["profiles"],
            flags=engine["flags"],
            capabilities=frozenset(engine["capabilities"]),
            homepage=engine.get("homepage", ""),
            protocol=answer["protocol"],
        )
        return process

    def _drop(self, process: EngineProcess) -> None:
        process.kill()
        if self._process is process:
            self._process = None

    # ------------------------------------------------------------------ requests

    def _exchange(self, process: EngineProcess, request: Request, timeout: float) -> dict[str, Any]:
        """One request and its answer; transport and schema problems raise a :class:`TransportFailure`."""
        answer, raw = process.exchange(request, timeout)
        self._last_raw = raw
        return self._checked(request, answer, raw)

    def _checked(
        self, request: Request, answer: dict[str, Any], raw: bytes, expected: Sequence[bytes | None] = ()
    ) -> dict[str, Any]:
        """``answer``, if it matches the schema of ``request``'s command; else :class:`SchemaViolation`.
        ``expected``: the known steps of a ``batch`` answer
        (:func:`~guinote_conformance.adapters.gcp.validation.batch_answer_is_valid`)."""
        cmd = request.spec.name
        known = known_batch_steps(answer, expected) if expected else None
        valid = batch_answer_is_valid(answer, expected, known) if expected else response_is_valid(cmd, answer)
        if not valid:
            violations = response_violations(cmd, answer)
            if violations:
                raise SchemaViolation(
                    f"the answer to {cmd!r} breaks the schema {request.spec.response_schema}",
                    received=raw,
                    details=[f"violation: {violation}" for violation in violations[:10]],
                )
        if self._gated and answer.get("ok") and cmd in ("apply", "batch"):
            missing = self._missing_members(cmd, answer, known)
            if missing:
                raise SchemaViolation(
                    f"the answer to {cmd!r} lacks a member the engine's capabilities require",
                    received=raw,
                    details=[f"violation: {missing} (common.json)"],
                )
        return answer if known is None else KnownSteps(answer, known)

    def _missing_members(self, cmd: str, answer: Mapping[str, Any], known: Sequence[bool] | None = None) -> str:
        """The first event member that the engine's capabilities make required and that ``answer`` lacks.
        A ``known`` step (the text the caller expected: the reference's, every member in) is passed over."""
        assert self._obligations is not None
        if cmd == "apply":
            return self._obligations.missing_in(answer.get("events") or [])
        for number, step in enumerate(answer.get("steps") or []):
            if known is not None and known[number]:
                continue
            missing = self._obligations.missing_in(step.get("events") or [])
            if missing:
                return f"$.steps[{number}]{missing[1:]}"
        return ""

    def _call_on(self, process: EngineProcess, request: Request, timeout: float) -> dict[str, Any]:
        self._settle()
        try:
            return self._exchange(process, request, timeout)
        except TransportFailure as failure:
            raise self._lost(process, request, failure) from None

    def _lost(self, process: EngineProcess, request: Request, failure: TransportFailure) -> EngineFailure:
        """Kill a process that failed ``request``; the failure, with what was sent and the stderr."""
        self._drop(process)
        why = f"request {request.spec.name!r}; the process was killed, the next call relaunches it"
        return failure.with_context(
            f"{failure.summary} ({why})",
            argv=self.argv,
            sent=encode({"id": process.next_id, **request.to_json()}),
            stderr=self._process_stderr(),
        )

    def _post_on(self, process: EngineProcess, request: Request, timeout: float, *, later: bool = False) -> InFlight:
        """Send ``request`` and return at once: its answer is read by :meth:`_answer`, or by the
        next request sent, whichever comes first. The engine has ``timeout`` seconds from now to
        answer, or, for an answer read ``later`` (the fuzzer plays the next hand on the reference
        while the engine works), from the moment its answer is awaited."""
        self._settle()
        deadline = None if later else time.monotonic() + timeout
        try:
            request_id, line = process.post(request, timeout, deadline)
        except TransportFailure as failure:
            raise self._lost(process, request, failure) from None
        self._in_flight = InFlight(process, request, request_id, line, timeout, deadline)
        return self._in_flight

    def _settle(self) -> None:
        """Read the answer of the request in flight, if any, and keep it (or its failure) with it."""
        ticket, self._in_flight = self._in_flight, None
        if ticket is None:
            return
        try:
            answer, raw = ticket.process.collect(ticket.request_id, ticket.line, ticket.timeout, ticket.deadline)
            self._last_raw = ticket.raw = raw
            ticket.answer = self._checked(ticket.request, answer, raw, ticket.expected)
        except TransportFailure as failure:
            ticket.failure = self._lost(ticket.process, ticket.request, failure)

    def _answer(self, ticket: InFlight) -> dict[str, Any]:
        """The answer to a request :meth:`_post_on` sent (waiting for it if needed)."""
        if self._in_flight is ticket:
            self._settle()
        if ticket.failure is not None:
            raise ticket.failure
        assert ticket.answer is not None
        return ticket.answer

    def _call(self, request: Request) -> dict[str, Any]:
        return self._call_on(self._ensure_process(), request, self.timeout)

    def _refused(
        self, request: Request, answer: dict[str, Any], failure: type[EngineFailure] = EngineReportedError
    ) -> EngineFailure:
        code = answer.get("error")
        if failure is EngineReportedError and code != ErrorCode.ENGINE_ERROR:
            failure = UnexpectedError
        return failure(
            f"the engine answered {request.spec.name!r} with error {code!r}: {answer.get('message', '')}",
            argv=self.argv,
            sent=encode({"id": answer.get("id"), **request.to_json()}),
            received=encode(answer),
            stderr=self._process_stderr(),
        )

    # ------------------------------------------------------------------ games

    def _start_slot(self, setup: Setup) -> Slot:
        message = Start(dict(setup))
        answer = self._call(message)
        if answer["ok"]:
            return Slot(answer["game"], self.generation)
        code = answer["error"]
        if code == "unsupported":
            raise SetupRejected(answer["message"], answer["unsupported"])
        if code == "bad_setup":
            raise SetupRejected(answer["message"])
        raise self._refused(message, answer)

    def _end_orphans(self) -> None:
        """``end`` the games whose handles were garbage-collected (on the live process only)."""
        while self._orphans:
            slot = self._orphans.pop()
            if self._process is None or self._process.dead or slot.generation != self.generation:
                continue
            try:  # a failure here belongs to no scenario: note it, and let the start relaunch if needed
                answer = self._call(End(slot.game))
            except EngineFailure as failure:
                self._stderr.append(f"--- gcp: ending forgotten game {slot.game} failed: {failure.summary} ---")
                continue
            if not answer["ok"] and answer["error"] != "unknown_game":
                self._stderr.append(f"--- gcp: ending forgotten game {slot.game} failed: {answer['message']} ---")

    def _revive(self, game: SubprocessGame) -> None:
        """Rebuild ``game`` on a relaunched process: its setup, then its accepted actions."""
        slot = game._slot
        try:
            fresh = self._start_slot(json.loads(game._setup))
        except SetupRejected as rejected:
            raise ReplayMismatch(f"the relaunched engine refused the game's setup: {rejected}") from None
        slot.game, slot.generation = fresh.game, fresh.generation
        for number, (action, events) in enumerate(game._accepted(), 1):
            message = Apply(slot.game, action)
            answer = self._call(message)
            if not answer["ok"]:
                raise self._refused(message, answer, ReplayMismatch)
            if not answer["accepted"] or answer["events"] != events:
                raise ReplayMismatch(
                    f"replaying action {number} on the relaunched engine gave a different answer "
                    "(is the engine deterministic?)",
                    argv=self.argv,
                    sent=encode(message.to_json()),
                    received=encode(answer),
                    details=[f"first time: {json.dumps(events)[:SHOWN]}"],
                )


__all__ = [
    "MARK_VARIABLE",
    "STARTUP_TIMEOUT",
    "AnswerTooLong",
    "EngineClosed",
    "EngineCrashed",
    "EngineFailure",
    "EngineProcess",
    "EngineReportedError",
    "EngineTimeout",
    "GameLost",
    "GarbageAnswer",
    "GaveUp",
    "KnownSteps",
    "LaunchFailure",
    "ReplayMismatch",
    "SchemaViolation",
    "StartTimeout",
    "SubprocessEngine",
    "SubprocessGame",
    "TransportFailure",
    "UnexpectedError",
    "UnknownField",
    "UnsolicitedOutput",
    "WrongId",
]
