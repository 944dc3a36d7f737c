"""Named views of the state, and what one seat may see (observations)."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.views import FIELDS, UnknownField, observation_field, state_field

from .helpers import play, position, rules


def expand(name: str, game: Game) -> list[str]:
    if name.endswith(".<seat>"):
        return [name.replace("<seat>", str(seat)) for seat in range(game.players)]
    if name.endswith(".<side>"):
        return [name.replace("<side>", str(side)) for side in range(2)]
    return [name]


def test_every_field_answers() -> None:
    game = Game.from_seed(rules(), 3)
    for name in FIELDS:
        for field in expand(name, game):
            state_field(game, field)
            observation_field(game, 0, field)
    assert state_field(game, "stock_count") == 16 and state_field(game, "phase") == "free"


def test_unknown_fields() -> None:
    game = Game.from_seed(rules(), 3)
    for name in ("colour", "hand.4", "score.2", "hand"):
        with pytest.raises(UnknownField):
            state_field(game, name)
    with pytest.raises(UnknownField):
        observation_field(game, 4, "phase")


def test_observations_hide_other_hands_and_the_running_count() -> None:  # ETIQ-01, C-25
    game = position(rules("ludoteka"), ["Ao", "2o", "3o", "4o"], trump="b", card_points=[50, 60])
    assert observation_field(game, 0, "hand.0") == ["Ao"]
    assert observation_field(game, 0, "hand.1") is None
    assert observation_field(game, 0, "hand_size.1") == 1
    assert observation_field(game, 0, "card_points.0") is None and state_field(game, "card_points.0") == 50
    play(game, "Ao", "2o", "3o", "4o")
    assert observation_field(game, 1, "card_points.0") == 71 and observation_field(game, 1, "score.0") == 81
