"""A small Sphinx project for tests/docs: the rulebook extension on invented test data."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DATA = HERE.parent / "data"
sys.path[:0] = [str(ROOT), str(ROOT / "docs" / "_ext")]

project = "rulebook extension test"
extensions = ["guinote_rulebook"]
exclude_patterns = ["_build"]
guinote_root = str(DATA)
guinote_features_dir = str(DATA / "features")
guinote_schemas_dir = str(DATA / "schemas")
guinote_results = str(DATA / "results.json")
locale_dirs = ["locale/"]
gettext_compact = False
