"""The engine process's output pipes: stdout read in chunks with a deadline, stderr kept.

stdout is read by ``select`` (:class:`SelectorStdout`, POSIX) or by a reader thread
(:class:`ThreadStdout`, any platform), as :data:`Reader` says; :class:`Stderr` drains stderr
on a thread of its own into a bounded ring buffer of lines, escaped.
"""

from __future__ import annotations

import os
import queue
import selectors
import threading
from collections import deque
from typing import IO, Literal

from guinote_conformance.adapters.wire.failures import CONTROL


class Stderr:
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
    text = CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)  # no ESC reaches a terminal
    return text if len(text) <= limit else text[:limit] + f"... ({len(line)} bytes)"


class SelectorStdout:
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


class ThreadStdout:
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
