"""An in-process engine's answers are held to the protocol's schemas, like a wire engine's."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.checked import ShapeCheckedEngine, ShapeError
from adapters.interface import Accepted, Outcome
from adapters.reference import ReferenceEngine
from adapters.vocabulary import deck_codes
from conformance.engines import parse_engine_spec
from reference_engine.flags import rules_for

SETUP = {"flags": rules_for("lascuarenta").as_dict(), "dealer": 0, "deck": deck_codes(40)}


class MisnamedTrickWinner:
    """The reference, but its ``trick_won`` events say ``winner`` where the protocol says ``seat``."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def apply(self, action: Any) -> Outcome:
        outcome: Outcome = self._game.apply(action)
        if isinstance(outcome, Accepted):
            events = [
                {("winner" if key == "seat" and event["type"] == "trick_won" else key): value
                 for key, value in event.items()}
                for event in outcome.events
            ]  # fmt: skip
            return Accepted(events)
        return outcome

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class Engine:
    def __init__(self) -> None:
        self._reference = ReferenceEngine()

    def info(self) -> Any:
        return self._reference.info()

    def start(self, setup: Any) -> Any:
        return MisnamedTrickWinner(self._reference.start(setup))

    def close(self) -> None:
        pass


def play_a_trick(game: Any) -> None:
    for _ in range(4):
        game.apply(next(a for a in game.legal_actions() if a["type"] == "play"))


def test_the_reference_passes_its_own_shapes() -> None:
    game = ShapeCheckedEngine(ReferenceEngine()).start(SETUP)
    play_a_trick(game)
    assert game.state("tricks_played") == 1


def test_a_misnamed_event_member_is_an_engine_error_naming_it() -> None:
    game = ShapeCheckedEngine(Engine()).start(SETUP)
    with pytest.raises(ShapeError) as raised:
        play_a_trick(game)
    message = str(raised.value)
    assert "apply.response.json" in message and "seat" in message and '"type": "play"' in message


def test_engines_loaded_in_process_are_checked() -> None:
    game = parse_engine_spec("reference").open().start(SETUP)
    assert type(game).__name__ == "ShapeCheckedGame"
