"""Serves the reference engine, but on ``legal`` writes half an answer, flushes, and hangs."""

from __future__ import annotations

import sys
import time
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class PartialLine(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "legal":
            sys.stdout.buffer.write(b'{"id": %d, "ok": true, "actio' % request["id"])
            sys.stdout.buffer.flush()
            time.sleep(3600)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(PartialLine(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
