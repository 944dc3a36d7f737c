"""Serves the reference engine, but writes 4 MiB of logs to stderr on every ``start``."""

from __future__ import annotations

import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server


class StderrSpam(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "start":
            line = "log: " + "." * 1000 + "\n"
            for number in range(4096):
                sys.stderr.write(f"{number} {line}")
            sys.stderr.write("log: start done\n")
            sys.stderr.flush()
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(StderrSpam(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
