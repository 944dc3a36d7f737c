"""Serves the reference engine; at ``hello`` it starts a child in a session of its own (out of
the engine's process group, so a kill of the group misses it) that starts a grandchild and sleeps."""

from __future__ import annotations

import sys
from typing import Any

from sleeper import spawn  # type: ignore[import-not-found]  # a script: its folder is on sys.path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

PIDFILE = sys.argv[1]


class SetsidChild(Server):
    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "hello":
            spawn(PIDFILE, new_session=True)
        return super().dispatch(request)


if __name__ == "__main__":
    raise SystemExit(SetsidChild(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
