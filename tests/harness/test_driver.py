"""Bad scenario input fails with the feature file and line, not a traceback from deep inside."""

from __future__ import annotations

import pytest

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.scenario_setup import FeatureInputError, Location


@pytest.fixture
def run() -> ScenarioRun:
    engine = ReferenceEngine()
    info = engine.info()
    return ScenarioRun(
        engine, info, "lascuarenta", dict(info.profiles["lascuarenta"]), location=Location("features/x.feature", 12)
    )


def test_an_unknown_card_names_the_text_and_the_line(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match=r"features/x.feature:12: unknown card 'Zq'"):
        run.card("Zq")


def test_a_card_of_another_deck_is_refused(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="card 8o is not in the 40-card deck"):
        run.card("8o")


def test_a_card_dealt_twice_is_refused(run: ScenarioRun) -> None:
    rows = [
        ["seat 0", "Ao 2o 3o 4o 5o 6o"],
        ["seat 1", "Ao 7o So Co Ro Ac"],
        ["seat 2", "2c 3c 4c 5c 6c 7c"],
        ["seat 3", "Sc Cc Rc Ae 2e 3e"],
        ["muestra", "4e"],
    ]
    with pytest.raises(FeatureInputError, match=r"x\.feature:12: card Ao is dealt twice"):
        run.explicit_deal(0, rows)


def test_a_hand_of_the_wrong_size_is_refused(run: ScenarioRun) -> None:
    rows = [
        ["seat 0", "Ao 2o 3o 4o 5o"],
        ["seat 1", "6o 7o So Co Ro Ac"],
        ["seat 2", "2c 3c 4c 5c 6c 7c"],
        ["seat 3", "Sc Cc Rc Ae 2e 3e"],
        ["muestra", "4e"],
    ]
    with pytest.raises(FeatureInputError, match="seat 0 is dealt 5 cards; every player gets 6"):
        run.explicit_deal(0, rows)


def test_a_deck_of_the_wrong_length_is_refused(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="the deck has 3 cards, expected 40"):
        run.deal_from_deck(0, [["Ao 2o 3o"]])


def test_an_unknown_row_label_is_refused(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="unknown row 'seat 7'"):
        run.explicit_deal(0, [["seat 7", "Ao"]])


def test_a_seat_beyond_the_table_is_refused(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="seat 4 does not exist at a 4-player table"):
        run.seat(4)


def test_an_unknown_suit_is_refused(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="unknown suit 'diamonds'"):
        run.suit("diamonds")


def test_a_scenario_without_a_deal_says_so(run: ScenarioRun) -> None:
    with pytest.raises(FeatureInputError, match="the scenario has no deal"):
        run.state("phase")


def test_setup_after_play_has_started_is_refused(run: ScenarioRun) -> None:
    run.deal_from_deck(0, [["..."]])
    run.state("phase")
    with pytest.raises(FeatureInputError, match="must come before the first When/Then"):
        run.deal_from_deck(0, [["..."]])


def test_an_impossible_position_is_reported_at_its_setup_line(run: ScenarioRun) -> None:
    run.position_hands(
        [["seat 0", "Ao 2o"], ["seat 1", "3o"], ["seat 2", "4o"], ["seat 3", "5o"]], 0, muestra=None, trump="b"
    )
    run.location = Location("features/x.feature", 20)
    with pytest.raises(FeatureInputError, match=r"x.feature:12: the engine refused the setup: .*same number of cards"):
        run.state("phase")


def test_a_stock_row_may_list_its_top_cards_then_the_rest(run: ScenarioRun) -> None:
    rows = [["seat 0", "Ao 2o 3o 4o 5o 6o"], ["seat 1", "7o So Co Ro Ac 2c"], ["seat 2", "3c 4c 5c 6c 7c Sc"],
            ["seat 3", "Cc Rc Ae 2e 3e 4e"], ["muestra", "5e"], ["stock", "Rb Sb ..."]]  # fmt: skip
    run.explicit_deal(0, rows)
    assert run.setup["stock"][:2] == ["Rb", "Sb"]
    assert len(run.setup["stock"]) == 15


def test_a_boolean_expected_is_not_met_by_a_number(run: ScenarioRun) -> None:
    with pytest.raises(AssertionError, match=r"state field draw_pending: expected true, got 1"):
        run.expect_equal("state field draw_pending", True, 1)
    with pytest.raises(AssertionError, match=r"expected 0, got false"):
        run.expect_equal("state field turn", 0, False)
    run.expect_equal("state field turn", 1, 1.0)  # one JSON number
    run.expect_equal("hand.0", ["2o", "Ao"], ["Ao", "2o"])  # a hand is a set of cards
