"""Deep fuzzing (opt-in: ``tox -e fuzz``): compare finds each deliberately broken engine, the
scenario it writes fails on that engine and passes on the reference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.broken import TARGETS, hunt

#: engines whose broken rule the fuzzer does not reach yet, with why
NOT_REACHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    # strict: the run goes red the day the fuzzer finds one of them, so the list stays honest
    [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=NOT_REACHED[n])) if n in NOT_REACHED else n
     for n in sorted(TARGETS)],
)  # fmt: skip
def test_compare_finds_the_broken_engine_and_writes_a_scenario_that_fails_on_it(name: str) -> None:
    finding = hunt(name, 3000)
    assert finding.first is not None, f"{name}: no divergence in {finding.hands} hands"
    reproduced = finding.checked == "engine fail, reference pass"
    assert reproduced, f"{name}: the scenario does not reproduce ({finding.checked}):\n{finding.scenario}"


def test_the_cli_writes_scenarios_that_fail_on_the_engine(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "compare", "--engine", "py:tests.fuzz.engines:no_cantes",
         "--profile", "tradicional", "--hands", "15", "--depth", "hand", "--report-dir", str(tmp_path)],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "scenario reproduced [tradicional;" in done.stdout and "NOT REPRODUCED" not in done.stdout
    feature = (tmp_path / "divergences.feature").read_text(encoding="utf-8")
    assert feature.count("Scenario:") == len(list(tmp_path.glob("divergence-*.json")))
