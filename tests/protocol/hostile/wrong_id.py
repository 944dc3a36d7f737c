"""Serves the reference engine, but answers ``legal`` with another request's id."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class WrongId(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if request.get("cmd") == "legal":
            answer["id"] = request["id"] + 1000
        return answer


if __name__ == "__main__":
    raise SystemExit(WrongId(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
