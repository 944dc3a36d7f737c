"""MATCH / PRE-10: points, cotos, the match, and who deals next."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.actions import Deal, Play
from guinote_conformance.reference_engine.cards import shuffled_deck
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.match import MatchScore
from guinote_conformance.reference_engine.random_play import random_match

from .helpers import card, event, kinds, play, position, refusal, rules


def winning_last_trick(
    profile: str = "lascuarenta", match_points: tuple[int, int] = (0, 0), cotos: tuple[int, int] = (0, 0)
) -> tuple[Game, list[str]]:
    """Side 0 wins the point on the last trick (seat 2 takes it)."""
    game = position(
        rules(profile),
        ["2o", "3o", "Ao", "4o"],
        trump="b",
        card_points=[80, 19],
        match_points=list(match_points),
        cotos=list(cotos),
    )
    return game, kinds(play(game, "2o", "3o", "Ao", "4o"))


def test_a_point() -> None:  # MATCH-01
    game, events = winning_last_trick()
    assert events[-2:] == ["hand_over", "point_won"]
    assert game.match.points == [1, 0] and game.match.cotos == [0, 0]
    assert game.phase == "hand_over"


def test_three_points_make_a_coto_and_one_coto_the_match() -> None:  # MATCH-03, MATCH-07 (cotos_to_win=1)
    game, events = winning_last_trick(match_points=(2, 1))
    assert events[-3:] == ["point_won", "coto_won", "match_won"]
    assert game.match.cotos == [1, 0] and game.match.points == [0, 0] and game.match.winner == 0
    assert game.phase == "match_over" and game.legal_actions() == []
    assert refusal(game, Deal(tuple(shuffled_deck(40, 1)))).code == "MATCH_OVER"


def test_two_cotos_to_win() -> None:  # MATCH-06 (cotos_to_win=2)
    game, events = winning_last_trick("ludoteka", match_points=(2, 1))
    assert events[-2:] == ["point_won", "coto_won"]
    assert game.match.cotos == [1, 0] and game.match.points == [0, 0] and game.match.winner is None
    game, events = winning_last_trick("ludoteka", match_points=(2, 2), cotos=(1, 1))
    assert events[-1] == "match_won" and game.match.cotos == [2, 1]


@pytest.mark.parametrize("points", ["3", "4", "5"])
def test_points_per_coto(points: str) -> None:  # B-29
    score = MatchScore(int(points), 1)
    for _ in range(int(points) - 1):
        assert score.award_point(1) == []
    assert score.award_point(1) == ["coto", "match"]


def test_the_winner_of_the_last_trick_deals_next() -> None:  # PRE-10, PRE-09
    game, _ = winning_last_trick()
    events = game.apply(Deal(tuple(shuffled_deck(40, 5))))
    dealt = event(events, "hand_dealt")
    assert (dealt["dealer"], dealt["mano"]) == (2, 3)
    assert game.dealer == 2 and game.turn == 3 and game.phase == "free"
    assert game.card_points == [0, 0] and game.tricks_played == 0


def test_the_next_deal_waits_for_the_end_of_the_hand() -> None:
    game = Game.from_seed(rules(), 1)
    error = refusal(game, Deal(tuple(shuffled_deck(40, 2))))
    assert (error.code, error.rule) == ("HAND_IN_PROGRESS", "PRE-10")
    over, _ = winning_last_trick()
    assert refusal(over, Play(0, card("5o"))).code == "HAND_OVER"
    assert [a.to_json() for a in over.legal_actions()] == [{"type": "deal", "deck": []}]


@pytest.mark.parametrize("profile", ["lascuarenta", "ludoteka", "tradicional+mano_a_mano", "tradicional_literal"])
def test_a_random_match_ends_with_a_winner(profile: str) -> None:  # MATCH-05
    game = random_match(profile, 4)
    assert game.phase == "match_over"
    winner = game.match.winner
    assert winner is not None and game.match.cotos[winner] == int(game.rules.cotos_to_win)
