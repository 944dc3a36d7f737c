"""The step decorators of the suite: each step declared once, in English and in Spanish.

``@given(english, spanish, words)`` registers the same function twice with pytest-bdd: under the
English pattern, and under the Spanish one (:class:`~guinote_conformance.catalogue.phrasing.Phrasing`),
whose parser hands the function the English values of its arguments (``juega`` comes in as
``plays``), so that the function is written once and sees one language. Every phrasing is kept
in :data:`PHRASEBOOK`, in declaration order: the Spanish feature files are generated through it
(:mod:`guinote_conformance.catalogue.spanish`), and ``tests/harness/test_spanish_features.py`` checks that every
step of the suite has its Spanish phrasing and reads back to the same arguments.

In: the step functions and their phrasings. Out: pytest-bdd's step fixtures in the declaring
module (as pytest-bdd's own decorators put them there) and :data:`PHRASEBOOK`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pytest_bdd import parsers, step

from guinote_conformance.catalogue.phrasing import Phrasing

F = TypeVar("F", bound=Callable[..., Any])

#: every step of the suite, in both languages, in the order of declaration
PHRASEBOOK: list[Phrasing] = []


class SpanishParser(parsers.re):
    """The Spanish pattern of a step; its arguments are the English step's."""

    def __init__(self, phrasing: Phrasing) -> None:
        super().__init__(phrasing.spanish_pattern)
        self.phrasing = phrasing

    def parse_arguments(self, name: str) -> dict[str, Any] | None:
        return self.phrasing.english_arguments(name)


def _declare(kind: str, english: str, spanish: str, words: Mapping[str, Mapping[str, str]] | None) -> Callable[[F], F]:
    phrasing = Phrasing(kind, english, spanish, dict(words or {}))
    PHRASEBOOK.append(phrasing)

    def decorator(function: F) -> F:
        # stacklevel 2: pytest-bdd puts the fixture in the module that declares the step, two
        # frames up from its decorator (this one, then the module)
        step(parsers.re(english), kind, stacklevel=2)(function)  # type: ignore[arg-type]
        step(SpanishParser(phrasing), kind, stacklevel=2)(function)  # type: ignore[arg-type]
        return function

    return decorator


def given(english: str, spanish: str, words: Mapping[str, Mapping[str, str]] | None = None) -> Callable[[F], F]:
    return _declare("given", english, spanish, words)


def when(english: str, spanish: str, words: Mapping[str, Mapping[str, str]] | None = None) -> Callable[[F], F]:
    return _declare("when", english, spanish, words)


def then(english: str, spanish: str, words: Mapping[str, Mapping[str, str]] | None = None) -> Callable[[F], F]:
    return _declare("then", english, spanish, words)
