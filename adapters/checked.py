"""In-process engines held to the protocol's shapes, as engines over the wire are.

An engine over the wire has every answer checked against the JSON Schemas of the protocol
(:class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`); an engine loaded in process
(``reference``, ``py:module:factory``) hands over Python objects that nothing checked, so a
misnamed event member (``"winer"``) or a legal action of the wrong shape went unseen until a
scenario happened to read it. :class:`ShapeCheckedEngine` puts the same schemas between the
suite and such an engine: each ``apply`` outcome and each list of legal actions is checked as
the answer it would be over the wire, and a violation is an :class:`EngineError` naming the
action and the first offending member.

An engine over the wire that hits a bug of its own crashes or answers an error, an
:class:`EngineError`; in process it raises whatever its code raises (a ``RuntimeError``, a
``SystemExit``), anywhere in the caller's code. Held ``contained`` (``compare`` and ``replay``
hold their in-process engine so: :meth:`guinote_conformance.engines.specs.EngineSpec.open`), such an exception
is an :class:`EngineRaised`, the failure of that engine, traced and recorded as a wire engine's
crash is; what the interface lets an engine raise passes as it is (:data:`ALLOWED`).

A string that is not Unicode text (a lone surrogate such as ``"\\udcff"``, which Python allows
and UTF-8 cannot carry) is refused wherever the engine hands one over: in an outcome, a list of
legal actions, a state or observation value, or its info. Over the wire the same answer is
not JSON (orjson refuses it); in process it would otherwise crash the results writer or the
pytest-xdist channel much later, far from the engine.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial, wraps
from typing import Any

from guinote_conformance.adapters.gcp.json_text import canonical, non_text
from guinote_conformance.adapters.gcp.validation import check_response
from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Action,
    Engine,
    EngineError,
    EngineInfo,
    GameHandle,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
    UnknownField,
    outcome_answer,
)
from guinote_conformance.adapters.obligations import Obligations


class ShapeError(EngineError):
    """An in-process engine answered something the protocol's schemas do not allow."""


class EngineRaised(EngineError):
    """An in-process engine's own code raised an exception (the message names it)."""

    kind = "raised"


#: What an engine may raise through the interface: passed on as it is, contained or not.
ALLOWED = (EngineError, SetupRejected, UnknownField)


def raised(error: BaseException) -> EngineRaised:
    """``error``, raised by an in-process engine's code, as the failure of that engine."""
    if isinstance(error, SystemExit):
        return EngineRaised(f"the engine raised SystemExit({error.code!r}): an engine must not end the process")
    text = str(error)
    return EngineRaised(f"the engine raised {type(error).__name__}" + (f": {text}" if text else ""))


def _contain(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` of a contained engine: its exceptions (but :data:`ALLOWED`) as :class:`EngineRaised`."""

    @wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except ALLOWED:
            raise
        except (Exception, SystemExit) as error:
            raise raised(error) from error

    return call


def _text_only(value: Any, what: Callable[[], str]) -> None:
    """Raise :class:`ShapeError` if a string in ``value`` is not Unicode text (a lone surrogate)."""
    where = non_text(value)
    if where is not None:
        string = f"the string at {where}" if where else "the string"
        raise ShapeError(
            f"{what()} is not JSON: {string} holds a lone surrogate, which is not Unicode text "
            "(over the protocol the answer would not be JSON either)"
        )


def _check_value(value: Any, what: Callable[[], str]) -> None:
    """Raise :class:`ShapeError` unless ``value`` (a state or observation, which nothing else
    checks) is a JSON value, as it would have to be over the wire (orjson, far quicker than a
    walk, tells the usual JSON value apart first)."""
    if canonical(value) is None:
        _text_only(value, what)
        raise ShapeError(f"{what()} is not JSON: {_not_json(value) or 'orjson cannot write it'}")


def _not_json(value: Any, where: str = "") -> str:
    """What in ``value`` JSON cannot carry (``a set at turn``), or ``""`` if nothing is found."""
    at = f" at {where}" if where else ""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"a {type(key).__name__} key{at}"
            found = _not_json(item, f"{where}.{key}" if where else key)
            if found:
                return found
        return ""
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _not_json(item, f"{where}[{index}]")
            if found:
                return found
        return ""
    if value is None or isinstance(value, str | bool | float):
        return "" if not isinstance(value, float) or math.isfinite(value) else f"the number {value}{at}"
    if isinstance(value, int):
        return "" if -(2**63) <= value < 2**64 else f"an integer beyond 64 bits{at}"
    return f"a {type(value).__name__}{at}"


def _check(cmd: str, answer: Mapping[str, JSON], what: Callable[[], str]) -> None:
    """Raise :class:`ShapeError` if ``answer`` breaks the schema of ``cmd``'s answer; ``what()``
    names it (worked out only then: an engine is checked at every call)."""
    _text_only(answer, what)
    violations = check_response(cmd, {"id": 0, "ok": True, **answer})
    if violations:
        shown = "; ".join(str(violation) for violation in violations[:3])
        raise ShapeError(f"{what()} breaks the protocol's shape ({cmd}.response.json): {shown}")


class ShapeCheckedGame:
    """A game whose outcomes and legal actions are checked against the schemas.

    Its ``apply`` and ``legal_actions`` take the canonical text of the events and of the list
    the caller expects, if it knows them (``expects_answers``): an answer with that very text is
    the expected one, valid as the reference's answers are, and is not checked again."""

    #: :func:`guinote_conformance.fuzz.differential.compare_batch` may pass the answers it expects
    expects_answers = True

    def __init__(self, game: GameHandle, obligations: Obligations | None = None, *, contained: bool = False) -> None:
        self._game = game
        #: what the engine's capabilities require beyond the schema (None: nothing more)
        self._obligations = obligations
        #: the engine's own exceptions are EngineRaised (the try blocks cost nothing until one is raised)
        self._contained = contained

    def legal_actions(self, expected: bytes | None = None) -> list[dict[str, JSON]]:
        """The legal actions, checked; ``expected``: see :meth:`apply`."""
        try:
            actions = self._game.legal_actions()
        except ALLOWED:
            raise
        except (Exception, SystemExit) as error:
            if not self._contained:
                raise
            raise raised(error) from error
        if expected is None or canonical(actions) != expected:
            _check("legal", {"actions": actions}, lambda: "the list of legal actions")
        return actions

    def apply(self, action: Action, expected: bytes | None = None) -> Outcome:
        """Apply ``action``; its outcome checked. ``expected``: the canonical text
        (:func:`guinote_conformance.adapters.gcp.json_text.canonical`) of the events of an accepted action, as the
        caller expects them (the differential fuzzer's: the reference's own, which are valid): an acceptance
        with events of that very text needs no check.

        The engine is handed a copy of ``action``, as an engine over the wire reads its own: an
        engine that changed the action it was given would otherwise change the caller's (the
        fuzzer's record of the game)."""
        try:
            outcome = self._game.apply(dict(action))
        except ALLOWED:
            raise
        except (Exception, SystemExit) as error:
            if not self._contained:
                raise
            raise raised(error) from error
        if expected is not None and type(outcome) is Accepted and canonical(outcome.events) == expected:
            return outcome
        if not isinstance(outcome, Accepted | Rejected):
            shown = json.dumps(dict(action), ensure_ascii=True)
            raise ShapeError(f"the outcome of {shown} is {type(outcome).__name__}, not Accepted or Rejected")
        answer = outcome_answer(outcome)
        _check("apply", answer, lambda: f"the outcome of {json.dumps(dict(action), ensure_ascii=True)}")
        obligations = self._obligations
        missing = obligations.missing_in(outcome.events) if obligations and type(outcome) is Accepted else ""
        if missing:
            shown = json.dumps(dict(action), ensure_ascii=True)
            raise ShapeError(f"the outcome of {shown} lacks a member the engine's capabilities require: {missing}")
        return outcome

    def state(self, name: str) -> JSON:
        try:
            value = self._game.state(name)
        except ALLOWED:
            raise
        except (Exception, SystemExit) as error:
            if not self._contained:
                raise
            raise raised(error) from error
        _check_value(value, lambda: f"the state field {json.dumps(name)}")
        return value

    def observation(self, seat: int, name: str) -> JSON:
        try:
            value = self._game.observation(seat, name)
        except ALLOWED:
            raise
        except (Exception, SystemExit) as error:
            if not self._contained:
                raise
            raise raised(error) from error
        _check_value(value, lambda: f"seat {seat}'s observation {json.dumps(name)}")
        return value

    def __getattr__(self, name: str) -> object:
        found = getattr(self._game, name)  # anything else the engine offers (a position snapshot...)
        if name == "state_fields":  # several state fields in one call: checked as state() checks one
            checked = partial(_checked_fields, found, self._contained)
            self.__dict__[name] = checked  # found once, not at every read
            return checked
        if callable(found) and self._contained:
            found = self.__dict__[name] = _contain(found)  # contained once, not at every call
        return found


def _checked_fields(bulk: Callable[[Sequence[str]], object], contained: bool, names: Sequence[str]) -> dict[str, JSON]:
    """The fields ``names`` as an engine's ``state_fields`` reads them in one call, checked: an
    object (the fields it does not know left out) of JSON values."""
    try:
        values = bulk(names)
    except ALLOWED:
        raise
    except (Exception, SystemExit) as error:
        if not contained:
            raise
        raise raised(error) from error
    if not isinstance(values, dict):
        raise ShapeError(f"state_fields answered {type(values).__name__}, not an object of field values")
    _check_value(values, lambda: "the state fields read in one call (state_fields)")
    return values


class ShapeCheckedEngine:
    """An in-process engine seen through :class:`ShapeCheckedGame`."""

    def __init__(self, engine: Engine, *, contained: bool = False) -> None:
        self._engine = engine
        #: the engine's obligations beyond the schema (None: none), read at the first start
        self._obligations: Obligations | None = None
        self._read = False
        #: its exceptions, and its games', are EngineRaised
        self.contained = contained

    def _guarded(self, method: Callable[..., Any]) -> Callable[..., Any]:
        """``method`` of the engine, contained if the engine is (the engine's own calls, not the
        games' hot ones, which keep their try blocks inline: a wrapper costs a call per answer)."""
        return _contain(method) if self.contained else method

    def info(self) -> EngineInfo:
        info: EngineInfo = self._guarded(self._engine.info)()
        members = ("name", "version", "language", "profiles", "flags", "capabilities", "homepage")
        _text_only({member: getattr(info, member, "") for member in members}, lambda: "the engine's info")
        return info

    def start(self, setup: Setup) -> ShapeCheckedGame:
        if not self._read:
            obligations = Obligations.of(self._engine.info())
            self._obligations, self._read = (obligations if obligations.beyond_schema else None), True
        game = self._guarded(self._engine.start)(setup)
        if not isinstance(game, GameHandle):
            named = type(game).__name__
            raise ShapeError(f"start returned {named}, not a game (legal_actions, apply, state and observation)")
        return ShapeCheckedGame(game, self._obligations, contained=self.contained)

    def close(self) -> None:
        self._guarded(self._engine.close)()

    def __getattr__(self, name: str) -> object:
        return getattr(self._engine, name)


__all__ = ["ALLOWED", "EngineRaised", "ShapeCheckedEngine", "ShapeCheckedGame", "ShapeError", "raised"]
