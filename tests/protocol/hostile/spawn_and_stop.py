"""Serves the reference engine, logs every command it receives and exits cleanly after ``stop``,
leaving behind the child and grandchild it started at ``hello``.

    python spawn_and_stop.py PIDFILE LOGFILE

Each line of ``LOGFILE`` is ``<pid> <command>``: the tests check that every process got ``stop``
and that every game started was ended."""

from __future__ import annotations

import os
import sys
from typing import Any

from sleeper import spawn  # type: ignore[import-not-found]  # a script: its folder is on sys.path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

PIDFILE, LOGFILE = sys.argv[1], sys.argv[2]


class SpawnAndStop(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        with open(LOGFILE, "a") as log:  # one short write: lines of two processes never mix
            log.write(f"{os.getpid()} {request.get('cmd')}\n")
        if request.get("cmd") == "hello":
            spawn(PIDFILE)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(SpawnAndStop(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
