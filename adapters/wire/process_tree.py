"""No process outlives the engine: its process group, and the processes that carry its mark.

The engine runs in a process group of its own, and every process of a launch carries
:data:`MARK_VARIABLE` in its environment; :func:`kill_tree` kills the group whatever state the
engine is in, and on Linux every process that still carries the mark (those that left the group).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

#: The environment variable that marks every process of one engine launch (its value is unique
#: to the launch): the children that leave the engine's process group are found by it and killed.
MARK_VARIABLE = "GCP_ENGINE_MARK"
#: Whether the processes' environments can be read (Linux's ``/proc``).
_PROC_SCAN = os.path.isdir("/proc/self") and os.path.exists("/proc/self/environ")


def signal_group(popen: subprocess.Popen[bytes], sig: int) -> None:
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


def kill_tree(popen: subprocess.Popen[bytes], token: str | None) -> None:
    """Kill the engine, its process group and (Linux) every process carrying its mark; reap it."""
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    signal_group(popen, kill)
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
