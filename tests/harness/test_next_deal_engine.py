"""Engines that deal the next hand themselves (as every real one does) refuse the cards a scenario
gives for it: those runs are not applicable, with a hint that names ``own_shuffle``, never failed,
and the summary that opens the run says how many runs are at stake. Whether a next hand may be
dealt at all (PRE-10) stays checked, without cards, for every engine. The doubles are
:mod:`tests.harness.next_deal_engine`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from guinote_conformance.base.exit_codes import ExitCode

REPO = Path(__file__).resolve().parents[2]
DOUBLES = "py:tests.harness.next_deal_engine:"
#: PRE-10, checked without cards: once a hand is over the next deal is its one legal action, and no
#: deal is taken while a hand is played
MAY_BE_DEALT = "Once a hand is over nothing is played until the next hand is dealt"
NOT_WHILE_PLAYED = "The next hand is not dealt while a hand is being played"
EXPLICIT_NEXT = "The next hand given as its hands, muestra and stock goes to the seats it names"


def _run(tmp_path: Path, double: str, *more: str) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", DOUBLES + double, "--jobs", "1",
         "--report-dir", str(tmp_path), "--profile", "lascuarenta", "--area", "match", "--area", "deal",
         "--area", "vueltas", *more],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    return done, results


def _status(results: list[dict[str, Any]], scenario: str) -> str:
    (result,) = [r for r in results if r["scenario"] == scenario]
    return str(result["status"])


def test_an_engine_that_refuses_the_next_hands_cards_is_not_applicable_there_with_a_hint(tmp_path: Path) -> None:
    done, results = _run(tmp_path, "make")
    assert done.returncode == ExitCode.OK, done.stdout[-3000:]
    statuses = Counter(r["status"] for r in results)
    assert set(statuses) == {"pass", "not_applicable"}, statuses
    refused = [r for r in results if r["status"] == "not_applicable"]
    assert refused and all("refused them in every form" in r["message"] for r in refused)
    assert all("it took a deal with no cards" in r["message"] and "'own_shuffle'" in r["message"] for r in refused)
    assert _status(results, EXPLICIT_NEXT) == "not_applicable"  # neither form of the next deal taken
    assert _status(results, MAY_BE_DEALT) == "pass" and _status(results, NOT_WHILE_PLAYED) == "pass"
    # the summary that opens the run counts the runs at stake: here every one of them is lost
    assert f"  {len(refused)} of the runs to be played deal the next hand from the cards they give" in done.stdout


def test_an_engine_that_declares_own_shuffle_has_them_counted_before_the_run(tmp_path: Path) -> None:
    done, results = _run(tmp_path, "declared", "-v")  # -v: the summary that opens the run says why
    assert done.returncode == ExitCode.OK, done.stdout[-3000:]
    lost = [r for r in results if r["status"] == "not_applicable"]
    assert lost and all("from its own shuffle ('own_shuffle')" in r["message"] for r in lost)
    assert f"    {len(lost)} the scenario deals the next hand; the engine deals it from its own shuffle" in done.stdout
    # asked with no cards, the deal while a hand is played is checked (and refused), not lost
    assert _status(results, NOT_WHILE_PLAYED) == "pass" and _status(results, MAY_BE_DEALT) == "pass"


def test_an_engine_that_takes_only_deck_orders_is_given_the_explicit_next_deal_as_one(tmp_path: Path) -> None:
    done, results = _run(tmp_path, "deck_orders_only")
    assert done.returncode == ExitCode.OK, done.stdout[-3000:]
    assert {r["status"] for r in results} == {"pass"}
    assert _status(results, EXPLICIT_NEXT) == "pass"


def test_a_deal_taken_while_a_hand_is_played_still_fails(tmp_path: Path) -> None:
    done, results = _run(tmp_path, "deals_mid_hand")
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout[-3000:]
    assert [r["scenario"] for r in results if r["status"] == "fail"] == [NOT_WHILE_PLAYED]
    (failed,) = [r for r in results if r["status"] == "fail"]
    assert "to be refused" in failed["message"] and "accepted" in failed["message"]
