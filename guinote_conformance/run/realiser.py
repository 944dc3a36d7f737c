"""The realiser of a session: the realisation by which a run reaches its scenario's position.

In: a run's position, flags, scenario and profile (:class:`~guinote_conformance.run.scenario_setup.ScenarioSetup`),
and the options of ``guinote-conformance realise`` (``--guinote-realise-record``, the search time in
``GUINOTE_REALISE_SECONDS``). Out: the stored realisation that reaches the position and its replay
on the reference (:func:`guinote_conformance.run.realisations.find`); in record mode, a new one searched
(:func:`guinote_conformance.run.realise.search`) when none is stored, and every outcome, found or not,
recorded as a line of ``found-<worker>.jsonl`` for :func:`guinote_conformance.run.realisations.read_runs`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.run import realisations
from guinote_conformance.run.position import Realisation, Replay, Unreachable, replay
from guinote_conformance.run.realise import search
from guinote_conformance.run.scenario_setup import ScenarioSetup


class SessionRealiser:
    """Finds (and in record mode searches and records) the realisations of a session's runs."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        record: str | None = config.getoption("guinote_realise_record")
        self.record_dir = Path(record) if record else None
        self.search_seconds = float(os.environ.get("GUINOTE_REALISE_SECONDS", "20"))

    def realisation(self, run: ScenarioSetup) -> tuple[Realisation, Replay]:
        """The stored realisation of the run's position; in record mode, a new one when none fits."""
        assert run.feature is not None and run.position is not None
        if self.record_dir is None:
            return realisations.find(run.feature, run.scenario, run.position, run.flags)
        record: dict[str, Any] = {
            "feature": str(run.feature),
            "scenario": run.scenario,
            "line": run.location.line,
            "profile": run.profile,
            "flags": run.flags,
            "position": run.position,
        }
        try:
            found, replayed = realisations.find(run.feature, run.scenario, run.position, run.flags)
            self._record(record | {"realisation": found.to_json(), "source": "stored", "seconds": 0.0})
            return found, replayed
        except realisations.NoRealisation:
            pass
        started = time.perf_counter()
        try:
            found = search(run.position, run.flags, seed=_seed(run.scenario, run.profile), seconds=self.search_seconds)
        except Unreachable as error:
            seconds = round(time.perf_counter() - started, 3)
            self._record(record | {"unreachable": str(error), "source": "search", "seconds": seconds})
            raise AssertionError(f"{run.setup_line}: no legal play reaching this position was found: {error}") from None
        seconds = round(time.perf_counter() - started, 3)
        self._record(record | {"realisation": found.to_json(), "source": "search", "seconds": seconds})
        return found, replay(found, run.flags)

    def _record(self, record: dict[str, Any]) -> None:
        assert self.record_dir is not None
        self.record_dir.mkdir(parents=True, exist_ok=True)
        worker = getattr(self.config, "workerinput", {}).get("workerid", "main")
        with (self.record_dir / f"found-{worker}.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def _seed(scenario: str, profile: str) -> int:
    """A reproducible search seed per scenario and profile."""
    return int.from_bytes(hashlib.sha256(f"{scenario}|{profile}".encode()).digest()[:4], "big")
