"""Serves the reference engine, but dies when asked to start the 2nd game of each process."""

from __future__ import annotations

import os
import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class CrashSecondGame(Server):
    starts = 0

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "start":
            self.starts += 1
            if self.starts == 2:
                sys.stderr.write("out of memory starting game 2 (hostile: crash_second_game)\n")
                sys.stderr.flush()
                os._exit(1)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(CrashSecondGame(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
