"""Serves the reference engine, but answers ``legal`` with an array nested 100,000 deep."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class DeepNesting(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            sys.stdout.buffer.write(b"[" * 100_000 + b"]" * 100_000 + b"\n")
            sys.stdout.buffer.flush()
            return {}  # nothing more is written: the line above is the answer
        return super().dispatch(request)

    def write(self, stdout: Any, answer: dict[str, Any]) -> None:
        if answer:
            super().write(stdout, answer)


if __name__ == "__main__":
    raise SystemExit(DeepNesting(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
