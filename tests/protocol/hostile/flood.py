"""Serves the reference engine, but answers ``legal`` with an endless line (64 MiB, no newline)."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Flood(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            chunk = b"x" * 65536
            try:
                for _ in range(1024):
                    sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                raise SystemExit(1) from None
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(Flood(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
