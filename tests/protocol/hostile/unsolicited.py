"""Serves the reference engine, but writes an extra line after answering ``start``."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Unsolicited(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if request.get("cmd") == "start":
            self.write(sys.stdout.buffer, answer)
            answer = {"id": 0, "ok": True, "note": "game started!"}
        return answer


if __name__ == "__main__":
    raise SystemExit(Unsolicited(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
