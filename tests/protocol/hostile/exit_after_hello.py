"""Answers the handshake like the reference engine, then exits (status 0) on the next request."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class ExitAfterHello(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") != "hello":
            sys.stderr.write("bye (hostile: exit_after_hello)\n")
            sys.stderr.flush()
            raise SystemExit(0)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(ExitAfterHello(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
