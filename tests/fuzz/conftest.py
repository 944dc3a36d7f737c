"""The deep fuzzing runs (``tox -e fuzz``) are collected only when asked for."""

from __future__ import annotations

import os

# test_deep.py fuzzes every deliberately broken engine for minutes: opt-in, never skipped
collect_ignore = [] if os.environ.get("GUINOTE_DEEP_FUZZ") else ["test_deep.py"]
