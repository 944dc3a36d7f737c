"""Every scenario runs against every engine: positions are reached by play where they cannot be loaded.

Two whole-suite runs, each in its own pytest process:

* the reference engine with every position *realised* (dealt and played to) instead of loaded:
  every run must pass, which checks the stored realisations against their positions (a stale one
  fails here, naming the scenario's file:line and the first field that differs) and the
  realised path against the loaded one (the suite's own run loads them);
* an engine with no capabilities at all (the reference served over the protocol, capabilities
  hidden): of the runs that neither its flags nor a capability other than ``positions`` rule
  out, at least 97 % must be executed, and every executed run must pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BARE = f"cmd:{sys.executable} -m guinote_conformance.adapters.serve --engine tests.harness.bare_engine:make"

pytestmark = pytest.mark.timeout(1200)


def run_suite(tmp_path: Path, *args: str) -> dict[str, Any]:
    results = tmp_path / "results.json"
    command = [sys.executable, "-m", "pytest", "tests/conformance", "-q", "-n", "2", "-p", "no:randomly"]
    command += ["--guinote-results", str(results), *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert results.exists(), f"the suite produced no results:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    data: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    return data


def where(result: dict[str, Any]) -> str:
    return f"{result['feature']}:{result['line']} [{result['profile']}] {result['message']}"


@pytest.mark.slow
def test_the_reference_passes_every_scenario_with_every_position_realised(tmp_path: Path) -> None:
    data = run_suite(tmp_path, "--engine", "reference", "--position-setup", "realise")
    bad = [where(r) for r in data["results"] if r["status"] != "pass" and POSITIONS_ONLY not in r["message"]]
    assert not bad, f"{len(bad)} runs did not pass with realised positions:\n" + "\n".join(bad[:40])
    assert len(data["results"]) > 1000


#: The reason given for a scenario whose position only a position loader can set up (listed on the
#: rulebook's coverage page); anything else not passing is a stale or missing realisation.
POSITIONS_ONLY = "cannot be reached by play"

#: Why a run may be not applicable for an engine that declares every flag value but no capability.
RULED_OUT = ("'observations' capability", "'match' capability")


@pytest.mark.slow
def test_an_engine_with_no_capabilities_runs_nearly_every_scenario(tmp_path: Path) -> None:
    data = run_suite(tmp_path, "--engine", BARE)
    results = data["results"]
    ruled_out = [r for r in results if r["status"] == "not_applicable" and any(w in r["message"] for w in RULED_OUT)]
    eligible = [r for r in results if r not in ruled_out]
    executed = [r for r in eligible if r["status"] != "not_applicable"]
    share = len(executed) / len(eligible)
    print(
        f"\nno capabilities: {len(results)} runs, {len(ruled_out)} ruled out by observations or match, "
        f"{len(executed)} of {len(eligible)} others executed ({share:.1%})"
    )
    failed = [where(r) for r in executed if r["status"] != "pass"]
    assert not failed, f"{len(failed)} executed runs did not pass:\n" + "\n".join(failed[:40])
    skipped = [where(r) for r in eligible if r["status"] == "not_applicable"]
    assert share >= 0.97, f"only {share:.1%} executed; not applicable:\n" + "\n".join(skipped[:60])
