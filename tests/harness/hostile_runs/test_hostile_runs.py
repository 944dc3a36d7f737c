"""Every hostile engine under the real ``guinote-conformance run``: the final counts, the statuses,
the exit status, the three reports, no process left behind, and a bounded wall time.

The adapter-level behaviour of the same engines is in tests/protocol/test_protocol_hostile.py;
here the question is what a user of the command sees. Most cases run the four scenarios of
:data:`DECK_FOUR` under one profile with ``-j 1`` (the statuses then follow from the order the
scenarios run in). The same engines with ``-j 2`` and two profiles, and a few slower variants, are
in test_hostile_runs_full.py (opt-in: ``tox -e hostile``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode

from .conftest import (
    DECK_FOUR,
    HANG_TIMEOUT,
    MARK,
    SEVEN,
    SURROGATE_IN_PROCESS,
    WALL_BOUND,
    WHOLE_HAND,
    RunOutcome,
    checked,
    each_message,
    engine_command,
    marked_processes,
)
from .engines.markup import PAYLOAD

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the orphan check reads /proc"),
    pytest.mark.timeout(WALL_BOUND + 30),
]


# ------------------------------------------------------------------------------------------ crashes


def test_an_engine_that_cannot_start_exits_3_with_its_own_words_and_no_report(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("crash_at_start"))
    assert outcome.code == ExitCode.ENGINE_UNAVAILABLE, outcome.explain()
    assert "could not be started" in outcome.stderr and "fatal: cannot load the rules table" in outcome.stderr
    assert outcome.results is None and outcome.html is None  # nothing ran: no report claims otherwise
    outcome.check_no_traceback()
    assert not outcome.orphans


def test_a_crash_mid_game_errs_the_scenarios_that_reach_it_and_the_others_pass(run_hostile: Any) -> None:
    # the 5th apply of each process: the first scenario plays 4 cards, the second crashes on its first
    # apply, the relaunched process takes the third (4 cards) and crashes in the fourth
    outcome = checked(run_hostile(engine_command("crash_mid_game", "5")), ExitCode.RULE_FAILURES,
                      {"pass": 2, "error": 2})  # fmt: skip
    assert [outcome.status_of(where) for where in DECK_FOUR] == ["pass", "error", "pass", "error"]
    each_message(outcome, "error", "engine failure", "exited with status 139", "segmentation fault")


def test_a_crash_on_the_second_game_costs_every_other_scenario(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("crash_second_game")), ExitCode.RULE_FAILURES,
                      {"pass": 2, "error": 2})  # fmt: skip
    assert [outcome.status_of(where) for where in DECK_FOUR] == ["pass", "error", "pass", "error"]
    each_message(outcome, "error", "out of memory starting game 2")


def test_an_engine_that_exits_after_the_handshake_errs_every_scenario(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("exit_after_hello")), ExitCode.RULE_FAILURES, {"error": 4})
    each_message(outcome, "error", "exited with status 0", "bye (hostile: exit_after_hello)")


# ------------------------------------------------------------------------------------------ hangs


def test_a_hang_on_one_command_is_a_timeout_of_the_scenario_that_sends_it(run_hostile: Any) -> None:
    # only the whole hand (114) asks for the legal actions
    outcome = checked(run_hostile(engine_command("hang", "legal"), timeout=HANG_TIMEOUT), ExitCode.RULE_FAILURES,
                      {"pass": 3, "timeout": 1})  # fmt: skip
    assert outcome.status_of(WHOLE_HAND) == "timeout"
    each_message(outcome, "timeout", f"no answer within {HANG_TIMEOUT:g} s", "waiting for a lock that never comes")


def test_an_engine_that_hangs_right_after_a_good_handshake_times_out_every_scenario(run_hostile: Any) -> None:
    outcome = checked(
        run_hostile(engine_command("hang", "start"), timeout=HANG_TIMEOUT), ExitCode.RULE_FAILURES, {"timeout": 4}
    )
    each_message(outcome, "timeout", f"no answer within {HANG_TIMEOUT:g} s", "'start'")


def test_a_partial_line_then_a_hang_is_a_timeout_showing_what_came(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("partial_line"), timeout=HANG_TIMEOUT), ExitCode.RULE_FAILURES,
                      {"pass": 3, "timeout": 1})  # fmt: skip
    assert outcome.status_of(WHOLE_HAND) == "timeout"
    each_message(outcome, "timeout", f"no answer within {HANG_TIMEOUT:g} s", '"ok": true, "actio')


# ------------------------------------------------------------------------------------------ garbage


@pytest.mark.parametrize(
    ("script", "pieces"),
    [
        ("garbage", ("the answer is not JSON", "DEBUG: computing legal moves for seat 1")),
        ("deep_nesting", ("the answer is not JSON", "depth")),
        ("flood", ("bytes",)),
        ("wrong_id", ("the answer has id", "the request had id")),
        ("bad_schema", ("breaks the schema", "legal.response.json")),
    ],
)
def test_a_broken_answer_to_legal_errs_the_scenario_that_asks_for_it(
    run_hostile: Any, script: str, pieces: tuple[str, ...]
) -> None:
    outcome = checked(run_hostile(engine_command(script)), ExitCode.RULE_FAILURES, {"pass": 3, "error": 1})
    assert outcome.status_of(WHOLE_HAND) == "error"
    each_message(outcome, "error", "features/deck.feature:", "engine failure", *pieces)
    assert all(len(message) < 5000 for message in outcome.messages("error"))  # a flood is not copied


def test_unsolicited_output_errs_every_scenario(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("unsolicited")), ExitCode.RULE_FAILURES, {"error": 4})
    each_message(outcome, "error", "engine failure")
    assert any("game started!" in message for message in outcome.messages("error"))


def test_misnamed_members_break_the_schema_or_the_rule(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("misnamed_members")), ExitCode.RULE_FAILURES,
                      {"error": 3, "fail": 1})  # fmt: skip
    each_message(outcome, "error", "breaks the schema")
    assert outcome.status_of(WHOLE_HAND) == "fail"


# ------------------------------------------------------------------------------------------ sound wire, odd engine


def test_stderr_spam_neither_blocks_nor_fails_a_run(run_hostile: Any) -> None:
    checked(run_hostile(engine_command("stderr_spam")), ExitCode.OK, {"pass": 4})


def test_a_nondeterministic_engine_passes_while_nothing_is_replayed(run_hostile: Any) -> None:
    checked(run_hostile(engine_command("nondeterministic")), ExitCode.OK, {"pass": 4})


@pytest.mark.parametrize(
    ("mode", "statuses", "piece"),
    [
        ("empty_legal", {"pass": 3, "fail": 1}, "has no legal card to play"),
        ("reject_own", {"pass": 1, "fail": 3}, "to be accepted, but it was refused"),
        ("lost_field", {"pass": 1, "error": 3}, "no field 'turn'"),
    ],
)
def test_an_engine_that_breaks_what_the_harness_relies_on_fails_with_the_reason(
    run_hostile: Any, mode: str, statuses: dict[str, int], piece: str
) -> None:
    outcome = checked(run_hostile(engine_command("broken_rules", mode)), ExitCode.RULE_FAILURES, statuses)
    problem = "fail" if "fail" in statuses else "error"
    each_message(outcome, problem, "features/deck.feature:", piece)


# ------------------------------------------------------------------------------------------ children


def test_the_children_of_a_sound_engine_do_not_outlive_the_run(run_hostile: Any) -> None:
    checked(run_hostile(engine_command("spawns_child")), ExitCode.OK, {"pass": 4})


def test_the_children_of_a_crashed_engine_do_not_outlive_the_run(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("spawns_child", "--crash-at", "5")), ExitCode.RULE_FAILURES,
                      {"pass": 2, "error": 2})  # fmt: skip
    each_message(outcome, "error", "exited with status 139")


def commands_by_process(log: Path) -> dict[str, Counter[str]]:
    """What each process of ``engines/records_commands.py`` was asked, counted by command."""
    counts: dict[str, Counter[str]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        pid, _, cmd = line.partition(" ")
        counts.setdefault(pid, Counter())[cmd] += 1
    return counts


def check_ended_and_stopped(log: Path) -> None:
    """Every process that was greeted was stopped, and every game it started but the ones still open
    at its stop was ended."""
    for pid, counts in commands_by_process(log).items():
        assert counts["stop"] == counts["hello"] == 1, (pid, counts)
        assert counts["end"] >= counts["start"] - 1, (pid, counts)


def test_one_worker_ends_its_games_and_stops_its_engine(run_hostile: Any, tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    checked(run_hostile(engine_command("records_commands", str(log))), ExitCode.OK, {"pass": 4})
    check_ended_and_stopped(log)


def test_two_workers_end_their_games_and_stop_their_engines(run_hostile: Any, tmp_path: Path) -> None:
    log = tmp_path / "commands.log"
    checked(run_hostile(engine_command("records_commands", str(log)), jobs=2), ExitCode.OK, {"pass": 4})
    check_ended_and_stopped(log)


def test_a_python_factory_that_exits_is_an_engine_that_cannot_start(run_hostile: Any) -> None:
    outcome = run_hostile("py:tests.harness.hostile_runs.engines.factories:exits")
    assert outcome.code == ExitCode.ENGINE_UNAVAILABLE, outcome.explain()
    assert "SystemExit" in outcome.stderr, outcome.explain()
    outcome.check_no_traceback()


# ------------------------------------------------------------------------------------------ engine text


def test_markup_in_everything_the_engine_says_reaches_no_report_raw(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("markup")), ExitCode.RULE_FAILURES, {"fail": 4})
    outcome.check_no_raw_payload("<script>alert", "<img src=x", PAYLOAD)
    assert "[/bold]" in outcome.stdout  # shown as text, never taken as rich markup


def test_a_lone_surrogate_over_the_wire_is_an_answer_that_is_not_json(run_hostile: Any) -> None:
    outcome = checked(run_hostile(engine_command("surrogate")), ExitCode.RULE_FAILURES,
                      {"pass": 3, "error": 1})  # fmt: skip
    each_message(outcome, "error", "the answer is not JSON")


def test_a_lone_surrogate_from_an_engine_in_process_loses_no_result(run_hostile: Any) -> None:
    """Under two workers the surrogate kills the worker that meets it (execnet sends UTF-8 only)."""
    outcome = run_hostile(SURROGATE_IN_PROCESS, jobs=2)
    checked(outcome, ExitCode.RULE_FAILURES, dict(outcome.statuses))
    assert outcome.statuses["fail"] + outcome.statuses["error"] >= 1


def test_an_engine_that_cannot_be_launched_again_at_the_end_loses_no_result(run_hostile: Any, tmp_path: Path) -> None:
    # launches: the CLI's handshake, one per worker; a launch after those fails
    outcome = run_hostile(engine_command("launch_limit", str(tmp_path / "launches"), "3"), jobs=2)
    checked(outcome, ExitCode.OK, {"pass": 4})


# ------------------------------------------------------------------------------------------ circuit breaker


def test_after_five_timeouts_in_a_row_the_rest_is_not_run_with_the_reason(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("hang", "start"), timeout=HANG_TIMEOUT, scenarios=SEVEN)
    checked(outcome, ExitCode.RULE_FAILURES, {"timeout": 5, "not_run": 2})
    each_message(outcome, "not_run", "engine")


def test_the_circuit_breaker_takes_its_threshold_from_the_command_line(run_hostile: Any) -> None:
    outcome = run_hostile(engine_command("hang", "start"), "--max-engine-failures", "2", timeout=HANG_TIMEOUT)
    checked(outcome, ExitCode.RULE_FAILURES, {"timeout": 2, "not_run": 2})


def test_past_the_budget_the_rest_is_not_run(run_hostile: Any) -> None:
    budget = ("--max-engine-failures", "100", "--budget", "3")
    outcome = run_hostile(engine_command("hang", "start"), *budget, timeout=HANG_TIMEOUT, scenarios=SEVEN)
    checked(outcome, ExitCode.RULE_FAILURES, dict(outcome.statuses))
    # 3 s of budget hold two or three timeouts of 2 s: the rest is not run
    assert outcome.statuses["not_run"] >= 4 and outcome.statuses["timeout"] <= 3, outcome.statuses


# ------------------------------------------------------------------------------------------ the matrix's own checks


def test_the_orphan_scan_finds_a_marked_process_and_only_while_it_lives() -> None:
    mark = uuid.uuid4().hex
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], env={**os.environ, MARK: mark})
    try:
        assert [orphan.pid for orphan in marked_processes(mark)] == [child.pid]
        assert marked_processes(uuid.uuid4().hex) == []
    finally:
        child.kill()
        child.wait()
    assert marked_processes(mark) == []


def test_a_missing_or_doubled_result_fails_the_completeness_check() -> None:
    result = {
        "id": "deck::A",
        "profile": "lascuarenta",
        "status": "pass",
        "feature": "features/deck.feature",
        "line": 8,
    }
    junit = {"tests": 1, "pass": 1, "failure": 0, "error": 0, "skipped": 0}
    expected: Counter[tuple[str, str]] = Counter({("deck::A", "lascuarenta"): 1, ("deck::B", "lascuarenta"): 1})
    outcome = RunOutcome(0, "", "", 1.0, expected, [result], {"pass": 1}, junit, "<html>")
    with pytest.raises(AssertionError, match="missing"):
        outcome.check_complete()
    outcome.expected = Counter({("deck::A", "lascuarenta"): 1})
    outcome.check_complete()
    outcome.results = [result, result]
    with pytest.raises(AssertionError, match="more than once"):
        outcome.check_complete()
