"""Check an engine written in any language: run it as a subprocess speaking GCP/1.

:class:`SubprocessEngine` implements the :class:`~adapters.interface.Engine` interface by
sending protocol requests (:mod:`adapters.protocol`) to ONE long-lived engine process::

    engine = SubprocessEngine(["node", "my_engine.js"], timeout=5.0)
    game = engine.start({"flags": {...}, "dealer": 0, "deck": [...]})
    game.apply(game.legal_actions()[0])
    engine.close()

What it guarantees, whatever the engine does:

* **never hangs**: every request has a deadline (``timeout``; ``startup_timeout`` for the
  launch and handshake), reading and writing alike;
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
  relaunched the same way, and no game is broken.

An ``engine_error`` answer (the engine reports its own failure) raises an
:class:`EngineFailure` but keeps the process; after an ``apply`` it also breaks the game,
whose state is then unknown.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal

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

_SHOWN = 300  # characters of a sent or received line quoted in an error message
_LAUNCH_MARK = "--- gcp: launch "


class EngineFailure(EngineError):
    """The engine failed; ``kind`` says how.

    Kinds: ``launch`` (could not start or hand-shake), ``gave_up`` (too many failed launches),
    ``timeout``, ``crash`` (the process exited), ``garbage`` (not a JSON object), ``too_long``,
    ``wrong_id``, ``schema`` (the answer breaks its schema), ``unsolicited`` (output nobody
    asked for), ``engine_error`` (the engine reported its own failure), ``unexpected`` (an
    error code this command cannot answer), ``replay`` (a rebuilt game came out different),
    ``broken`` (the game was lost earlier), ``closed`` (the engine was closed).
    """

    #: kinds after which the process is killed (the next call relaunches it)
    FATAL = frozenset({"launch", "timeout", "crash", "garbage", "too_long", "wrong_id", "schema", "unsolicited"})

    def __init__(
        self,
        kind: str,
        summary: str,
        *,
        argv: Sequence[str] = (),
        sent: bytes | None = None,
        received: bytes | None = None,
        stderr: Sequence[str] = (),
        details: Sequence[str] = (),
    ) -> None:
        self.kind = kind
        self.summary = summary
        self.argv = list(argv)
        self.sent = sent
        self.received = received
        self.stderr = list(stderr)
        self.details = list(details)
        super().__init__(self._compose())

    @property
    def fatal(self) -> bool:
        return self.kind in self.FATAL

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


def _show(data: bytes) -> str:
    text = data.rstrip(b"\n").decode("utf-8", errors="backslashreplace")
    if len(text) > _SHOWN:
        return f"{text[:_SHOWN]}... ({len(data)} bytes)"
    return text


class _Failure(Exception):
    """Raised inside the transport; turned into an :class:`EngineFailure` by the engine."""

    def __init__(self, kind: str, summary: str, received: bytes | None = None, details: Sequence[str] = ()) -> None:
        super().__init__(summary)
        self.kind = kind
        self.summary = summary
        self.received = received
        self.details = list(details)


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


class _Process:
    """One launched engine process: send one line, read one line, both with a deadline."""

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
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=cwd,
            env=None if env is None else dict(env),
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
        self._finalizer = weakref.finalize(self, _kill_quietly, self.popen)

    # ------------------------------------------------------------------ lines

    def send(self, line: bytes, deadline: float) -> None:
        if self.buffer:
            raise _Failure("unsolicited", "the engine wrote output nobody asked for", bytes(self.buffer))
        view = memoryview(line)
        while view:
            try:
                written = os.write(self.stdin_fd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError, OSError):
                raise _Failure("crash", self._exit_summary("the engine closed its stdin")) from None
            view = view[written:]
            if view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _Failure("timeout", "the engine does not read its stdin")
                if self.writable is not None:
                    self.writable.select(remaining)

    def readline(self, deadline: float) -> bytes:
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[: newline + 1]
                self.scanned = 0
                if len(line) > self.max_line_bytes:
                    raise _Failure("too_long", f"the answer is longer than {self.max_line_bytes} bytes", line)
                return line
            self.scanned = len(self.buffer)
            if len(self.buffer) > self.max_line_bytes:
                raise _Failure(
                    "too_long",
                    f"the engine wrote more than {self.max_line_bytes} bytes without a newline (max_line_bytes)",
                    bytes(self.buffer[:_SHOWN]),
                )
            chunk = self.stdout.read(deadline - time.monotonic())
            if chunk is None:
                raise _Failure("timeout", "no answer in time", bytes(self.buffer))
            if not chunk:
                summary = self._exit_summary("the engine closed its stdout")
                raise _Failure("crash", summary, bytes(self.buffer))
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
        self.dead = True
        _kill_quietly(self.popen)
        self.stderr.join(0.5)
        self._close_pipes()

    def stop(self, grace: float) -> None:
        """Wait ``grace`` seconds for a clean exit, then terminate, then kill."""
        self.dead = True
        with contextlib.suppress(OSError):
            assert self.popen.stdin is not None
            self.popen.stdin.close()  # end of stdin: a well-behaved engine exits
        try:
            self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            _signal(self.popen, signal.SIGTERM)
            try:
                self.popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                _kill_quietly(self.popen)
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
    if popen.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(popen.pid, sig)  # the process group we created for it
        else:  # pragma: no cover - Windows
            popen.kill() if sig == getattr(signal, "SIGKILL", None) else popen.terminate()
    except (ProcessLookupError, PermissionError):
        pass


def _kill_quietly(popen: subprocess.Popen[bytes]) -> None:
    _signal(popen, getattr(signal, "SIGKILL", signal.SIGTERM))
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=2.0)


# --------------------------------------------------------------------------- the engine


@dataclass
class _Slot:
    """Where a game lives: its id in one generation of the engine process."""

    game: str
    generation: int


class SubprocessEngine:
    """An engine process speaking GCP/1, as an :class:`~adapters.interface.Engine`.

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
        self._process: _Process | None = None
        self._info: EngineInfo | None = None
        self._hello: dict[str, Any] | None = None
        self._next_id = 0
        self._failed_launches = 0
        self._closed = False
        self._orphans: list[_Slot] = []
        self._last_raw = b""
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
        process, self._process = self._process, None
        if process is None:
            return
        if process.alive():
            with contextlib.suppress(_Failure):
                self._exchange(process, {"cmd": "stop"}, self.stop_timeout)
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

    def _ensure_process(self) -> _Process:
        if self._closed:
            raise EngineFailure("closed", "the engine was closed", argv=self.argv)
        if self._process is not None and not self._process.dead:
            status = self._process.popen.poll()
            if status is None:
                return self._process
            # it died between requests: nobody's request failed, so relaunch and replay silently
            self._stderr.append(f"--- gcp: the engine exited between requests (status {status}) ---")
            self._drop(self._process)
        if self._failed_launches >= self.max_failed_launches:
            raise EngineFailure(
                "gave_up",
                f"the engine failed to start {self._failed_launches} times in a row; not trying again",
                argv=self.argv,
                stderr=self._process_stderr(),
            )
        self.generation += 1
        self._stderr.append(f"{_LAUNCH_MARK}{self.generation} ---")
        try:
            process = _Process(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                ring=self._stderr,
                max_line_bytes=self.max_line_bytes,
                reader=self.reader,
            )
        except OSError as error:
            self._failed_launches += 1
            raise EngineFailure("launch", f"cannot run the engine: {error}", argv=self.argv) from None
        self._process = process
        try:
            answer = self._call_on(
                process,
                {"cmd": "hello", "protocol": protocol.PROTOCOL_VERSION, "harness": {"name": "guinote-conformance"}},
                self.startup_timeout,
            )
            if not answer["ok"]:
                raise EngineFailure(
                    "launch",
                    f"the engine refused the handshake: {answer['error']}: {answer['message']}",
                    argv=self.argv,
                )
        except EngineFailure as failure:
            self._failed_launches += 1
            if not process.dead:
                self._drop(process)
            if failure.kind == "launch":
                raise
            raise EngineFailure(
                "launch",
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
        self._info = EngineInfo(
            name=engine["name"],
            version=engine["version"],
            language=engine["language"],
            profiles=engine["profiles"],
            flags=engine["flags"],
            capabilities=frozenset(engine["capabilities"]),
            homepage=engine.get("homepage", ""),
        )
        return process

    def _drop(self, process: _Process) -> None:
        process.kill()
        if self._process is process:
            self._process = None

    # ------------------------------------------------------------------ requests

    def _exchange(self, process: _Process, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and read its answer; transport and schema problems raise :class:`_Failure`."""
        self._next_id += 1
        request_id = self._next_id
        line = protocol.encode({"id": request_id, **message})
        deadline = time.monotonic() + timeout
        try:
            process.send(line, deadline)
            raw = process.readline(deadline)
        except _Failure as failure:
            if failure.kind == "timeout":
                failure.summary = f"{failure.summary}: no answer within {timeout:g} s"
            raise
        try:
            answer = json.loads(raw)
        except ValueError as error:
            raise _Failure("garbage", f"the answer is not JSON ({error})", raw) from None
        self._last_raw = raw
        if not isinstance(answer, dict):
            raise _Failure("garbage", "the answer is not a JSON object", raw)
        if answer.get("id") != request_id or isinstance(answer.get("id"), bool):
            raise _Failure("wrong_id", f"the answer has id {answer.get('id')!r}, the request had id {request_id}", raw)
        cmd = message["cmd"]
        if not protocol.response_is_valid(cmd, answer):
            violations = protocol.response_violations(cmd, answer)
            if violations:
                raise _Failure(
                    "schema",
                    f"the answer to {cmd!r} breaks the schema {protocol.schema_name(cmd, 'response')}",
                    raw,
                    details=[f"violation: {violation}" for violation in violations[:10]],
                )
        return answer

    def _call_on(self, process: _Process, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            return self._exchange(process, message, timeout)
        except _Failure as failure:
            self._drop(process)
            sent = protocol.encode({"id": self._next_id, **message})
            raise EngineFailure(
                failure.kind,
                f"{failure.summary} (request {message['cmd']!r}; the process was killed, the next call relaunches it)",
                argv=self.argv,
                sent=sent,
                received=failure.received,
                stderr=self._process_stderr(),
                details=failure.details,
            ) from None

    def _call(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._call_on(self._ensure_process(), message, self.timeout)

    def _refused(self, message: dict[str, Any], answer: dict[str, Any], kind: str = "engine_error") -> EngineFailure:
        code = answer.get("error")
        if kind == "engine_error" and code != "engine_error":
            kind = "unexpected"
        return EngineFailure(
            kind,
            f"the engine answered {message['cmd']!r} with error {code!r}: {answer.get('message', '')}",
            argv=self.argv,
            sent=protocol.encode({"id": answer.get("id"), **message}),
            received=protocol.encode(answer),
            stderr=self._process_stderr(),
        )

    # ------------------------------------------------------------------ games

    def _start_slot(self, setup: Setup) -> _Slot:
        message = {"cmd": "start", "setup": dict(setup)}
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
                answer = self._call({"cmd": "end", "game": slot.game})
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
            raise EngineFailure("replay", f"the relaunched engine refused the game's setup: {rejected}") from None
        slot.game, slot.generation = fresh.game, fresh.generation
        for number, (action_text, first_answer) in enumerate(game._history, 1):
            message = {"cmd": "apply", "game": slot.game, "action": json.loads(action_text)}
            answer = self._call(message)
            if not answer["ok"]:
                raise self._refused(message, answer, "replay")
            events = json.loads(first_answer)["events"]
            if not answer["accepted"] or answer["events"] != events:
                raise EngineFailure(
                    "replay",
                    f"replaying action {number} on the relaunched engine gave a different answer "
                    "(is the engine deterministic?)",
                    argv=self.argv,
                    sent=protocol.encode(message),
                    received=protocol.encode(answer),
                    details=[f"first time: {json.dumps(events)[:_SHOWN]}"],
                )


class SubprocessGame:
    """One game inside a :class:`SubprocessEngine` (a :class:`~adapters.interface.GameHandle`)."""

    def __init__(self, engine: SubprocessEngine, setup: str, slot: _Slot) -> None:
        self._engine = engine
        self._setup = setup  # JSON text, for replays
        self._slot = slot
        #: accepted actions (JSON text) with the raw answer line that accepted them, for replays
        self._history: list[tuple[str, bytes]] = []
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
        actions: list[dict[str, JSON]] = self._request({"cmd": "legal"})["actions"]
        return actions

    def apply(self, action: Action) -> Outcome:
        answer = self._request({"cmd": "apply", "action": dict(action)})
        if answer["accepted"]:
            events: EventList = answer["events"]
            self._history.append((json.dumps(action), self._engine._last_raw))
            return Accepted(events)
        return Rejected(answer["code"], answer.get("rule", ""), answer.get("message", ""))

    def state(self, name: str) -> JSON:
        return self._request({"cmd": "state", "field": name})["value"]

    def observation(self, seat: int, name: str) -> JSON:
        return self._request({"cmd": "observe", "seat": seat, "field": name})["value"]

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
        if not self.batch_supported:
            raise EngineFailure("unexpected", "the engine does not declare the 'batch' capability")
        engine = self._engine
        timeout, engine.timeout = engine.timeout, engine.timeout * max(1.0, len(actions) / 10)
        try:
            request: dict[str, Any] = {"cmd": "batch", "actions": [dict(a) for a in actions], "fields": list(fields)}
            if step_fields is not None:
                request["step_fields"] = [list(names) for names in step_fields]
            answer = self._request(request)
        finally:
            engine.timeout = timeout
        steps = answer["steps"]
        if len(steps) != len(actions):
            self._broken = f"the batch answered {len(steps)} steps for {len(actions)} actions"
            raise EngineFailure("unexpected", f"the engine {self._broken}")
        for action, step in zip(actions, steps, strict=True):  # accepted actions are replayed after a relaunch
            if step["accepted"]:
                self._history.append((json.dumps(dict(action)), protocol.encode({"events": step.get("events", [])})))
        return answer

    def end(self) -> None:
        """Tell the engine to forget this game (optional: forgotten handles are ended lazily)."""
        if self._ended or self._broken is not None:
            return
        self._ended = True
        self._finalizer.detach()
        engine = self._engine
        if engine._process is not None and not engine._process.dead and self._slot.generation == engine.generation:
            engine._call({"cmd": "end", "game": self._slot.game})

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        engine = self._engine
        if self._broken is not None:
            raise EngineFailure("broken", f"this game was lost earlier: {self._broken}")
        if self._ended:
            raise EngineFailure("broken", "this game was ended")
        try:
            process = engine._ensure_process()
            if self._slot.generation != engine.generation:
                engine._revive(self)
                process = engine._ensure_process()
            message = {"cmd": message["cmd"], "game": self._slot.game, **message}
            answer = engine._call_on(process, message, engine.timeout)
        except EngineFailure as failure:
            self._break(failure)
            raise
        if answer["ok"]:
            return answer
        code = answer["error"]
        if code == "unknown_field" and message["cmd"] in ("state", "observe"):
            raise UnknownField(answer["message"])
        refused = engine._refused(message, answer)
        if message["cmd"] in ("apply", "batch") or code == "unknown_game":
            self._break(refused)
        raise refused

    def _break(self, failure: EngineFailure) -> None:
        if failure.kind != "closed":
            self._broken = f"{failure.kind}: {failure.summary}"


__all__ = ["EngineFailure", "SubprocessEngine", "SubprocessGame", "UnknownField"]
