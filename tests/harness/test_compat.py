"""The suite's step lookup (:mod:`guinote_conformance.run.compat`) finds what pytest-bdd's own finds, in the same order.

Every step of every scenario is looked up both ways while the suite runs against the reference
under one profile (all features, in process, in English and in Spanish); a step a user's own test
module defines is found too, and its definition wins over the plugin's as pytest-bdd's would have it.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from guinote_conformance.run import compat


class Compared(compat.StepLookup):
    """Both lookups on every call; what they found, and every call where they differ."""

    def __init__(self) -> None:
        self.calls = 0
        self.found = 0
        self.differences: list[str] = []
        self.names: set[str] = set()

    def __call__(self, step: Any, fixturemanager: Any, node: Any) -> Iterator[Any]:
        ours = list(super().__call__(step, fixturemanager, node))
        theirs = list(compat.ORIGINAL_LOOKUP(step, fixturemanager, node))
        self.calls += 1
        self.found += bool(ours)
        self.names.add(step.name)
        if ours != theirs:
            self.differences.append(f"{node.nodeid}: {step.type} {step.name!r}: {ours} != {theirs}")
        return iter(ours)


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Compared:
    lookup = Compared()
    monkeypatch.setattr(compat._SCENARIO, "find_fixturedefs_for_step", lookup)
    return lookup


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_step_of_the_suite_finds_what_pytest_bdd_finds(
    pytester: pytest.Pytester, compared: Compared, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In both languages: a Spanish step is found under its Spanish pattern as pytest-bdd finds it."""
    # the suite's module collects the folder of the session's language when imported: imported
    # already (by tests/conformance in this process), it would hold the other language's tests
    monkeypatch.delitem(sys.modules, "guinote_conformance.suite", raising=False)
    pytester.makepyfile(test_suite="from guinote_conformance.suite import *  # noqa: F403\n")
    outcome = pytester.runpytest_inprocess(
        "-p", "guinote_conformance.plugin", "--profile", "ludoteka", "--language", language, "-q", "-n", "0"
    )
    assert outcome.ret == 0, outcome.stdout.str()[-2000:]
    assert compared.calls > 1000 and compared.found == compared.calls
    assert compared.differences == []
    spanish = any(name.startswith("el jugador ") for name in compared.names)
    assert spanish == (language == "es")


def test_a_step_of_the_user_s_own_module_is_found_first(pytester: pytest.Pytester, compared: Compared) -> None:
    (pytester.path / "features").mkdir()
    (pytester.path / "features" / "own.feature").write_text(
        textwrap.dedent(
            """
            Feature: Own
              @DECK-05 @S000
              Scenario: A step of the user's own
                Given a hand in the arrastre, trumps in bastos, seat 0 to lead:
                  | seat 0 | Ro |
                  | seat 1 | 3o |
                  | seat 2 | 4o |
                  | seat 3 | 5o |
                When these tricks are played:
                  | Ro 3o 4o 5o |
                Then seat 1 wins the trick
            """
        ),
        encoding="utf-8",
    )
    pytester.makepyfile(
        test_own=textwrap.dedent(
            """
            import pytest
            from pytest_bdd import scenarios, then

            pytestmark = pytest.mark.usefixtures("guinote_case")
            scenarios("features")

            @then("seat 1 wins the trick")
            def own_step():
                raise AssertionError("the user's own step ran")
            """
        )
    )
    outcome = pytester.runpytest_inprocess("-p", "guinote_conformance.plugin", "--profile", "ludoteka", "-q", "-n", "0")
    assert "the user's own step ran" in outcome.stdout.str()
    assert compared.differences == []
