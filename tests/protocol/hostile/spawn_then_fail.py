"""Serves the reference engine; at the first ``start`` it starts a child and a grandchild that
sleep (their pids go to ``PIDFILE``), then fails the second ``apply`` as ``MODE`` says, leaving
them behind:

    python spawn_then_fail.py PIDFILE crash|hang|garbage

``crash`` exits with status 134, ``hang`` never answers, ``garbage`` answers a line that is not JSON.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from sleeper import spawn  # type: ignore[import-not-found]  # a script: its folder is on sys.path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

PIDFILE, MODE = sys.argv[1], sys.argv[2]


class SpawnThenFail(Server):
    applied = 0

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "start" and not self.games:
            spawn(PIDFILE)
        if request.get("cmd") == "apply":
            self.applied += 1
            if self.applied == 2:
                sys.stderr.write(f"failing with two children left: {MODE} (hostile: spawn_then_fail)\n")
                sys.stderr.flush()
                if MODE == "crash":
                    os._exit(134)
                if MODE == "hang":
                    time.sleep(3600)
                sys.stdout.write("Segmentation fault (core dumped)\n")
                sys.stdout.flush()
                return {}
        return super().dispatch(request)

    def write(self, stdout: Any, answer: dict[str, Any]) -> None:
        if answer:
            super().write(stdout, answer)


if __name__ == "__main__":
    raise SystemExit(SpawnThenFail(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
