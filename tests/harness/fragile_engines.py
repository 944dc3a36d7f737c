"""Test doubles: the reference engine, in process, failing in ways a harness must survive.

Each counts or marks in a file named by an environment variable, so that the processes of one
run (the CLI, the xdist controller, its workers) share the count.
"""

from __future__ import annotations

import os
from pathlib import Path

from guinote_conformance.adapters.interface import Setup
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame

#: A file: the first game started anywhere in the run creates it and ends its process at once.
CRASH_MARKER = "GUINOTE_TEST_CRASH_MARKER"
#: A file that gets one line per launch of the engine; launches past ``GUINOTE_TEST_LAUNCHES`` fail.
LAUNCH_LOG = "GUINOTE_TEST_LAUNCH_LOG"
LAUNCHES = "GUINOTE_TEST_LAUNCHES"


class CrashOnce(ReferenceEngine):
    """Ends the whole process (``os._exit``: no exception, no cleanup) in the first game of the run."""

    def start(self, setup: Setup) -> ReferenceGame:
        try:
            os.close(os.open(os.environ[CRASH_MARKER], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return super().start(setup)
        os._exit(7)


def crash_once() -> CrashOnce:
    return CrashOnce()


def launch_counted() -> ReferenceEngine:
    """The reference, but a launch past the allowed number fails (as an engine whose licence ran out)."""
    log = Path(os.environ[LAUNCH_LOG])
    with log.open("a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
    launches = len(log.read_text(encoding="utf-8").splitlines())
    if launches > int(os.environ[LAUNCHES]):
        raise RuntimeError(f"launch {launches}: only {os.environ[LAUNCHES]} allowed")
    return ReferenceEngine()
