"""Settings for the whole test session.

``guinote-conformance run`` shares its scenarios among two pytest-xdist workers by default. The
tests already run on every core (``pytest -n 2``), so a run inside a test plays serially unless
the test asks for workers (``--jobs 2``, as the tests of parallel runs do): two more processes
each collecting the suite would only double the work. ``GUINOTE_JOBS`` is the option's own
environment variable (``guinote-conformance run --help``); the runs that the default test run
starts, the CLI's in process and the subprocesses, inherit it.

``GUINOTE_SYMMETRIES=none`` likewise: the runs inside the tests play the scenarios as written, so that
a test of another matter counts its own runs; the tests of the symmetries of the game
(``tests/harness/test_symmetry.py``) ask for the sample or the whole group themselves.
"""

from __future__ import annotations

import os

os.environ.setdefault("GUINOTE_JOBS", "1")
os.environ.setdefault("GUINOTE_SYMMETRIES", "none")
