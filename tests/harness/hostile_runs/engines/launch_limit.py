"""Serves the reference engine for its first N launches (argument 2, default 3), then fails to
start (status 3, before reading anything). Launches are counted in the file named by argument 1."""

from __future__ import annotations

import sys
from pathlib import Path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

COUNTER = Path(sys.argv[1])
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 3

if __name__ == "__main__":
    with COUNTER.open("a", encoding="utf-8") as launches:  # one line per launch (appends are atomic)
        launches.write("launch\n")
    if len(COUNTER.read_text(encoding="utf-8").splitlines()) > LIMIT:
        sys.stderr.write(f"licence expired after {LIMIT} launches (hostile: launch_limit)\n")
        raise SystemExit(3)
    raise SystemExit(Server(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
