"""Serves the reference engine, but every process tags its events differently (replay diverges)."""

from __future__ import annotations

import os
import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Nondeterministic(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        if request.get("cmd") == "apply" and answer.get("accepted"):
            answer["events"] = [{**event, "pid": os.getpid()} for event in answer["events"]]
        return answer


if __name__ == "__main__":
    raise SystemExit(Nondeterministic(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
