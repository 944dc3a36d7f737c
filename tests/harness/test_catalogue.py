"""Reading feature files: tags, inheritance, and errors with file:line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guinote_conformance.catalogue.features import FeatureError, parse_feature

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


def feature_tagged(folder: Path, tag: str) -> Path:
    """:data:`FEATURE` with ``tag`` on its own line (line 9), above the scenario's other tags."""
    path = folder / "f.feature"
    path.write_text(FEATURE.replace("    @ARR-10 @partner", f"    {tag}\n    @ARR-10 @partner"), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        ("@seven_exchange_window=while_visible", "unknown value 'while_visible' for flag 'seven_exchange_window'"),
        ("@no_such_flag=x", "unknown flag 'no_such_flag'"),
    ],
)
def test_a_flag_or_value_profiles_toml_does_not_declare_is_an_error_at_the_tags_line(
    tmp_path: Path, tag: str, problem: str
) -> None:
    with pytest.raises(FeatureError, match=rf"f.feature:9: {re.escape(tag)}: {re.escape(problem)}"):
        parse_feature(feature_tagged(tmp_path, tag))


def test_an_inherited_flag_tag_is_named_at_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text(FEATURE.replace("  @S004\n", "  @S004 @players=3\n"), encoding="utf-8")
    with pytest.raises(FeatureError, match=r"f.feature:2: @players=3: unknown value '3' for flag 'players'"):
        parse_feature(path)


def test_flag_tags_are_checked_against_the_declaration_given(tmp_path: Path) -> None:
    # another clone's profiles.toml (a flag being added with new-flag) declares what this one does not
    from guinote_conformance.reference_engine.flags import FlagSpec, FlagValue

    path = tmp_path / "f.feature"
    path.write_text(FEATURE.replace("@partner_winning_exempts=no", "@last_trick_bonus=twenty"), encoding="utf-8")
    with pytest.raises(FeatureError, match="unknown flag 'last_trick_bonus'"):
        parse_feature(path)
    values = {name: FlagValue(name, ("S000",), "") for name in ("ten", "twenty")}
    declared = {"last_trick_bonus": FlagSpec("last_trick_bonus", "B-99", ("SCORE-01",), "", values, "ten")}
    (scenario,) = parse_feature(path, declared)
    assert scenario.flags == {"last_trick_bonus": "twenty"}


def test_a_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text("Feature: F\n  Scenario: S\n    Given x\n      | a | b |\n      | c |\n", encoding="utf-8")
    with pytest.raises(FeatureError, match=r"f.feature:5:7: inconsistent cell count"):
        parse_feature(path)


def test_a_multi_value_flag_tag_lists_the_values_the_scenario_holds_under(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    path.write_text(FEATURE.replace("@partner_winning_exempts=no", "@cante_order=free|forty_first"), encoding="utf-8")
    (scenario,) = parse_feature(path)
    assert scenario.flags == {"cante_order": "free"}  # the first listed: what it runs with by default
    assert scenario.choices("cante_order") == ("free", "forty_first")
    assert scenario.tagged_values() == [("cante_order", "free"), ("cante_order", "forty_first")]
    # a run whose profile (or run --flag) plays a listed value keeps it; any other value gives the first
    assert scenario.flags_under({"cante_order": "forty_first", "deck": "40"}) == {"cante_order": "forty_first"}
    assert scenario.flags_under({"cante_order": "no_such"}) == {"cante_order": "free"}
    assert scenario.flags_under({}) == {"cante_order": "free"}


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        ("@cante_order=free|forty_frist", "unknown value 'forty_frist' for flag 'cante_order'"),
        ("@cante_order=free|free", "lists a value twice"),
        ("@cante_order=free|", "unknown tag"),
    ],
)
def test_a_bad_value_in_a_multi_value_tag_is_an_error_at_the_tags_line(tmp_path: Path, tag: str, problem: str) -> None:
    with pytest.raises(FeatureError, match=rf"f.feature:9: .*{re.escape(problem)}"):
        parse_feature(feature_tagged(tmp_path, tag))


def test_a_multi_value_tag_conflicting_with_an_inherited_one_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "f.feature"
    text = FEATURE.replace("  @S004\n", "  @S004 @cante_order=free\n")
    path.write_text(text.replace("@partner_winning_exempts=no", "@cante_order=free|forty_first"), encoding="utf-8")
    with pytest.raises(FeatureError, match=r"f.feature:10: flag cante_order is tagged both free and free\|forty_first"):
        parse_feature(path)
