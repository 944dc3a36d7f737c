"""Serves the reference engine, but answers ``legal`` with a debug print instead of JSON."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Garbage(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            sys.stdout.buffer.write(b"DEBUG: computing legal moves for seat 1\n")
            sys.stdout.buffer.flush()
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(Garbage(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
