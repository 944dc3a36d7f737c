"""Shared helpers for the engine's unit tests, and the Hypothesis profiles.

Profiles (``HYPOTHESIS_PROFILE`` picks one; ``ci`` is the default):

* ``ci``: a few examples per property, derandomised, so the whole of ``tests/engine`` runs
  in well under a minute on two cores (``pytest tests/engine -n 2``);
* ``deep``: many more examples (``HYPOTHESIS_PROFILE=deep``, or ``tox -e deep``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=20,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deep",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
