"""The reference adapter's legal actions are shared read-only forms that behave as plain JSON objects."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import cast

import orjson
import pytest

from guinote_conformance.adapters.reference import ReadOnlyAction, ReferenceEngine, ReferenceGame
from guinote_conformance.reference_engine import Game
from guinote_conformance.reference_engine.actions import Cante, Play
from guinote_conformance.reference_engine.cards import parse_card

from .conftest import deck_setup


def _legal() -> list[dict[str, object]]:
    return ReferenceEngine().start(deck_setup()).legal_actions()


def test_a_play_is_the_same_object_in_every_list_and_equal_to_its_plain_form() -> None:
    first, again = _legal(), ReferenceEngine().start(deck_setup()).legal_actions()
    play = first[0]
    assert isinstance(play, ReadOnlyAction)
    assert play is again[0]
    assert play == {"type": "play", "seat": play["seat"], "card": play["card"]}


def test_a_shared_form_refuses_every_change_and_a_copy_accepts_it() -> None:
    play = _legal()[0]
    before = dict(play)
    changes: list[Callable[[], object]] = [
        lambda: play.__setitem__("seat", 3),
        lambda: play.__delitem__("card"),
        lambda: play.update(seat=3),
        lambda: play.pop("seat"),
        lambda: play.popitem(),
        lambda: play.setdefault("suit", "o"),
        lambda: play.clear(),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert play == before and _legal()[0] == before  # nothing reached the later lists
    mine = dict(play)
    mine["seat"] = 3
    assert mine["seat"] == 3 and play == before


@pytest.mark.parametrize(
    "copied",
    [lambda a: pickle.loads(pickle.dumps(a)), copy.copy, copy.deepcopy, dict, lambda a: a.copy()],
    ids=["pickle", "copy", "deepcopy", "dict", "method copy"],
)
def test_copies_and_pickles_are_plain_dicts(copied: object) -> None:
    play = _legal()[0]
    other = copied(play)  # type: ignore[operator]
    assert type(other) is dict and other == play


def test_the_forms_encode_as_the_plain_objects() -> None:
    legal = _legal()
    plain = [dict(action) for action in legal]
    assert json.dumps(legal) == json.dumps(plain)
    assert orjson.dumps(legal, option=orjson.OPT_SORT_KEYS) == orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)


def test_actions_the_engine_does_not_share_get_a_fresh_plain_form() -> None:
    class Listed:  # a game listing a play built afresh (not the engine's shared one) and a cante
        def legal_actions(self) -> list[object]:
            return [Play(0, parse_card("Ao")), Cante(0, parse_card("Ro").suit)]

    first, again = (ReferenceGame(cast(Game, Listed())).legal_actions() for _ in range(2))
    assert first == again == [{"type": "play", "seat": 0, "card": "Ao"}, {"type": "cante", "seat": 0, "suit": "o"}]
    assert all(type(action) is dict for action in first) and first[0] is not again[0]


def test_a_shared_form_handed_back_is_applied_as_its_plain_copy_would_be() -> None:
    """The engine reads a form it listed by its identity; the outcome is the one the plain
    object gets, accepted or refused, at every step of a trick and its draw."""
    by_form, by_copy = ReferenceEngine().start(deck_setup()), ReferenceEngine().start(deck_setup())
    for _ in range(5):  # four plays, then the draw
        listed = by_form.legal_actions()
        assert listed == by_copy.legal_actions()
        shared = next(action for action in listed if isinstance(action, ReadOnlyAction))
        assert by_form.apply(shared) == by_copy.apply(dict(shared))
    stale = _legal()[0]  # a play of the first trick: no longer that seat's turn or card
    assert by_form.apply(stale) == by_copy.apply(dict(stale))
    assert by_form.state_fields(["trick", "tricks_played", "hand.0"]) == by_copy.state_fields(
        ["trick", "tricks_played", "hand.0"]
    )
