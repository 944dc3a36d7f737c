"""``guinote-conformance expectations``: a run's failures written as an expectations file that
the next run reads back, covering exactly the runs that failed."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.cli import app
from guinote_conformance.run import expectations as known

SCENARIOS = load_scenarios()


def result(scenario_id: str, profile: str, status: str, message: str = "", engine: str = "e") -> dict[str, Any]:
    return {"id": scenario_id, "profile": profile, "status": status, "message": message, "engine": engine}


@given(st.text(min_size=1, max_size=30))
def test_a_literal_glob_matches_only_its_text(text: str) -> None:
    import fnmatch

    assert fnmatch.fnmatchcase(text, known.glob_literal(text))
    assert not fnmatch.fnmatchcase(text + "x", known.glob_literal(text))


@given(st.text(max_size=40))
def test_a_toml_string_holds_any_text(text: str) -> None:
    assert tomllib.loads(f"value = {known.toml_string(text)}")["value"] == text


def test_failures_under_every_profile_make_one_entry_and_some_profiles_one_each(tmp_path: Path) -> None:
    first, second = (known.scenario_id(scenario) for scenario in SCENARIOS[:2])
    results = [
        result(first, "a", "fail", 'expected 1, got 0 "quoted"\nsecond line\x7f'),
        result(first, "b", "fail"),
        result(second, "a", "fail"),
        result(second, "b", "pass"),
        result(second, "c", "not_applicable"),
        result(first, "a", "fail", engine="other"),  # another engine's runs are not this one's
    ]
    text, count = known.record(results, engine="e", source="results.json of today")
    assert count == 2
    path = tmp_path / "known.toml"
    path.write_text(text, encoding="utf-8")
    entries = known.check_coverage(known.load_expectations(path), SCENARIOS)
    assert [(entry.scenario, entry.profile, entry.status, entry.single) for entry in entries] == [
        (known.glob_literal(first), "", "fail", True),
        (known.glob_literal(second), "a", "fail", True),
    ]
    assert entries[0].reason.startswith("known from results.json of today: expected 1")
    assert "second line" not in entries[0].reason  # the first line of the message only


def test_a_known_failure_stays_known_whatever_its_status() -> None:
    first = known.scenario_id(SCENARIOS[0])
    text, count = known.record([result(first, "a", "xfail")], engine="e", source="s")
    entry = tomllib.loads(text)["expect"]
    assert count == 1 and "status" not in entry[0]


def test_no_failure_is_an_empty_file_that_a_run_accepts(tmp_path: Path) -> None:
    text, count = known.record([result(known.scenario_id(SCENARIOS[0]), "a", "pass")], engine="e", source="s")
    assert count == 0
    path = tmp_path / "known.toml"
    path.write_text(text, encoding="utf-8")
    assert known.load_expectations(path) == []


def results_file(tmp_path: Path, engines: list[str]) -> Path:
    path = tmp_path / "results.json"
    runner = CliRunner()
    done = runner.invoke(app, ["run", "--rule", "DECK-01", "--report-dir", str(tmp_path / "r"), "--jobs", "1",
                               *[arg for spec in engines for arg in ("--engine", spec)]])  # fmt: skip
    assert done.exit_code == 0, done.output
    path.write_text((tmp_path / "r" / "results.json").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_the_command_needs_one_engine_and_names_the_file_when_it_cannot(tmp_path: Path) -> None:
    path = results_file(tmp_path, ["reference", "serve:reference"])
    runner = CliRunner()
    done = runner.invoke(app, ["expectations", str(path)])
    assert done.exit_code == 2
    assert "choose one with --engine: reference, serve:reference" in done.output
    done = runner.invoke(app, ["expectations", str(path), "--engine", "nope"])
    assert done.exit_code == 2 and "no engine 'nope'" in done.output
    out = tmp_path / "known.toml"
    done = runner.invoke(app, ["expectations", str(path), "--engine", "serve:reference", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "0 known failures of serve:reference written to" in done.output
    assert tomllib.loads(out.read_text(encoding="utf-8")) == {}


@pytest.mark.parametrize("content", [None, "not json", json.dumps({"format": "something-else/1"})])
def test_a_file_that_is_not_a_results_file_is_an_input_error(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = CliRunner().invoke(app, ["expectations", str(path)])
    assert done.exit_code == 2
    assert str(path) in done.output and "Traceback" not in done.output
