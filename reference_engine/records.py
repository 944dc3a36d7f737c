"""Game records: a whole game as JSON, to save, load and replay.

A record holds everything needed to play the game again and reach the identical result::

    {"format": "guinote-record", "version": 1,
     "flags": {"players": "4", ...},                    # every flag (see profiles.toml)
     "dealer": 0,                                        # dealer of the first hand
     "start": {"deck": ["Ao", ...]},                     # deck order of the first hand, top first
     "actions": [{"type": "play", "seat": 1, "card": "4c"}, ...,
                 {"type": "deal", "deck": ["Rb", ...]},  # each later hand: its deck order
                 ...],
     "result": {...}}                                    # summary of the final state (checked)

``start`` is the deck order of the first hand, or the explicit deal
(``{"hands": [[...], ...], "muestra": "Rb", "stock": [...]}``) for a game made with
``Game.from_deal``, or ``{"position": {...}}`` for one made with ``Game.from_position``.
Every later hand starts with a ``deal`` action that carries its deck order, so the deck of
every hand dealt is in the record. ``result`` is :func:`result_of` the final state;
:func:`replay` checks it when present.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from guinote_conformance.reference_engine.actions import ActionFormatError, IllegalAction, action_from_json
from guinote_conformance.reference_engine.cards import CardError, parse_card
from guinote_conformance.reference_engine.flags import RulesError, make_rules
from guinote_conformance.reference_engine.game import Game

FORMAT = "guinote-record"
VERSION = 1

Record = dict[str, Any]


class RecordError(ValueError):
    """A record that is not well formed, does not replay, or replays to another result."""


def result_of(game: Game) -> dict[str, Any]:
    """A JSON summary of where ``game`` stands: enough to tell two games apart at the end."""
    decision = game.hand_result
    return {
        "phase": game.phase,
        "hands_played": game.hands_played,
        "match_points": list(game.match.points),
        "cotos": list(game.match.cotos),
        "match_winner": game.match.winner,
        "hand_winner": None if decision is None else decision.winner,
        "hand_reason": None if decision is None else decision.reason,
        "hand_rule": None if decision is None else decision.rule,
        "card_points": list(game.card_points),
        "cante_points": list(game.cante_points),
        "carried": list(game.carried),
        "tricks_played": game.tricks_played,
        "hands": [sorted(card.code for card in hand) for hand in game.hands],
    }


def record_of(game: Game) -> Record:
    """The record of ``game`` so far."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "flags": game.rules.as_dict(),
        "dealer": game.first_dealer,
        "start": json.loads(json.dumps(game.start)),
        "actions": [action.to_json() for action in game.history],
        "result": result_of(game),
    }


def _check_header(record: Mapping[str, Any]) -> None:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a game record: format is {record.get('format')!r}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}; this engine reads version {VERSION}")
    for key, kind in (("flags", Mapping), ("start", Mapping), ("actions", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"record field {key!r} is missing or of the wrong type")


def start_game(record: Mapping[str, Any]) -> Game:
    """The game of ``record`` before its first action."""
    _check_header(record)
    try:
        rules = make_rules(record["flags"])
        start = record["start"]
        dealer = int(record.get("dealer", 0))
        if "position" in start:
            return Game.from_position(rules, start["position"])
        if "deck" in start:
            return Game.from_deck(rules, [parse_card(code) for code in start["deck"]], dealer)
        hands = [[parse_card(code) for code in hand] for hand in start["hands"]]
        stock = [parse_card(code) for code in start["stock"]]
        return Game.from_deal(rules, hands, parse_card(start["muestra"]), stock, dealer)
    except (RulesError, CardError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"the record's start cannot be set up: {error}") from None


def replay(record: Mapping[str, Any]) -> Game:
    """Play ``record`` again; return the game in its final state.

    Raises :class:`RecordError` naming the action that fails, or the first field of
    ``result`` that differs.
    """
    game = start_game(record)
    for index, raw in enumerate(record["actions"]):
        try:
            game.apply(action_from_json(raw))
        except (IllegalAction, ActionFormatError, CardError) as error:
            raise RecordError(f"action {index} {raw!r} does not replay: {error}") from None
    expected = record.get("result")
    if expected is not None:
        reached = result_of(game)
        for key, value in expected.items():
            if reached.get(key) != value:
                raise RecordError(f"the replay ends with {key}={reached.get(key)!r}, the record says {value!r}")
    return game


def dumps(record: Mapping[str, Any]) -> str:
    """The record as JSON text: one line per field, one line per action (diffable)."""
    _check_header(record)
    lines = []
    for key, value in record.items():
        if key == "actions":
            actions = ",\n".join(f"  {json.dumps(action, ensure_ascii=False)}" for action in value)
            lines.append(f'"actions": [\n{actions}\n]' if value else '"actions": []')
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def loads(text: str) -> Record:
    """Read a record from JSON text (the header is checked, not the play)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"a record is JSON: {error}") from None
    _check_header(record)
    return dict(record)


def save(record: Mapping[str, Any] | Game, path: str | Path) -> Path:
    """Write a record (or the record of a game) to ``path``; return the path."""
    data = record_of(record) if isinstance(record, Game) else record
    target = Path(path)
    target.write_text(dumps(data), encoding="utf-8")
    return target


def load(path: str | Path) -> Record:
    """Read the record saved at ``path``."""
    return loads(Path(path).read_text(encoding="utf-8"))
