"""Game records: record_of, replay, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guinote_conformance.reference_engine.actions import Play
from guinote_conformance.reference_engine.cards import shuffled_deck
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.random_play import random_hand, random_match
from guinote_conformance.reference_engine.records import (
    FORMAT,
    VERSION,
    RecordError,
    load,
    loads,
    record_of,
    replay,
    result_of,
    save,
)

from .helpers import deal, play, position, rules


def test_a_record_holds_what_replays_the_game() -> None:
    game = random_match("ludoteka", 2)
    record = record_of(game)
    assert (record["format"], record["version"]) == (FORMAT, VERSION)
    assert record["flags"] == game.rules.as_dict()
    assert record["dealer"] == game.first_dealer
    assert len(record["start"]["deck"]) == 40
    deals = [a for a in record["actions"] if a["type"] == "deal"]
    assert len(deals) == game.hands_played - 1 and all(len(a["deck"]) == 40 for a in deals)
    assert json.loads(json.dumps(record)) == record  # plain JSON
    again = replay(record)
    assert result_of(again) == result_of(game) and again.history == game.history


@pytest.mark.parametrize("profile", ["lascuarenta+mano_a_mano+castellon36", "tradicional_literal+ademuz48"])
def test_replay_of_a_match(profile: str) -> None:
    game = random_match(profile, 9)
    assert result_of(replay(record_of(game))) == result_of(game)


def test_a_record_of_an_explicit_deal() -> None:
    game = deal(
        rules("ludoteka"),
        ["Ao 2o 3o 4o 5o 6o", "Ac 2c 3c 4c 5c 6c", "Ae 2e 3e 4e 5e 6e", "Ab 2b 3b 4b 5b 6b"],
        muestra="Ro",
        dealer=2,
    )
    play(game, "Ab", "Ao", "3c")
    record = record_of(game)
    assert record["start"]["muestra"] == "Ro" and record["start"]["hands"][0][0] == "Ao" and record["dealer"] == 2
    assert result_of(replay(record)) == result_of(game)


def test_a_record_of_a_position() -> None:
    game = position(rules("lascuarenta"), ["3c 4c", "2o Rc 6e", "So 5o 6c", "Co 4o 7c"], trump="b", trick="0:Ao")
    play(game, "2o", "5o")
    record = record_of(game)
    assert record["start"]["position"]["trick"] == [[0, "Ao"]]
    assert replay(record).trick == game.trick


def test_save_and_load(tmp_path: Path) -> None:
    game = random_hand("tradicional", 3)
    path = save(game, tmp_path / "game.json")
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") > len(game.history)  # one line per action
    record = load(path)
    assert record == record_of(game)
    assert result_of(replay(record)) == result_of(game)


def test_a_replay_that_ends_elsewhere_is_an_error() -> None:
    record = record_of(random_hand("lascuarenta", 1))
    record["result"]["match_points"] = [7, 7]
    with pytest.raises(RecordError, match=r"match_points=.*the record says \[7, 7\]"):
        replay(record)


def test_an_action_that_does_not_replay_is_named() -> None:
    game = Game.from_deck(rules(), shuffled_deck(40, 1))
    game.apply(Play(game.turn or 0, game.hands[game.turn or 0][0]))
    record = record_of(game)
    record["actions"][0]["seat"] = (record["actions"][0]["seat"] + 1) % 4
    with pytest.raises(RecordError, match=r"action 0 .* does not replay: NOT_YOUR_TURN"):
        replay(record)
    record["actions"][0] = {"type": "fly"}
    with pytest.raises(RecordError, match="action 0"):
        replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chess"}, "not a game record"),
        ({"version": 2}, "unsupported record version 2"),
        ({"actions": "none"}, "'actions' is missing"),
        ({"flags": {"players": "3"}}, "cannot be set up"),
        ({"start": {"deck": ["Ao"]}}, "cannot be set up: the deck has 1 cards"),
    ],
)
def test_bad_records(change: dict[str, object], message: str) -> None:
    record = {**record_of(random_hand("lascuarenta", 1)), **change}
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_loads_checks_the_text() -> None:
    with pytest.raises(RecordError, match="a record is JSON"):
        loads("{not json")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        loads("[]")
    with pytest.raises(RecordError, match="not a game record"):
        loads('{"format": "x"}')
