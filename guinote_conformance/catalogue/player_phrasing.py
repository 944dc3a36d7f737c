"""A step as a player says it: the players' phrasing of a step, in English and Spanish, both ways.

The Gherkin that runs is the engine's phrasing (:class:`~guinote_conformance.catalogue.phrasing.Phrasing`):
seat numbers, card codes, reason codes, JSON. Each step also declares a players' phrasing
(:class:`Players`), a template in each language like the Spanish one: ``{name}`` for a group of
the English pattern, ``[...]`` for an optional part, and ``{@side0}``/``{@side1}`` for the two sides
of the table. Each group has a kind (:class:`Kind`) that says its value as a player would, with
the words of :mod:`guinote_conformance.catalogue.table_words`: a seat as at the table (which depends
on the scenario's :class:`~guinote_conformance.catalogue.table_words.Seating`), a card by its name,
a reason code by what the table says. Every kind reads its words back, so that a players' step
parses back to the same step and arguments as the engine's (``tests/harness/test_player_phrasing.py``).

In: the English arguments of a step, the language, the seating. Out: the players' text
(:meth:`Players.render`) and the arguments read back from it (:meth:`Players.parse`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.vocabulary import SUITS
from guinote_conformance.catalogue import table_words as words
from guinote_conformance.catalogue.table_words import LANGUAGE_INDEX, Seating, card_words

_TOKEN = re.compile(r"(\{@?\w+\}|\[|\])")
_FIELD = re.compile(r"\{(@?\w+)\}")
CARD_CODES = [rank + suit for suit in SUITS for rank in "A23456789SCR"]


#: a plural noun after the number 1, said in the singular («1 baza», ``1 trick``), and read back
SINGULAR = {"tricks": "trick", "points": "point", "cards": "card", "cotos": "coto", "bazas": "baza",
            "puntos": "punto", "tantos": "tanto", "cartas": "carta"}  # fmt: skip


def singular(text: str) -> str:
    return re.sub(r"\b1 (\w+)\b", lambda m: f"1 {SINGULAR.get(m.group(1), m.group(1))}", text)


def plural(text: str) -> str:
    back = {one: many for many, one in SINGULAR.items()}
    return re.sub(r"\b1 (\w+)\b", lambda m: f"1 {back.get(m.group(1), m.group(1))}", text)


def contract(text: str) -> str:
    """Spanish «a el» and «de el» as they are said: «al», «del»."""
    return re.sub(r"\b([Aa]|[Dd]e) el\b", lambda m: m.group(1) + "l", text)


def expand(text: str) -> str:
    """The inverse of :func:`contract`, so that a seat's name is found in «del mano» as in «el mano»."""
    return re.sub(r"\b(a|de)l\b", lambda m: m.group(1) + " el", text)


def _alternation(choices: Sequence[str]) -> str:
    return "|".join(re.escape(choice) for choice in sorted(set(choices), key=len, reverse=True))


def _pair(pair: tuple[str, str], language: str) -> str:
    return pair[LANGUAGE_INDEX[language]]


def _join(items: Sequence[str], language: str) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + (" and " if language == "en" else " y ") + items[-1]


def _split(text: str, language: str) -> list[str]:
    head, _, last = text.rpartition(" and " if language == "en" else " y ")
    return [*head.split(", "), last] if head else [last]


class Kind:
    """What a group's values are, and how a player says them (``None``: not a value of this kind)."""

    #: the group's value compared as read (JSON values compare as what they mean)
    def normal(self, value: str | None) -> Any:
        return value

    def pattern(self, language: str, seating: Seating) -> str:
        return ".+?"

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        raise NotImplementedError

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        raise NotImplementedError


@dataclass(frozen=True)
class Words(Kind):
    """A closed set of English values, each with its players' words ``(english, spanish)``."""

    table: Mapping[str, tuple[str, str]]

    def pattern(self, language: str, seating: Seating) -> str:
        return _alternation([expand(_pair(pair, language)) for pair in self.table.values()])

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        pair = self.table.get(value)
        return None if pair is None else _pair(pair, language)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return next((key for key, pair in self.table.items() if expand(_pair(pair, language)) == text), None)


class Same(Kind):
    """A value said as it is written: a number, a suit's name."""

    def __init__(self, pattern: str) -> None:
        self._pattern = pattern

    def pattern(self, language: str, seating: Seating) -> str:
        return self._pattern

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return value if re.fullmatch(self._pattern, value) else None

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return text


class SeatKind(Kind):
    """A seat number, named as at the table (``side=True``: a side)."""

    def __init__(self, side: bool = False) -> None:
        self.side = side

    def names(self, language: str, seating: Seating) -> dict[str, str]:
        name = seating.side if self.side else seating.seat
        count = 2 if self.side else seating.players
        return {str(number): expand(name(number, language)) for number in range(count)}

    def pattern(self, language: str, seating: Seating) -> str:
        return _alternation(list(self.names(language, seating).values()))

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return self.names(language, seating).get(value)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return next((number for number, name in self.names(language, seating).items() if name == text), None)


class SeatsKind(SeatKind):
    """Seat numbers in an order (``1, 2, 3, 0``), named as at the table."""

    def normal(self, value: str | None) -> Any:
        return None if value is None else [int(seat) for seat in value.replace(",", " ").split()]

    def pattern(self, language: str, seating: Seating) -> str:
        return ".+"

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        names = [super(SeatsKind, self).say(seat, language, seating, args) for seat in value.replace(",", " ").split()]
        return None if None in names else _join([str(name) for name in names], language)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        seats = [super(SeatsKind, self).read(name, language, seating, args) for name in _split(text, language)]
        return None if None in seats else ", ".join(str(seat) for seat in seats)


def _card_names(language: str) -> dict[str, str]:
    return {code: expand(card_words(code, language)) for code in CARD_CODES}


class CardKind(Kind):
    """A card code (``5c``), said by its name (``el 5 de copas``); ``extra``: other values with their words."""

    def __init__(self, extra: Mapping[str, tuple[str, str]] | None = None, before: tuple[str, str] = ("", "")) -> None:
        self.extra = dict(extra or {})
        self.before = before  # words before a card's name (not before an extra value's)

    def _names(self, language: str) -> dict[str, str]:
        return {code: expand(_pair(self.before, language)) + name for code, name in _card_names(language).items()}

    def pattern(self, language: str, seating: Seating) -> str:
        return _alternation(
            [*self._names(language).values(), *(expand(_pair(p, language)) for p in self.extra.values())]
        )

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        if value in self.extra:
            return _pair(self.extra[value], language)
        return _pair(self.before, language) + card_words(value, language) if value in CARD_CODES else None

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        found = [code for code, name in self._names(language).items() if name == text]
        found += [key for key, pair in self.extra.items() if expand(_pair(pair, language)) == text]
        return found[0] if found else None


class CardsKind(Kind):
    """Card codes separated by spaces (``4o 2o``; ``-`` for none), said by their names."""

    def normal(self, value: str | None) -> Any:
        return None if value is None else [c for c in value.replace(",", " ").split() if c != "-"]

    def pattern(self, language: str, seating: Seating) -> str:
        return ".+"

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        return say_cards(CardsKind.normal(self, value), language)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        codes = read_cards(text, language)
        return None if codes is None else (" ".join(codes) or "-")


def say_cards(codes: Sequence[str], language: str) -> str | None:
    if any(code not in CARD_CODES for code in codes):
        return None
    return _join([card_words(code, language) for code in codes], language) if codes else _pair(words.NO_CARD, language)


def read_cards(text: str, language: str) -> list[str] | None:
    if text == _pair(words.NO_CARD, language):
        return []
    names = {name: code for code, name in _card_names(language).items()}
    codes = [names.get(part) for part in _split(text, language)]
    return None if None in codes else [str(code) for code in codes]


@dataclass(frozen=True)
class Players:
    """A step's players' phrasing: a template in each language and the kind of each group."""

    english: str
    spanish: str
    kinds: Mapping[str, Kind] = field(default_factory=dict)

    def template(self, language: str) -> str:
        return self.english if language == "en" else self.spanish

    def render(self, args: Mapping[str, str | None], language: str, seating: Seating) -> str | None:
        """The players' text of a step whose English arguments are ``args`` (None: a value with no words)."""
        said: dict[str, str | None] = {}
        for name, value in args.items():
            said[name] = None if value is None else self.kinds[name].say(value, language, seating, args)
            if value is not None and said[name] is None:
                return None
        said |= {f"@side{side}": seating.side(side, language) for side in (0, 1)}

        def optional(part: re.Match[str]) -> str:
            return part.group(1) if all(said.get(n) is not None for n in _FIELD.findall(part.group(1))) else ""

        text = re.sub(r"\[([^\]]*)\]", optional, self.template(language))
        text = singular(_FIELD.sub(lambda match: str(said[match.group(1)]), text))
        return contract(text) if language == "es" else text

    def regex(self, language: str, seating: Seating) -> re.Pattern[str]:
        out: list[str] = []
        for token in _TOKEN.split(expand(self.template(language)) if language == "es" else self.template(language)):
            if token == "[":
                out.append("(?:")
            elif token == "]":
                out.append(")?")
            elif match := _FIELD.fullmatch(token):
                name = match.group(1)
                if name.startswith("@"):
                    out.append(re.escape(expand(seating.side(int(name[-1]), language))))
                else:
                    out.append(f"(?P<{name}>{self.kinds[name].pattern(language, seating)})")
            else:
                out.append(re.escape(token))
        return re.compile("".join(out))

    def parse(self, text: str, language: str, seating: Seating) -> dict[str, str | None] | None:
        """The English arguments of a players' step of this phrasing (None: not this step)."""
        text = plural(text)
        match = self.regex(language, seating).fullmatch(expand(text) if language == "es" else text)
        if match is None:
            return None
        args: dict[str, str | None] = {}
        for name, value in match.groupdict().items():
            args[name] = None if value is None else self.kinds[name].read(value, language, seating, args)
            if value is not None and args[name] is None:
                return None
        return args

    def same(self, ours: Mapping[str, str | None], theirs: Mapping[str, str | None]) -> bool:
        """Whether two steps' arguments mean the same (JSON, card and seat lists compared by what they hold)."""
        if set(ours) != set(theirs):
            return False
        return all(self.kinds[n].normal(ours[n]) == self.kinds[n].normal(theirs[n]) for n in ours)


class PlayableKind(CardsKind):
    """What a player may play: ``any card``, ``exactly 4o 2o`` (only those) or ``4o`` (those among others)."""

    ANY = ("any card", "cualquier carta")
    ONLY = ("only", "solo")
    NOTHING = ("nothing at all", "nada de nada")

    def normal(self, value: str | None) -> Any:
        if value is None or value == "any card":
            return value
        return (value.startswith("exactly "), super().normal(value.removeprefix("exactly ")))

    def say(self, value: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        if value == "any card":
            return _pair(self.ANY, language)
        if value == "exactly -":
            return _pair(self.NOTHING, language)
        if value.startswith("exactly "):
            cards = super().say(value.removeprefix("exactly "), language, seating, args)
            return None if cards is None else f"{_pair(self.ONLY, language)} {cards}"
        return super().say(value, language, seating, args)

    def read(self, text: str, language: str, seating: Seating, args: Mapping[str, str | None]) -> str | None:
        if text == _pair(self.ANY, language):
            return "any card"
        if text == _pair(self.NOTHING, language):
            return "exactly -"
        only = _pair(self.ONLY, language) + " "
        if text.startswith(only):
            cards = super().read(text.removeprefix(only), language, seating, args)
            return None if cards is None else f"exactly {cards}"
        return super().read(text, language, seating, args)


def say_row(row: Sequence[str], language: str, seating: Seating) -> str | None:
    """A row of a step's table as a player reads it: ``seat 1 | 4o 2o`` -> «el mano: el 4 de oros y el 2 de oros»."""
    if len(row) == 2:
        label = _say_label(row[0], language, seating)
        cards = _say_cell(row[1], language)
        return None if label is None or cards is None else f"{label}: {cards}"
    return _say_cell(" ".join(row), language) if row else None


def read_row(text: str, language: str, seating: Seating) -> list[str] | None:
    """The inverse of :func:`say_row` (cells as the feature file writes them, but for their spacing)."""
    label, colon, cells = expand(text).partition(": ") if language == "es" else text.partition(": ")
    if colon:
        seat = next((f"seat {n}" for n in range(seating.players) if expand(seating.seat(n, language)) == label), None)
        other = next((key for key, pair in words.ROW_WORDS.items() if expand(_pair(pair, language)) == label), None)
        found = _read_cell(cells, language)
        return None if (seat or other) is None or found is None else [str(seat or other), found]
    found = _read_cell(expand(text) if language == "es" else text, language)
    return None if found is None else [found]


def _say_label(label: str, language: str, seating: Seating) -> str | None:
    if match := re.fullmatch(r"seat (\d)", label):
        return seating.seat(int(match.group(1)), language) if int(match.group(1)) < seating.players else None
    return _pair(words.ROW_WORDS[label], language) if label in words.ROW_WORDS else None


def _say_cell(cell: str, language: str) -> str | None:
    said = [_pair(words.REST_OF_DECK, language) if w == "..." else card_words(w, language) if w in CARD_CODES else None
            for w in cell.split()]  # fmt: skip
    if not said:
        return _pair(words.NO_CARD, language)
    return None if None in said else _join([str(s) for s in said], language)


def _read_cell(text: str, language: str) -> str | None:
    if text == expand(_pair(words.NO_CARD, language)):
        return ""
    names = {name: code for code, name in _card_names(language).items()} | {
        expand(_pair(words.REST_OF_DECK, language)): "..."
    }
    codes = [names.get(part) for part in _split(text, language)]
    return None if None in codes else " ".join(str(code) for code in codes)
