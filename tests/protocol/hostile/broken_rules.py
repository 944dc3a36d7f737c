"""Speaks the protocol correctly but breaks what a harness relies on (for ``smoke``).

Argument ``empty_legal``: after 5 accepted actions, the legal list is empty although the hand
goes on. Argument ``reject_own``: after 5 accepted actions, every action is rejected, even a
legal one. Argument ``lost_field``: the state field ``turn`` is unknown.
"""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

MODE = sys.argv[1] if len(sys.argv) > 1 else "empty_legal"


class BrokenRules(Server):
    accepted = 0

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        cmd = request.get("cmd")
        if self.accepted >= 5 and MODE == "empty_legal" and cmd == "legal":
            return {"id": request["id"], "ok": True, "actions": []}
        if self.accepted >= 5 and MODE == "reject_own" and cmd == "apply":
            return {"id": request["id"], "ok": True, "accepted": False, "code": "NOT_TODAY", "rule": "", "message": ""}
        if MODE == "lost_field" and cmd in ("state", "observe") and request.get("field") == "turn":
            return {"id": request["id"], "ok": False, "error": "unknown_field", "message": "no field 'turn'"}
        answer = super().dispatch(request)
        if cmd == "apply" and answer.get("accepted"):
            self.accepted += 1
        return answer


if __name__ == "__main__":
    raise SystemExit(BrokenRules(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
