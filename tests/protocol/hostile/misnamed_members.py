"""Serves the reference engine, but names its trick_won winner 'winner' (not 'seat') and
answers the phase in capitals: members the scenarios read, misnamed or misshaped."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class Misnamed(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().dispatch(request)
        for event in answer.get("events") or []:
            if event.get("type") == "trick_won":
                event["winner"] = event.pop("seat")
        if request.get("cmd") == "state" and request.get("field") == "phase" and answer["ok"]:
            answer["value"] = str(answer["value"]).upper()
        return answer


if __name__ == "__main__":
    raise SystemExit(Misnamed(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
