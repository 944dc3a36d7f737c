"""The one place where the suite reaches into pytest-bdd's internals, each use said and checked.

* :func:`template_of`: the scenario template pytest-bdd keeps for a test function (its feature
  file, name, line and tags), read through ``pytest_bdd.scenario.scenario_wrapper_template_registry``.
* :func:`install_step_lookup`: pytest-bdd finds a step's definition by asking pytest, for every
  fixture name of the session, which definitions are visible to the test, then matching each one's
  parser against the step's text: for 1,440 scenario runs of ~7 steps that is close to a million
  visibility checks, about 40 % of a whole run against the reference. The names whose definitions
  can match a step's text at all are the same for every test of a session, so they are found once
  per step text (and again whenever a fixture is registered); pytest still decides, for each test,
  which of those definitions it sees. The lookup returns what pytest-bdd's own returns, in the same
  order (``tests/harness/test_compat.py`` runs both on every step of the suite).
* :func:`undefined_steps`: the steps of a scenario that no step definition parses, found while
  pytest parametrizes its test (pytest-bdd itself finds them only as the scenario runs): each step
  text is matched once against the parsers of the session's step definitions (read through
  ``pytest_bdd.steps.step_function_context_registry``), and one that none parses is asked of
  pytest-bdd's own lookup before it is called undefined; the run costs no more than before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

#: pytest-bdd's ``scenario`` module (``pytest_bdd.scenario`` as an attribute is the function)
_SCENARIO: Any = importlib.import_module("pytest_bdd.scenario")
_STEPS: Any = importlib.import_module("pytest_bdd.steps")
_COMPAT: Any = importlib.import_module("pytest_bdd.compat")

#: pytest-bdd's own lookup, kept for the equivalence check
ORIGINAL_LOOKUP: Callable[..., Iterator[Any]] = _SCENARIO.find_fixturedefs_for_step


def template_of(item: pytest.Item | pytest.Metafunc) -> Any:
    """The scenario template behind a pytest-bdd test, or behind the function pytest is
    parametrizing (None for any other test)."""
    function = getattr(item, "function", None)
    if function is None:
        return None
    return _SCENARIO.scenario_wrapper_template_registry.get(function)


def _parses(step: Any, fixturedef: Any) -> bool:
    """Whether ``fixturedef`` is a step definition whose type and parser take ``step``."""
    context = _STEPS.step_function_context_registry.get(fixturedef.func)
    if context is None:
        return False
    if context.type is not None and context.type != step.type:
        return False
    return bool(context.parser.is_matching(step.name))


def _visible(step: Any, fixturemanager: Any, name: str, node: Any) -> Iterator[Any]:
    """The definitions under ``name`` that pytest shows ``node`` and that parse ``step``, in pytest's order."""
    for definition in _COMPAT.getfixturedefs(fixturemanager, name, node) or ():
        if _parses(step, definition):
            yield definition


class StepLookup:
    """pytest-bdd's step lookup, with the names that can match a step's text found once per session.

    The names are kept on the session's fixture manager (they go with it), by the step's type and
    text, the test's parent (a test module of a user's own may define steps of its own) and the
    names registered now (a conftest's step, or pytest-bdd's own temporary fixture, changes them).
    Only a step definition registered on one test item and not its siblings would escape this;
    pytest-bdd registers none that parses a step."""

    def __call__(self, step: Any, fixturemanager: Any, node: Any) -> Iterator[Any]:
        names = _COMPAT.get_fixture_names(fixturemanager)
        known: dict[tuple[Any, ...], list[str]] = fixturemanager.__dict__.setdefault("_guinote_step_names", {})
        parent = node.parent.nodeid if node.parent is not None else ""
        key = (step.type, step.name, parent, tuple(names))
        candidates = known.get(key)
        if candidates is None:
            candidates = known[key] = [name for name in names if any(_visible(step, fixturemanager, name, node))]
        for name in candidates:
            yield from _visible(step, fixturemanager, name, node)


def install_step_lookup() -> None:
    """Put :class:`StepLookup` in place of pytest-bdd's lookup (once per process)."""
    if not isinstance(_SCENARIO.find_fixturedefs_for_step, StepLookup):
        _SCENARIO.find_fixturedefs_for_step = StepLookup()


def undefined_steps(metafunc: pytest.Metafunc) -> list[Any]:
    """The steps (pytest-bdd's, with ``keyword``, ``name``, ``line_number``) of the scenario test that
    ``metafunc`` parametrizes that no step definition visible to it parses; none for another test."""
    template = template_of(metafunc)
    if template is None:
        return []
    node = metafunc.definition
    fixturemanager = node.session._fixturemanager
    # the step definitions of the session, once: a step one of them parses is defined (the common case,
    # checked by its parser alone); any other is asked of pytest-bdd's lookup, which sees what the test sees
    contexts = fixturemanager.__dict__.get("_guinote_step_contexts")
    if contexts is None:
        contexts = fixturemanager.__dict__["_guinote_step_contexts"] = [
            context
            for name in _COMPAT.get_fixture_names(fixturemanager)
            for definition in _COMPAT.getfixturedefs(fixturemanager, name, node) or ()
            if (context := _STEPS.step_function_context_registry.get(definition.func)) is not None
        ]
    known: dict[tuple[str, str], bool] = fixturemanager.__dict__.setdefault("_guinote_defined_steps", {})

    def defined(step: Any) -> bool:
        key = (step.type, step.name)
        if key not in known:
            known[key] = any(
                (context.type is None or context.type == step.type) and context.parser.is_matching(step.name)
                for context in contexts
            )
        return (
            known[key] or next(iter(_SCENARIO.find_fixturedefs_for_step(step, fixturemanager, node)), None) is not None
        )

    return [step for step in template.steps if not defined(step)]
