"""Random hands and matches from a seed (guinote_conformance.reference_engine.random_play)."""

from __future__ import annotations

import random

import pytest

from guinote_conformance.reference_engine.actions import Deal
from guinote_conformance.reference_engine.random_play import (
    new_game,
    play_hand,
    play_match,
    random_hand,
    random_match,
    uniform_policy,
)
from guinote_conformance.reference_engine.records import record_of

from .helpers import rules


def test_the_same_seed_gives_the_same_game() -> None:
    assert record_of(random_hand("lascuarenta", 5)) == record_of(random_hand("lascuarenta", 5))
    assert record_of(random_hand("lascuarenta", 5)) != record_of(random_hand("lascuarenta", 6))
    assert record_of(random_match("ludoteka+mano_a_mano", 5)) == record_of(random_match("ludoteka+mano_a_mano", 5))


@pytest.mark.parametrize("profile", ["lascuarenta", "ludoteka+castellon36", "tradicional+mano_a_mano+ademuz48"])
def test_a_random_hand_is_played_to_its_end(profile: str) -> None:
    game = random_hand(profile, 3)
    assert game.phase in ("hand_over", "match_over")
    assert game.hand_result is not None and game.hands_played == 1


def test_profiles_as_rules_or_strings_with_overrides() -> None:
    game, _ = new_game(rules("ludoteka"), 1, {"players": "2"})
    assert game.players == 2
    game, _ = new_game("ludoteka", 1, {"deck": "48"})
    assert len(game.stock) == 23


def test_the_policy_deals_a_shuffled_deck() -> None:
    game = random_hand("lascuarenta", 2)
    policy = uniform_policy(random.Random(0))
    action = policy(game, game.legal_actions())
    assert isinstance(action, Deal) and len(action.deck) == 40
    events = game.apply(action)
    assert events[0].kind == "hand_dealt"
    assert play_hand(game, policy)[-1].kind in ("de_vueltas", "point_won", "coto_won", "match_won")
    assert play_hand(game, policy) == []  # a hand that is over is left alone


def test_play_match_guards_against_endless_matches() -> None:
    game, rng = new_game("lascuarenta", 1)
    with pytest.raises(RuntimeError, match="within 1 hands"):
        play_match(game, uniform_policy(rng), max_hands=1)
