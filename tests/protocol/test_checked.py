"""An in-process engine's answers are held to the protocol's schemas, like a wire engine's."""

from __future__ import annotations

from typing import Any

import pytest

from guinote_conformance.adapters.checked import ShapeCheckedEngine, ShapeError
from guinote_conformance.adapters.gcp.json_text import non_text
from guinote_conformance.adapters.interface import Accepted, Outcome
from guinote_conformance.adapters.protocol import canonical
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.engines.specs import parse_engine_spec
from guinote_conformance.reference_engine.flags import rules_for

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


def test_events_of_the_expected_text_pass_and_any_other_answer_is_checked() -> None:
    """The fuzzer passes the canonical text of the reference's events: an engine answering
    those very events is not checked again; one answering other events still is."""
    reference, broken = ReferenceEngine().start(SETUP), ShapeCheckedEngine(Engine()).start(SETUP)
    honest = ShapeCheckedEngine(ReferenceEngine()).start(SETUP)
    for _ in range(4):
        action = next(a for a in reference.legal_actions() if a["type"] == "play")
        outcome = reference.apply(action)
        assert isinstance(outcome, Accepted)
        expected = canonical(outcome.events)
        assert honest.apply(action, expected) == outcome
        if any(event["type"] == "trick_won" for event in outcome.events):
            with pytest.raises(ShapeError, match=r"apply\.response\.json"):
                broken.apply(action, expected)
        else:
            broken.apply(action, expected)


class Scribbler:
    """The reference, but it writes over the action it is handed once it has applied it."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def apply(self, action: Any) -> Outcome:
        outcome: Outcome = self._game.apply(action)
        action["seat"] = 3
        return outcome

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class ScribblingEngine(Engine):
    def start(self, setup: Any) -> Any:
        return Scribbler(self._reference.start(setup))


def test_an_engine_that_changes_the_action_it_is_handed_changes_only_its_copy() -> None:
    game = ShapeCheckedEngine(ScribblingEngine()).start(SETUP)
    action = dict(next(a for a in game.legal_actions() if a["type"] == "play"))
    before = dict(action)
    assert isinstance(game.apply(action), Accepted)
    assert action == before  # the caller's (the fuzzer's record) is as it was


def test_engines_loaded_in_process_are_checked() -> None:
    game = parse_engine_spec("reference").open().start(SETUP)
    assert type(game).__name__ == "ShapeCheckedGame"


class NotJSONTurn:
    """The reference, but its turn is a set (not JSON), read alone or with other fields."""

    def __init__(self, game: Any, *, bulk: bool = True, answer: Any = None) -> None:
        self._game, self._bulk, self._answer = game, bulk, answer

    def state(self, name: str) -> Any:
        value = self._game.state(name)
        return {value} if name == "turn" else value

    def __getattr__(self, name: str) -> Any:
        if name == "state_fields" and not self._bulk:
            raise AttributeError(name)
        if name == "state_fields" and self._answer is not None:
            return lambda names: self._answer
        if name == "state_fields":
            return lambda names: {n: ({v} if n == "turn" else v) for n, v in self._game.state_fields(names).items()}
        return getattr(self._game, name)


class NotJSONEngine(Engine):
    def __init__(self, **options: Any) -> None:
        super().__init__()
        self._options = options

    def start(self, setup: Any) -> Any:
        return NotJSONTurn(self._reference.start(setup), **self._options)


def test_a_state_value_that_is_not_json_is_an_engine_error_naming_it() -> None:
    game = ShapeCheckedEngine(NotJSONEngine()).start(SETUP)
    with pytest.raises(ShapeError, match=r'the state field "turn" is not JSON: a set'):
        game.state("turn")
    assert game.state("phase") == "free"


def test_fields_read_in_one_call_are_checked_like_one_field() -> None:
    from guinote_conformance.oracle.steps import read_fields

    game = ShapeCheckedEngine(NotJSONEngine()).start(SETUP)
    assert read_fields(game, ["phase"]) == {"phase": "free"}
    with pytest.raises(
        ShapeError, match=r"the state fields read in one call \(state_fields\) is not JSON: a set at turn"
    ):
        read_fields(game, ["phase", "turn"])
    listed = ShapeCheckedEngine(NotJSONEngine(answer=["free"])).start(SETUP)
    with pytest.raises(ShapeError, match="state_fields answered list, not an object"):
        read_fields(listed, ["phase"])


def test_an_engine_without_bulk_reads_is_read_field_by_field() -> None:
    from guinote_conformance.oracle.steps import read_fields

    game = ShapeCheckedEngine(NotJSONEngine(bulk=False)).start(SETUP)
    assert getattr(game, "state_fields", None) is None
    with pytest.raises(ShapeError, match=r'the state field "turn" is not JSON'):
        read_fields(game, ["phase", "turn"])


def test_non_text_names_the_first_string_that_is_not_unicode() -> None:
    assert non_text({"name": "ok", "profiles": {"p": {"f": "v\udcff"}}}) == "profiles.p.f"
    assert non_text([{"card": "Ao"}, {"card": "\udcff"}]) == "[1].card"
    assert non_text({"k\udcff": 1}) == "k\\udcff (the key)"
    assert non_text("\udcff") == ""
    assert non_text({"fine": ["ñ", 1, frozenset({"a"})]}) is None
