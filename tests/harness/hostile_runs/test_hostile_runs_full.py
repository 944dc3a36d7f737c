"""The run-level hostile matrix's slower variants (opt-in: ``tox -e hostile``, or with
``GUINOTE_HOSTILE_FULL=1``): two workers and two profiles, the in-process surrogate with one
worker, a crash whose child keeps the pipes open, the breaker on crashes, the timeout's location."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode

from .conftest import (
    HANG_TIMEOUT,
    SEVEN,
    SURROGATE_IN_PROCESS,
    TWO_PROFILES,
    WALL_BOUND,
    WHOLE_HAND,
    checked,
    each_message,
    engine_command,
)

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the orphan check reads /proc"),
    pytest.mark.timeout(WALL_BOUND + 30),
]


def test_a_crash_mid_game_under_two_workers_and_two_profiles(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("crash_mid_game", "5"), profiles=TWO_PROFILES, jobs=2)
    checked(outcome, ExitCode.RULE_FAILURES, dict(outcome.statuses))
    assert set(outcome.statuses) == {"pass", "error"}, outcome.statuses
    each_message(outcome, "error", "exited with status 139")


def test_a_hang_under_two_workers_and_two_profiles(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("hang", "legal"), timeout=HANG_TIMEOUT, profiles=TWO_PROFILES, jobs=2),
                      ExitCode.RULE_FAILURES, {"pass": 6, "timeout": 2})  # fmt: skip
    assert {outcome.status_of(WHOLE_HAND, profile) for profile in TWO_PROFILES} == {"timeout"}


def test_a_timeout_names_the_feature_and_line_like_other_errors(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("hang", "legal"), timeout=HANG_TIMEOUT)
    each_message(outcome, "timeout", "features/deck.feature:")


def test_a_crash_whose_child_keeps_the_pipes_open_is_a_crash_not_a_timeout(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("spawns_child", "--crash-at", "5", "--keep-pipes"), timeout=5.0)
    checked(outcome, ExitCode.RULE_FAILURES, {"pass": 2, "error": 2})
    each_message(outcome, "error", "exited with status 139")
    assert outcome.seconds < 20  # not the full wait of 5 s per request


def test_the_children_of_a_sound_engine_under_two_workers_do_not_outlive_the_run(run_hostile: Any) -> None:
    checked(run_hostile(engine_command("spawns_child"), jobs=2), ExitCode.OK, {"pass": 4})


def test_a_lone_surrogate_over_the_wire_under_two_workers(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("surrogate"), jobs=2), ExitCode.RULE_FAILURES,
                      {"pass": 3, "error": 1})  # fmt: skip
    each_message(outcome, "error", "the answer is not JSON")


def test_a_lone_surrogate_from_an_engine_in_process_under_one_worker_loses_no_result(run_hostile: Any) -> None:
    """Under one worker the results writer met the surrogate: a traceback and no results.json."""
    outcome = run_hostile(SURROGATE_IN_PROCESS)
    checked(outcome, ExitCode.RULE_FAILURES, dict(outcome.statuses))


def test_after_five_crashes_in_a_row_the_rest_is_not_run_with_the_reason(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("exit_after_hello"), scenarios=SEVEN), ExitCode.RULE_FAILURES,
                      {"error": 5, "not_run": 2})  # fmt: skip
    each_message(outcome, "not_run", "engine")


def test_a_lone_surrogate_in_the_engine_name_is_an_engine_that_cannot_be_reported_on(run_hostile: Any) -> None:
    """A name that is not Unicode text can be neither shown nor written in a results file: the engine is
    refused at its handshake, with the reason (as over the wire, where the answer would not be JSON),
    and no traceback (the results writer once met the name and lost every result)."""
    outcome = run_hostile("py:tests.harness.hostile_runs.engines.surrogate:make_named")
    assert outcome.code == ExitCode.ENGINE_UNAVAILABLE, outcome.explain()
    assert "the engine's info is not JSON: the string at name holds a lone surrogate" in outcome.stderr
    assert "Traceback" not in outcome.stdout + outcome.stderr
