"""The engine interface the conformance scenarios talk to.

Everything crossing this interface is plain JSON data, so the same calls travel unchanged
over the wire protocol to an engine written in any language:

* an **engine** declares who it is and what it supports (:class:`EngineInfo`) and starts
  games from a :data:`Setup`;
* a **game** lists its legal actions, applies an action (:class:`Accepted` with events, or
  :class:`Rejected` with a reason code and rule ID), and answers named fields of its state
  and of one seat's observation.

Cards use the two-character notation of :mod:`guinote_conformance.adapters.vocabulary` (``"Ao"``, ``"Sc"``...).
Actions and events are JSON objects whose ``type`` names them (see the vocabulary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from guinote_conformance.adapters.gcp.messages import PROTOCOL_VERSION

JSON = Any
#: A setup is one of three JSON objects, all with ``"flags"`` (every flag's value):
#:
#: * ``{"flags": {...}, "dealer": 0, "deck": ["Ao", ...]}``: deal from a deck order, top first;
#: * ``{"flags": {...}, "dealer": 0, "hands": [[...], ...], "muestra": "Rb", "stock": [...]}``;
#: * ``{"flags": {...}, "position": {...}}``: a mid-hand position (capability ``positions``).
Setup = Mapping[str, JSON]
Action = Mapping[str, JSON]
EventList = list[dict[str, JSON]]

#: Capabilities an engine may declare.
CAPABILITIES = {
    "positions": "can start from a mid-hand position",
    "observations": "answers observation fields for one seat (hidden information)",
    "reason_codes": "a rejection carries the reason code and rule ID of the vocabulary",
    "match": "plays several hands: the match score across points, cotos and the deal after a won point",
    "automatic_draw": "draws by itself when a free-phase trick ends (the suite then plays its explicit draw)",
    "batch": "answers the optional protocol command 'batch' (many actions in one request)",
    "own_shuffle": (
        "deals the next hand from its own shuffle: takes the next hand's deal with no cards (a hand de vueltas, "
        "a new point) and cannot be given them"
    ),
}
#: The capability of an engine that deals the next hand from its own shuffle (GCP/2).
OWN_SHUFFLE = "own_shuffle"
#: ``reason_codes_<area>`` (an area of the rule index, e.g. ``reason_codes_arrastre``) declares
#: the suite's reason codes and rule IDs for the rejections of that area only.
REASON_CODES_PREFIX = "reason_codes_"


@dataclass(frozen=True)
class EngineInfo:
    """Who the engine is and what it supports."""

    name: str
    version: str
    language: str
    #: Named rule profiles: name -> value of every flag.
    profiles: Mapping[str, Mapping[str, str]]
    #: For each flag, the values the engine can play.
    flags: Mapping[str, Sequence[str]]
    capabilities: frozenset[str] = frozenset()
    homepage: str = ""
    #: The protocol version the engine was written for (``hello``'s ``protocol``): what a later
    #: version added is optional for it (:mod:`guinote_conformance.adapters.obligations`,
    #: :mod:`guinote_conformance.adapters.versions`).
    protocol: int = PROTOCOL_VERSION

    def unsupported(self, flags: Mapping[str, str]) -> list[str]:
        """The ``flag=value`` pairs of ``flags`` this engine cannot play."""
        missing = []
        for name, value in flags.items():
            if value not in self.flags.get(name, ()):
                missing.append(f"{name}={value}")
        return missing


@dataclass(frozen=True, slots=True)
class Accepted:
    events: EventList = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Rejected:
    """The engine refused the action: ``code`` (e.g. ``MUST_FOLLOW_SUIT``) and ``rule``."""

    code: str
    rule: str = ""
    message: str = ""


Outcome = Accepted | Rejected


def outcome_answer(outcome: Outcome) -> dict[str, JSON]:
    """The members of an ``apply`` answer (and of a ``batch`` step) that carry ``outcome``."""
    if isinstance(outcome, Accepted):
        return {"accepted": True, "events": outcome.events}
    return {"accepted": False, "code": outcome.code, "rule": outcome.rule, "message": outcome.message}


class EngineError(Exception):
    """The engine failed: crashed, hung, broke the protocol or answered garbage."""


class UnknownField(KeyError):
    """A state or observation field name (or seat) the engine does not know."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown field"


class SetupRejected(Exception):
    """The engine refused a setup: unsupported flags, or an impossible deal."""

    def __init__(self, message: str, unsupported: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.unsupported = list(unsupported)


@runtime_checkable
class GameHandle(Protocol):
    """One game in progress inside an engine.

    A handle may also have ``end()``, optional and not part of this protocol: the harness calls
    it (through :func:`end_game`) once it is done with the game, so that the engine can forget
    it. Over the wire it sends the command ``end``; an in-process engine without it needs nothing.
    """

    def legal_actions(self) -> list[dict[str, JSON]]: ...

    def apply(self, action: Action) -> Outcome: ...

    def state(self, name: str) -> JSON: ...

    def observation(self, seat: int, name: str) -> JSON: ...


def end_game(game: GameHandle) -> None:
    """Tell the engine that ``game`` is no longer used: the handle's optional ``end()``, if it has one."""
    end = getattr(game, "end", None)
    if callable(end):
        end()


@runtime_checkable
class Engine(Protocol):
    """An implementation of Guiñote under test."""

    def info(self) -> EngineInfo: ...

    def start(self, setup: Setup) -> GameHandle: ...

    def close(self) -> None: ...
