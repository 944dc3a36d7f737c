"""Serves the reference engine, but on ``legal`` starts a child that keeps the engine's stdout
open and sleeps, then exits with status 3 without answering: no end of file ever comes."""

from __future__ import annotations

import os
import sys
from typing import Any

from sleeper import spawn  # type: ignore[import-not-found]  # a script: its folder is on sys.path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

PIDFILE = sys.argv[1]


class ChildHoldsStdout(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            spawn(PIDFILE, 1, hold_stdout=True)
            sys.stderr.write("assertion failed in legal moves (hostile: child_holds_stdout)\n")
            sys.stderr.flush()
            os._exit(3)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(ChildHoldsStdout(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
