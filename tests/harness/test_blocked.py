"""Root causes on engines with one planted bug, run over the protocol: the failures that went wrong
at the bug before reaching their own rule are blocked by its rule, collapsed under it in every
report, and counted for it; the rule named is the one the engine's answer breaks.

Each run is narrowed to the areas where the bug shows (a few seconds each)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from guinote_conformance.oracle.causes import likely_causes
from guinote_conformance.report.formats import junit_name
from guinote_conformance.results.report import Report

REPO = Path(__file__).resolve().parents[2]


def _run(engine: str, tmp_path: Path, *narrowing: str) -> tuple[Report, str]:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", engine, "--profile", "lascuarenta",
         "--jobs", "1", "--report-dir", str(tmp_path), *narrowing],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, f"a broken engine must fail the run\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return Report.load(tmp_path / "results.json"), done.stdout


def test_a_card_of_a_third_suit_taking_the_trick_is_the_third_suit_rule_and_blocks_the_rest(
    tmp_path: Path,
) -> None:
    report, stdout = _run(
        "serve:tests.harness.planted_engines:third_suit_wins", tmp_path, "--area", "deck", "--area", "free_phase", "-v"
    )  # -v: every failure shown (by default the first few of each cause)
    failed = [result for result in report.results if result.status.is_problem]
    assert failed and all(r.divergence is not None and r.divergence.rule == "DECK-11" for r in failed), [
        (r.id, r.divergence) for r in failed
    ]  # never the card ranking (DECK-05/06), which this engine gets right
    blocked = [r for r in failed if r.blocked_by]
    assert blocked and all(r.blocked_by == "DECK-11" and "DECK-11" not in r.rules for r in blocked)
    assert any("DECK-11" in r.rules and not r.blocked_by for r in failed)  # its own scenario: a full block
    (cause, *others) = likely_causes(report)
    assert cause.rule == "DECK-11" and not others and len(cause.blocked) == len(blocked)
    assert "1. DECK-11 explains" in stdout and "  blocked at DECK-11 before reaching their own rule:" in stdout
    for result in blocked:  # one line under the root cause, not a block of its own
        assert f"{result.location}  {', '.join(result.rules)}  {result.scenario}" in stdout
        assert f"rules {', '.join(result.rules)}  profiles" not in stdout
    # a test case per run: its file, line and name (which carries the profile and any symmetry) pick it out
    cases = {
        (case.get("file"), case.get("line"), case.get("name")): case
        for case in ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    }
    for result in blocked:
        case = cases[(result.feature, str(result.line), junit_name(result, report))]
        properties = [(p.get("name"), p.get("value")) for p in case.iter("property")]
        assert properties == [("blocked_by", "DECK-11")]
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'id="blocked-DECK-11"' in html


def test_a_missing_diez_de_ultimas_is_score_01_first(tmp_path: Path) -> None:
    report, stdout = _run("serve:tests.broken_engines.engines:no_diez_de_ultimas", tmp_path, "--area", "scoring")
    (cause, *_) = likely_causes(report)
    assert cause.rule == "SCORE-01" and "1. SCORE-01 explains" in stdout
    # the scenarios of the rules that read the totals later went wrong at the diez de últimas first
    blocked = {rule for result in report.results if result.blocked_by for rule in result.rules}
    assert all(result.blocked_by in (None, "SCORE-01") for result in report.results)
    assert blocked & {"SCORE-06", "SCORE-07"}, blocked


def test_an_exchange_that_leaves_the_hand_wrong_is_the_exchange_rule_not_the_draw(tmp_path: Path) -> None:
    report, stdout = _run("serve:tests.harness.planted_engines:exchange_keeps_seven", tmp_path, "--area", "seven")
    rules = {r.divergence.rule for r in report.results if r.status.is_problem and r.divergence is not None}
    assert rules == {"SEVEN-01"}, rules
    assert likely_causes(report)[0].rule == "SEVEN-01" and "1. SEVEN-01 explains" in stdout
