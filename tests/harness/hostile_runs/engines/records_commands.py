"""Serves the reference engine faithfully, and appends ``<pid> <cmd>`` to the file named by its
argument for every request it reads: which games were ended, which processes were stopped."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

LOG = Path(sys.argv[1])


class RecordsCommands(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        with LOG.open("a", encoding="utf-8") as log:  # one short line per append: the processes do not mix
            log.write(f"{os.getpid()} {request.get('cmd')}\n")
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(RecordsCommands(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
