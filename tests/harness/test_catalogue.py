"""Reading feature files: tags, inheritance, and errors with file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.catalogue.features import FeatureError, parse_feature

FEATURE = """Feature: F
  @S004
  Rule: ARR-10 literal

    Background:
      Given a deal by seat 0:
        | seat 0 | Ao |

    @ARR-10 @partner_winning_exempts=no
    Scenario: One
      Then the phase is free
"""


def test_tags_are_inherited_and_classified(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text(FEATURE, encoding="utf-8")
    (scenario,) = parse_feature(path)
    assert scenario.rules == ("ARR-10",)
    assert scenario.sources == ("S004",)
    assert scenario.flags == {"partner_winning_exempts": "no"}
    assert scenario.location == f"{path}:10"
    assert [step.text for step in scenario.steps] == ["a deal by seat 0:", "the phase is free"]
    assert scenario.steps[0].table == (("seat 0", "Ao"),)


def test_conflicting_flag_tags_are_an_error(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text(
        FEATURE.replace("@ARR-10 @partner", "@ARR-10 @partner_winning_exempts=yes @partner"), encoding="utf-8"
    )
    with pytest.raises(FeatureError, match=r"f.feature:10: flag partner_winning_exempts is tagged both"):
        parse_feature(path)


def test_a_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text("Feature: F\n  Scenario: S\n    Given x\n      | a | b |\n      | c |\n", encoding="utf-8")
    with pytest.raises(FeatureError, match=r"f.feature:5:7: inconsistent cell count"):
        parse_feature(path)
