"""An engine that deals its own way (it refuses deck orders) runs the suite: only the scenarios
about dealing from a deck order are not applicable; the next hand of the others is given to it
as the explicit deal of the same cards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from guinote_conformance.base.exit_codes import ExitCode

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, engine: str, *options: str) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance",
         "run", "--engine", engine, "--jobs", "1", "--report-dir", str(tmp_path),
         "--profile", "lascuarenta", "--profile", "tradicional", *options],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    return done, results


TOTALS_CARRIED = "The totals of the first hand are carried into the hand de vueltas"


def test_only_the_scenarios_that_deal_from_a_deck_order_are_not_applicable(tmp_path: Path) -> None:
    areas = ("--area", "match", "--area", "vueltas", "--area", "deal")
    done, results = _run(tmp_path, "py:tests.harness.explicit_deal_engine:make", *areas)
    assert done.returncode == ExitCode.OK, done.stdout[-3000:]
    assert {r["status"] for r in results} == {"pass", "not_applicable"}
    for result in results:
        if result["status"] == "not_applicable":
            assert "deck order" in result["message"] and result["feature"] == "features/deal.feature", result
    by_name = {(r["scenario"], r["profile"]): r["status"] for r in results}
    # next hands dealt from a deck order in the scenario, explicitly to the engine
    assert by_name[("The opponent who took the last trick of a won point deals the next hand", "lascuarenta")] == "pass"
    assert by_name[(TOTALS_CARRIED, "tradicional")] == "pass"  # VUELTAS-02
    assert by_name[("Seat 3 takes the last trick and deals the next hand, so seat 0 is mano", "lascuarenta")] == (
        "not_applicable"  # DEAL-11: the deal itself
    )


def test_a_broken_engine_that_deals_its_own_way_fails_past_the_first_hand(tmp_path: Path) -> None:
    done, results = _run(tmp_path, "py:tests.fuzz.engines:explicit_deal_forgets_totals", "--rule", "VUELTAS-02")
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout[-3000:]
    # it fails on the totals it forgets, not on the deal it was given explicitly
    assert any(
        r["status"] == "fail" and r["scenario"] == TOTALS_CARRIED and "points in total" in r["message"] for r in results
    )
