"""Random complete hands and matches, reproducible from a seed, under any profile string.

Used by the property tests and the benchmark. The policy is uniform over
:meth:`Game.legal_actions <guinote_conformance.reference_engine.game.Game.legal_actions>`, cantes, exchanges,
tutes and claims included; the :class:`~guinote_conformance.reference_engine.actions.Deal` that starts the next
hand is given a deck order shuffled by the same random generator, so one seed fixes the whole
game::

    game = random_match("tradicional+mano_a_mano", seed=7)
    replay(record_of(game))  # the same game again (guinote_conformance.reference_engine.records)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from guinote_conformance.reference_engine.actions import Action, Deal, Event
from guinote_conformance.reference_engine.cards import Card, deck
from guinote_conformance.reference_engine.flags import Rules, rules_for
from guinote_conformance.reference_engine.game import Game

#: A policy picks one of the legal actions (never empty) for a game.
Policy = Callable[[Game, list[Action]], Action]


def uniform_policy(rng: random.Random) -> Policy:
    """Pick any legal action with equal chance; a deal gets a deck shuffled by ``rng``."""

    def choose(game: Game, legal: list[Action]) -> Action:
        action = legal[int(rng.random() * len(legal))]
        if isinstance(action, Deal) and not action.deck:
            action = Deal(shuffled(game.rules, rng))
        return action

    return choose


def shuffled(rules: Rules, rng: random.Random) -> tuple[Card, ...]:
    """A deck order for ``rules``' deck, shuffled by ``rng``."""
    cards = list(deck(rules.deck_size))
    rng.shuffle(cards)
    return tuple(cards)


def _rules(profile: str | Rules, overrides: Mapping[str, str] | None) -> Rules:
    if isinstance(profile, Rules):
        return profile.with_flags(overrides) if overrides else profile
    return rules_for(profile, overrides)


def new_game(profile: str | Rules, seed: int, overrides: Mapping[str, str] | None = None) -> tuple[Game, random.Random]:
    """A game dealt from a deck shuffled by ``random.Random(seed)``, with that generator.

    The dealer of the first hand is drawn by the same generator (B-04 ``first_dealer=random``).
    """
    rules = _rules(profile, overrides)
    rng = random.Random(seed)
    dealer = rng.randrange(rules.player_count)
    return Game.from_deck(rules, shuffled(rules, rng), dealer), rng


def play_hand(game: Game, policy: Policy) -> list[Event]:
    """Play the current hand to its end with ``policy``; return its events.

    A hand that is already over is left as it is.
    """
    events: list[Event] = []
    hand = game.hand  # the same hand until it is over: only the next deal replaces it
    while hand.result is None:
        events.extend(game.apply(policy(game, game.legal_actions())))
    return events


def play_match(game: Game, policy: Policy, max_hands: int = 1000) -> list[Event]:
    """Play hands (and deals) with ``policy`` until the match is won; return the events.

    ``max_hands`` guards against a match that never ends; reaching it raises
    :class:`RuntimeError`.
    """
    events: list[Event] = []
    for _ in range(max_hands):
        events.extend(play_hand(game, policy))
        if game.match.winner is not None:
            return events
        events.extend(game.apply(policy(game, game.legal_actions())))
    raise RuntimeError(f"the match did not end within {max_hands} hands")


def random_hand(profile: str | Rules, seed: int, overrides: Mapping[str, str] | None = None) -> Game:
    """A new game whose first hand has been played to its end by the uniform policy."""
    game, rng = new_game(profile, seed, overrides)
    play_hand(game, uniform_policy(rng))
    return game


def random_match(
    profile: str | Rules, seed: int, overrides: Mapping[str, str] | None = None, max_hands: int = 1000
) -> Game:
    """A game played by the uniform policy until the match is won."""
    game, rng = new_game(profile, seed, overrides)
    play_match(game, uniform_policy(rng), max_hands)
    return game
