"""The step decorators of the suite: each step declared once, in English and Spanish, as engines and players say it.

``@given(english, spanish, words, players=(english, spanish), kinds=...)`` registers the same function
twice with pytest-bdd: under the English pattern, and under the Spanish one
(:class:`~guinote_conformance.catalogue.phrasing.Phrasing`), whose parser hands the function the
English values of its arguments (``juega`` comes in as ``plays``), so that the function is written
once and sees one language. ``players`` is the step as a player at the table says it, in English
and in Spanish (:class:`~guinote_conformance.catalogue.player_phrasing.Players`): the rulebook shows
that phrasing, and the engine's one a click away. Each of its groups has a kind that says its
values in the players' words: by default the kind its name stands for (:data:`KINDS`: ``seat`` is
a seat named as at the table, ``card`` a card's name, ``code`` a reason code's words...), or, for a
group with a Spanish ``words`` table, those words; ``kinds`` overrides them. Every phrasing is kept
in :data:`PHRASEBOOK`, in declaration order: the Spanish feature files are generated through it
(:mod:`guinote_conformance.catalogue.spanish`), and ``tests/harness/test_spanish_features.py`` and
``tests/harness/test_player_phrasing.py`` check that every step of the suite reads back to the same
arguments in every phrasing.

In: the step functions and their phrasings. Out: pytest-bdd's step fixtures in the declaring
module (as pytest-bdd's own decorators put them there) and :data:`PHRASEBOOK`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pytest_bdd import parsers, step

from guinote_conformance.adapters.vocabulary import SUITS
from guinote_conformance.catalogue import table_words as table
from guinote_conformance.catalogue.phrasing import Phrasing, english_groups
from guinote_conformance.catalogue.player_facts import FieldName
from guinote_conformance.catalogue.player_phrasing import (
    CardKind,
    CardsKind,
    Kind,
    Players,
    Same,
    SeatKind,
    SeatsKind,
    Words,
)

F = TypeVar("F", bound=Callable[..., Any])

#: every step of the suite, in both languages, in the order of declaration
PHRASEBOOK: list[Phrasing] = []
NUMBER = Same(r"\d+")
#: the kind of a group of the players' phrasing, by the group's name
KINDS: dict[str, Kind] = {
    "seat": SeatKind(),
    "leader": SeatKind(),
    "dealer": SeatKind(),
    "side": SeatKind(side=True),
    "seats": SeatsKind(),
    "card": CardKind(),
    "muestra": CardKind(),
    "cards": CardsKind(),
    "suit": Words({suit: (suit, suit) for suit in SUITS.values()}),
    "code": Words(table.REASON_WORDS),
    "reason": Words(table.HAND_END_WORDS),
    "phase": Words(table.PHASE_WORDS),
    "rule": Same(r"[A-Z]+-\d+"),
    "rank": Words(table.TUTE_RANKS),
    "name": FieldName(),
    "member": Words({member: pair for member, (_, pair) in table.MEMBER_WORDS.items()}),
    "kind": Words(table.EVENT_WORDS),
    **{name: NUMBER for name in ("a", "b", "c", "d", "count", "points", "value")},
}


class SpanishParser(parsers.re):
    """The Spanish pattern of a step; its arguments are the English step's."""

    def __init__(self, phrasing: Phrasing) -> None:
        super().__init__(phrasing.spanish_pattern)
        self.phrasing = phrasing

    def parse_arguments(self, name: str) -> dict[str, Any] | None:
        return self.phrasing.english_arguments(name)


def _players(
    english: str,
    words: Mapping[str, Mapping[str, str]],
    players: tuple[str, str] | None,
    kinds: Mapping[str, Kind] | None,
) -> Players | None:
    if players is None:
        return None
    chosen: dict[str, Kind] = {}
    for name in english_groups(english):
        if kinds and name in kinds:
            chosen[name] = kinds[name]
        elif name in words:  # the Spanish engine phrasing's words are the players' too
            chosen[name] = Words({en: (en, es) for en, es in words[name].items() if "*" not in en})
        else:
            chosen[name] = KINDS[name]
    return Players(players[0], players[1], chosen)


def _declare(
    kind: str,
    english: str,
    spanish: str,
    words: Mapping[str, Mapping[str, str]] | None,
    players: tuple[str, str] | None,
    kinds: Mapping[str, Kind] | None,
) -> Callable[[F], F]:
    phrasing = Phrasing(kind, english, spanish, dict(words or {}), _players(english, words or {}, players, kinds))
    PHRASEBOOK.append(phrasing)

    def decorator(function: F) -> F:
        # stacklevel 2: pytest-bdd puts the fixture in the module that declares the step, two
        # frames up from its decorator (this one, then the module)
        step(parsers.re(english), kind, stacklevel=2)(function)  # type: ignore[arg-type]
        step(SpanishParser(phrasing), kind, stacklevel=2)(function)  # type: ignore[arg-type]
        return function

    return decorator


Words_ = Mapping[str, Mapping[str, str]] | None


def given(
    english: str, spanish: str, words: Words_ = None, players: tuple[str, str] | None = None,
    kinds: Mapping[str, Kind] | None = None,
) -> Callable[[F], F]:  # fmt: skip
    return _declare("given", english, spanish, words, players, kinds)


def when(
    english: str, spanish: str, words: Words_ = None, players: tuple[str, str] | None = None,
    kinds: Mapping[str, Kind] | None = None,
) -> Callable[[F], F]:  # fmt: skip
    return _declare("when", english, spanish, words, players, kinds)


def then(
    english: str, spanish: str, words: Words_ = None, players: tuple[str, str] | None = None,
    kinds: Mapping[str, Kind] | None = None,
) -> Callable[[F], F]:  # fmt: skip
    return _declare("then", english, spanish, words, players, kinds)
