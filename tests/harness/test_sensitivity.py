"""Flag sensitivity: the sweep lists the untagged scenarios whose outcome changes (the runs
themselves are replaced here by recorded results; ``tox -e sensitivity`` does the real sweep)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from guinote_conformance.base.paths import REPO
from guinote_conformance.catalogue import sensitivity
from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.reference_engine.flags import profile_specs
from guinote_conformance.run.options import parse_overrides


def test_overrides_are_flag_value_pairs() -> None:
    assert parse_overrides(["cante_order=free", "deck=48"]) == {"cante_order": "free", "deck": "48"}
    with pytest.raises(pytest.UsageError, match="write FLAG=VALUE"):
        parse_overrides(["cante_order"])


def test_the_sweep_lists_untagged_scenarios_that_change_and_only_those(monkeypatch: pytest.MonkeyPatch) -> None:
    scenarios = load_scenarios(REPO / "features")
    untagged = next(s for s in scenarios if "renuncio_faults" not in s.flags)
    tagged = next(s for s in scenarios if "renuncio_faults" in s.flags)
    calls: list[tuple[str, str, list[str]]] = []

    def fake_run(flag: str, value: str, profiles: list[str], results: Path, jobs: int) -> list[dict[str, object]]:
        calls.append((flag, value, profiles))
        rows: list[dict[str, object]] = []
        for scenario in (untagged, tagged):
            where = {"feature": str(scenario.path.relative_to(REPO)), "line": scenario.line}
            status = "fail" if value == "out_of_turn" else "pass"
            rows += [{**where, "profile": profile, "status": status, "message": "x"} for profile in profiles]
        return rows

    monkeypatch.setattr(sensitivity, "_run", fake_run)
    findings = sensitivity.sweep(["renuncio_faults"], jobs=1)
    # each value runs under the profiles that play another value
    assert ("renuncio_faults", "out_of_turn", ["ludoteka", "lascuarenta"]) in calls
    assert {(f.scenario.location, f.value, f.profile) for f in findings} == {
        (untagged.location, "out_of_turn", "ludoteka"),
        (untagged.location, "out_of_turn", "lascuarenta"),
    }
    first = sorted(findings, key=lambda f: f.profile)[0]
    assert first.describe().startswith(f"{untagged.location}: {untagged.name!r} passes with renuncio_faults=")
    assert "tag it @renuncio_faults=out_of_turn_and_cante" in first.describe()


def test_the_table_flags_are_left_to_each_scenario_s_table() -> None:
    # an untagged scenario is a four-player, 40-card one: its positions name four seats
    assert sensitivity.table_flags() == {"players", "deck"}


def test_a_flag_only_an_overlay_sets_is_swept_like_any_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A club's custom played through an overlay (``[overlays.my_club]`` setting a new flag) is a
    reading of a rule, not the table: the sweep takes it."""
    real = profile_specs()
    club = replace(next(spec for spec in real.values() if spec.overlay), flags={"cante_per_trick": "many"})
    monkeypatch.setattr(sensitivity, "profile_specs", lambda: {**real, "my_club": club})
    swept: list[str] = []

    def fake_run(flag: str, *_: object) -> list[dict[str, object]]:
        swept.append(flag)
        return []

    monkeypatch.setattr(sensitivity, "_run", fake_run)
    sensitivity.sweep(None, jobs=1)
    assert "cante_per_trick" in swept and not {"players", "deck"} & set(swept)


def test_tag_adds_the_value_each_scenario_passes_with_to_its_own_tags(tmp_path: Path) -> None:
    feature = tmp_path / "x.feature"
    feature.write_text(
        "Feature: x\n\n  Rule: SCORE-01 x\n\n    @SCORE-01 @S000\n    Scenario: tagged already\n      Given x\n\n"
        "    Scenario: no tag line\n      Given x\n\n    @S000\n    Scenario: passes with two values\n      Given x\n",
        encoding="utf-8",
    )
    scenario = load_scenarios(REPO / "features")[0]

    def finding(line: int, played: str) -> sensitivity.Finding:
        found = replace(scenario, path=feature, line=line, sources=())  # no source to settle two values
        return sensitivity.Finding(found, "cante_order", "x", "p", played, "")

    tagged, left = sensitivity.add_tags([finding(6, "free"), finding(6, "free"), finding(9, "free"),
                                         finding(13, "free"), finding(13, "forty_first")])  # fmt: skip
    lines = feature.read_text(encoding="utf-8").splitlines()
    assert lines[4] == "    @SCORE-01 @S000 @cante_order=free"
    assert lines[8:10] == ["    @cante_order=free", "    Scenario: no tag line"]
    assert lines[12] == "    @S000 @cante_order=free|forty_first"  # it holds under both: in declaration order
    assert tagged == [
        f"{feature}:6: @cante_order=free",
        f"{feature}:9: @cante_order=free",
        f"{feature}:13: @cante_order=free|forty_first",
    ]
    assert left == []
    assert load_scenarios(tmp_path)[2].choices("cante_order") == ("free", "forty_first")


def test_tag_takes_the_value_the_scenarios_sources_play_when_it_passes_with_two(tmp_path: Path) -> None:
    feature = tmp_path / "x.feature"
    feature.write_text(
        "Feature: x\n\n    @S002\n    Scenario: a\n\n    @S000 @S002\n    Scenario: b\n", encoding="utf-8"
    )
    scenario = load_scenarios(REPO / "features")[0]

    def finding(line: int, sources: tuple[str, ...], played: str) -> sensitivity.Finding:
        found = replace(scenario, path=feature, line=line, sources=sources)
        return sensitivity.Finding(found, "seven_exchange_min", "figure", "p", played, "")

    both = ("value_card", "higher_than_seven")
    tagged, left = sensitivity.add_tags(
        [finding(4, ("S002",), value) for value in both] + [finding(7, ("S000", "S002"), value) for value in both]
    )
    assert tagged == [
        f"{feature}:4: @seven_exchange_min=higher_than_seven",  # S002's profile plays it
        f"{feature}:7: @seven_exchange_min=higher_than_seven|value_card",  # S000's and S002's: both values
    ]
    assert left == []
