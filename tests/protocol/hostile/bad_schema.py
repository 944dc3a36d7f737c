"""Serves the reference engine, but its legal actions break the schema (seat as text, card 'as')."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class BadSchema(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if request.get("cmd") == "legal" and answer["ok"]:
            answer["actions"] = [{"type": "play", "seat": "one", "card": "as"}]
        return answer


if __name__ == "__main__":
    raise SystemExit(BadSchema(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
