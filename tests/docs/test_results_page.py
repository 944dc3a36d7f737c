"""The results page never shows a stale run: a results file made from other scenarios fails the build."""

from __future__ import annotations

from pathlib import Path

from guinote_conformance.results.report import Report, SuiteInfo
from tests.docs.conftest import PROJECT, build, require

DATA = Path(__file__).resolve().parent / "data"


def test_a_results_file_made_from_other_scenarios_fails_the_build(tmp_path: Path) -> None:
    require("sphinx")
    report = Report.load(DATA / "results.json")
    report.suite = SuiteInfo(commit="feedc0ffee12", scenarios_digest="0123456789abcdef", scenarios=2)
    stale = tmp_path / "stale.json"
    report.dump(stale)
    site = build(PROJECT, tmp_path / "site", {"GUINOTE_RESULTS": str(stale)})
    assert site.status != 0, "a stale results file must fail a build with -W"
    assert "made from other scenarios" in site.warnings and "feedc0ffee12" in site.warnings
    assert str(stale) in site.warnings  # the warning names the file
