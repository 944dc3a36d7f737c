"""Serves the reference engine, but dies on the Nth ``apply`` (argument, default 3) of each process."""

from __future__ import annotations

import os
import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

CRASH_AT = int(sys.argv[1]) if len(sys.argv) > 1 else 3


class CrashMidGame(Server):
    applied = 0

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "apply":
            self.applied += 1
            if self.applied == CRASH_AT:
                sys.stderr.write(f"segmentation fault while applying action {self.applied} (hostile: crash_mid_game)\n")
                sys.stderr.flush()
                os._exit(139)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(CrashMidGame(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
