"""A module that exits as it is imported: ``py:tests.protocol.exiting_module:make`` cannot start."""

from __future__ import annotations

import sys

sys.exit(4)


def make() -> None:  # never reached
    return None
