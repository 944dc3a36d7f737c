"""Serves the reference engine after starting a child process that outlives it unless killed.

The child sleeps (two minutes at most, so that a leak in a failing test ends by itself). With
``--keep-pipes`` it inherits the engine's stdout and stderr and keeps them open after the engine
dies; with ``--crash-at N`` the engine dies (status 139) on its Nth ``apply``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.serve import Server

parser = argparse.ArgumentParser()
parser.add_argument("--keep-pipes", action="store_true")
parser.add_argument("--crash-at", type=int, default=0)
OPTIONS = parser.parse_args()


class SpawnsChild(Server):
    applied = 0

    def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("cmd") == "apply" and OPTIONS.crash_at:
            self.applied += 1
            if self.applied == OPTIONS.crash_at:
                sys.stderr.write("crashed, my child lives on (hostile: spawns_child)\n")
                sys.stderr.flush()
                os._exit(139)
        return super().dispatch(request)


if __name__ == "__main__":
    pipes: dict[str, Any] = {} if OPTIONS.keep_pipes else {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], stdin=subprocess.DEVNULL, **pipes)
    raise SystemExit(SpawnsChild(ReferenceEngine()).run(sys.stdin.buffer, sys.stdout.buffer))
