"""The catalogue of broken engines is well formed, and each planted bug really changes behaviour.

Quick checks (the default run): each bug names a rule of features/index and an area; each
three-bug engine mixes three areas; every catalogue name is a factory ``serve:`` reaches, in the
shape it says; and, in a forked child, each bug makes the engine differ from the reference on a
seeded game (:mod:`tests.broken_engines.differential`). Whether ``run`` and ``compare`` then find
it is the measure's (``tox -e catalogue``); the slow test below measures two engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.engines.specs import parse_engine_spec
from tests.broken_engines import engines
from tests.broken_engines.differential import _in_child, first_difference
from tests.broken_engines.engines import BUGS, CATALOGUE, TRIPLES
from tests.broken_engines.shapes import SHAPES

RULES = load_rules()
AREAS = {"seat", "suit led", "trump", "rank", "phase", "declarations", "scoring", "match"}


def test_the_catalogue_holds_at_least_thirty_bugs_of_every_area() -> None:
    assert len(BUGS) >= 30
    assert {bug.area for bug in BUGS.values()} == AREAS


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_names_a_rule_of_the_index_and_a_profile(name: str) -> None:
    from guinote_conformance.reference_engine.flags import flag_specs, profile_names

    bug = BUGS[name]
    assert bug.rule in RULES, f"{name}: {bug.rule} is not in features/index"
    assert not (bug.collateral or set()) - set(RULES), f"{name}: collateral rules not in the index"
    assert bug.description and bug.area in AREAS
    assert bug.profile in profile_names()
    for flag, value in {**bug.flags, **bug.forced}.items():
        assert value in flag_specs()[flag].values, f"{name}: {flag}={value}"


@pytest.mark.parametrize("name", sorted(TRIPLES))
def test_a_three_bug_engine_breaks_three_rules_of_three_areas_under_one_profile(name: str) -> None:
    bugs = [BUGS[bug] for bug in TRIPLES[name]]
    assert len({bug.rule for bug in bugs}) == 3
    assert len({bug.area for bug in bugs}) == 3, f"{name}: {[bug.area for bug in bugs]}"
    assert len({bug.profile for bug in bugs}) == 1


def test_every_bug_and_every_triple_is_served_in_every_shape() -> None:
    assert len(TRIPLES) >= 4
    for name in [*BUGS, *TRIPLES]:
        for shape in SHAPES:
            served = name if shape == "full" else f"{name}__{shape}"
            assert CATALOGUE[served].shape == shape
            spec = parse_engine_spec(f"serve:tests.broken_engines.engines:{served}")
            assert spec.target == f"tests.broken_engines.engines:{served}"
            assert callable(getattr(engines, served))
    with pytest.raises(AttributeError):
        engines.__getattr__("no_such_engine")


def _shape_of(name: str) -> list[object]:
    engine = CATALOGUE[name].engine()
    info = engine.info()
    return [info.name, sorted(info.capabilities), sorted(info.profiles)]


@pytest.mark.parametrize(
    ("shape", "has", "lacks"),
    [
        ("full", {"positions", "observations", "match"}, {"automatic_draw"}),
        ("auto_draw", {"automatic_draw", "positions"}, set()),
        ("own_shuffle", {"positions", "own_shuffle"}, set()),
        ("no_positions", {"observations", "match"}, {"positions"}),
        ("minimal", set(), {"positions", "observations", "match", "reason_codes"}),
    ],
)
def test_each_shape_declares_its_capabilities(shape: str, has: set[str], lacks: set[str]) -> None:
    name = "third_suit_wins" if shape == "full" else f"third_suit_wins__{shape}"
    engine_name, capabilities, profiles = _in_child(_shape_of, name)
    assert has <= set(capabilities) and not lacks & set(capabilities), capabilities
    assert CATALOGUE[name].profile in profiles
    assert "broken" in engine_name or shape == "minimal"


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_changes_what_the_engine_does(name: str) -> None:
    """On seeded games (and, for a bug random play rarely reaches, its witness position) the
    engine with the bug planted answers differently from the reference somewhere."""
    assert first_difference(name) is not None, f"{name} plays exactly like the reference"


def test_a_three_bug_engine_differs_too() -> None:
    assert first_difference("triple_suit_cante_match") is not None


@pytest.mark.slow
def test_the_measure_tells_whether_run_and_compare_find_the_bug(tmp_path: Path) -> None:
    from tests.broken_engines.measure import main

    code = main(["third_suit_wins", "tute_card_points__minimal", "--hands", "10", "--seconds", "30",
                 "--work", str(tmp_path), "--check"])  # fmt: skip
    table = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert "| third_suit_wins | full | DECK-11 | yes |" in table, table
    assert "| tute_card_points__minimal | minimal | DECK-07 |" in table, table
    assert code == 0, table


def test_a_rule_the_shape_cannot_show_is_said_and_not_counted_as_missed() -> None:
    """A match bug in the minimal double (no 'match' capability): every scenario of MATCH-12 is not
    applicable to it, so neither command can find it there; the measure says so instead of a miss."""
    from tests.broken_engines.measure import Measure, table

    why = "the engine lacks the 'match' capability"
    out_of_reach = Measure("coto_points_kept__minimal", "minimal", ["MATCH-12"], unobservable={"MATCH-12": why})
    missed = Measure("coto_points_kept", "full", ["MATCH-12"])
    assert out_of_reach.missed == [] and missed.missed == ["MATCH-12"]
    text = table([out_of_reach, missed])
    assert f"coto_points_kept__minimal: MATCH-12 cannot be shown by this shape: {why}" in text
    assert "every planted rule found by run or compare in 0;" in text and "out of the shape's reach in 1" in text


def test_the_table_names_every_planted_rule_compare_found_before_the_others() -> None:
    """Cut to its first four rules in alphabetical order, the table once hid DECK-11 and SCORE-04 behind
    ARR-02, ARR-03, ARR-07 (consequences of the wrong trick winner), and read as if compare missed them."""
    from tests.broken_engines.measure import Measure, table

    found = Measure("triple_suit_cante_match", "full", ["DECK-11", "CANTE-05", "SCORE-04"],
                    compare_rules=["ARR-02", "ARR-03", "ARR-07", "CANTE-05", "CANTE-20", "DECK-11", "SCORE-04"],
                    compare_found=["DECK-11", "CANTE-05", "SCORE-04"], compare_status="7 groups, 40 hands")  # fmt: skip
    assert "| yes | DECK-11 CANTE-05 SCORE-04 +4 other |" in table([found])


def test_a_bug_named_by_another_rule_it_breaks_too_is_found_and_the_table_says_by_which() -> None:
    """Counting the cantes toward the thirty malas breaks SCORE-10 and SCORE-09 (thirty points besides
    the cantes): compare names it SCORE-09, which counts as naming it. A SCORE-09 group names no other
    bug, and the table says which rule named the planted one."""
    from tests.broken_engines.measure import Measure, named, table

    also = CATALOGUE["malas_with_cantes"].also_breaks
    assert also == {"SCORE-10": ("SCORE-09",)}
    assert named(["SCORE-10"], ["SCORE-09", "SCORE-12"], also) == ["SCORE-10"]
    assert named(["SCORE-10"], ["SCORE-12"], also) == [] and named(["SCORE-10"], ["SCORE-09"]) == []
    assert named(["SCORE-04"], ["SCORE-09"], CATALOGUE["threshold_100"].also_breaks) == []
    found = Measure("malas_with_cantes", "full", ["SCORE-10"], compare_rules=["SCORE-09", "SCORE-12"],
                    compare_found=["SCORE-10"], compare_status="2 groups, 40 hands")  # fmt: skip
    assert "| yes | SCORE-09 (SCORE-10) +1 other |" in table([found]), table([found])


@pytest.mark.parametrize("name", sorted(name for name, bug in BUGS.items() if bug.also_breaks))
def test_the_other_rules_a_bug_breaks_are_rules_of_the_index_and_not_its_own(name: str) -> None:
    bug = BUGS[name]
    assert bug.rule not in bug.also_breaks
    assert not set(bug.also_breaks) - set(RULES), f"{name}: {bug.also_breaks} not all in features/index"
