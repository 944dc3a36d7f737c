"""What the protocol requires of one engine: the one rule for what is compared.

An engine says in ``hello`` which protocol version it was written for and which capabilities
it has. A state field, an event member, a reason code or a rule ID is compared with the
reference's only when the protocol requires it of *that* engine; everything else is not
checked, and where a scenario needed it the run says so (``not checked: ...``), never a failure.
The scenarios' steps, the realised prefixes that lead to a position, ``compare`` and the
adapters' own shape checks all ask :class:`Obligations`; nothing else decides it.

The facts are the schemas' (the protocol is its schemas): in ``common.json`` (the members of
each event) and ``fields.json`` (the state fields), an entry may carry

* ``"x-capability": C``: required only of an engine that declares ``C``. For
  ``reason_codes``, a rule ID or reason code is also required of an engine that declares
  ``reason_codes_<area>`` for the area of that rule (``reason_codes_arrastre``...);
* ``"x-since": N``: added in GCP/N, so optional for an engine written for an earlier version.

An event type that is not one of the vocabulary's is the engine's own business: it is never
compared (the schema leaves other event types free).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from guinote_conformance.adapters.gcp.messages import PROTOCOL_VERSION
from guinote_conformance.adapters.gcp.validation import FIELDS_SCHEMA, field_key, load_schemas
from guinote_conformance.adapters.interface import REASON_CODES_PREFIX, EngineInfo
from guinote_conformance.adapters.vocabulary import REASON_CODES, area_of_rule

_RULE_ID = re.compile(r"\b[A-Z]+-\d{2}\b")
#: The schema annotations this module reads.
CAPABILITY_KEY = "x-capability"
SINCE_KEY = "x-since"
#: The capability of the suite's reason codes and rule IDs (or ``reason_codes_<area>``).
REASON_CODES_CAPABILITY = "reason_codes"
#: Why a reason code or rule ID is not checked of an engine that does not give them.
NEEDS_REASON_CODES = "needs the suite's reason codes and rule IDs (capability reason_codes or reason_codes_<area>)"

JSON = Any


@dataclass(frozen=True)
class Entry:
    """What one field or member asks of an engine: a capability, the version it came in."""

    capability: str = ""
    since: int = 1


@cache
def event_entries() -> dict[str, dict[str, Entry]]:
    """Every event of the vocabulary: its members (from ``common.json``) and what each asks."""
    event = load_schemas()["common.json"]["$defs"]["event"]
    kinds: dict[str, dict[str, Entry]] = {}
    for branch in event.get("allOf", ()):
        kind = branch["if"]["properties"]["type"]["const"]
        members = branch.get("then", {}).get("properties", {})
        kinds[kind] = {name: _entry(schema) for name, schema in members.items()}
    return kinds


@cache
def field_entries() -> dict[str, Entry]:
    """Every state field of ``fields.json`` (``hand.<seat>``...) and what it asks."""
    return {name: _entry(schema) for name, schema in load_schemas()[FIELDS_SCHEMA]["$defs"].items()}


def _entry(schema: Mapping[str, Any]) -> Entry:
    return Entry(str(schema.get(CAPABILITY_KEY, "")), int(schema.get(SINCE_KEY, 1)))


@dataclass(frozen=True)
class Obligations:
    """What the protocol requires of an engine with ``capabilities`` that speaks GCP/``protocol``."""

    capabilities: frozenset[str] = frozenset()
    protocol: int = PROTOCOL_VERSION
    _members: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    _unrequired: list[frozenset[str]] = field(default_factory=list, repr=False, compare=False)
    #: per event type, the gated members (:func:`gated_members`) required of this engine
    _gated: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, info: EngineInfo) -> Obligations:
        """The obligations of the engine ``info`` describes (cached: asked at every comparison)."""
        return _obligations(info.capabilities, info.protocol)

    # ------------------------------------------------------------------ the rule

    def _why_not(self, entry: Entry, value: JSON = None) -> str | None:
        if entry.since > self.protocol:
            return f"added in GCP/{entry.since}; the engine speaks GCP/{self.protocol}"
        if not entry.capability or entry.capability in self.capabilities:
            return None
        if entry.capability == REASON_CODES_CAPABILITY:
            if self.gives_rule(str(value) if isinstance(value, str) else ""):
                return None
            return NEEDS_REASON_CODES
        return f"needs capability {entry.capability!r}"

    def field(self, name: str, value: JSON = None) -> str | None:
        """Why the state field ``name`` is not checked for this engine; ``None``: it is required.

        ``value`` (the reference's) tells the area of a rule ID for ``reason_codes_<area>``. A
        name that is no field of the vocabulary is the caller's business: required."""
        key = field_key(name)
        if key is None:
            return None
        return self._why_not(field_entries()[key], value)

    def member(self, kind: str, name: str, value: JSON = None) -> str | None:
        """Why member ``name`` of a ``kind`` event is not checked; ``None``: it is required.
        An event type outside the vocabulary, or a member it does not list, is never checked."""
        entries = event_entries().get(kind)
        if entries is None:
            return f"{kind} is not an event of the vocabulary"
        entry = entries.get(name)
        if entry is None:
            return f"{name} is not a member of the {kind} event"
        return self._why_not(entry, value)

    def members(self, kind: str) -> tuple[str, ...]:
        """The members of a ``kind`` event compared for every value: those required of this
        engine (a rule ID of a ``reason_codes_<area>`` engine is left to :meth:`member`)."""
        found = self._members.get(kind)
        if found is None:
            entries = event_entries().get(kind, {})
            found = self._members[kind] = tuple(
                name for name, entry in entries.items() if self._why_not(entry, "") is None
            )
        return found

    @property
    def unrequired_fields(self) -> frozenset[str]:
        """Every state field name (``match.points.1``...) that is not required of this engine
        whatever its value: never asked of it nor compared."""
        if not self._unrequired:
            entries = field_entries().items()
            names = [name for key, entry in entries if self._why_not(entry, "") for name in _concrete(key)]
            self._unrequired.append(frozenset(names))
        return self._unrequired[0]

    def compared(self, event: Mapping[str, JSON], reference: Mapping[str, JSON]) -> list[str]:
        """The members of ``reference`` (an event of the reference's) that an engine's event of
        the same type must match: those the protocol requires of this engine, given their values."""
        kind = str(reference.get("type"))
        names = list(self.members(kind))
        for name, value in reference.items():
            if name != "type" and name not in names and self.member(kind, name, value) is None:
                names.append(name)
        return [name for name in names if name in reference]

    def offers(self, action: Mapping[str, JSON], state: Mapping[str, JSON]) -> bool:
        """Whether the protocol requires the engine to list ``action`` among its legal actions in a
        game whose state has ``state`` (the reference's): the deal of the first hand of a new point
        (``hand_winner`` set) is the ``match`` capability's; everything else, always."""
        if action.get("type") == "deal" and state.get("hand_winner") is not None:
            return "match" in self.capabilities
        return True

    def vocabulary_events(self, events: Iterable[Mapping[str, JSON]]) -> list[Mapping[str, JSON]]:
        """The events of the vocabulary among ``events`` (an engine's own event types are free)."""
        known = event_entries()
        return [event for event in events if event.get("type") in known]

    def gives_rule(self, rule: str) -> bool:
        """Whether the engine gives the suite's rule IDs (and reason codes) for ``rule``'s area."""
        if REASON_CODES_CAPABILITY in self.capabilities:
            return True
        area = area_of_rule(rule) if rule else None
        return area is not None and f"{REASON_CODES_PREFIX}{area}" in self.capabilities

    def gives_reason_code(self, code: str, rule: str | None = None) -> bool:
        """Whether the engine gives the suite's reason code (and rule ID) for this refusal:
        ``reason_codes`` for every refusal, ``reason_codes_<area>`` for the refusals of that area:
        the area of ``rule`` (the scenario's expected rule, or the reference's), or else of every
        rule the code may be under (``NOT_YOUR_TURN`` is PLAY-02, or RENUNCIO-04 in the arrastre:
        checked only of an engine that declares both areas)."""
        if REASON_CODES_CAPABILITY in self.capabilities:
            return True
        if rule:
            return self.gives_rule(rule)
        rules = _RULE_ID.findall(REASON_CODES.get(code, ""))
        return bool(rules) and all(self.gives_rule(candidate) for candidate in rules)

    # ------------------------------------------------------------------ the adapters' check

    @property
    def beyond_schema(self) -> bool:
        """Whether this engine must give event members that the schema cannot require of every
        engine (a ``match`` engine's ``point_won.cotos``...): the adapters then check its events."""
        return any(set(self.members(kind)) & names for kind, names in gated_members().items())

    def missing_members(self, event: Mapping[str, JSON]) -> list[str]:
        """The members the protocol requires of this engine that ``event`` lacks (the schema
        checks what every engine must give; this, what this engine's capabilities add)."""
        kind = event.get("type")
        required = self._gated.get(kind) if type(kind) is str else None  # (asked of every event a wire engine answers)
        if required is None:
            gated = gated_members().get(kind)  # type: ignore[arg-type]
            required = tuple(name for name in self.members(str(kind)) if name in gated) if gated else ()
            if type(kind) is str:
                self._gated[kind] = required
        return [name for name in required if name not in event] if required else []

    def missing_in(self, events: Sequence[Mapping[str, JSON]]) -> str:
        """The first required member missing from ``events``, as ``$.events[i]: 'm' is required
        of an engine with ...``, or ``""``."""
        gated = self._gated
        for index, event in enumerate(events):
            if type(event) is dict or isinstance(event, Mapping):
                kind = event.get("type")
                if type(kind) is str and gated.get(kind) == ():
                    continue  # (most events: none of their members is gated)
                for name in self.missing_members(event):
                    entry = event_entries()[str(event.get("type"))][name]
                    return (
                        f"$.events[{index}]: {name!r} is a required property of a {event.get('type')} event "
                        f"for an engine with capability {entry.capability!r}"
                    )
        return ""


def _concrete(key: str) -> list[str]:
    """The field names a ``fields.json`` key stands for (``hand.<seat>`` -> ``hand.0``...``hand.3``)."""
    for placeholder, count in (("<seat>", 4), ("<side>", 2)):
        if key.endswith(placeholder):
            stem = key.removesuffix(placeholder)
            return [f"{stem}{index}" for index in range(count)]
    return [key]


@cache
def gated_members() -> dict[str, frozenset[str]]:
    """Per event type, the members that only some engines must give (the schema cannot require
    them of every engine, so :meth:`Obligations.missing_members` does)."""
    found = {}
    for kind, entries in event_entries().items():
        names = frozenset(name for name, entry in entries.items() if entry.capability)
        if names:
            found[kind] = names
    return found


@cache
def _obligations(capabilities: frozenset[str], protocol: int) -> Obligations:
    return Obligations(frozenset(capabilities), protocol)


__all__ = [
    "CAPABILITY_KEY",
    "NEEDS_REASON_CODES",
    "REASON_CODES_CAPABILITY",
    "SINCE_KEY",
    "Entry",
    "Obligations",
    "event_entries",
    "field_entries",
    "gated_members",
]
