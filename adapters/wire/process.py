"""One launched engine process: the framing of the protocol, every step with a deadline.

:class:`EngineProcess` launches the engine (in a process group of its own, its environment
marked: :mod:`guinote_conformance.adapters.wire.process_tree`), numbers a request, writes it as one line and reads
back the answer with the request's id, each within a deadline and a bound on the line's length
(:mod:`guinote_conformance.adapters.wire.pipes` reads the pipes); a request may be sent ahead of reading its answer
(:meth:`EngineProcess.post`, then :meth:`EngineProcess.collect`; :class:`InFlight` is the
ticket of such a request). It kills the engine and everything it started.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import selectors
import signal
import subprocess
import time
import weakref
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.gcp.json_text import NotProtocolJSON, decode, encode
from guinote_conformance.adapters.gcp.messages import Request
from guinote_conformance.adapters.wire.failures import (
    SHOWN,
    AnswerTooLong,
    EngineCrashed,
    EngineFailure,
    EngineTimeout,
    GarbageAnswer,
    TransportFailure,
    UnsolicitedOutput,
    WrongId,
)
from guinote_conformance.adapters.wire.pipes import Reader, SelectorStdout, Stderr, ThreadStdout
from guinote_conformance.adapters.wire.process_tree import MARK_VARIABLE, kill_tree, signal_group

_LAUNCHES = itertools.count(1)
#: While an answer is awaited, how often the engine process is checked: an engine that exited
#: while a child of its keeps stdout open is a crash, reported this soon rather than at the timeout.
_EXIT_POLL = 0.05
_HELD_OPEN = "the engine exited without answering (its stdout is held open by a process it started)"


class EngineProcess:
    """One launched engine process: the framing of the protocol, every step with a deadline.

    :meth:`exchange` numbers a request, sends it and reads its answer; it raises a
    :class:`TransportFailure` when the answer cannot be read as one JSON object with the
    request's id. The schema is checked by the caller
    (:class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine` raises,
    :mod:`guinote_conformance.adapters.harness.validate` reports every violation).
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str] | None,
        ring: deque[str],
        max_line_bytes: int,
        reader: Reader,
    ) -> None:
        posix = os.name == "posix"
        #: marks every process of this launch (its environment), to find those that leave its group
        self.token = f"{os.getpid()}.{next(_LAUNCHES)}.{secrets.token_hex(4)}"
        environment = dict(os.environ if env is None else env)
        environment[MARK_VARIABLE] = self.token
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=cwd,
            env=environment,
            start_new_session=posix,  # its own process group: killed with its children
        )
        assert self.popen.stdin is not None and self.popen.stdout is not None and self.popen.stderr is not None
        self.pid = self.popen.pid
        self.stdin_fd = self.popen.stdin.fileno()
        self.stderr = Stderr(self.popen.stderr, ring)
        use_select = reader == "select" or (reader == "auto" and posix)
        self.stdout: SelectorStdout | ThreadStdout = (
            SelectorStdout(self.popen.stdout) if use_select else ThreadStdout(self.popen.stdout)
        )
        self.writable: selectors.BaseSelector | None = None
        if use_select:  # a write that would block waits for the deadline, not forever
            os.set_blocking(self.stdin_fd, False)
            self.writable = selectors.DefaultSelector()
            self.writable.register(self.stdin_fd, selectors.EVENT_WRITE)
        self.max_line_bytes = max_line_bytes
        self.buffer = bytearray()
        self.scanned = 0
        self.dead = False
        self.next_id = 0
        self._finalizer = weakref.finalize(self, kill_tree, self.popen, self.token)

    # ------------------------------------------------------------------ lines

    def exchange(self, message: Request | Mapping[str, Any], timeout: float) -> tuple[dict[str, Any], bytes]:
        """Send one request (typed, or a raw mapping) and read its answer: ``(answer, raw line)``."""
        deadline = time.monotonic() + timeout  # one deadline for sending and answering
        request_id, line = self.post(message, timeout, deadline)
        return self.collect(request_id, line, timeout, deadline)

    def post(
        self, message: Request | Mapping[str, Any], timeout: float, deadline: float | None = None
    ) -> tuple[int, bytes]:
        """Number and send one request, without waiting for its answer: ``(its id, the line sent)``.
        Its answer is read by :meth:`collect`, before any other request is posted."""
        self.next_id += 1
        request_id = self.next_id
        body = message.to_json() if isinstance(message, Request) else dict(message)
        line = encode({"id": request_id, **body})
        with _naming_the_request(line, timeout):
            self.send(line, time.monotonic() + timeout if deadline is None else deadline)
        return request_id, line

    def collect(
        self, request_id: int, line: bytes, timeout: float, deadline: float | None = None
    ) -> tuple[dict[str, Any], bytes]:
        """Read the answer to the request ``post`` sent as ``line``: ``(answer, raw line)``. The
        engine has until ``deadline``, by default ``timeout`` seconds from now (a request posted
        earlier may have kept the engine busy while its sender did something else)."""
        with _naming_the_request(line, timeout):
            raw = self.readline(time.monotonic() + timeout if deadline is None else deadline)
        try:
            answer = decode(raw)
        except NotProtocolJSON as error:
            raise GarbageAnswer(f"the answer is not protocol JSON ({error})", sent=line, received=raw) from None
        except ValueError as error:
            raise GarbageAnswer(f"the answer is not JSON ({error})", sent=line, received=raw) from None
        if not isinstance(answer, dict):
            raise GarbageAnswer("the answer is not a JSON object", sent=line, received=raw)
        if type(answer.get("id")) is not int or answer["id"] != request_id:  # 3.0 == 3, True == 1: not ids
            raise WrongId(
                f"the answer has id {answer.get('id')!r}, the request had id {request_id}", sent=line, received=raw
            )
        return answer, raw

    def send(self, line: bytes, deadline: float) -> None:
        if self.buffer:
            raise UnsolicitedOutput("the engine wrote output nobody asked for", received=bytes(self.buffer))
        view = memoryview(line)
        while view:
            try:
                written = os.write(self.stdin_fd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError, OSError):
                raise EngineCrashed(self._exit_summary("the engine closed its stdin")) from None
            view = view[written:]
            if view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise EngineTimeout("the engine does not read its stdin")
                if self.popen.poll() is not None:  # it exited; a process it started holds its stdin
                    raise EngineCrashed(self._exit_summary("the engine exited without reading the request"))
                if self.writable is not None:
                    self.writable.select(min(remaining, _EXIT_POLL))

    def readline(self, deadline: float) -> bytes:
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                self.scanned = 0
                if len(line) > self.max_line_bytes:
                    raise AnswerTooLong(f"the answer is longer than {self.max_line_bytes} bytes", received=line)
                return line
            self.scanned = len(self.buffer)
            if len(self.buffer) > self.max_line_bytes:
                raise AnswerTooLong(
                    f"the engine wrote more than {self.max_line_bytes} bytes without a newline (max_line_bytes)",
                    received=bytes(self.buffer[:SHOWN]),
                )
            remaining = deadline - time.monotonic()
            chunk = self.stdout.read(min(remaining, _EXIT_POLL))
            if chunk is None:
                if self.popen.poll() is not None:
                    chunk = self.stdout.read(_EXIT_POLL)  # what it wrote before it exited
                    if chunk is None:  # no end of file: a process it started holds its stdout
                        raise EngineCrashed(self._exit_summary(_HELD_OPEN), received=bytes(self.buffer))
                elif remaining <= _EXIT_POLL:
                    raise EngineTimeout("no answer in time", received=bytes(self.buffer))
                else:
                    continue
            if not chunk:
                summary = self._exit_summary("the engine closed its stdout")
                raise EngineCrashed(summary, received=bytes(self.buffer))
            self.buffer += chunk

    def _exit_summary(self, what: str) -> str:
        try:
            code = self.popen.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return f"{what} but is still running"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"{what}: it was killed by {name}"
        return f"{what}: it exited with status {code}"

    # ------------------------------------------------------------------ life

    def alive(self) -> bool:
        return not self.dead and self.popen.poll() is None

    def kill(self) -> None:
        """Kill the engine and everything it started (:func:`kill_tree`), whatever its state:
        an engine that crashed or exited may have left children running."""
        self.dead = True
        kill_tree(self.popen, self.token)
        self.stderr.join(0.5)
        self._close_pipes()

    def stop(self, grace: float) -> None:
        """Wait ``grace`` seconds for a clean exit, then terminate, then kill; in every case the
        process group (and every marked process) is killed last: no child outlives the engine."""
        self.dead = True
        with contextlib.suppress(OSError):
            assert self.popen.stdin is not None
            self.popen.stdin.close()  # end of stdin: a well-behaved engine exits
        try:
            self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            signal_group(self.popen, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        kill_tree(self.popen, self.token)
        self.stderr.join(0.5)
        self._close_pipes()

    def _close_pipes(self) -> None:
        """Close our ends of stdin and stdout; the stderr thread closes stderr at its end of file."""
        self.stdout.close()
        if self.writable is not None:
            self.writable.close()
        with contextlib.suppress(OSError):
            assert self.popen.stdin is not None
            self.popen.stdin.close()
        self._finalizer.detach()


@contextlib.contextmanager
def _naming_the_request(line: bytes, timeout: float) -> Iterator[None]:
    """A transport failure while sending ``line`` or reading its answer names the request."""
    try:
        yield
    except EngineTimeout as failure:
        raise EngineTimeout(f"{failure.summary}: no answer within {timeout:g} s", sent=line,
                            received=failure.received) from None  # fmt: skip
    except TransportFailure as failure:
        failure.sent = line
        raise


@dataclass
class InFlight:
    """A request sent whose answer is read later
    (:meth:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine._post_on`): then
    ``answer`` and ``raw`` (its line), or the ``failure`` that reading it met."""

    process: EngineProcess
    request: Request
    request_id: int
    line: bytes
    timeout: float
    deadline: float | None = None
    answer: dict[str, Any] | None = None
    raw: bytes = b""
    failure: EngineFailure | None = None
    #: for a ``batch``: the canonical text of the steps the caller expects (see ``batch_begin``)
    expected: Sequence[bytes | None] = ()
