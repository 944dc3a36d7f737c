"""The players' words for what a scenario checks of the engine's state, of what a player sees, and of an event.

A step like ``the state field "hand_size.2" is 3`` names a field and a JSON value; a player says
«las cartas que tiene el compañero del que reparte: 3». The field's words and what it holds (a
number, a seat, cards, cantes...) are in :data:`~guinote_conformance.catalogue.table_words.FIELD_WORDS`
and :data:`~guinote_conformance.catalogue.table_words.MEMBER_WORDS`; the value is said by what the
field holds, and read back to the same JSON value.

In: field names, member names and their JSON values. Out: the kinds :class:`FieldName`,
:class:`FieldValue` (``member=True``: an event member's) for
:class:`~guinote_conformance.catalogue.player_phrasing.Players`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from guinote_conformance.adapters.vocabulary import SUITS
from guinote_conformance.catalogue import table_words as words
from guinote_conformance.catalogue.player_phrasing import (
    CardKind,
    Kind,
    Words,
    _alternation,
    _join,
    _pair,
    _split,
    expand,
    read_cards,
    say_cards,
)
from guinote_conformance.catalogue.table_words import Seating

_CANTE = re.compile(r"^(?P<value>.+?) (?:of|de) (?P<seat>.+?) "
                    r"(?P<suit>in \w+|en \w+|in a suit not shown|sin enseñar el palo)"
                    r"(?P<arrastre>, in the arrastre|, en el arrastre)?$")  # fmt: skip


def _field_names(language: str, seating: Seating) -> dict[str, str]:
    """Every field a scenario may check, ``hand.2`` and all, with its words at this table."""
    names: dict[str, str] = {}
    for key, (_holder, pair) in words.FIELD_WORDS.items():
        text = _pair(pair, language)
        if "{seat}" in key:
            for seat in range(seating.players):
                names[key.replace("{seat}", str(seat))] = text.replace("{seat}", seating.seat(seat, language))
        elif "{side}" in key:
            for side in range(2):
                names[key.replace("{side}", str(side))] = text.replace("{side}", seating.side(side, language))
        else:
            names[key] = text
    return {key: expand(text) for key, text in names.items()}


def holder(name: str) -> str | None:
    """What the field ``name`` holds (``hand_size.2`` -> ``number``)."""
    base, _, index = name.rpartition(".")
    keys = [f"{base}.{{seat}}", f"{base}.{{side}}"] if index.isdigit() else [name]
    entry = next((words.FIELD_WORDS[key] for key in keys if key in words.FIELD_WORDS), None)
    return None if entry is None else entry[0]


class FieldName(Kind):
    """A state field's name (``hand_size.2``), said by what it is at this table."""

    def pattern(self, language: str, seating: Seating) -> str:
        return _alternation(list(_field_names(language, seating).values()))

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return _field_names(language, seating).get(value)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return next((key for key, name in _field_names(language, seating).items() if name == text), None)


class FieldValue(Kind):
    """A JSON value, said by what its field (or event member: ``member=True``) holds."""

    def __init__(self, member: bool = False) -> None:
        self.member = member

    def normal(self, value: str | None) -> Any:
        return None if value is None else json.loads(value)

    def pattern(self, language: str, seating: Seating) -> str:
        return ".+"

    def _holder(self, args: Mapping[str, str | None]) -> str | None:
        if self.member:
            entry = words.MEMBER_WORDS.get(str(args.get("member")))
            return None if entry is None else entry[0]
        return holder(str(args.get("name")))

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        kind = self._holder(args)
        try:
            data = json.loads(value)
        except json.JSONDecodeError:
            return None
        return None if kind is None else say_value(kind, data, language, seating)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        kind = self._holder(args)
        if kind is None:
            return None
        found = read_value(kind, text, language, seating)
        return None if found is _NOT else json.dumps(found)


_NOT = object()  # no value of this kind reads so
RANKS = {"R": words.TUTE_RANKS["reyes"], "S": words.TUTE_RANKS["sotas"]}
SIDED = ("seat", "side")


def say_value(kind: str, data: Any, language: str, seating: Seating) -> str | None:
    if data is None:
        return _pair(words.NOBODY if kind in SIDED else words.NOTHING, language)
    if kind == "number" and isinstance(data, int) and not isinstance(data, bool):
        return str(data)
    if kind == "bool" and isinstance(data, bool):
        return _pair(words.YES_NO[0 if data else 1], language)
    if kind in SIDED and isinstance(data, int):
        return (seating.seat if kind == "seat" else seating.side)(data, language)
    if kind == "suit" and data in SUITS:
        return SUITS[data]
    if kind == "suits" and isinstance(data, list) and all(s in SUITS for s in data):
        return _join([SUITS[s] for s in data], language) if data else _pair(words.NONE, language)
    if kind == "card" and isinstance(data, str):
        return CardKind().say(data, language, seating, {})
    if kind == "cards" and isinstance(data, list):
        return say_cards(data, language)
    if kind == "rule" and isinstance(data, str):
        return data
    if kind == "rank" and data in RANKS:
        return _pair(RANKS[data], language)
    if kind == "phase" and data in words.PHASE_WORDS:
        return _pair(words.PHASE_WORDS[data], language)
    if kind == "reason" and data in words.HAND_END_WORDS:
        return _pair(words.HAND_END_WORDS[data], language)
    if (
        kind == "seats"
        and isinstance(data, list)
        and all(isinstance(s, int) and 0 <= s < seating.players for s in data)
    ):
        return _join([seating.seat(s, language) for s in data], language) if data else _pair(words.NONE, language)
    if kind == "cantes" and isinstance(data, list):
        said = [_say_cante(cante, language, seating) for cante in data]
        return None if None in said else ("; ".join(str(s) for s in said) or _pair(words.NONE, language))
    return None


def _say_cante(cante: Any, language: str, seating: Seating) -> str | None:
    """One cante: «las veinte del mano en copas, en el arrastre»."""
    if not isinstance(cante, dict) or set(cante) != {"seat", "side", "suit", "value", "arrastre"}:
        return None
    if cante["value"] not in words.CANTE_VALUES or cante["side"] != _side_of(cante["seat"], seating):
        return None
    suit = (
        _pair(words.HIDDEN_SUIT, language)
        if cante["suit"] is None
        else f"{'in' if language == 'en' else 'en'} {SUITS[cante['suit']]}"
    )
    arrastre = f", {_pair(words.IN_ARRASTRE, language)}" if cante["arrastre"] else ""
    of = "of" if language == "en" else "de"
    value = _pair(words.CANTE_VALUES[cante["value"]], language)
    return f"{value} {of} {seating.seat(cante['seat'], language)} {suit}{arrastre}"


def _side_of(seat: int, seating: Seating) -> int:
    return seat if seating.players == 2 else seat % 2


def read_value(kind: str, text: str, language: str, seating: Seating) -> Any:
    """The JSON value that :func:`say_value` says as ``text`` (``_NOT``: none)."""
    if text == expand(_pair(words.NOBODY if kind in SIDED else words.NOTHING, language)):
        return None
    if kind in ("suits", "cantes", "seats") and text == expand(_pair(words.NONE, language)):
        return []
    if kind == "number":
        return int(text) if text.isdigit() else _NOT
    if kind == "bool":
        return {expand(_pair(p, language)): p is words.YES_NO[0] for p in words.YES_NO}.get(text, _NOT)
    if kind in SIDED:
        count = seating.players if kind == "seat" else 2
        name = seating.seat if kind == "seat" else seating.side
        return next((n for n in range(count) if expand(name(n, language)) == text), _NOT)
    if kind == "suit":
        return next((code for code, suit in SUITS.items() if suit == text), _NOT)
    if kind == "suits":
        codes = [next((c for c, s in SUITS.items() if s == part), None) for part in _split(text, language)]
        return _NOT if None in codes else codes
    if kind == "card":
        return CardKind().read(text, language, seating, {}) or _NOT
    if kind == "cards":
        cards = read_cards(text, language)
        return _NOT if cards is None else cards
    if kind == "rule":
        return text
    if kind == "rank":
        return next((code for code, pair in RANKS.items() if expand(_pair(pair, language)) == text), _NOT)
    if kind == "phase":
        return Words(words.PHASE_WORDS).read(text, language, seating, {}) or _NOT
    if kind == "reason":
        return Words(words.HAND_END_WORDS).read(text, language, seating, {}) or _NOT
    if kind == "seats":
        names = {expand(seating.seat(n, language)): n for n in range(seating.players)}
        seats = [names.get(part) for part in _split(text, language)]
        return _NOT if None in seats else seats
    if kind == "cantes":
        cantes = [_read_cante(part, language, seating) for part in text.split("; ")]
        return _NOT if any(c is _NOT for c in cantes) else cantes
    return _NOT


def _read_cante(text: str, language: str, seating: Seating) -> Any:
    match = _CANTE.match(text)
    if match is None:
        return _NOT
    value = next((v for v, pair in words.CANTE_VALUES.items() if expand(_pair(pair, language)) == match["value"]), None)
    seat = next((n for n in range(seating.players) if expand(seating.seat(n, language)) == match["seat"]), None)
    said_suit = match["suit"]
    suit = (
        None
        if said_suit == expand(_pair(words.HIDDEN_SUIT, language))
        else next((c for c, s in SUITS.items() if said_suit.endswith(" " + s)), "?")
    )
    if value is None or seat is None or suit == "?":
        return _NOT
    return {
        "seat": seat,
        "side": _side_of(seat, seating),
        "suit": suit,
        "value": value,
        "arrastre": bool(match["arrastre"]),
    }
