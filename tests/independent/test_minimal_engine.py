"""An engine that answers only what the protocol requires of it gets no false failure.

The minimal double (``tests.independent.minimal_engine``) has no capabilities, its own profile
names, explicit deals only, events stripped to their required members, no rule IDs and a
generic refusal code. The whole suite runs against it in process, over the wire, and as written
for GCP/1; ``compare`` finds nothing to report in it, and finds a bug planted in it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.catalogue.features import load_scenarios
from tests.independent import minimal_engine
from tests.independent.minimal_engine import OPTIONAL_FIELDS, REQUIRED_MEMBERS

REPO = Path(__file__).resolve().parents[2]
DOUBLE = "py:tests.independent.minimal_engine:make"
#: why a run of the minimal double may be not applicable: what it lacks, by declaration
INHERENT = (
    "the engine lacks the 'observations' capability",
    "the engine lacks the 'match' capability",
    "engine does not support deal=deck order",  # a scenario about how a deck order is dealt
    "the engine refuses deck orders",
    "does not support renuncio_faults=",  # the GCP/1 engine plays that flag at its default only
    "the engine deals it from its own shuffle ('own_shuffle')",
)


def command(
    tmp_path: Path, name: str, engine: str, written: str, *args: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run ``guinote-conformance <name>`` on ``engine`` as a user would (from a folder of its own,
    the doubles importable); its output and the ``written`` file of its report folder."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    tmp_path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", name, "--engine", engine, "--report-dir", str(tmp_path), *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False, env=env,
    )  # fmt: skip
    report = tmp_path / written
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    return done, json.loads(report.read_text(encoding="utf-8"))


def run_suite(tmp_path: Path, engine: str, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    return command(tmp_path, "run", engine, "results.json", *args)


def check_no_false_failure(done: subprocess.CompletedProcess[str], data: dict[str, Any]) -> Counter[str]:
    results = data["results"]
    statuses = Counter(result["status"] for result in results)
    bad = [f"{r['feature']}:{r['line']} [{r['profile']}] {r['status']}: {r['message'][:300]}"
           for r in results if r["status"] not in ("pass", "not_applicable")]  # fmt: skip
    assert not bad, "\n".join(bad[:20])
    assert done.returncode == 0, done.stdout[-2000:]
    lost = [r["message"] for r in results if r["status"] == "not_applicable" and not any(
        reason in r["message"] for reason in INHERENT)]  # fmt: skip
    assert not lost, Counter(lost).most_common(5)  # no run lost to the harness, only to what the engine lacks
    return statuses


def test_the_double_gives_exactly_what_the_protocol_requires_of_an_engine_without_capabilities() -> None:
    """The double's lists were written from the protocol page: they agree with the schemas."""
    none = Obligations(frozenset())
    for kind, members in REQUIRED_MEMBERS.items():
        assert set(members) == set(none.members(kind)), kind
    assert {name for name in none.unrequired_fields if not name.startswith(OPTIONAL_FIELDS)} == set()
    event = {"type": "hand_over", "winner": 1, "reason": "over_100", "rule": "SCORE-13", "scores": [1, 2],
             "totals": [1, 2], "card_points": [1, 2], "x-mine": 1}  # fmt: skip
    assert "rule" not in minimal_engine.strip_event(event) and "x-mine" not in minimal_engine.strip_event(event)


def test_the_whole_suite_runs_on_the_minimal_double_with_no_false_failure(tmp_path: Path) -> None:
    done, data = run_suite(tmp_path, DOUBLE)
    statuses = check_no_false_failure(done, data)
    runs = len(data["results"])
    executed = statuses["pass"]
    assert runs == 4 * len(load_scenarios()) and executed >= 1200, statuses
    # the start of the run says how many will not be applicable, the end for how many reasons (-v: why)
    assert "capabilities: none" in done.stdout
    assert re.search(r"to be played, \d+ not applicable by the engine's declaration \(-v: why\)", done.stdout)
    assert re.search(r"\d+ not applicable, for \d+ reasons \(-v lists them", done.stdout)
    assert any("the scenario checks a player's observation" in r["message"] for r in data["results"])
    assert re.search(r"\d+ passing runs with checks not made: needs the suite's reason codes", done.stdout)
    [engine] = data["engines"]
    assert engine["protocol"] == 2 and engine["capabilities"] == [] and engine["notes"] == []


@pytest.mark.slow
def test_the_minimal_double_over_the_wire_gets_no_false_failure(tmp_path: Path) -> None:
    done, data = run_suite(tmp_path, f"serve:{DOUBLE}", "--profile", "aragon_online", "--profile", "libro_al_pie")
    statuses = check_no_false_failure(done, data)
    assert statuses["pass"] >= 600, statuses


@pytest.mark.slow
def test_an_engine_written_for_gcp_1_plays_a_later_flag_at_its_default_and_is_told_once(tmp_path: Path) -> None:
    done, data = run_suite(tmp_path, "py:tests.independent.minimal_engine:make_v1")
    statuses = check_no_false_failure(done, data)
    assert statuses["pass"] >= 1200, statuses
    said = [line for line in done.stdout.splitlines() if "renuncio_faults (added in GCP/2" in line]
    assert len(said) == 1, done.stdout[:3000]
    assert "written for GCP/1" in done.stdout
    [engine] = data["engines"]
    assert engine["protocol"] == 1 and any("renuncio_faults" in note for note in engine["notes"])


@pytest.mark.slow
def test_an_engine_that_deals_the_next_hand_from_its_own_shuffle_declares_it_and_loses_only_those_runs(
    tmp_path: Path,
) -> None:
    done, data = run_suite(tmp_path, "py:tests.independent.minimal_engine:own_shuffle", "--profile", "aragon_online")
    statuses = check_no_false_failure(done, data)
    own = [r for r in data["results"] if "own shuffle" in r["message"]]
    assert own and all(r["status"] == "not_applicable" for r in own)
    assert statuses["pass"] >= 250, statuses


def compare(tmp_path: Path, engine: str, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    return command(tmp_path, "compare", engine, "fuzz.json", *args)


def test_compare_finds_no_divergence_in_the_minimal_double(tmp_path: Path) -> None:
    done, data = compare(tmp_path, DOUBLE, "--profile", "aragon_online", "--profile", "casino_tradicional",
                         "--hands", "40")  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert data["groups"] == [], data["groups"][:3]
    assert data["hands"] >= 80


@pytest.mark.parametrize("engine", ["tute_of_reyes_only"])
def test_compare_reports_a_bug_planted_in_the_minimal_double_and_writes_a_scenario_that_reproduces_it(
    tmp_path: Path, engine: str
) -> None:
    done, data = compare(tmp_path, f"serve:py:tests.independent.minimal_engine:{engine}",
                         "--profile", "aragon_online", "--hands", "300", "--seed", "3")  # fmt: skip
    assert done.returncode == 1, done.stdout[-3000:]
    rules = {group["cause"]["rule"] for group in data["groups"]}
    assert "CANTE-22" in rules, data["groups"]
    feature = (tmp_path / "divergences.feature").read_text(encoding="utf-8")
    assert "@CANTE-22" in feature
    assert "NOT REPRODUCED" not in done.stdout and "reproduced" in done.stdout, done.stdout[-3000:]


@pytest.mark.slow
def test_one_rule_broken_in_the_minimal_double_is_named_in_every_report(tmp_path: Path) -> None:
    """The author's view: the terminal names the broken rule first, and so do the HTML and JUnit."""
    done, data = run_suite(tmp_path, "serve:py:tests.independent.minimal_engine:no_diez_de_ultimas",
                           "--profile", "aragon_online")  # fmt: skip
    assert done.returncode == 1
    causes = done.stdout[done.stdout.index("Likely causes") :]
    assert causes.splitlines()[1].startswith("1. SCORE-01 explains"), causes[:600]
    assert "no single rule" not in causes
    failed = [r for r in data["results"] if r["status"] == "fail"]
    assert failed and all(r["status"] in ("pass", "fail", "not_applicable") for r in data["results"])
    assert all((r.get("divergence") or {}).get("rule") == "SCORE-01" for r in failed)
    assert "SCORE-01" in (tmp_path / "index.html").read_text(encoding="utf-8")
    junit = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<failure") == len(failed)


@pytest.mark.parametrize("factory", ["make", "make_v1"])
def test_validate_and_smoke_ask_the_minimal_double_nothing_it_need_not_answer(factory: str) -> None:
    from guinote_conformance.adapters.harness_check import smoke, validate

    argv = [
        sys.executable,
        "-m",
        "guinote_conformance.adapters.serve",
        "--engine",
        f"tests.independent.minimal_engine:{factory}",
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for check in (validate, smoke):
        findings = check(argv, cwd=str(REPO), env=env)
        assert not [f for f in findings if f.severity == "error"], findings
        assert not [f for f in findings if f.severity == "warning" and f.check == "field"], findings


@pytest.mark.slow
def test_a_cante_the_engine_will_not_let_be_declined_is_named_cante_07_by_run_and_by_compare(tmp_path: Path) -> None:
    """Never the draw rule (PLAY-08) or free play (PLAY-07): the engine offers only the cante."""
    engine = "py:tests.independent.minimal_engine:forced_cante"
    done, _ = run_suite(tmp_path / "run", engine, "--profile", "casino_tradicional")
    causes = done.stdout[done.stdout.index("Likely causes") :]
    assert causes.splitlines()[1].startswith("1. CANTE-07 explains"), causes[:800]
    assert "no single rule" not in causes
    done, data = compare(tmp_path / "compare", engine, "--profile", "casino_tradicional", "--hands", "30",
                         "--no-scenarios")  # fmt: skip
    rules = {group["cause"]["subject"]: group["cause"]["rule"] for group in data["groups"]}
    assert rules.get("draw (missing)") == "CANTE-07", rules


def test_compare_ends_a_game_where_an_engine_that_shuffles_its_own_next_hand_deals_it(tmp_path: Path) -> None:
    done, data = compare(tmp_path, "py:tests.independent.minimal_engine:own_shuffle", "--profile", "aragon_online",
                         "--hands", "40")  # fmt: skip
    assert done.returncode == 0 and data["groups"] == [], done.stdout[-2000:]
    assert data["own_shuffle_ends"] > 0 and "from its own shuffle (own_shuffle)" in done.stdout
    assert "capabilities: own_shuffle" in done.stdout  # the summary that opens compare
