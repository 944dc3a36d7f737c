"""Not an engine: a process an engine starts, that starts another (``DEPTH`` in all), then sleeps.

    python sleeper.py PIDFILE DEPTH

Each appends its pid to ``PIDFILE`` (one line) and keeps the file descriptors it was given, so an
engine decides whether its children hold its stdout. The tests check that none outlives the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def spawn(pidfile: str, depth: int = 2, *, hold_stdout: bool = False, new_session: bool = False) -> None:
    """Start a chain of ``depth`` sleepers (child, grandchild...) and wait until each has written
    its pid: the tests then know exactly which processes must be gone after close."""
    before = _count(pidfile)
    subprocess.Popen(
        [sys.executable, __file__, pidfile, str(depth)],
        stdin=subprocess.DEVNULL,
        stdout=None if hold_stdout else subprocess.DEVNULL,  # None: the engine's own stdout, the protocol pipe
        stderr=subprocess.DEVNULL,
        start_new_session=new_session,  # True: the child leaves the engine's process group
    )
    deadline = time.monotonic() + 10
    while _count(pidfile) < before + depth and time.monotonic() < deadline:
        time.sleep(0.01)


def _count(pidfile: str) -> int:
    path = Path(pidfile)
    return len(path.read_text().split()) if path.exists() else 0


def main() -> None:
    pidfile, depth = sys.argv[1], int(sys.argv[2])
    with open(pidfile, "a") as file:
        file.write(f"{os.getpid()}\n")
    if depth > 1:
        subprocess.Popen([sys.executable, __file__, pidfile, str(depth - 1)])  # the same descriptors
    time.sleep(60)


if __name__ == "__main__":
    main()
