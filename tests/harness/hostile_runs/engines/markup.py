"""Serves the reference engine with markup in everything it says: its name, its profile's
description, its refusals and its stderr (HTML, rich markup, ANSI escapes, NUL and ESC bytes).

Every ``apply`` after the 3rd is refused, its message carrying :data:`PAYLOAD`.
"""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

#: What must never reach a report or the terminal as it is (the tests search for its pieces).
PAYLOAD = '<script>alert("gcp")</script><img src=x onerror=alert(1)>[/bold][red]\x1b[31mred\x1b[0m\x00'


class Markup(Server):
    applied = 0

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().hello(request)
        answer["engine"]["name"] = f"markup{PAYLOAD}"
        answer["engine"]["version"] = f"1.0{PAYLOAD}"
        return answer

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "apply":
            self.applied += 1
            if self.applied > 3:
                sys.stderr.write(f"refusing {PAYLOAD}\n")
                sys.stderr.flush()
                return {"id": request["id"], "ok": True, "accepted": False, "code": f"NO{PAYLOAD}",
                        "rule": f"R{PAYLOAD}", "message": PAYLOAD}  # fmt: skip
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(Markup(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
