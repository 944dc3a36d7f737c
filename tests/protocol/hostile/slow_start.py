"""Serves the reference engine, but only after sleeping SECONDS (argument, default 2): an engine that
starts slowly, as a cold JVM, a container or an engine that loads a model does (``--start-timeout``)."""

from __future__ import annotations

import sys
import time

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

if __name__ == "__main__":
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
    raise SystemExit(Server(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
