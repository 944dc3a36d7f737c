"""``test_variants_full.py`` runs only in the full run (``GUINOTE_INDEPENDENT_FULL=1``, as
``tox -e independent`` sets it): compare against many drawn variations takes minutes."""

from __future__ import annotations

import os

FULL = "GUINOTE_INDEPENDENT_FULL"
collect_ignore = [] if os.environ.get(FULL) == "1" else ["test_variants_full.py"]
