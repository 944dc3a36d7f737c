"""A known divergence does not end its game: play goes on past it, its subject no longer compared.

Without a known-divergences file a game ends at its first divergence; with one, a known
divergence of a kind play can go past (an event member, a state field, a refusal code, the legal
actions) is counted in its group and the game goes on with the reference's answer, comparing
everything else. A known divergence play cannot go past (an acceptance, a failure, or the engine
refusing an action of a type whose legal actions are known to differ) ends the game, and the
report counts those games by cause.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.interface import EngineError, EngineInfo
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.consequences import MOST_AVOIDED
from guinote_conformance.fuzz.differential import first_difference
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.known import Known
from guinote_conformance.oracle.divergence import Divergence
from guinote_conformance.oracle.steps import Difference, Step, compare_steps
from tests.fuzz import engines
from tests.fuzz.engines import DownEngine
from tests.fuzz.test_pipeline import serve

REPO = Path(__file__).resolve().parents[2]
FULL = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))
ULTIMAS = [Known("known.toml:1", "our diez de últimas is in the totals only", "event", "ultimas.points")]
CANTES = [Known("known.toml:1", "cantes are not offered yet", "legal", "cante*")]


def fuzz(engine: Any, known: list[Known], games: int = 10, *, depth: str = "match", seed: int = 3) -> FuzzReport:
    info: EngineInfo = engine.info()
    fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth=depth, known=known, seed=seed)
    return fuzzer.run([resolve(info, "lascuarenta")], games)


def fuzz_recording(engine: Any, known: list[Known], games: int) -> tuple[FuzzReport, list[Divergence]]:
    """:func:`fuzz`, and every divergence recorded (a group keeps as its example one found with
    nothing passed over before it, where there is one)."""
    found: list[Divergence] = []

    class Recording(Fuzzer):
        def record(self, report: FuzzReport, divergence: Divergence) -> Group:
            found.append(divergence)
            return super().record(report, divergence)

    info: EngineInfo = engine.info()
    fuzzer = Recording(ReferenceEngine(), engine, info, depth="match", known=known, seed=3)
    return fuzzer.run([resolve(info, "lascuarenta")], games), found


def test_a_known_event_member_is_passed_over_once_per_game_and_the_game_goes_on() -> None:
    report = fuzz(engines.ultimas_zero(), ULTIMAS)
    assert report.failures == [] and report.groups
    counted = sum(group.count for group in report.groups.values())
    # every game diverged in its first hand's últimas, and was played on to its end all the same
    assert counted == report.passed_over == report.games == 10
    assert report.hands > 3 * report.games
    assert report.ended_at_known == {}
    unknown = fuzz(engines.ultimas_zero(), [])
    # without the file the same: the divergence is new (a failure), and its game goes on all the same
    assert [group.cause for group in unknown.failures] == list(report.groups)
    assert (unknown.hands, unknown.passed_over) == (report.hands, report.passed_over)


def test_a_known_state_field_is_passed_over_and_the_rest_compared() -> None:
    known = [Known("known.toml:1", "totals are not carried", "state", "total.*")]
    report = fuzz(engines.forgets_totals(), known)
    assert report.failures == []
    subjects = {group.cause.subject for group in report.groups.values()}
    assert subjects == {"total.0", "total.1"}
    assert report.passed_over == sum(group.count for group in report.groups.values()) > 0
    assert report.hands == fuzz(ReferenceEngine(), []).hands  # each game played to its end, as the reference's


def test_a_known_refusal_code_is_passed_over() -> None:
    known = [Known("known.toml:1", "our codes are our own", "refusal code", "play")]
    report = fuzz(engines.wrong_play_codes(), known)
    assert report.failures == [] and report.passed_over > 0
    assert report.hands == fuzz(ReferenceEngine(), []).hands


def test_a_new_divergence_after_a_known_one_is_found_and_names_what_was_passed_over() -> None:
    report, recorded = fuzz_recording(engines.no_cantes_ultimas_zero(), CANTES, games=20)
    new = report.failures
    assert new and {group.cause.subject for group in new} == {"ultimas.points"}
    after = [d for d in recorded if d.cause.subject == "ultimas.points" and d.passed_over]
    assert after, "some game passed over the missing cantes before the últimas"
    example = after[0]
    assert example.passed_over == ("legal cante (missing)",)
    assert example.record()["passed_over"] == ["legal cante (missing)"]
    # replayed without the known subject, the example diverges where it says (not at the cante)
    engine = engines.no_cantes_ultimas_zero()
    found = first_difference(ReferenceEngine(), engine, example.setup, example.actions, obligations=FULL,
                             ignored=frozenset(example.passed_over))  # fmt: skip
    assert found is not None and found[0] == len(example.actions) and found[1].subject == "ultimas.points"
    plain = first_difference(ReferenceEngine(), engine, example.setup, example.actions, obligations=FULL)
    assert plain is not None and plain[1].kind == "legal"


def test_a_known_legal_difference_ends_the_game_when_the_engine_refuses_the_action() -> None:
    report = fuzz(engines.refuses_cantes(), CANTES)
    ended = report.ended_at_known
    assert ended and all(cause.kind == "legal" and cause.subject == "cante (missing)" for cause in ended)
    # the engine refused the reference's cante: no acceptance group, the game ended at the known cause
    assert not any(group.cause.kind == "acceptance" for group in report.groups.values())
    assert sum(ended.values()) <= report.games
    assert report.to_json()["ended_at_known"] == {
        "games": sum(ended.values()),
        "by_cause": {str(cause): games for cause, games in ended.items()},
    }
    listed = {g["cause"]["rule"]: g["ended_games"] for g in report.to_json()["groups"] if g["ended_games"]}
    assert listed == {cause.rule: games for cause, games in ended.items()}


def test_a_known_legal_difference_the_engine_plays_along_with_goes_on() -> None:
    report = fuzz(engines.no_cantes(), CANTES)  # it takes the cante it does not offer
    assert report.failures == [] and report.ended_at_known == {}
    assert report.hands == fuzz(ReferenceEngine(), []).hands


def test_a_known_failure_ends_its_game_and_is_counted() -> None:
    engine = DownEngine("g")  # every game answers garbage at its first action
    known = [Known("known.toml:1", "we know", "failure", "garbage")]
    report = fuzz(engine, known, games=4)
    assert report.failures == []
    (group,) = report.groups.values()
    assert group.count == group.ended == report.games == 4
    assert report.passed_over == 0


def test_an_action_the_engine_refuses_is_played_around_and_the_game_goes_on() -> None:
    known = [*CANTES, Known("known.toml:5", "we refuse cantes", "acceptance", "cante")]
    report = fuzz(engines.refuses_cantes(), known)
    acceptance = [g for g in report.groups.values() if g.cause.kind == "acceptance"]
    assert acceptance and all(g.known is not None for g in acceptance)
    # the hand is played again from the step before the cante, without it: a game ends at a refused
    # cante only once it has played around MOST_AVOIDED of them (it ended at the first, before)
    refused, ended = sum(g.count for g in acceptance), sum(g.ended for g in acceptance)
    assert ended < refused // 4 and report.passed_over >= refused - ended
    assert refused <= (MOST_AVOIDED + 1) * report.games
    assert report.hands > 2 * report.games  # (games that ended at their first cante played about one hand)


@pytest.mark.parametrize("flaw", ["no_cantes_ultimas_zero", "forgets_totals"])
def test_going_on_finds_the_same_pipelined_one_call_at_a_time_and_in_process(flaw: str) -> None:
    known = [*CANTES, Known("known.toml:5", "carried later", "state", "total.*")]

    def run(engine: Any, *, batch: bool = True) -> dict[str, Any]:
        info = engine.info()
        fuzzer = Fuzzer(ReferenceEngine(), engine, info, depth="match", batch=batch, known=known, seed=4)
        found = fuzzer.run([resolve(info, "tradicional")], 6).to_json()
        found.pop("seconds")
        return found

    served = serve(f"tests.fuzz.engines:{flaw}")
    try:
        pipelined, in_turn = run(served), run(served, batch=False)
    finally:
        served.close()
    in_process = run(getattr(engines, flaw)())
    assert pipelined["passed_over"] > 0
    assert pipelined == in_turn == in_process


def test_compare_steps_leaves_out_the_ignored_subjects() -> None:
    action = {"type": "play", "seat": 0, "card": "Ao"}
    deal, claim = {"type": "deal"}, {"type": "claim", "seat": 0}
    mine = Step(action, True, [{"type": "ultimas", "side": 0, "points": 10}, {"type": "hand_over", "reason": "x"}],
                state={"total.0": 10, "total.1": 0}, legal=[deal])  # fmt: skip
    theirs = Step(action, True, [{"type": "ultimas", "side": 0, "points": 0}, {"type": "hand_over", "reason": "y"}],
                  state={"total.0": 0, "total.1": 0}, legal=[deal, claim])  # fmt: skip
    found: list[Difference] = []
    ignored: set[str] = set()
    while (difference := compare_steps(mine, theirs, obligations=FULL, ignored=ignored)) is not None:
        found.append(difference)
        ignored.add(f"{difference.kind} {difference.subject}")
    assert [f"{d.kind} {d.subject}" for d in found] == [
        "event ultimas.points", "event hand_over.reason", "state total.0", "legal claim (extra)",
    ]  # fmt: skip
    refused = Step(action, False, code="MUST_FOLLOW_SUIT", rule="ARR-01")
    other = Step(action, False, code="NOT_YOUR_TURN", rule="ARR-01")
    assert compare_steps(refused, other, obligations=FULL) is not None
    assert compare_steps(refused, other, obligations=FULL, ignored={"refusal code play"}) is None
    missing = Step(action, True, [{"type": "ultimas", "side": 0, "points": 10}])
    assert compare_steps(missing, Step(action, True, []), obligations=FULL, ignored={"event ultimas"}) is None


def test_compare_reports_what_it_passed_over_and_the_games_it_could_not(tmp_path: Path) -> None:
    known = tmp_path / "known.toml"
    known.write_text(
        '[[known]]\nkind = "legal"\nsubject = "cante*"\nreason = "no cantes yet"\n\n'
        '[[known]]\nkind = "state"\nsubject = "total.*"\nreason = "named so before"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "compare", "--engine", "py:tests.fuzz.engines:refuses_cantes",
         "--profile", "lascuarenta", "--hands", "8", "--known", str(known), "--no-scenarios",
         "--report-dir", str(tmp_path / "out")],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    report = json.loads((tmp_path / "out" / "fuzz.json").read_text(encoding="utf-8"))
    assert report["passed_over"] > 0 and report["ended_at_known"]["games"] > 0
    line = next(line for line in done.stdout.splitlines() if line.startswith("divergences passed over:"))
    assert f"passed over: {report['passed_over']} (play went on" in line
    assert f"{report['ended_at_known']['games']} games ended at one that play cannot go past" in line
    assert "legal cante (missing) [CANTE-" in line
    # an entry that silenced nothing is named, with its line: the engine was fixed, or it is named otherwise now
    assert f"{known}:6: this known divergence matched nothing in this run" in output
    assert f"{known}:1: this known" not in output


def test_replay_passes_over_what_the_record_passed_over(tmp_path: Path) -> None:
    _, found = fuzz_recording(engines.no_cantes_ultimas_zero(), CANTES, games=20)
    example = next(d for d in found if d.cause.subject == "ultimas.points" and d.passed_over)
    record = tmp_path / "divergence.json"
    record.write_text(json.dumps(example.record()), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "replay", str(record), "--engine",
         "py:tests.fuzz.engines:no_cantes_ultimas_zero"],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "not compared (divergences compare passed over before this one): legal cante (missing)" in done.stdout
    assert f"divergence after {len(example.actions)} actions: event ultimas.points" in done.stdout


class _RefusesCantesThenFails(engines.FlawedEngine):
    """Refuses cantes, and fails every start past its first few: playing around a refused cante
    replays the game on it, and that replay fails."""

    def __init__(self) -> None:
        super().__init__("refuses_cantes")
        self.starts = 0

    def start(self, setup: Any) -> Any:
        self.starts += 1
        if self.starts > 2:
            raise EngineError("the engine went away")
        return super().start(setup)


def test_an_engine_that_fails_while_replayed_to_play_around_an_action_is_a_failure_not_a_traceback() -> None:
    report = fuzz(_RefusesCantesThenFails(), CANTES, games=2)
    assert any(g.cause.kind == "failure" and g.ended for g in report.groups.values()), report.groups
