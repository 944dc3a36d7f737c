"""In-process engines (``py:tests.harness.hostile_runs.engines.factories:NAME``) that fail as Python code can."""

from __future__ import annotations

from guinote_conformance.adapters.interface import Engine


def exits() -> Engine:
    """A factory that calls ``sys.exit(0)``, as a script's main would: the engine never exists."""
    raise SystemExit(0)
