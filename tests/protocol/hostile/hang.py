"""Serves the reference engine, but sleeps forever on one command (argument, default ``legal``)."""

from __future__ import annotations

import sys
import time
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

HANG_ON = sys.argv[1] if len(sys.argv) > 1 else "legal"


class Hang(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == HANG_ON:
            sys.stderr.write(f"waiting for a lock that never comes (hostile: hang on {HANG_ON})\n")
            sys.stderr.flush()
            time.sleep(3600)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(Hang(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
