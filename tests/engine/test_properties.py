"""Properties of random complete hands, for every profile and overlay combination.

Each example is a seed: the game's deck orders and the uniform random policy both come from
it (``guinote_conformance.reference_engine.random_play``), so a failing example is replayed with
``new_game(profile, seed)``. Up to three hands of the match are played and checked at every
step; ``HYPOTHESIS_PROFILE=deep`` runs many more examples (see conftest.py).
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guinote_conformance.reference_engine.actions import Action, Deal, IllegalAction, Play
from guinote_conformance.reference_engine.cards import Card, deck
from guinote_conformance.reference_engine.flags import overlay_names, profile_names, profile_specs
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.random_play import new_game, play_hand, uniform_policy
from guinote_conformance.reference_engine.records import record_of, replay, result_of
from guinote_conformance.reference_engine.views import FIELDS, state_field


def _overlay_sets() -> list[str]:
    """No overlay, each overlay, and each pair that sets different flags (derived from profiles.toml)."""
    specs = profile_specs()
    sets = [""]
    for size in (1, 2):
        for group in itertools.combinations(overlay_names(), size):
            flags = [flag for name in group for flag in specs[name].flags]
            if len(flags) == len(set(flags)):  # two decks do not combine
                sets.append("".join(f"+{name}" for name in group))
    return sets


OVERLAYS = _overlay_sets()
COMBINATIONS = [profile + overlay for profile in profile_names() for overlay in OVERLAYS]
HANDS_PER_EXAMPLE = 3

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about ``game``: every state field, the stock order and the history."""
    fields: list[str] = []
    for name in FIELDS:
        if name.endswith(".<seat>"):
            names = [name.replace("<seat>", str(seat)) for seat in range(game.players)]
        elif name.endswith(".<side>"):
            names = [name.replace("<side>", str(side)) for side in range(2)]
        else:
            names = [name]
        fields.extend(repr(state_field(game, field)) for field in names)
    return (*fields, [c.code for c in game.stock], [[c.code for c in hand] for hand in game.hands], len(game.history))


def check_cards_conserved(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the stock, the muestra, the trick or a won pile."""
    places: list[Card] = [card for hand in game.hands for card in hand]
    places += game.stock + [card for _, card in game.trick] + game.won_cards[0] + game.won_cards[1]
    if game.muestra is not None:
        places.append(game.muestra)
    counts = Counter(places)
    assert len(places) == game.rules.deck_size, len(places)
    assert set(counts) == set(deck(game.rules.deck_size)) and max(counts.values()) == 1


def check_hand_sizes(game: Game) -> None:
    """All seats hold the same number of cards (counting a card played to the trick), at most six."""
    played = {seat for seat, _ in game.trick}
    sizes = {len(hand) + (seat in played) for seat, hand in enumerate(game.hands)}
    assert len(sizes) == 1 and sizes.pop() <= 6


def check_turn_order(game: Game, legal: list[Action]) -> None:
    """PLAY-02/03/04: the leader is the mano, then the last trick's winner; play goes round from him."""
    expected_leader = game.mano if game.tricks_played == 0 else game.last_trick_winner
    assert game.leader == expected_leader
    assert [seat for seat, _ in game.trick] == [(game.leader + k) % game.players for k in range(len(game.trick))]
    plays = [action for action in legal if isinstance(action, Play)]
    if game.draw_pending:
        assert not plays
    else:
        assert game.turn == (game.leader + len(game.trick)) % game.players
        assert plays and all(action.seat == game.turn for action in plays)


def check_non_legal_play_refused(game: Game, legal: list[Action], rng: random.Random) -> None:
    """A random play that is not legal is refused and changes nothing (or, under
    renuncio_handling=lose_point, a held card out of the arrastre duties is a renuncio)."""
    cards = deck(game.rules.deck_size)
    legal_plays = {(action.seat, action.card) for action in legal if isinstance(action, Play)}
    for _ in range(20):
        seat, card = rng.randrange(game.players), cards[rng.randrange(len(cards))]
        if (seat, card) not in legal_plays:
            break
    else:
        return
    renuncio = (
        game.rules.renuncio_handling == "lose_point"
        and game.muestra is None
        # RENUNCIO-04 (B-34): where a card out of turn is a renuncio, it stands too
        and (seat == game.turn or game.rules.renuncio_faults != "play_duties")
        and not game.draw_pending
        and card in game.hands[seat]
    )
    if renuncio:
        trial = copy.deepcopy(game)
        events = trial.apply(Play(seat, card))
        over = next(event for event in events if event.kind == "hand_over")
        assert [event.kind for event in events][:2] == ["card_played", "renuncio"]
        assert over.details["winner"] == 1 - trial.side(seat)
        return
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(Play(seat, card))
    assert snapshot(game) == before


def check_every_legal_action_accepted(game: Game, legal: list[Action], rng: random.Random) -> None:
    for action in legal:
        trial = copy.deepcopy(game)
        if isinstance(action, Deal):
            action = Deal(tuple(rng.sample(deck(game.rules.deck_size), game.rules.deck_size)))
        trial.apply(action)  # raises if refused


def check_hand_end(game: Game) -> None:
    """SCORE-03: a hand played to its last trick shares 120 card points and the 10 de últimas."""
    assert game.hand_result is not None
    if any(game.hands) or game.trick:
        return  # ended early: a claim, the automatic end de vueltas, a tute or a renuncio
    assert sum(game.card_points) == 120
    assert game.ultimas_side is not None
    scores = [state_field(game, f"score.{side}") for side in range(2)]
    assert sum(scores) == 130 + sum(game.cante_points)


def play_and_check(profile: str, seed: int) -> Game:
    game, rng = new_game(profile, seed)
    policy = uniform_policy(rng)
    checker = random.Random(seed ^ 0x5EED)
    for _ in range(HANDS_PER_EXAMPLE):
        full_check_at = checker.randrange(45)
        step = 0
        while game.hand_result is None:
            legal = game.legal_actions()
            assert legal, "no legal action in a hand in progress"
            check_cards_conserved(game)
            check_hand_sizes(game)
            check_turn_order(game, legal)
            check_non_legal_play_refused(game, legal, checker)
            if step == full_check_at:
                check_every_legal_action_accepted(game, legal, checker)
            game.apply(policy(game, legal))
            step += 1
        check_cards_conserved(game)
        check_hand_end(game)
        if game.match.winner is not None:
            assert game.legal_actions() == []
            break
        legal = game.legal_actions()
        assert [type(action) for action in legal] == [Deal]
        game.apply(policy(game, legal))
    return game


@pytest.mark.parametrize("profile", COMBINATIONS)
@given(seed=seeds)
def test_random_hands_keep_the_invariants(profile: str, seed: int) -> None:
    play_and_check(profile, seed)


@pytest.mark.parametrize("profile", COMBINATIONS)
@given(seed=seeds)
def test_the_record_replays_to_the_same_result(profile: str, seed: int) -> None:
    game, rng = new_game(profile, seed)
    policy = uniform_policy(rng)
    for _ in range(HANDS_PER_EXAMPLE):
        play_hand(game, policy)
        if game.match.winner is not None:
            break
        game.apply(policy(game, game.legal_actions()))  # the next deal
    steps = rng.randrange(40)  # and stop anywhere in the next hand
    while game.hand_result is None and steps:
        game.apply(policy(game, game.legal_actions()))
        steps -= 1
    record = record_of(game)
    again = replay(record)
    assert result_of(again) == result_of(game)
    assert again.history == game.history
    assert snapshot(again) == snapshot(game)
