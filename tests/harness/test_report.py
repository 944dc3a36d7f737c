"""The results model and the reports built from it: one block per failure, the first
divergence from the reference, likely causes, JUnit, the HTML report in a real browser, and
the docs' check that a results file matches the current scenarios."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guinote_conformance.adapters.protocol import PROTOCOL_VERSION
from guinote_conformance.oracle.causes import likely_causes, numeric_differences
from guinote_conformance.report.formats import SHOWN_PER_CAUSE, failure_section, render_html, summary_lines, write_junit
from guinote_conformance.results.case import CaseResult, Divergence, StepLine
from guinote_conformance.results.report import (
    RESULTS_FORMAT,
    SUITE_VERSION,
    EngineEntry,
    Report,
    ResultsError,
    SuiteInfo,
)
from guinote_conformance.results.status import Stage, Status
from tests.harness.test_plugin import CONFTEST, TRICK, make_suite, run

REPO = Path(__file__).resolve().parents[2]
BROKEN_SOTA = "serve:tests.broken_engines.engines:caballo_above_sota"
#: Tagged with the rank order in general (DECK-05): the report must still find DECK-06.
SOTA_OVER_CABALLO = textwrap.dedent(
    """
    Feature: Tiny ranks
      Rule: DECK-05 ranks

        @DECK-05 @S000
        Scenario: The Sota takes the Caballo in a tiny suite
          Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
            | seat 0 | Co |
            | seat 1 | So |
            | seat 2 | 4o |
            | seat 3 | 5o |
          When these tricks are played:
            | Co So 4o 5o |
          Then seat 1 wins the trick
    """
)


def load(pytester: pytest.Pytester) -> Report:
    return Report.load(pytester.path / "results.json")


# ---------------------------------------------------------------------------------- the model


def test_every_status_has_a_glyph_a_meaning_and_says_whether_it_fails_the_run() -> None:
    assert {s.value for s in Status} == {
        "pass", "fail", "error", "timeout", "not_applicable", "xfail", "xpass", "not_run"
    }  # fmt: skip
    assert len({s.glyph for s in Status}) == len(Status)
    assert all(s.meaning for s in Status)
    problems = {Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.XPASS, Status.NOT_RUN}
    assert {s for s in Status if s.is_problem} == problems
    assert Status.NOT_RUN.label == "not run"
    assert Stage.REACHING_POSITION.text == "diverged while reaching the position"


def test_a_failure_whose_first_divergence_is_another_rule_names_that_rule() -> None:
    other = Divergence(530, "apply", "event trick_won.seat", 0, 3, "DECK-06", "event")
    own = Divergence(530, "apply", "event cante", 0, 3, "CANTE-28", "event")
    failed = {"status": Status.FAIL, "stage": Stage.RULE_UNDER_TEST, "failed_line": 530}
    at_its_step = _result(**failed, divergence=other)  # the failing step itself parted on another rule
    assert at_its_step.stage_text == "first diverged on DECK-06, not the rule under test"
    assert at_its_step.blocked_by is None
    assert _result(**failed, divergence=own).stage_text == "broke the rule under test"
    assert _result(**failed).stage_text == "broke the rule under test"  # no divergence found
    assert _result().stage_text == ""
    assert "first diverged on DECK-06" in render_html(_report_of(at_its_step))


def test_a_failure_that_went_wrong_at_another_rule_before_its_own_step_is_blocked_by_it() -> None:
    other = Divergence(530, "apply", "event trick_won.seat", 0, 3, "PLAY-05", "event")
    failed = {"status": Status.FAIL, "stage": Stage.RULE_UNDER_TEST, "failed_line": 540}
    blocked = _result(**failed, divergence=other)
    assert blocked.blocked_by == "PLAY-05"
    assert blocked.stage_text == "blocked by PLAY-05: went wrong there before reaching its own rule"
    # not blocked: its own rule, no rule named, not a failure, or the failing step itself
    assert _result(**failed, divergence=replace(other, rule="CANTE-28")).blocked_by is None
    assert _result(**failed, divergence=replace(other, rule=None)).blocked_by is None
    assert _result(**{**failed, "status": Status.ERROR}, divergence=other).blocked_by is None
    assert _result(**{**failed, "failed_line": 530}, divergence=other).blocked_by is None
    # on the way to the scenario's position the engine never reached the rule under test
    reaching = _result(status=Status.FAIL, stage=Stage.REACHING_POSITION, failed_line=530, divergence=other)
    assert reaching.blocked_by == "PLAY-05"
    # results.json says it, and a file of the previous format (without it) still reads the same
    data = blocked.to_json()
    assert data["blocked_by"] == "PLAY-05" and "blocked_by" not in _result().to_json()
    assert CaseResult.from_json({k: v for k, v in data.items() if k != "blocked_by"}).blocked_by == "PLAY-05"


def test_blocked_failures_are_one_line_under_their_root_cause_in_every_report(tmp_path: Path) -> None:
    """The terminal, the HTML report and JUnit collapse a failure blocked before its own rule under
    the rule that blocked it, the root cause the likely causes count it for."""
    report = _synthetic_report()
    (own, blocked) = report.failure_groups()
    assert (own.blocked_by, blocked.blocked_by) == (None, "SCORE-01")
    assert report.blocked() == {"SCORE-01": [blocked]}
    (cause,) = likely_causes(report)
    assert cause.rule == "SCORE-01" and cause.groups == [own, blocked] and cause.blocked == [blocked]
    assert any("1 of them is a scenario of other rules blocked here" in line for line in cause.evidence)
    lines = summary_lines(report)
    heading = next(i for i, line in enumerate(lines) if line.startswith("-- SCORE-01 (2 failure blocks, 1 of them"))
    assert lines[heading].endswith(": the diez de últimas. --")  # the rule's statement
    at = lines.index("  blocked at SCORE-01 before reaching their own rule:")
    assert heading < at and lines[at + 1].startswith(
        f"  {Status.FAIL.glyph} features/scoring.feature:30  SCORE-02  Last  [lascuarenta] — line 771"
    )
    assert (
        sum(line.startswith(f"{Status.FAIL.glyph} {Status.FAIL.label}") for line in lines) == 1
    )  # one full block: the other is a line
    html = render_html(report)
    assert 'id="blocked-SCORE-01"' in html and f'<li id="{blocked.key}">' in html
    assert html.count('<details class="failure" id=') == 1
    root = ET.parse(write_junit(report, tmp_path / "junit.xml")).getroot()
    by_case = {case.get("line"): case for case in root.iter("testcase")}
    assert [(p.get("name"), p.get("value")) for p in by_case["30"].iter("property")] == [("blocked_by", "SCORE-01")]
    assert not list(by_case["755"].iter("property"))
    assert "blocked by SCORE-01" in (by_case["30"].findtext("failure") or "")


def _report_of(*results: CaseResult) -> Report:
    report = _synthetic_report()
    return Report(engines=report.engines, suite=report.suite, results=list(results))


def test_statuses_are_spelled_only_by_the_results_module() -> None:
    """Every stage, the CLI and the docs import the enum instead of repeating strings."""
    # (the fuzzer's fuzz.json has keys of its own, a count of games "not_applicable" among them)
    readers = [
        p for p in sorted((REPO / "guinote_conformance").rglob("*.py")) if not {"results", "fuzz"} & set(p.parts)
    ]
    readers += sorted((REPO / "docs" / "_ext").rglob("*.py"))
    spelled = [
        f"{path.relative_to(REPO)}: {literal}"
        for path in readers
        for literal in ('"not_applicable"', '"xpass"', '"xfail"', "guinote-conformance-results/")
        if literal in path.read_text(encoding="utf-8")
    ]
    assert not spelled, spelled


def test_a_results_file_round_trips_and_a_bad_one_is_named(tmp_path: Path) -> None:
    report = _synthetic_report()
    path = tmp_path / "results.json"
    report.dump(path)
    again = Report.load(path)
    assert again.to_json() == report.to_json()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["results"][0]["status"] = "sort of"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ResultsError, match=r"results\.json: results/0/status: 'sort of' is not one of"):
        Report.load(path)
    path.write_text(json.dumps({"format": "guinote-conformance-results/1", "results": []}), encoding="utf-8")
    with pytest.raises(ResultsError, match="not a guinote-conformance results file"):
        Report.load(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ResultsError, match=r"results\.json:1: not a results file \(not JSON"):
        Report.load(path)


def test_shared_numeric_differences_are_counted() -> None:
    report = _synthetic_report()
    groups = report.failure_groups()
    (shared,) = numeric_differences(groups)
    assert shared.delta == -10 and len(shared.groups) == 2
    assert "2 failures are off by -10" in shared.text and "expected 94, got 84" in shared.text


# ---------------------------------------------------------------------------------- the plugin


def test_a_scenario_failing_alike_under_every_profile_is_one_block(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=2), name="tiny_block")
    run(pytester)
    report = load(pytester)
    assert len(report.problems) == 4
    (group,) = report.failure_groups()
    assert sorted(group.profiles) == ["lascuarenta", "ludoteka", "tradicional", "tradicional_literal"]
    result = group.first
    assert (result.what, result.expected, result.got) == ("winner of the trick", "2", "1")
    assert result.stage is Stage.RULE_UNDER_TEST
    assert result.failed_line == 14
    assert [step.line for step in result.steps] == [7, 12, 14]
    calls = [entry["call"] for entry in result.transcript]
    assert calls[0] == "start" and "apply" in calls
    assert "--report-dir" in result.rerun and "--trace" in result.rerun
    # the profiles' flags are in the header, once; a result only carries its scenario's own
    data = json.loads((pytester.path / "results.json").read_text(encoding="utf-8"))
    assert all(entry["flags"] == {} for entry in data["results"])
    assert len(data["engines"][0]["profiles"]) == 4
    assert data["engines"][0]["profiles"]["ludoteka"]["players"] == "4"
    assert report.flags_of(result)["players"] == "4"


def test_not_applicable_is_recorded_as_data(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", "@DECK-05 @S000 @players=2"), "tiny_na")
    run(pytester, "--engine", "py:tests.harness.limited_engine:make")
    (result,) = load(pytester).results
    assert result.status is Status.NOT_APPLICABLE
    assert not result.message.startswith("not applicable")  # the reason itself, not skip text parsed back
    assert "players=2" in result.message


def test_a_broken_engine_diverges_where_the_reference_applies_the_broken_rule(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the engine process imports tests.broken_engines
    make_suite(pytester, SOTA_OVER_CABALLO, name="tiny_sota")
    outcome, _ = run(pytester, "--engine", BROKEN_SOTA, "--profile", "lascuarenta")
    report = load(pytester)
    (result,) = report.problems
    divergence = result.divergence
    assert divergence is not None
    assert divergence.rule == "DECK-06"  # not the DECK-05 the scenario is tagged with
    assert divergence.step_line == 12 and "trick_won.seat" in divergence.what
    assert '"card": "5o"' in divergence.call
    (cause, *_) = likely_causes(report)
    assert cause.rule == "DECK-06"
    assert any("DECK-06" in line for line in cause.evidence)
    assert "in the arrastre" in cause.evidence  # where it happened, said in the game's own terms
    # plain pytest prints the likely causes too
    assert "likely causes" in outcome.stdout.str() and "1. DECK-06" in outcome.stdout.str()


def test_a_divergence_while_reaching_the_position_is_its_own_stage(pytester: pytest.Pytester) -> None:
    feature = TRICK.format(winner=1).replace("Then seat 1 wins", "Then the prefix diverges\n      And seat 1 wins")
    make_suite(pytester, feature, name="tiny_prefix")
    pytester.makeconftest(
        CONFTEST
        + textwrap.dedent(
            """
            from pytest_bdd import then

            class PrefixDivergence(AssertionError):
                pass

            @then("the prefix diverges")
            def _prefix() -> None:
                raise PrefixDivergence("the engine took another card on the way to the position")
            """
        )
    )
    run(pytester, "--profile", "ludoteka")
    (result,) = load(pytester).results
    assert result.status is Status.FAIL and result.stage is Stage.REACHING_POSITION
    assert "diverged while reaching the position" in render_html(load(pytester))


# ---------------------------------------------------------------------------------- the reports


def test_the_summary_reads_like_pytests_failures_by_cause_then_the_verdict_and_last_the_likely_causes() -> None:
    lines = summary_lines(_synthetic_report())
    assert lines[0] == "== Failures, by likely cause (2 failure blocks for 2 runs) =="
    verdict = next(i for i, line in enumerate(lines) if line.startswith("FAILED: 4 scenario runs"))
    causes = lines.index("Likely causes (2 failure blocks for 2 runs):")
    heading = next(i for i, line in enumerate(lines) if line.startswith("-- SCORE-01 (2 failure blocks, 1 of them"))
    assert heading < verdict < causes
    assert lines[causes + 1].startswith("1. SCORE-01 explains 2 failures")
    assert any("off by -10" in line for line in lines[causes:])
    # the last line re-runs the first failure of the last cause: its own scenario, not the one it blocked
    assert lines[-1] == "     re-run its first failure: " + _synthetic_report().results[0].rerun


def test_the_failures_of_one_cause_show_the_first_few_scenarios_and_count_the_rest() -> None:
    """A scenario failing again under a symmetry, or a fourth scenario of the cause, is counted
    with how to see it (-v), never shown by default; -v shows every one, -vv their steps."""
    base = _synthetic_report()
    first = base.results[0]
    again = [replace(first, symmetry="r1+ocbe", message=first.message + " (under r1+ocbe)")]
    others = [
        replace(first, id=f"cantes::Other {n}", scenario=f"Other {n}", line=800 + 10 * n, message=f"other {n}")
        for n in range(4)
    ]
    report = Report(engines=base.engines, results=[*base.results, *again, *others])
    default = failure_section(report)
    shown = [line for line in default if line.startswith(f"{Status.FAIL.glyph} {Status.FAIL.label}")]
    assert len(shown) == SHOWN_PER_CAUSE  # distinct scenarios, the one written before its symmetry
    assert not any("under r1+ocbe" in line for line in default)
    assert "  … 3 more failure blocks of this cause not shown, 1 of them a scenario above under another symmetry " \
           "(-v shows every one; index.html has each with its transcript)" in default  # fmt: skip
    every = failure_section(report, verbosity=1)
    assert sum(line.startswith(f"{Status.FAIL.glyph} {Status.FAIL.label}") for line in every) == 6
    assert not any("more failure block" in line for line in every) and not any(">>" in line for line in every)
    steps = failure_section(report, verbosity=2)
    assert "    >>  772 Then side 0 has 94 points in the hand" in steps
    assert any(line.endswith(" 756 Given a hand in the arrastre") and ">>" not in line for line in steps)


def test_junit_names_cases_by_rule_and_scenario_with_a_concise_body(tmp_path: Path) -> None:
    path = write_junit(_synthetic_report(), tmp_path / "junit.xml")
    root = ET.parse(path).getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == 4
    failing = next(case for case in cases if case.find("failure") is not None)
    assert (
        failing.get("name") == "CANTE-28: A twenty stays (features/cantes.feature:755) [hostile <engine> · lascuarenta]"
    )
    assert failing.get("classname") == "cantes.lascuarenta"
    assert (failing.get("file"), failing.get("line")) == ("features/cantes.feature", "755")
    failure = failing.find("failure")
    assert failure is not None and failure.get("message") == "points in the hand of side 0: expected 94, got 84"
    body = failure.text or ""
    assert ">>  772 Then side 0 has 94 points in the hand" in body
    assert "Traceback" not in body and "driver.py" not in body
    assert "\x07" not in path.read_text(encoding="utf-8")  # XML cannot carry it; the file still parses
    skipped = [case for case in cases if case.find("skipped") is not None]
    assert len(skipped) == 1


def test_the_html_report_escapes_engine_text_and_links_the_rules() -> None:
    html = render_html(_synthetic_report())
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>panic</b>" not in html and "&lt;b&gt;panic&lt;/b&gt;" in html  # its stderr too
    assert "hostile &lt;engine&gt;" in html  # the engine's name in the column headers, escaped
    assert re.search(r'href="[^"]*/rulebook/scoring\.html#rule-score-01"', html)
    assert html.index('id="causes"') < html.index('id="failures"') < html.index('id="matrix"')


def test_every_report_names_the_suite_and_protocol_versions(tmp_path: Path) -> None:
    """results.json, the HTML report and the JUnit file each say which suite and which protocol ran."""
    report = _synthetic_report()
    report.dump(tmp_path / "results.json")
    suite = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["suite"]
    assert (suite["version"], suite["protocol"]) == (SUITE_VERSION, PROTOCOL_VERSION)
    assert f"suite {SUITE_VERSION}, protocol GCP/{PROTOCOL_VERSION}" in render_html(report)
    root = ET.parse(write_junit(report, tmp_path / "junit.xml")).getroot()
    properties = {node.get("name"): node.get("value") for node in root.iter("property")}
    assert properties["suite version"] == SUITE_VERSION and properties["suite commit"] == "abc123"
    assert properties["protocol"] == f"GCP/{PROTOCOL_VERSION}"
    assert SuiteInfo(protocol=0).protocol_name == "GCP/?"  # a file of an older suite did not say


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


_PROBE = """<script>
window.addEventListener("load", function () {
  var over = [];
  document.querySelectorAll("body *").forEach(function (el) {
    var box = el.getBoundingClientRect();
    var inside = box.right <= window.innerWidth + 1 || el.closest(".scroll");
    if (box.width && !inside) over.push(el.tagName + "." + el.className);
  });
  var rows = document.querySelectorAll("#matrix-table tbody tr"), all = rows.length;
  var status = document.getElementById("f-status");
  status.value = "problem"; status.dispatchEvent(new Event("input"));
  var shown = Array.prototype.filter.call(rows, function (row) { return !row.hidden; }).length;
  var first = document.querySelector("section").id;
  var top = document.getElementById("causes").getBoundingClientRect().top;
  parent.postMessage(JSON.stringify({width: window.innerWidth, over: over.slice(0, 5), all: all,
                                     shown: shown, first: first, causesTop: top}), "*");
});
</script>"""


def _browse(html: str, width: int) -> dict[str, Any]:
    """Lay the report out in headless Chromium at ``width`` px; what the page measured of itself."""
    browser = _chromium()
    if browser is None:
        pytest.fail("no chromium on the PATH (apt-get install -y chromium)")
    folder = Path(tempfile.mkdtemp())
    (folder / "report.html").write_text(html.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    # the report runs in an iframe of the exact width (headless windows have a minimum width)
    (folder / "frame.html").write_text(
        f'<!doctype html><body style="margin:0"><pre id="probe"></pre>'
        f'<iframe src="report.html" style="width:{width}px;height:900px;border:0"></iframe>'
        '<script>addEventListener("message", function (e) { probe.textContent = e.data; });</script></body>',
        encoding="utf-8",
    )
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
    flags += ["--disable-component-update", "--disable-sync", f"--user-data-dir={folder / 'profile'}"]
    done = subprocess.run(
        [browser, *flags, "--window-size=1400,1000", "--virtual-time-budget=5000", "--dump-dom",
         (folder / "frame.html").as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    shutil.rmtree(folder, ignore_errors=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found and found.group(1), f"the page did not report its layout:\n{done.stdout[-500:]}{done.stderr[-500:]}"
    measured: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return measured


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_the_html_report_fits_the_screen_in_a_real_browser(width: int) -> None:
    report = _synthetic_report()
    measured = _browse(render_html(report), width)
    assert measured["width"] == width
    assert measured["over"] == [], f"wider than the screen at {width} px: {measured['over']}"
    assert measured["first"] == "causes"
    assert measured["causesTop"] < 900, "the likely causes are on the first screen"
    # filtering the matrix to problems keeps the rules with a failing run
    assert (measured["all"], measured["shown"]) == (3, 2)


# ---------------------------------------------------------------------------------- CLI and docs


def test_the_report_command_names_a_bad_results_file(tmp_path: Path) -> None:
    from guinote_conformance.cli import app

    bad = tmp_path / "results.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    done = CliRunner().invoke(app, ["report", str(bad), "--out", str(tmp_path / "out")])
    assert done.exit_code == 2
    assert f"error: {bad}: not a guinote-conformance results file ({RESULTS_FORMAT}" in done.output.replace("\n", "")
    assert "Traceback" not in done.output

    _synthetic_report().dump(bad)
    done = CliRunner().invoke(app, ["report", str(bad), "--out", str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "out" / "index.html").exists() and (tmp_path / "out" / "junit.xml").exists()
    assert "Likely causes" in done.output


def test_the_docs_refuse_results_made_from_other_scenarios(tmp_path: Path) -> None:
    from guinote_conformance.report.published import StaleResults, current_digest, results_for_docs

    features = REPO / "tests" / "docs" / "data" / "features"
    report = _synthetic_report()
    path = tmp_path / "results.json"
    report.dump(path)
    with pytest.raises(StaleResults, match=rf"{re.escape(str(path))}: made from other scenarios .* at commit abc123"):
        results_for_docs(path, tmp_path / "cache", features)
    report.suite = SuiteInfo(commit="abc123", scenarios_digest=current_digest(features))
    report.dump(path)
    shown, source = results_for_docs(path, tmp_path / "cache", features)
    assert source == path and shown.suite.commit == "abc123"


# ---------------------------------------------------------------------------------- data


def _result(**fields: Any) -> CaseResult:
    base: dict[str, Any] = {
        "id": "cantes::A twenty stays",
        "scenario": "A twenty stays",
        "feature": "features/cantes.feature",
        "line": 755,
        "rules": ("CANTE-28",),
        "engine": "cmd:./hostile",
        "profile": "lascuarenta",
        "status": Status.PASS,
        "rerun": "guinote-conformance run --engine cmd:./hostile --profile lascuarenta --scenario "
        "features/cantes.feature:755 --jobs 1 --trace --report-dir reports/rerun-cantes-755-lascuarenta",
    }
    return CaseResult(**{**base, **fields})


def _synthetic_report() -> Report:
    """Two scenarios off by ten where the reference adds the diez de últimas (the first parts at its
    failing step, the second before it: blocked by SCORE-01), a pass and an n/a."""
    divergence = Divergence(
        771, 'apply {"type": "play", "seat": 1, "card": "Rc"}', "event ultimas.points", 10, 0, "SCORE-01", "event"
    )
    steps = (
        StepLine("Given", "a hand in the arrastre", 756),
        StepLine("Then", "side 0 has 94 points in the hand", 772),
    )
    failing = {
        "status": Status.FAIL,
        "what": "points in the hand of side 0",
        "expected": "94",
        "got": "84",
        "message": "features/cantes.feature:772: points in the hand of side 0: expected 94, got 84",
        "stage": Stage.RULE_UNDER_TEST,
        "failed_line": 772,
        "steps": steps,
        "divergence": divergence,
        "transcript": (
            {"call": "start", "step": 756, "args": {"flags": {}}, "answer": "started"},
            {"call": "state", "step": 772, "args": "score.0", "answer": "<script>alert(1)</script>\x07"},
        ),
        "stderr": ("<b>panic</b>",),
    }
    return Report(
        engines=[EngineEntry("cmd:./hostile", "hostile <engine>", "1.0", "rust", {"lascuarenta": {"players": "4"}})],
        suite=SuiteInfo(commit="abc123", scenarios_digest="0" * 16, scenarios=3),
        started="2026-01-01T00:00:00Z",
        duration_s=1.0,
        results=[
            _result(**{**failing, "divergence": replace(divergence, step_line=772)}),
            _result(
                **{**failing, "id": "scoring::Last", "scenario": "Last", "feature": "features/scoring.feature"},
                line=30,
                rules=("SCORE-02",),
            ),
            _result(id="deck::Ranks", scenario="Ranks", feature="features/deck.feature", line=5, rules=("DECK-05",)),
            _result(
                id="deck::Two",
                scenario="Two",
                feature="features/deck.feature",
                line=9,
                rules=("DECK-05",),
                status=Status.NOT_APPLICABLE,
                message="engine hostile does not support players=2",
            ),
        ],
    )


def test_two_engines_get_their_own_columns_even_with_one_name() -> None:
    report = _synthetic_report()
    twin = EngineEntry("cmd:./other", "hostile <engine>", "2.0", "rust", {"lascuarenta": {"players": "4"}})
    report.engines.append(twin)
    report.results.append(_result(engine="cmd:./other"))
    assert report.columns() == ["cmd:./hostile · lascuarenta", "cmd:./other · lascuarenta"]
    html = render_html(report)
    assert "hostile &lt;engine&gt; 1.0" in html and "hostile &lt;engine&gt; 2.0" in html  # names and versions


def test_failures_parting_the_same_way_without_a_rule_are_one_cause() -> None:
    """An engine refusing what every rule allows breaks no rule in particular: say how it parts."""
    report = _synthetic_report()
    for index, result in enumerate(report.results):
        if result.status is Status.FAIL:
            divergence = Divergence(
                770 + index, f'apply {{"card": "{index}o"}}', "the engine refused it as NOT_TODAY", {}, {}
            )
            report.results[index] = _result(**{**result.__dict__, "divergence": divergence, "status": Status.FAIL})
    (cause,) = likely_causes(report)
    assert cause.rule is None and cause.title == "no single rule: the engine refused it as NOT_TODAY"
    assert len(cause.groups) == 2
    assert "no single rule: the engine refused it as NOT_TODAY" in render_html(report)


def test_the_diagnosis_survives_an_engine_answering_garbage() -> None:
    from guinote_conformance.adapters.interface import Accepted
    from guinote_conformance.engines.recording import Call
    from guinote_conformance.oracle.transcript import find_divergence
    from guinote_conformance.reference_engine.flags import rules_for

    setup = {
        "flags": rules_for("ludoteka").as_dict(),
        "position": {"hands": [["Ro"], ["3o"], ["4o"], ["5o"]], "leader": 0, "trump": "b"},
    }
    calls = [
        Call("start", setup, 7, answer="started"),
        Call("apply", {"type": "play", "seat": 0, "card": "Ro"}, 12, raw=Accepted(["not an event"])),  # type: ignore[list-item]
    ]
    assert find_divergence(calls) is None


def test_checks_not_made_and_runs_not_applicable_are_counted_by_reason_in_every_report(tmp_path: Path) -> None:
    """Never one line per run: the terminal and the HTML count them by why; results.json keeps each
    (an engine's own text escaped: the reason names its capability, never as markup)."""
    needs = "needs capability 'match'"
    passing = [
        _result(id=f"p{n}", line=n, status=Status.PASS, unchecked=(f"{n}: state field match.points.0: {needs}",))
        for n in range(3)
    ]
    why = "lacks <b>x</b>"
    lacking = [_result(id=f"n{n}", line=10 + n, status=Status.NOT_APPLICABLE, message=why) for n in range(2)]
    report = Report(results=[*passing, *lacking])
    lines = summary_lines(report)
    assert "3 passing runs with checks not made: needs capability 'match'" in lines
    assert "2 not applicable, for 1 reason (-v lists them; results.json has each run's)" in lines
    assert "2 not applicable: lacks <b>x</b>" in summary_lines(report, verbosity=1)
    html = render_html(report)
    assert "3 passing runs: needs capability &#39;match&#39;" in html and "lacks &lt;b&gt;x&lt;/b&gt;" in html
    report.dump(tmp_path / "results.json")
    again = Report.load(tmp_path / "results.json")
    assert [r.unchecked for r in again.results if r.status is Status.PASS] == [r.unchecked for r in passing]
