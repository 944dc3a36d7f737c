"""Check an engine written in any language: run it as a subprocess speaking the conformance protocol (GCP).

:class:`SubprocessEngine` implements the :class:`~adapters.interface.Engine` interface by
sending protocol requests (:mod:`adapters.protocol`) to ONE long-lived engine process::

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
* **useful failures**: an :class:`EngineFailure` (an :class:`~adapters.interface.EngineError`)
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
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import secrets
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, ClassVar, Literal

from adapters import protocol
from adapters.interface import (
    JSON,
    Accepted,
    Action,
    EngineError,
    EngineInfo,
    EventList,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
    UnknownField,
)
from adapters.obligations import Obligations

_SHOWN = 300  # characters of a sent or received line quoted in an error message
_LAUNCH_MARK = "--- gcp: launch "
#: The environment variable that marks every process of one engine launch (its value is unique
#: to the launch): the children that leave the engine's process group are found by it and killed.
MARK_VARIABLE = "GCP_ENGINE_MARK"
#: Whether the processes' environments can be read (Linux's ``/proc``).
_PROC_SCAN = os.path.isdir("/proc/self") and os.path.exists("/proc/self/environ")
_LAUNCHES = itertools.count(1)
#: While an answer is awaited, how often the engine process is checked: an engine that exited
#: while a child of its keeps stdout open is a crash, reported this soon rather than at the timeout.
_EXIT_POLL = 0.05
_HELD_OPEN = "the engine exited without answering (its stdout is held open by a process it started)"


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
    text = data[: _SHOWN * 4].rstrip(b"\n").decode("utf-8", errors="backslashreplace")
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    if len(text) > _SHOWN or len(data) > _SHOWN * 4:
        return f"{text[:_SHOWN]}... ({len(data)} bytes)"
    return text


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


# --------------------------------------------------------------------------- the process


class _Stderr:
    """Drain a pipe into a bounded ring buffer of lines, on a daemon thread that owns (and
    finally closes) the pipe."""

    def __init__(self, pipe: IO[bytes], ring: deque[str], max_line: int = 1000) -> None:
        self.ring = ring
        self.max_line = max_line
        self.thread = threading.Thread(target=self._drain, args=(pipe,), name="gcp-stderr", daemon=True)
        self.thread.start()

    def _drain(self, pipe: IO[bytes]) -> None:
        partial = b""
        fd = pipe.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            lines = (partial + chunk).split(b"\n")
            partial = lines.pop()[: self.max_line * 4]
            for line in lines:
                self.ring.append(_clip(line, self.max_line))
        if partial:
            self.ring.append(_clip(partial, self.max_line))
        pipe.close()

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)


def _clip(line: bytes, limit: int) -> str:
    text = line.rstrip(b"\r").decode("utf-8", errors="backslashreplace")
    text = _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)  # no ESC reaches a terminal
    return text if len(text) <= limit else text[:limit] + f"... ({len(line)} bytes)"


class _SelectorStdout:
    """Chunks of the engine's stdout with a deadline, by ``select`` (POSIX)."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe
        self.fd = pipe.fileno()
        os.set_blocking(self.fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.fd, selectors.EVENT_READ)

    def read(self, timeout: float) -> bytes | None:
        """Up to 64 KiB; ``b""`` at end of file; ``None`` if nothing came within ``timeout``."""
        if timeout > 0 and self.selector.select(timeout):
            try:
                return os.read(self.fd, 65536)
            except BlockingIOError:  # pragma: no cover - spurious wake-up
                return None
        try:
            return os.read(self.fd, 65536)
        except BlockingIOError:
            return None

    def close(self) -> None:
        self.selector.close()
        self.pipe.close()


class _ThreadStdout:
    """Chunks of the engine's stdout with a deadline, by a reader thread (any platform).

    The queue is bounded, so an engine flooding stdout is held back by the pipe. The thread
    owns the pipe and closes it at the end of file.
    """

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe
        self.chunks: queue.Queue[bytes] = queue.Queue(maxsize=64)
        self.eof = False
        self.thread = threading.Thread(target=self._pump, name="gcp-stdout", daemon=True)
        self.thread.start()

    def _pump(self) -> None:
        fd = self.pipe.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            self.chunks.put(chunk)
            if not chunk:
                self.pipe.close()
                return

    def read(self, timeout: float) -> bytes | None:
        if self.eof:
            return b""
        try:
            chunk = self.chunks.get(timeout=max(timeout, 0.0)) if timeout > 0 else self.chunks.get_nowait()
        except queue.Empty:
            return None
        self.eof = not chunk
        return chunk

    def close(self) -> None:
        """Unblock the thread (the process is dead: it reaches the end of file soon)."""
        while True:
            try:
                self.chunks.get_nowait()
            except queue.Empty:
                break
        self.thread.join(0.5)


Reader = Literal["auto", "select", "thread"]


class EngineProcess:
    """One launched engine process: the framing of the protocol, every step with a deadline.

    :meth:`exchange` numbers a request, sends it and reads its answer; it raises a
    :class:`TransportFailure` when the answer cannot be read as one JSON object with the
    request's id. The schema is checked by the caller (:class:`SubprocessEngine` raises,
    :mod:`adapters.harness_check` reports every violation).
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
        self.stderr = _Stderr(self.popen.stderr, ring)
        use_select = reader == "select" or (reader == "auto" and posix)
        self.stdout: _SelectorStdout | _ThreadStdout = (
            _SelectorStdout(self.popen.stdout) if use_select else _ThreadStdout(self.popen.stdout)
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
        self._finalizer = weakref.finalize(self, _kill_tree, self.popen, self.token)

    # ------------------------------------------------------------------ lines

    def exchange(self, message: protocol.Request | Mapping[str, Any], timeout: float) -> tuple[dict[str, Any], bytes]:
        """Send one request (typed, or a raw mapping) and read its answer: ``(answer, raw line)``."""
        deadline = time.monotonic() + timeout  # one deadline for sending and answering
        request_id, line = self.post(message, timeout, deadline)
        return self.collect(request_id, line, timeout, deadline)

    def post(
        self, message: protocol.Request | Mapping[str, Any], timeout: float, deadline: float | None = None
    ) -> tuple[int, bytes]:
        """Number and send one request, without waiting for its answer: ``(its id, the line sent)``.
        Its answer is read by :meth:`collect`, before any other request is posted."""
        self.next_id += 1
        request_id = self.next_id
        body = message.to_json() if isinstance(message, protocol.Request) else dict(message)
        line = protocol.encode({"id": request_id, **body})
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
            answer = protocol.decode(raw)
        except protocol.NotProtocolJSON as error:
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
                    received=bytes(self.buffer[:_SHOWN]),
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
        """Kill the engine and everything it started (:func:`_kill_tree`), whatever its state:
        an engine that crashed or exited may have left children running."""
        self.dead = True
        _kill_tree(self.popen, self.token)
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
            _signal(self.popen, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        _kill_tree(self.popen, self.token)
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


def _signal(popen: subprocess.Popen[bytes], sig: int) -> None:
    """Send ``sig`` to the engine's process group, whether or not the engine itself is still
    running: its children stay in the group after it exits (and the group's id cannot be reused
    while any of them lives)."""
    try:
        if os.name == "posix":
            os.killpg(popen.pid, sig)  # the process group we created for it
        elif popen.poll() is None:  # pragma: no cover - Windows
            popen.kill() if sig == getattr(signal, "SIGKILL", None) else popen.terminate()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _marked(token: str) -> list[int]:
    """The processes whose environment carries the launch's mark (Linux: ``/proc/<pid>/environ``).

    Finds the descendants that left the engine's process group (``setsid``, a double fork) but
    kept its environment. Processes of other users are unreadable, and so never found."""
    needle = f"{MARK_VARIABLE}={token}".encode()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as file:
                environ = file.read()
        except OSError:  # gone, or not ours
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


def _kill_tree(popen: subprocess.Popen[bytes], token: str | None) -> None:
    """Kill the engine, its process group and (Linux) every process carrying its mark; reap it."""
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    _signal(popen, kill)
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=2.0)
    if token is None or not _PROC_SCAN:
        return
    for _ in range(5):  # a process may fork while it is being killed: scan again until none is left
        pids = [pid for pid in _marked(token) if pid != os.getpid()]
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, kill)
        time.sleep(0.01)


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


# --------------------------------------------------------------------------- the engine


@dataclass
class _InFlight:
    """A request sent whose answer is read later (:meth:`SubprocessEngine._post_on`): then
    ``answer`` and ``raw`` (its line), or the ``failure`` that reading it met."""

    process: EngineProcess
    request: protocol.Request
    request_id: int
    line: bytes
    timeout: float
    deadline: float | None = None
    answer: dict[str, Any] | None = None
    raw: bytes = b""
    failure: EngineFailure | None = None
    #: for a ``batch``: the canonical text of the steps the caller expects (see ``batch_begin``)
    expected: Sequence[bytes | None] = ()


@dataclass
class _Slot:
    """Where a game lives: its id in one generation of the engine process."""

    game: str
    generation: int


class SubprocessEngine:
    """An engine process speaking the conformance protocol (GCP/1 or later), as an :class:`~adapters.interface.Engine`.

    ``argv`` is an argument list (never a shell string). Not thread-safe: one caller at a time.
    """

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float = 5.0,
        *,
        startup_timeout: float = 10.0,
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
        self._orphans: list[_Slot] = []
        self._last_raw = b""
        #: the request sent whose answer has not been read yet (see :meth:`_post_on`)
        self._in_flight: _InFlight | None = None
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
                self._exchange(process, protocol.Stop(), self.stop_timeout)
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
            answer = self._call_on(process, protocol.Hello(), self.startup_timeout)
            for older in reversed(protocol.PROTOCOL_VERSIONS[:-1]):
                # an engine that takes only the version it was written for: ask for the older ones in turn
                if answer["ok"] or answer.get("error") != protocol.ErrorCode.UNSUPPORTED_PROTOCOL:
                    break
                answer = self._call_on(process, protocol.Hello(protocol=older), self.startup_timeout)
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
            raise LaunchFailure(
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

    def _exchange(self, process: EngineProcess, request: protocol.Request, timeout: float) -> dict[str, Any]:
        """One request and its answer; transport and schema problems raise a :class:`TransportFailure`."""
        answer, raw = process.exchange(request, timeout)
        self._last_raw = raw
        return self._checked(request, answer, raw)

    def _checked(
        self, request: protocol.Request, answer: dict[str, Any], raw: bytes, expected: Sequence[bytes | None] = ()
    ) -> dict[str, Any]:
        """``answer``, if it matches the schema of ``request``'s command; else :class:`SchemaViolation`.
        ``expected``: the known steps of a ``batch`` answer (:func:`protocol.batch_answer_is_valid`)."""
        cmd = request.spec.name
        valid = (
            protocol.batch_answer_is_valid(answer, expected) if expected else protocol.response_is_valid(cmd, answer)
        )
        if not valid:
            violations = protocol.response_violations(cmd, answer)
            if violations:
                raise SchemaViolation(
                    f"the answer to {cmd!r} breaks the schema {request.spec.response_schema}",
                    received=raw,
                    details=[f"violation: {violation}" for violation in violations[:10]],
                )
        if self._gated and answer.get("ok") and cmd in ("apply", "batch"):
            missing = self._missing_members(cmd, answer)
            if missing:
                raise SchemaViolation(
                    f"the answer to {cmd!r} lacks a member the engine's capabilities require",
                    received=raw,
                    details=[f"violation: {missing} (common.json)"],
                )
        return answer

    def _missing_members(self, cmd: str, answer: Mapping[str, Any]) -> str:
        """The first event member that the engine's capabilities make required and that ``answer`` lacks."""
        assert self._obligations is not None
        if cmd == "apply":
            return self._obligations.missing_in(answer.get("events") or [])
        for number, step in enumerate(answer.get("steps") or []):
            missing = self._obligations.missing_in(step.get("events") or [])
            if missing:
                return f"$.steps[{number}]{missing[1:]}"
        return ""

    def _call_on(self, process: EngineProcess, request: protocol.Request, timeout: float) -> dict[str, Any]:
        self._settle()
        try:
            return self._exchange(process, request, timeout)
        except TransportFailure as failure:
            raise self._lost(process, request, failure) from None

    def _lost(self, process: EngineProcess, request: protocol.Request, failure: TransportFailure) -> EngineFailure:
        """Kill a process that failed ``request``; the failure, with what was sent and the stderr."""
        self._drop(process)
        why = f"request {request.spec.name!r}; the process was killed, the next call relaunches it"
        return failure.with_context(
            f"{failure.summary} ({why})",
            argv=self.argv,
            sent=protocol.encode({"id": process.next_id, **request.to_json()}),
            stderr=self._process_stderr(),
        )

    def _post_on(
        self, process: EngineProcess, request: protocol.Request, timeout: float, *, later: bool = False
    ) -> _InFlight:
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
        self._in_flight = _InFlight(process, request, request_id, line, timeout, deadline)
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

    def _answer(self, ticket: _InFlight) -> dict[str, Any]:
        """The answer to a request :meth:`_post_on` sent (waiting for it if needed)."""
        if self._in_flight is ticket:
            self._settle()
        if ticket.failure is not None:
            raise ticket.failure
        assert ticket.answer is not None
        return ticket.answer

    def _call(self, request: protocol.Request) -> dict[str, Any]:
        return self._call_on(self._ensure_process(), request, self.timeout)

    def _refused(
        self, request: protocol.Request, answer: dict[str, Any], failure: type[EngineFailure] = EngineReportedError
    ) -> EngineFailure:
        code = answer.get("error")
        if failure is EngineReportedError and code != protocol.ErrorCode.ENGINE_ERROR:
            failure = UnexpectedError
        return failure(
            f"the engine answered {request.spec.name!r} with error {code!r}: {answer.get('message', '')}",
            argv=self.argv,
            sent=protocol.encode({"id": answer.get("id"), **request.to_json()}),
            received=protocol.encode(answer),
            stderr=self._process_stderr(),
        )

    # ------------------------------------------------------------------ games

    def _start_slot(self, setup: Setup) -> _Slot:
        message = protocol.Start(dict(setup))
        answer = self._call(message)
        if answer["ok"]:
            return _Slot(answer["game"], self.generation)
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
                answer = self._call(protocol.End(slot.game))
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
            message = protocol.Apply(slot.game, action)
            answer = self._call(message)
            if not answer["ok"]:
                raise self._refused(message, answer, ReplayMismatch)
            if not answer["accepted"] or answer["events"] != events:
                raise ReplayMismatch(
                    f"replaying action {number} on the relaunched engine gave a different answer "
                    "(is the engine deterministic?)",
                    argv=self.argv,
                    sent=protocol.encode(message.to_json()),
                    received=protocol.encode(answer),
                    details=[f"first time: {json.dumps(events)[:_SHOWN]}"],
                )


class SubprocessGame:
    """One game inside a :class:`SubprocessEngine` (a :class:`~adapters.interface.GameHandle`)."""

    def __init__(self, engine: SubprocessEngine, setup: str, slot: _Slot) -> None:
        self._engine = engine
        self._setup = setup  # JSON text, for replays
        self._slot = slot
        #: for replays: each accepted action (JSON text) with the raw answer line that accepted it, or
        #: the actions of a ``batch`` (the list sent, the harness's own copy) with its raw answer (decoded
        #: only for a replay)
        self._history: list[tuple[str | list[Mapping[str, Any]], bytes]] = []
        self._broken: str | None = None
        self._ended = False
        self._finalizer = weakref.finalize(self, engine._orphans.append, slot)

    @property
    def game_id(self) -> str:
        return self._slot.game

    @property
    def broken(self) -> str | None:
        """Why this game is lost (``None`` while it is playable)."""
        return self._broken

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions: list[dict[str, JSON]] = self._request(protocol.Legal)["actions"]
        return actions

    def apply(self, action: Action) -> Outcome:
        answer = self._request(lambda game: protocol.Apply(game, dict(action)))
        if answer["accepted"]:
            events: EventList = answer["events"]
            self._history.append((json.dumps(action), self._engine._last_raw))
            return Accepted(events)
        return Rejected(answer["code"], answer.get("rule", ""), answer.get("message", ""))

    def state(self, name: str) -> JSON:
        return self._request(lambda game: protocol.State(game, name))["value"]

    def observation(self, seat: int, name: str) -> JSON:
        return self._request(lambda game: protocol.Observe(game, seat, name))["value"]

    @property
    def batch_supported(self) -> bool:
        """Whether the engine declared the optional ``batch`` command."""
        info = self._engine._info
        return info is not None and "batch" in info.capabilities

    def batch(
        self, actions: Sequence[Action], fields: Sequence[str], step_fields: Sequence[Sequence[str]] | None = None
    ) -> dict[str, Any]:
        """The optional ``batch`` command: apply ``actions`` in turn in ONE request; the answer's
        ``before`` snapshot (``fields``) and one step per action (``step_fields[i]``, or
        ``fields``; see ``batch.response.json``). Only for an engine that declares the capability
        (:attr:`batch_supported`)."""
        return self.batch_begin(actions, fields, step_fields)()

    def batch_begin(
        self,
        actions: Sequence[Action],
        fields: Sequence[str],
        step_fields: Sequence[Sequence[str]] | None = None,
        expected: Sequence[bytes | None] = (),
    ) -> Callable[[], dict[str, Any]]:
        """:meth:`batch` in two halves: send the request now, and return the function that reads
        its answer (checked as :meth:`batch` checks it), so that the caller can work while the
        engine does (the fuzzer plays the next hand on the reference meanwhile). Any other call
        on this engine first reads the answer and keeps it for that function.

        ``expected[i]``: the canonical text (:func:`protocol.canonical`) of a valid step the
        caller expects as step ``i`` (the fuzzer's: the reference's answer), or ``None``. The
        answer is checked as strictly, but a step with exactly that text needs no schema check."""
        if not self.batch_supported:
            raise EngineFailure("the engine does not declare the 'batch' capability")
        engine = self._engine
        sent: list[Mapping[str, Any]] = [dict(a) for a in actions]
        timeout, engine.timeout = engine.timeout, engine.timeout * max(1.0, len(actions) / 10)
        try:
            steps_fields = None if step_fields is None else [list(names) for names in step_fields]
            message, ticket = self._post(
                lambda game: protocol.Batch(game, sent, list(fields), steps_fields), later=True
            )
        finally:
            engine.timeout = timeout
        ticket.expected = expected  # read when the answer is: not before this returns

        def answer() -> dict[str, Any]:
            answered = self._outcome(message, ticket)
            steps = answered["steps"]
            if len(steps) != len(sent):
                self._broken = f"the batch answered {len(steps)} steps for {len(sent)} actions"
                raise EngineFailure(f"the engine {self._broken}")
            if any(step["accepted"] for step in steps):  # accepted actions are replayed after a relaunch
                self._history.append((sent, ticket.raw))
            return answered

        return answer

    def _accepted(self) -> Iterator[tuple[dict[str, Any], Any]]:
        """The accepted actions of :attr:`_history`, in order, each with the events it caused."""
        for sent, raw in self._history:
            recorded = json.loads(sent) if isinstance(sent, str) else sent
            if isinstance(recorded, dict):
                yield recorded, json.loads(raw)["events"]
                continue
            for action, step in zip(recorded, json.loads(raw)["steps"], strict=True):
                if step["accepted"]:
                    yield action, step.get("events", [])

    def end(self) -> None:
        """Tell the engine to forget this game (optional: forgotten handles are ended lazily)."""
        if self._ended or self._broken is not None:
            return
        self._ended = True
        self._finalizer.detach()
        engine = self._engine
        if engine._process is not None and not engine._process.dead and self._slot.generation == engine.generation:
            engine._call(protocol.End(self._slot.game))

    def _request(self, make: Callable[[str], protocol.Request]) -> dict[str, Any]:
        """Send the request ``make(game id)`` (the id changes when the game is rebuilt) and read its answer."""
        return self._outcome(*self._post(make))

    def _post(
        self, make: Callable[[str], protocol.Request], *, later: bool = False
    ) -> tuple[protocol.Request, _InFlight]:
        """Send the request ``make(game id)``; the request and the ticket of its answer (to be
        read ``later``: see :meth:`SubprocessEngine._post_on`)."""
        engine = self._engine
        if self._broken is not None:
            raise GameLost(f"this game was lost earlier: {self._broken}")
        if self._ended:
            raise GameLost("this game was ended")
        try:
            process = engine._ensure_process()
            if self._slot.generation != engine.generation:
                engine._revive(self)
                process = engine._ensure_process()
            message = make(self._slot.game)
            return message, engine._post_on(process, message, engine.timeout, later=later)
        except EngineFailure as failure:
            self._break(failure)
            raise

    def _outcome(self, message: protocol.Request, ticket: _InFlight) -> dict[str, Any]:
        """The answer to ``message``, or the failure it is (which breaks the game where it must)."""
        engine = self._engine
        try:
            answer = engine._answer(ticket)
        except EngineFailure as failure:
            self._break(failure)
            raise
        if answer["ok"]:
            return answer
        code = answer["error"]
        if code == protocol.ErrorCode.UNKNOWN_FIELD and isinstance(message, protocol.State | protocol.Observe):
            raise UnknownField(answer["message"])
        refused = engine._refused(message, answer)
        if isinstance(message, (protocol.Apply, protocol.Batch)) or code == protocol.ErrorCode.UNKNOWN_GAME:
            self._break(refused)
        raise refused

    def _break(self, failure: EngineFailure) -> None:
        if not isinstance(failure, EngineClosed):
            self._broken = f"{failure.kind}: {failure.summary}"


__all__ = [
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
    "LaunchFailure",
    "ReplayMismatch",
    "SchemaViolation",
    "SubprocessEngine",
    "SubprocessGame",
    "TransportFailure",
    "UnexpectedError",
    "UnknownField",
    "UnsolicitedOutput",
    "WrongId",
]
