"""The runner end to end on small feature files: statuses, not applicable, expectations, bad input."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

CONFTEST = "# the steps come with the plugin\n"
TEST_MODULE = textwrap.dedent(
    """
    import pytest
    from pytest_bdd import scenarios

    pytestmark = pytest.mark.usefixtures("guinote_case")
    scenarios("features")
    """
)
TRICK = textwrap.dedent(
    """
    Feature: Tiny
      Rule: DECK-05 ranks

        @DECK-05 @S000
        Scenario: The Tres beats the Rey in a tiny suite
          Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
            | seat 0 | Ro |
            | seat 1 | 3o |
            | seat 2 | 4o |
            | seat 3 | 5o |
          When these tricks are played:
            | Ro 3o 4o 5o |
          Then seat {winner} wins the trick
    """
)


def make_suite(pytester: pytest.Pytester, feature: str, name: str = "tiny") -> None:
    (pytester.path / "features").mkdir(exist_ok=True)
    for old in (pytester.path / "features").glob("*.feature"):
        old.unlink()
    # pytest-bdd caches parsed features by file name for the whole process: use fresh names
    (pytester.path / "features" / f"{name}.feature").write_text(feature, encoding="utf-8")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_tiny=TEST_MODULE)


def run(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, Any]]:
    results = pytester.path / "results.json"
    outcome = pytester.runpytest("-p", "guinote_conformance.plugin", "--guinote-results", str(results), *args)
    data = json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}
    return outcome, data


def statuses(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["profile"], r["status"]) for r in data["results"]]


def test_a_correct_scenario_passes_under_every_profile(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1))
    outcome, data = run(pytester)
    outcome.assert_outcomes(passed=4)
    assert {status for _, status in statuses(data)} == {"pass"}


def test_a_wrong_expectation_fails_with_expected_and_got(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=2))
    outcome, data = run(pytester, "--profile", "ludoteka")
    outcome.assert_outcomes(failed=1)
    (result,) = data["results"]
    assert result["status"] == "fail"
    assert "expected 2, got 1" in result["message"]
    assert "tiny.feature:14" in result["message"]  # the failing step's line
    assert "--scenario" in result["rerun"] and "tiny.feature:6" in result["rerun"]


def test_an_unknown_card_is_reported_with_file_and_line(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1).replace("| seat 3 | 5o |", "| seat 3 | 5x |"))
    outcome, data = run(pytester, "--profile", "ludoteka")
    outcome.assert_outcomes(errors=0, failed=1)
    (result,) = data["results"]
    assert result["status"] == "error"
    assert "tiny.feature:7" in result["message"] and "unknown card '5x'" in result["message"]


def test_a_scenario_needing_an_unsupported_flag_is_not_applicable(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", "@DECK-05 @S000 @players=2"))
    outcome, data = run(pytester, "--engine", "py:tests.harness.limited_engine:make")
    outcome.assert_outcomes(skipped=1)
    (result,) = data["results"]
    assert result["status"] == "not_applicable"
    assert "players=2" in result["message"]


def test_a_multi_value_tag_runs_with_the_profiles_value_where_it_is_listed(pytester: pytest.Pytester) -> None:
    """``@deal=three_three|one_by_one``: ludoteka plays one_by_one, the others three_three; each
    runs with its own. ``@deal=three_three`` alone: every profile runs with three_three."""
    make_suite(
        pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", "@DECK-05 @S000 @deal=three_three|one_by_one")
    )
    outcome, data = run(pytester)
    outcome.assert_outcomes(passed=4)
    played = {result["profile"]: result["flags"]["deal"] for result in data["results"]}
    assert played == {"ludoteka": "one_by_one", "lascuarenta": "three_three", "tradicional": "three_three",
                      "tradicional_literal": "three_three"}  # fmt: skip
    make_suite(pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", "@DECK-05 @S000 @deal=three_three"), "one")
    outcome, data = run(pytester, "--profile", "ludoteka")
    outcome.assert_outcomes(passed=1)
    assert data["results"][0]["flags"] == {"deal": "three_three"}


def test_a_position_scenario_is_not_applicable_without_the_capability(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1))
    outcome, data = run(pytester, "--engine", "py:tests.harness.limited_engine:make")
    outcome.assert_outcomes(skipped=1)
    assert statuses(data) == [("mine", "not_applicable")]
    assert "positions" in data["results"][0]["message"]


def test_an_expected_failure_is_xfail_and_an_unexpected_pass_fails_the_run(pytester: pytest.Pytester) -> None:
    expectations = pytester.path / "known.toml"
    expectations.write_text('[[expect]]\nrule = "DECK-05"\nreason = "known bug #12"\n', encoding="utf-8")
    make_suite(pytester, TRICK.format(winner=2))
    outcome, data = run(pytester, "--profile", "ludoteka", "--expectations", str(expectations))
    outcome.assert_outcomes(xfailed=1)
    assert statuses(data) == [("ludoteka", "xfail")]

    make_suite(pytester, TRICK.format(winner=1), name="tiny_fixed")
    outcome, data = run(pytester, "--profile", "ludoteka", "--expectations", str(expectations))
    outcome.assert_outcomes(failed=1)
    assert statuses(data) == [("ludoteka", "xpass")]


def test_an_unknown_tag_is_an_error_naming_the_file_and_line(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", "@DECK-05 @S000 @bogus"))
    outcome, _ = run(pytester, "--profile", "ludoteka")
    outcome.assert_outcomes(errors=1)
    text = outcome.stdout.str()
    assert "tiny.feature:5: unknown tag @bogus" in text  # the tag's line
    assert outcome.ret == pytest.ExitCode.INTERRUPTED  # a collection error: nothing is run


@pytest.mark.parametrize(
    ("name", "tag"),
    [("undeclared_value", "@seven_exchange_window=while_visible"), ("undeclared_flag", "@no_such_flag=x")],
)
def test_an_undeclared_flag_or_value_is_a_collection_error_naming_the_tags_line(
    pytester: pytest.Pytester, name: str, tag: str
) -> None:
    # run, it would be not applicable under every profile of every engine, and the session would pass
    make_suite(pytester, TRICK.format(winner=1).replace("@DECK-05 @S000", f"@DECK-05 @S000\n    {tag}"), name)
    outcome, data = run(pytester)
    text = outcome.stdout.str()
    assert outcome.ret == pytest.ExitCode.INTERRUPTED, text  # 2, as collection errors
    assert f"{name}.feature:6: {tag}: unknown" in text  # the tag's line, not the scenario's (7)
    assert "error during collection" in text and "Traceback" not in text
    assert not data.get("results")


def test_an_unknown_profile_is_a_usage_error(pytester: pytest.Pytester) -> None:
    make_suite(pytester, TRICK.format(winner=1))
    outcome, _ = run(pytester, "--profile", "nowhere")
    assert outcome.ret != pytest.ExitCode.OK
    assert "no profile 'nowhere'" in outcome.stdout.str() + outcome.stderr.str()


def test_results_feed_the_html_report(pytester: pytest.Pytester, tmp_path: Path) -> None:
    from guinote_conformance.report.formats import write_html
    from guinote_conformance.results.report import Report

    make_suite(pytester, TRICK.format(winner=2))
    run(pytester)
    html = write_html(Report.load(pytester.path / "results.json"), tmp_path).read_text(encoding="utf-8")
    assert "DECK-05" in html and "expected 2, got 1" in html and "guinote-conformance run" in html
