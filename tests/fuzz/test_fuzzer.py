"""The fuzzer keeps going after a divergence, groups divergences by cause, plays whole points
and matches under every flag value, and steers toward the rules random play misses."""

from __future__ import annotations

import re

import pytest

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.configs import ConfigError, default_configs, parse_flag_set, resolve
from guinote_conformance.fuzz.differential import first_difference
from guinote_conformance.fuzz.fuzzer import Fuzzer
from tests.fuzz.engines import forgets_totals, no_cantes

#: what the protocol requires of an engine with every capability (the reference's)
FULL = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))

INFO = ReferenceEngine().info()


def test_the_reference_agrees_with_itself_over_points_and_matches() -> None:
    for depth in ("point", "match"):
        fuzzer = Fuzzer(ReferenceEngine(), ReferenceEngine(), INFO, depth=depth)
        report = fuzzer.run([resolve(INFO, "ludoteka"), resolve(INFO, "lascuarenta+mano_a_mano")], 6)
        assert report.groups == {} and report.games == 12
        assert report.hands > report.games, "points and matches go on past their first hand"
        assert report.actions > 20 * report.hands


def test_a_run_stopped_by_its_time_has_played_every_configuration_alike() -> None:
    configs = [resolve(INFO, "ludoteka"), resolve(INFO, "tradicional"), resolve(INFO, "lascuarenta+mano_a_mano")]
    report = Fuzzer(ReferenceEngine(), ReferenceEngine(), INFO, depth="hand").run(configs, 10**6, seconds=0.5)
    games = [report.played.get(config.label, 0) for config in configs]  # one hand per game at depth hand
    assert min(games) > 0 and max(games) - min(games) <= 1, games
    assert sum(games) == report.games < 10**6


def test_a_divergence_ends_its_game_not_the_run_and_is_grouped_by_cause() -> None:
    engine = no_cantes()
    report = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand").run([resolve(INFO, "tradicional")], 40)
    assert report.games == 40, "every game is played, however many diverge"
    causes = {(cause.kind, cause.subject) for cause in report.groups}
    assert causes == {("legal", "cante (missing)")}
    # named by what lets the reference allow each cante; the plainest one's group takes in the rest
    assert "CANTE-01" in {cause.rule for cause in report.groups}
    report.fold_subsumed()
    assert {cause.rule for cause in report.groups} == {"CANTE-01"}
    total = sum(group.count for group in report.groups.values())
    assert total > len(report.groups), "a group counts every divergence of its cause"
    for group in report.groups.values():
        smallest = min(group.example.size for _ in [0])
        assert group.example.size == smallest
        # the example reproduces: replayed, the same difference comes at its last action
        found = first_difference(ReferenceEngine(), engine, group.example.setup, group.example.actions,
                                 obligations=FULL)  # fmt: skip
        assert found is not None and found[0] == len(group.example.actions)


def test_a_divergence_in_a_hand_de_vueltas_is_found_by_playing_the_whole_point() -> None:
    engine = forgets_totals()
    single = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand").run([resolve(INFO, "lascuarenta")], 20)
    assert single.groups == {}, "a first hand carries nothing: the flaw cannot show"
    report = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="point").run([resolve(INFO, "lascuarenta")], 20)
    # both totals are found in one run: the game goes on past the first, no longer comparing it
    assert {(cause.kind, cause.subject, cause.rule) for cause in report.groups} == {
        ("state", "total.0", "VUELTAS-02"), ("state", "total.1", "VUELTAS-02")
    }  # fmt: skip
    for group in report.groups.values():
        assert any(action["type"] == "deal" for action in group.example.actions)


def test_configurations_cover_overlays_and_every_declared_flag_value() -> None:
    configs = default_configs(INFO)
    labels = [c.label for c in configs]
    assert labels[:4] == list(INFO.profiles)
    assert "ludoteka+mano_a_mano" in labels
    for name, values in INFO.flags.items():
        for value in values:
            assert any(c.flags[name] == value for c in configs), f"{name}={value} is never played"
    config = resolve(INFO, "lascuarenta+mano_a_mano", parse_flag_set("tute=none, deck=48"))
    assert config.label == "lascuarenta+mano_a_mano[tute=none,deck=48]"
    assert (config.flags["players"], config.flags["tute"], config.flags["deck"]) == ("2", "none", "48")


@pytest.mark.parametrize(
    ("text", "flags", "message"),
    [
        ("nowhere", "", "the engine has no profile 'nowhere'; its profiles: ludoteka"),
        ("ludoteka+moon", "", "unknown overlay 'moon'"),
        ("ludoteka", "tute=sometimes", "flag tute='sometimes': no such value; the values of tute: none, wins_point"),
        ("ludoteka", "colour=red", "unknown flag 'colour'"),
        ("ludoteka", "tute", "'tute' is not flag=value"),
    ],
)
def test_a_wrong_configuration_is_a_clear_error(text: str, flags: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        resolve(INFO, text, parse_flag_set(flags))


def test_steering_reaches_rules_uniform_play_misses() -> None:
    configs = [resolve(INFO, "lascuarenta"), resolve(INFO, "ludoteka")]
    steered = Fuzzer(ReferenceEngine(), ReferenceEngine(), INFO, depth="point", seed=1).run(configs, 40)
    uniform = Fuzzer(ReferenceEngine(), ReferenceEngine(), INFO, depth="point", seed=1, steer=False).run(configs, 40)
    rare = {"CANTE-22", "VUELTAS-06", "SCORE-07"}
    assert rare <= set(steered.coverage), sorted(rare - set(steered.coverage))
    assert len(set(steered.coverage)) > len(set(uniform.coverage))
    rarer = ("CANTE-22", "SCORE-07", "VUELTAS-14", "SEVEN-09", "CANTE-03", "CANTE-10")
    assert sum(steered.coverage.get(r, 0) for r in rarer) > 2 * sum(uniform.coverage.get(r, 0) for r in rarer)
    seen, observable, unseen = steered.coverage_summary()
    assert seen + len(unseen) == observable


def test_coverage_counts_each_step_once() -> None:
    """Every hand ends in one ``hand_over`` (SCORE-02): counted once, though the end of a hand is
    also the first step of the next one (the state its deal starts from)."""
    configs = [resolve(INFO, "lascuarenta"), resolve(INFO, "tradicional")]
    report = Fuzzer(ReferenceEngine(), ReferenceEngine(), INFO, depth="match", seed=2).run(configs, 5)
    assert report.hands > report.games  # matches of several hands
    assert report.coverage["SCORE-02"] == report.hands


def test_an_in_process_engine_answering_garbage_is_a_failure_not_a_crash() -> None:
    from tests.fuzz.engines import garbage

    engine = garbage()
    report = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand").run([resolve(INFO, "ludoteka")], 3)
    (group,) = report.groups.values()
    assert group.cause.kind == "failure" and group.count == 3


def test_an_in_process_answer_that_only_python_equality_accepts_is_a_shape_failure() -> None:
    """A schema-checked in-process engine skips the check of an answer that is the reference's own;
    seat 1 written ``True`` (equal to 1 in Python) is not that answer, and breaks the schema."""
    from guinote_conformance.engines.specs import load_engine

    engine = load_engine("py:tests.fuzz.engines:boolean_seats")
    info = engine.info()
    report = Fuzzer(ReferenceEngine(), engine, info, depth="hand", seed=1).run([resolve(info, "lascuarenta")], 3)
    assert report.groups, "the fuzzer agreed with an engine whose answers break the schema"
    example = next(iter(report.groups.values())).example
    assert example.cause.kind == "failure" and "protocol's shape" in str(example.got), example.got


def test_a_state_value_equal_only_by_python_equality_is_a_difference() -> None:
    from guinote_conformance.oracle.steps import Step, compare_steps

    mine = Step(None, True, [], "", "", [], {"turn": 1, "hand_winner": 0, "cantes": [{"arrastre": False}]})
    for field, value in (("turn", True), ("hand_winner", False), ("cantes", [{"arrastre": 0}])):
        theirs = Step(None, True, [], "", "", [], {**mine.state, field: value})
        difference = compare_steps(mine, theirs, obligations=FULL)
        assert difference is not None and (difference.kind, difference.subject) == ("state", field), field
    same = Step(None, True, [], "", "", [], {**mine.state, "turn": 1.0})
    assert compare_steps(mine, same, obligations=FULL) is None
