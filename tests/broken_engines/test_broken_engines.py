"""The suite catches each deliberately broken engine under the rule it breaks.

Each broken engine runs in its own process over the protocol, against every scenario under
one profile; the run must flag the broken rule, report no crash, pass the scenarios the
broken rule does not reach, and rank the broken rule first among the likely causes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from guinote_conformance.oracle.causes import likely_causes
from guinote_conformance.results.report import Report
from tests.broken_engines.engines import BREAKAGES

#: The reason given for a scenario whose position only a position loader can set up.
POSITIONS_ONLY = "cannot be reached by play"

REPO = Path(__file__).resolve().parents[2]


#: The broken engines the default test run checks (a rule of ranking, of the duty to beat, of the free
#: phase); the others are left to ``tox -e slow``, which checks every one.
QUICK = frozenset({"caballo_above_sota", "no_partner_exemption", "free_phase_obligations"})


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=() if name in QUICK else pytest.mark.slow) for name in sorted(BREAKAGES)]
)
def test_the_suite_flags_the_broken_rule(name: str, tmp_path: Path) -> None:
    breakage = BREAKAGES[name]
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", f"serve:tests.broken_engines.engines:{name}",
         "--profile", "lascuarenta", "--jobs", "1", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 1, f"a broken engine must fail the run\n{done.stdout}\n{done.stderr}"
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] != "pass"]
    assert {r["status"] for r in failed} == {"fail"}, "a wrong rule is a failure, not a crash or timeout"
    flagged = {rule for r in failed for rule in r["rules"]}
    assert breakage.rule in flagged, f"{name} breaks {breakage.rule}, but the suite flagged only {sorted(flagged)}"
    if breakage.collateral is not None:
        allowed = breakage.collateral | {breakage.rule}
        stray = [r["scenario"] for r in failed if not set(r["rules"]) & allowed]
        assert not stray, f"{name} should only fail scenarios of {sorted(allowed)}; also failed: {stray}"
    assert len(failed) < len(results) / 2, "most of the suite does not depend on the broken rule"
    # the report ranks the broken rule first among the likely causes, in the file and on screen
    causes = likely_causes(Report.load(tmp_path / "results.json"))
    # (a bug that breaks two rules equally, such as no exemption at all for the partner winning,
    # whether the player follows or is void, ARR-06 and ARR-07, may rank either first)
    top = [cause.rule for cause in causes if cause.score == causes[0].score]
    assert breakage.rule in top, f"{name}: likely causes {[(c.rule, c.score) for c in causes]}"
    assert f"{top.index(breakage.rule) + 1}. {breakage.rule} explains" in done.stdout
    assert '<a class="rule" href="' in (tmp_path / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_a_broken_engine_without_positions_is_caught_too(name: str, tmp_path: Path) -> None:
    """Reaching positions by play instead of loading them still flags the broken rule: either a scenario
    of that rule fails, or the engine diverges from the reference while reaching a position, and the
    divergence names the rule the reference applied there."""
    breakage = BREAKAGES[name]
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", f"serve:tests.broken_engines.engines:{name}",
         "--profile", "lascuarenta", "--jobs", "1", "--position-setup", "realise", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 1, f"a broken engine must fail the run\n{done.stdout}\n{done.stderr}"
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    # only a position no play reaches (listed as positions-only) is not applicable here
    failed = [r for r in results if r["status"] != "pass" and POSITIONS_ONLY not in r["message"]]
    assert {r["status"] for r in failed} == {"fail"}, "a wrong rule is a failure, not a crash or timeout"
    in_scenarios = {rule for r in failed if "diverged while reaching" not in r["message"] for rule in r["rules"]}
    in_prefixes = " ".join(r["message"] for r in failed if "diverged while reaching" in r["message"])
    causes = likely_causes(Report.load(tmp_path / "results.json"))
    # the report ranks it first; failing that, a scenario of the rule or a prefix divergence names it
    assert causes[0].rule == breakage.rule or breakage.rule in in_scenarios or breakage.rule in in_prefixes, (
        f"{name} breaks {breakage.rule}; likely causes {[(c.rule, c.score) for c in causes]}; "
        f"flagged rules {sorted(in_scenarios)}; prefix divergences: {in_prefixes[:500]}"
    )
