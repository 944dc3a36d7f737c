"""VUELTAS: hands de vueltas, carried totals, the automatic end and claims."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.actions import Claim, Deal
from guinote_conformance.reference_engine.cards import shuffled_deck
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.views import state_field

from .helpers import event, kinds, legal_json, play, position, refusal, rules


def first_hand_to_vueltas(profile: str = "lascuarenta") -> Game:
    """A first hand that ends 65 to 65 (nobody past 100): it goes de vueltas."""
    game = position(rules(profile), ["Ao", "2o", "3o", "4o"], trump="b", card_points=[34, 65], tricks_won=[4, 5])
    events = play(game, "Ao", "2o", "3o", "4o")  # side 0 takes 21 + the 10 de últimas
    assert event(events, "hand_over")["totals"] == [65, 65]
    assert "de_vueltas" in kinds(events)
    return game


def test_nobody_past_100_goes_de_vueltas_and_the_totals_carry() -> None:  # SCORE-13, VUELTAS-02
    game = first_hand_to_vueltas()
    assert game.phase == "hand_over" and game.hand_result is not None and game.hand_result.winner is None
    assert [state_field(game, f"total.{side}") for side in (0, 1)] == [65, 65]  # not counted twice
    assert state_field(game, "de_vueltas") is False  # the hand that ended was the first of the point
    game.apply(Deal(tuple(shuffled_deck(40, 1))))
    assert state_field(game, "de_vueltas") is True and state_field(game, "hand_in_point") == 1
    assert game.carried == [65, 65]
    assert [state_field(game, f"total.{side}") for side in (0, 1)] == [65, 65]
    assert game.dealer == 0  # PRE-10: seat 0 won the last trick


def test_automatic_end_the_moment_a_side_reaches_101() -> None:  # VUELTAS-07
    game = position(
        rules("lascuarenta"),
        ["Ao 2c", "3o 2e", "Ro 4c", "7o 5c"],
        trump="b",
        hand_in_point=1,
        carried=[80, 90],
        card_points=[0, 0],
        tricks_won=[1, 2],
    )
    events = play(game, "Ao", "3o", "Ro", "7o")  # side 0 takes 25: 105
    over = event(events, "hand_over")
    assert (over["winner"], over["reason"], over["rule"]) == (0, "vueltas_reached_101", "VUELTAS-07")
    assert over["totals"] == [105, 90]
    assert game.tricks_played == 4 and game.hands[0]  # the hand stops with cards still held
    assert game.match.points == [1, 0]
    assert state_field(game, "total.0") == 105
    game.apply(Deal(tuple(shuffled_deck(40, 2))))
    assert game.carried == [0, 0] and game.hand_in_point == 0  # MATCH-02: the next point starts at zero


def test_automatic_end_on_a_cante() -> None:  # VUELTAS-07, C-08
    game = position(
        rules("lascuarenta"),
        ["Ro So", "3o 2e", "Ao 4c", "7o 5c"],
        trump="b",
        hand_in_point=1,
        carried=[85, 90],
        last_trick_winner=2,
        tricks_won=[1, 2],
    )
    from guinote_conformance.reference_engine.actions import Cante
    from guinote_conformance.reference_engine.cards import Suit

    events = game.apply(Cante(0, Suit.OROS))
    assert event(events, "hand_over")["winner"] == 0 and event(events, "hand_over")["totals"] == [105, 90]


def test_automatic_end_counts_the_ultimas_at_the_last_trick() -> None:  # C-08
    game = position(rules("lascuarenta"), ["2o", "3c", "4o", "5c"], trump="b", hand_in_point=1, carried=[95, 60])
    events = play(game, "2o", "3c", "4o", "5c")
    assert kinds(events).index("ultimas") < kinds(events).index("hand_over")
    assert event(events, "hand_over")["winner"] == 0


def test_below_101_play_goes_on() -> None:
    game = position(
        rules("lascuarenta"), ["Ao 2c", "3o 2e", "Ro 4c", "7o 5c"], trump="b", hand_in_point=1, carried=[70, 90]
    )
    play(game, "Ao", "3o", "Ro", "7o")  # 95
    assert game.hand_result is None and game.turn == 0


def test_the_first_hand_is_played_out() -> None:  # C-22: no automatic end in the first hand
    game = position(rules("lascuarenta"), ["Ao 2c", "3o 2e", "Ro 4c", "7o 5c"], trump="b", card_points=[90, 0])
    play(game, "Ao", "3o", "Ro", "7o")
    assert game.hand_result is None


def claim_game(profile: str = "ludoteka", carried: tuple[int, int] = (80, 90), **flags: str) -> Game:
    game = position(
        rules(profile, **flags), ["Ao 2c", "3o 2e", "Ro 4c", "7o 5c"], trump="b", hand_in_point=1, carried=list(carried)
    )
    play(game, "Ao", "3o", "Ro", "7o")  # seat 0 wins 25
    return game


def test_claim_true() -> None:  # VUELTAS-05, VUELTAS-06
    game = claim_game()
    assert game.hand_result is None  # no automatic end under vueltas_end=claim
    assert {"type": "claim", "seat": 0} in legal_json(game)
    events = game.apply(Claim(0))
    assert event(events, "claim") == {"seat": 0, "side": 0, "valid": True}
    over = event(events, "hand_over")
    assert (over["winner"], over["reason"], over["rule"]) == (0, "claim_correct", "VUELTAS-06")


def test_claim_false_gives_the_point_to_the_opponents() -> None:  # VUELTAS-06
    game = claim_game(carried=(60, 90))
    events = game.apply(Claim(0))
    assert event(events, "claim")["valid"] is False
    assert (event(events, "hand_over")["winner"], event(events, "hand_over")["reason"]) == (1, "claim_false")
    assert game.match.points == [0, 1]


@pytest.mark.parametrize(("claim_by", "partner_may"), [("trick_winner", False), ("winning_side", True)])
def test_who_may_claim(claim_by: str, partner_may: bool) -> None:  # B-28
    game = claim_game(vueltas_claim_by=claim_by)
    assert ({"type": "claim", "seat": 2} in legal_json(game)) is partner_may
    if not partner_may:
        error = refusal(game, Claim(2))
        assert (error.code, error.rule) == ("CLAIM_NOT_TRICK_WINNER", "VUELTAS-05")
    assert refusal(game, Claim(1)).code == "CLAIM_NOT_NOW"  # the opponents did not win the trick


def test_no_claim_outside_vueltas_or_in_automatic_mode() -> None:
    game = position(rules("ludoteka"), ["Ao 2c", "3o 2e", "Ro 4c", "7o 5c"], trump="b")
    play(game, "Ao", "3o", "Ro", "7o")
    assert refusal(game, Claim(0)).code == "CLAIM_NOT_ALLOWED"
    automatic = claim_game("lascuarenta", carried=(10, 10))
    assert refusal(automatic, Claim(0)).code == "CLAIM_NOT_ALLOWED"


def test_the_claim_window_closes_at_the_lead() -> None:
    game = claim_game()
    play(game, "2c")
    assert refusal(game, Claim(0)).code == "CLAIM_NOT_NOW"


def test_a_claim_hand_played_out_goes_to_the_side_first_past_100() -> None:  # interpretation (C-07)
    game = position(
        rules("ludoteka"), ["Ao 2c", "3o Ac", "Ro 4c", "7o 3c"], trump="b", hand_in_point=1, carried=[80, 95]
    )
    play(game, "Ao", "3o", "Ro", "7o")  # side 0 reaches 105 first, and does not claim
    events = play(game, "2c", "Ac", "4c", "3c")  # side 1 takes 21 and the últimas: 126
    over = event(events, "hand_over")
    assert over["totals"] == [105, 126]
    assert (over["winner"], over["rule"]) == (0, "VUELTAS-14")


def test_a_hand_de_vueltas_played_out_with_one_side_past_100() -> None:  # VUELTAS-03
    game = position(rules("ludoteka"), ["2c", "2e", "Ac", "3c"], trump="b", hand_in_point=1, carried=[80, 60])
    events = play(game, "2c", "2e", "Ac", "3c")
    over = event(events, "hand_over")
    assert over["totals"] == [111, 60]
    assert (over["winner"], over["reason"], over["rule"]) == (0, "over_100", "VUELTAS-03")


def test_both_carried_past_100_the_first_side_to_score_wins() -> None:  # interpretation (B-23)
    # thirty_malas=vueltas sent a hand of 105 to 105 de vueltas: both totals are already past 100
    game = position(
        rules("lascuarenta"), ["2o 2c", "3o 2e", "4o 4c", "7o 5c"], trump="b", hand_in_point=1, carried=[105, 105]
    )
    events = play(game, "2o", "3o", "4o", "7o")  # seat 1 wins a trick worth 10
    over = event(events, "hand_over")
    assert (over["winner"], over["rule"]) == (1, "VUELTAS-07")


@pytest.mark.parametrize(("thirty_malas", "winner"), [("lose", 1), ("cannot_win", None)])
def test_automatic_end_and_thirty_malas_in_every_hand(thirty_malas: str, winner: int | None) -> None:  # B-25
    game_rules = rules("lascuarenta", thirty_malas=thirty_malas, thirty_malas_scope="all_hands")
    game = position(game_rules, ["3o 2c", "2o 2e", "4o 4c", "5o 5c"], trump="b", hand_in_point=1, carried=[95, 40])
    events = play(game, "3o", "2o", "4o", "5o")  # side 0 reaches 105 with only 10 malas
    if winner is None:
        assert game.hand_result is None  # cannot win yet: play goes on
    else:
        over = event(events, "hand_over")
        assert (over["winner"], over["reason"], over["rule"]) == (1, "thirty_malas_lose", "SCORE-12")
