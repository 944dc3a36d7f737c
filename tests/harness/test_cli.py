"""The guinote-conformance command, run as a user would (in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from guinote_conformance.catalogue.features import load_scenarios

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_rules_json_lists_every_rule_with_its_scenarios() -> None:
    done = cli("rules", "--json")
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)
    by_id = {entry["id"]: entry for entry in entries}
    assert "DECK-05" in by_id
    assert any(s["location"].startswith("features/deck.feature:") for s in by_id["DECK-05"]["scenarios"])
    assert all(entry["sources"] or entry["agreement"] in ("derived", "interpretation") for entry in entries)


def test_run_one_scenario_writes_the_three_reports(tmp_path: Path) -> None:
    scenario = next(s for s in load_scenarios() if s.name == "The Tres beats the Rey of the suit led")
    location = f"{scenario.path.relative_to(REPO)}:{scenario.line}"
    done = cli("run", "--profile", "ludoteka", "--scenario", location, "--jobs", "1", "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert [(r["scenario"], r["status"]) for r in data["results"]] == [
        ("The Tres beats the Rey of the suit led", "pass")
    ]
    assert (tmp_path / "junit.xml").read_text(encoding="utf-8").count("<testcase") == 1
    assert "DECK-05" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "1 scenario runs: 1 pass" in done.stdout


def test_the_reference_passes_under_the_overlays_and_a_scenario_about_the_other_table_is_not_applicable(
    tmp_path: Path,
) -> None:
    profiles = ("--profile", "lascuarenta+mano_a_mano", "--profile", "ludoteka+ademuz48")
    done = cli("run", *profiles, "--area", "deal", "--jobs", "1", "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    by_name = {(r["scenario"], r["profile"]): r for r in results}
    name = "With four players the 25th card is the muestra however the cards are dealt"
    four = by_name[(name, "lascuarenta+mano_a_mano")]
    assert four["status"] == "not_applicable"
    assert "tagged players=4; the overlay mano_a_mano changes it" in four["message"]
    assert sum(r["status"] == "pass" for r in results) >= 20


def test_flags_lists_each_reading_with_its_sources() -> None:
    done = cli("flags")
    assert done.returncode == 0, done.stderr
    assert "partner_winning_exempts" in done.stdout and "S004" in done.stdout


def test_profiles_show_the_flag_values_of_each_profile() -> None:
    done = cli("profiles")
    assert done.returncode == 0, done.stderr
    assert "tradicional_literal" in done.stdout and "previous_opponent_card" in done.stdout


def test_an_unknown_engine_spec_is_a_clear_error(tmp_path: Path) -> None:
    done = cli("run", "--engine", "carrier-pigeon", "--report-dir", str(tmp_path))
    assert done.returncode != 0
    assert "unknown engine 'carrier-pigeon'" in done.stdout + done.stderr


def test_export_gives_every_scenario_as_data() -> None:
    done = cli("export")
    assert done.returncode == 0, done.stderr
    cases = json.loads(done.stdout)["cases"]
    tres = next(c for c in cases if c["name"] == "The Tres beats the Rey of the suit led")
    assert tres["rules"] == ["DECK-05"] and tres["feature"] == "features/deck.feature"
    assert tres["steps"][0]["table"][0] == ["seat 0", "Ro"]
    tagged = next(c for c in cases if c["flags"])
    assert tagged["flag_values"] == {name: [value] for name, value in tagged["flags"].items()}  # one value each


@pytest.mark.slow
def test_the_reference_served_over_the_protocol_passes_the_whole_suite(tmp_path: Path) -> None:
    """Proof that the protocol carries everything the scenarios need."""
    done = cli("run", "--engine", "serve:reference", "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert set(data["summary"]) == {"pass"}
    assert data["summary"]["pass"] == 4 * len(load_scenarios())


def test_validate_and_smoke_accept_a_sound_protocol_engine() -> None:
    engine = f"cmd:{sys.executable} -m guinote_conformance.adapters.serve"
    for command in ("validate", "smoke"):
        done = cli(command, "--engine", engine)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "PROBLEM" not in done.stdout


def test_validate_reports_an_unfinished_engine_kit() -> None:
    done = cli("validate", "--engine", f"cmd:{sys.executable} kits/python/skeleton_engine.py")
    assert done.returncode == 1
    assert "PROBLEM" in done.stdout and "not implemented" in done.stdout


def _hostile_run(tmp_path: Path, globs: list[str], script: str, *args: str) -> tuple[int, list[dict[str, str]]]:
    engine = f"cmd:{sys.executable} tests/protocol/hostile/{script} {' '.join(args)}"
    selection = [arg for glob in globs for arg in ("--scenario", glob)]
    # the circuit breaker off: these tests are about what one crash or one hang costs
    done = cli("run", "--engine", engine, "--profile", "lascuarenta", *selection, "--max-engine-failures", "0",
               "--jobs", "1", "--timeout", "1", "--report-dir", str(tmp_path))  # fmt: skip
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    return done.returncode, data["results"]


def test_an_engine_that_crashes_costs_only_the_scenarios_it_crashed_in(tmp_path: Path) -> None:
    code, results = _hostile_run(tmp_path, ["deck::*"], "crash_mid_game.py", "5")
    statuses = {r["status"] for r in results}
    assert code == 1 and statuses == {"pass", "error"}, statuses
    crashed = [r for r in results if r["status"] == "error"]
    assert all("engine failure" in r["message"] for r in crashed)
    assert len(results) == len([s for s in load_scenarios() if s.path.stem == "deck"])


@pytest.mark.slow
def test_an_engine_that_hangs_is_reported_as_a_timeout_and_the_run_goes_on(tmp_path: Path) -> None:
    code, results = _hostile_run(tmp_path, ["conduct::*", "deck::*"], "hang.py", "observe")
    by_status: dict[str, int] = {}
    for result in results:
        by_status[result["status"]] = by_status.get(result["status"], 0) + 1
    # the conduct scenarios read observations and time out; the deck scenarios around them pass
    assert code == 1 and set(by_status) == {"pass", "timeout"}, by_status
    assert by_status["timeout"] == len([s for s in load_scenarios() if s.path.stem == "conduct"])
    assert "no answer within 1 s" in next(r["message"] for r in results if r["status"] == "timeout")


def test_an_engine_writing_its_boolean_fields_as_numbers_fails_where_they_are_read(tmp_path: Path) -> None:
    """Python's ``True == 1`` must not let an engine that answers ``1`` for ``true`` pass."""
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance",
         "run", "--engine", "py:tests.harness.numeric_booleans_engine:make",
         "--profile", "lascuarenta", "--rule", "PLAY-09", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a draw is pending: expected true, got 1" in done.stdout, done.stdout
    assert "a draw is pending: expected false, got 0" in done.stdout, done.stdout
