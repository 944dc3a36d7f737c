"""A variant of the minimal double that varies everything the protocol leaves free.

The minimal double (:mod:`tests.independent.minimal_engine`) answers exactly what the protocol
requires of an engine with no capabilities, always in the same way. An independent engine has
many more ways to be right: it may order the members of its objects as it likes, give the
members it is not required to give (with any value) or leave them out, add members and events
of its own, write a whole number as ``3.0``, refuse with any message and any code of its own,
declare some capabilities (and then answer what they require), name its profiles as it likes,
be written for an earlier protocol version, and deal its own way. A :class:`Variation` decides
all of that for one engine instance; :func:`variations` draws one (hypothesis). The suite must
give no failure under any of them: a failure is the harness comparing what it must not.

The variant wraps the reference engine (its rules are right). What it is required to give is
read off the protocol page and the schemas, not off the harness (:data:`GATED_MEMBERS`,
:data:`GATED_FIELDS`; ``tests/independent/test_variants.py`` checks them against
:mod:`guinote_conformance.adapters.obligations`).

It is served to the suite in process by :func:`make`, which reads the variation's JSON from the
environment variable :data:`VARIATION_ENV`, over the wire with ``serve:py:tests.independent.variants:make``,
and over the wire by a server of its own (``python -m tests.independent.variants``) that also puts
``x-`` members in its answers and orders their members as it likes.

Per call, its choices are drawn from a :class:`random.Random` seeded by the variation's seed,
the game's setup, the number of actions it accepted and the call itself: a game replayed on a
new process (after a relaunch) answers the same again, as the protocol requires.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from random import Random
from typing import TYPE_CHECKING, Any, BinaryIO

from guinote_conformance.adapters.interface import (
    JSON,
    REASON_CODES_PREFIX,
    Accepted,
    Action,
    EngineInfo,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
    UnknownField,
)
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame
from guinote_conformance.adapters.vocabulary import REASON_CODES, RULE_AREAS, area_of_rule
from guinote_conformance.reference_engine.flags import flag_specs, profile_names, rules_for
from tests.independent.minimal_engine import REQUIRED_MEMBERS

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

#: The environment variable that holds the variation's JSON for :func:`make`.
VARIATION_ENV = "GUINOTE_VARIATION"

#: The capabilities a variation may declare (``automatic_draw`` and ``batch`` are not varied here).
AREAS = tuple(area for area, _ in RULE_AREAS)
CAPABILITIES = ("observations", "match", "positions", "reason_codes", *(f"{REASON_CODES_PREFIX}{a}" for a in AREAS))

#: Event members that only some engines must give (protocol.md; common.json ``x-capability`` /
#: ``x-since``): event -> member -> the capability that requires it, or ``"since:N"``.
GATED_MEMBERS: dict[str, dict[str, str]] = {
    "hand_over": {"rule": "reason_codes"},
    "renuncio": {"code": "reason_codes", "rule": "reason_codes", "suit": "since:2"},
    "point_won": {"points": "match", "cotos": "match"},
}
#: State fields (a name, or a prefix ending in ``.``) that only some engines must answer.
GATED_FIELDS: dict[str, str] = {
    "hand_rule": "reason_codes",
    "match.": "match",
    "last_trick_won.": "since:2",
}

#: Where numbers may be written as floats: events, legal actions, state and observation values.
PLACES = ("events", "legal", "state")
#: What the variant does with a member or field it is not required to give (drawn per call
#: among those the variation allows).
OPTIONAL = ("absent", "reference", "different")
#: The kinds of refusal message.
MESSAGES = ("plain", "reference", "html", "ansi", "long", "unicode", "control", "markup", "empty")
#: Refusal codes for a refusal the engine gives no suite code for.
CODES = ("generic", "varied", "suite_names")
#: Rule IDs of such a refusal.
RULES = ("absent", "wrong", "varied")
#: The ``unsupported`` entry of a refused deck-order setup.
DECK_TOKENS = ("deal=deck order", "deck order", "setup=deck")

#: Profile names an engine might give: any text the hello schema allows (any object key).
TRICKY_NAMES = (
    "aragon_online", "casino tradicional", "Guiñote clásico", "perfil/2", "a+b", "<b>html</b>", "[red]rich[/red]",
    "x" * 80, "ñ", "1", "profile with \"quotes\"", "tab\tname", "mano_a_mano", "reference", "emoji 🂡", "-x", "",
)  # fmt: skip

#: Event types of the engine's own (none is one of the vocabulary's).
OWN_EVENTS = ("turn_changed", "trick_started", "score_changed", "x_debug", "animation", "sound", "hint")
#: Members of the engine's own that events may carry besides their schema's (x- or not).
OWN_MEMBERS = ("x-trace", "x-engine", "animation", "timestamp", "note", "seat", "side", "rule", "code", "points")


# ------------------------------------------------------------------------------------ variation


@dataclass(frozen=True)
class Variation:
    """Every free choice of one engine instance. JSON-serialisable (:meth:`to_json`)."""

    seed: int = 0
    #: the protocol version the engine was written for (1: it knows no flag added since)
    protocol: int = 2
    #: the capabilities it declares (sorted)
    capabilities: tuple[str, ...] = ()
    #: its profiles: (its own name, the reference profile it plays, flag overrides as (flag, value))
    profiles: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (("aragon_online", "lascuarenta", ()),)
    #: flag values it does not play, as (flag, value) (none that its profiles use)
    dropped_values: tuple[tuple[str, str], ...] = ()
    #: whether it takes deck orders (setups and deals); otherwise it deals its own way
    deck_orders: bool = False
    #: the ``unsupported`` entry of a refused deck-order setup
    deck_token: str = DECK_TOKENS[0]
    #: the order of the members of every object it hands back, shuffled per call
    shuffle_members: bool = False
    #: the order of its legal actions, and of the cards of ``trick_won`` (compared in any order)
    shuffle_lists: bool = False
    #: what it does with the members and fields it is not required to give (drawn among these)
    optional: tuple[str, ...] = ("absent",)
    #: members of its own in events (``x-`` or not)
    extra_members: bool = False
    #: events of its own types between the vocabulary's
    extra_events: bool = False
    #: where whole numbers are written as floats (``3.0``)
    floats: tuple[str, ...] = ()
    #: the kinds of refusal message (drawn per refusal)
    messages: tuple[str, ...] = ("plain",)
    #: the codes of refusals it gives no suite code for
    codes: str = "generic"
    #: the rule IDs of those refusals
    rules: str = "absent"
    #: without ``match``: whether it lists (and takes) the deal of the first hand of a new point
    new_point_deal: bool = True
    #: over its own server: ``x-`` members in its answers (and in its hello's ``engine``)
    answer_extras: bool = False
    #: over its own server: non-ASCII written as UTF-8 rather than escaped
    raw_utf8: bool = False

    # ---------------------------------------------------------------- serialisation

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=True, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Variation:
        data = json.loads(text)
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown members of a variation: {', '.join(sorted(unknown))}")
        return cls(**{name: _tuples(value) for name, value in data.items()})

    def describe(self) -> str:
        """A short line: what this variation varies."""
        short = {"observations": "obs", "match": "match", "positions": "pos", "reason_codes": "codes"}
        caps = [short.get(c, c.replace(REASON_CODES_PREFIX, "codes_")) for c in self.capabilities]
        parts = [f"GCP/{self.protocol}", f"caps={','.join(caps) or '-'}", f"profiles={len(self.profiles)}"]
        if self.dropped_values:
            parts.append(f"-{len(self.dropped_values)}values")
        parts.append("deck" if self.deck_orders else "own-deal")
        parts.append("opt=" + "|".join(self.optional))
        flags = [
            ("shuffle_members", "members~"), ("shuffle_lists", "lists~"), ("extra_members", "+members"),
            ("extra_events", "+events"), ("answer_extras", "+x-answers"), ("raw_utf8", "utf8"),
        ]  # fmt: skip
        parts += [label for name, label in flags if getattr(self, name)]
        if self.floats:
            parts.append("floats=" + ",".join(self.floats))
        parts.append("msg=" + ",".join(self.messages))
        parts.append(f"codes={self.codes}/{self.rules}")
        if "match" not in self.capabilities and not self.new_point_deal:
            parts.append("no-new-point")
        return f"seed={self.seed} " + " ".join(parts)

    # ---------------------------------------------------------------- what it declares

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def gives_rule(self, rule: str) -> bool:
        """Whether it gives the suite's reason code and rule ID for a refusal (or an event) under
        ``rule``: ``reason_codes``, or ``reason_codes_<area>`` for the area of that rule."""
        if self.has("reason_codes"):
            return True
        area = area_of_rule(rule) if rule else None
        return area is not None and self.has(f"{REASON_CODES_PREFIX}{area}")

    def requires(self, gate: str, value: JSON = None) -> bool:
        """Whether a member or field gated by ``gate`` (a capability, or ``since:N``) is required
        of it, given the reference's value (a rule ID tells its area)."""
        if gate.startswith("since:"):
            return self.protocol >= int(gate.partition(":")[2])
        if gate == "reason_codes":
            return self.gives_rule(value if isinstance(value, str) else "")
        return self.has(gate)

    @property
    def unknown_flags(self) -> tuple[str, ...]:
        """The flags it does not know: those added after the version it was written for."""
        return tuple(name for name, spec in flag_specs().items() if spec.since > self.protocol)

    def flag_values(self) -> dict[str, list[str]]:
        dropped = set(self.dropped_values)
        return {
            name: [value for value in spec.values if (name, value) not in dropped]
            for name, spec in flag_specs().items()
            if name not in self.unknown_flags
        }

    def profile_flags(self) -> dict[str, dict[str, str]]:
        unknown = self.unknown_flags
        found = {}
        for own, theirs, overrides in self.profiles:
            flags = {**rules_for(theirs).as_dict(), **dict(overrides)}
            found[own] = {name: value for name, value in flags.items() if name not in unknown}
        return found


def _tuples(value: Any) -> Any:
    """JSON arrays back to the tuples of a frozen variation."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def variation_from_env(environ: Mapping[str, str] | None = None) -> Variation:
    text = (os.environ if environ is None else environ).get(VARIATION_ENV, "")
    return Variation.from_json(text) if text.strip() else Variation()


# ------------------------------------------------------------------------------------ choices


class Choices:
    """The random choices of one call (see the module's docstring)."""

    def __init__(self, variation: Variation, key: str) -> None:
        self.variation = variation
        self.rng = Random(zlib.crc32(f"{variation.seed}|{key}".encode()))

    def optional(self) -> str:
        return self.rng.choice(self.variation.optional)

    def numbers(self, value: JSON, place: str) -> JSON:
        """``value`` with its whole numbers as floats where the variation says so."""
        return _floats(value) if place in self.variation.floats else value

    def members(self, value: JSON) -> JSON:
        """``value`` with the members of its objects in an order of the engine's own."""
        if not self.variation.shuffle_members:
            return value
        return _shuffled(value, self.rng)

    def message(self, reference: str) -> str:
        kind = self.rng.choice(self.variation.messages)
        return _message(kind, reference, self.rng)


def _floats(value: JSON) -> JSON:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [_floats(item) for item in value]
    if isinstance(value, dict):
        return {key: _floats(item) for key, item in value.items()}
    return value


def _shuffled(value: JSON, rng: Random) -> JSON:
    if isinstance(value, list):
        return [_shuffled(item, rng) for item in value]
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: _shuffled(value[key], rng) for key in keys}
    return value


def _message(kind: str, reference: str, rng: Random) -> str:
    if kind == "reference":
        return reference
    if kind == "html":
        return "<b>no</b> <script>alert('x')</script> &amp; <img src=x onerror=alert(1)> </td></tr>"
    if kind == "ansi":
        return "\x1b[31;1mrefused\x1b[0m \x1b[2J\x1b[H jugada \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
    if kind == "long":
        return ("no es tu turno, " * rng.randint(500, 4000)).strip()
    if kind == "unicode":
        return "jugada no válida: 🂡 ¡ñ! عربى 中文 e\u0301 \u202eevil\u202c \ufeff"
    if kind == "control":
        return "line one\nline two\r\n\ttab \x00nul \x07bell \x08 \x7f \x85"
    if kind == "markup":
        return "[red]rich[/red] [link=http://x]l[/link] :warning: [/] [bold"
    if kind == "empty":
        return ""
    return "not allowed"


def _key(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)


def _whole(value: JSON) -> JSON:
    """A number read from the harness as the integer it stands for (JSON: ``3.0`` is ``3``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in value.items()}
    return value


# ------------------------------------------------------------------------------------ the engine


class VariantGame:
    def __init__(self, variation: Variation, game: ReferenceGame, key: str) -> None:
        self.variation = variation
        self.game = game
        self.key = key
        self.accepted = 0

    def _choices(self, *what: JSON) -> Choices:
        return Choices(self.variation, f"{self.key}|{self.accepted}|{_key(list(what))}")

    # ---------------------------------------------------------------- legal actions

    def _hides_new_point(self) -> bool:
        """Without ``match`` and with :attr:`Variation.new_point_deal` off, the deal of the first
        hand of a new point is neither listed nor taken (the protocol leaves it to ``match``)."""
        v = self.variation
        return not v.has("match") and not v.new_point_deal and self.game.state("hand_winner") is not None

    def legal_actions(self) -> list[dict[str, JSON]]:
        choices = self._choices("legal")
        actions = [dict(action) for action in self.game.legal_actions()]
        if self._hides_new_point():
            actions = [action for action in actions if action.get("type") != "deal"]
        if self.variation.shuffle_lists:
            choices.rng.shuffle(actions)
        return [choices.members(choices.numbers(action, "legal")) for action in actions]

    # ---------------------------------------------------------------- apply

    def apply(self, action: Action) -> Outcome:
        v = self.variation
        wanted = _whole(dict(action))
        choices = self._choices("apply", wanted)
        if wanted.get("type") == "deal":
            if "deck" in wanted and not v.deck_orders:
                return self._own_refusal(choices, "this engine shuffles its own way: give the hands, muestra and stock")
            if self._hides_new_point():
                return self._own_refusal(choices, "this engine plays one point")
        outcome = self.game.apply(wanted)
        if isinstance(outcome, Rejected):
            return self._refusal(choices, outcome)
        self.accepted += 1
        return Accepted(self._events(choices, outcome.events))

    def _own_refusal(self, choices: Choices, message: str) -> Rejected:
        """A refusal the reference would not make (a deck order, from an engine that deals its own way)."""
        if self.variation.has("reason_codes"):
            return Rejected("BAD_ACTION", "", choices.message(message))
        return Rejected(self._code(choices), self._rule(choices), choices.message(message))

    def _refusal(self, choices: Choices, outcome: Rejected) -> Rejected:
        message = choices.message(outcome.message)
        v = self.variation
        gives = v.gives_rule(outcome.rule) or (v.has("reason_codes") and not outcome.rule)
        if gives:
            return Rejected(outcome.code, outcome.rule, message)
        return Rejected(self._code(choices), self._rule(choices), message)

    def _undeclared(self, rule: str) -> bool:
        """Whether ``rule`` (a rule ID, or any text) is outside every area the engine gives codes for."""
        return not self.variation.gives_rule(rule)

    def _code(self, choices: Choices) -> str:
        """A code of its own (never one of the suite's that it declares it gives)."""
        how = self.variation.codes
        if how == "generic":
            return "ILLEGAL"
        pool = ["ILLEGAL", "E_RULE", "nope", "Refused", "REFUSED_42", "ÑO_VÁLIDO", "<b>x</b>", "x" * 300]
        if how == "suite_names":
            pool += [code for code, rules in REASON_CODES.items() if self._undeclared(rules.split(" ")[0])]
        return choices.rng.choice(pool)

    def _rule(self, choices: Choices) -> str:
        how = self.variation.rules
        if how == "absent":
            return ""
        wrong = [f"{prefix}-{n}" for _, prefixes in RULE_AREAS for prefix in prefixes for n in (1, 7, 99)]
        wrong = [rule for rule in wrong if self._undeclared(rule)] + ["R-1", "NONE", "§12"]
        if how == "wrong":
            return wrong[0]
        return choices.rng.choice(["", *wrong])

    # ---------------------------------------------------------------- events

    def _events(self, choices: Choices, events: Iterable[Mapping[str, JSON]]) -> list[dict[str, JSON]]:
        v = self.variation
        shown: list[dict[str, JSON]] = []
        for event in events:
            shown.append(self._event(choices, event))
        if v.extra_events:
            for _ in range(choices.rng.randint(0, 2)):
                shown.insert(choices.rng.randint(0, len(shown)), self._own_event(choices))
        return [choices.members(choices.numbers(event, "events")) for event in shown]

    def _event(self, choices: Choices, event: Mapping[str, JSON]) -> dict[str, JSON]:
        v = self.variation
        kind = str(event.get("type"))
        required = REQUIRED_MEMBERS.get(kind)
        if required is None:  # not an event of the vocabulary: the reference has none
            return dict(event)
        gated = GATED_MEMBERS.get(kind, {})
        shown: dict[str, JSON] = {"type": kind}
        for name in required:
            if name in event and name not in gated:
                shown[name] = event[name]
        for name, gate in gated.items():
            has = name in event
            # a renuncio's code and rule are of the area of its rule
            value = event.get("rule", event.get(name)) if gate == "reason_codes" else event.get(name)
            if has and (v.requires(gate, value) or _needed_by_schema(kind, name, event)):
                shown[name] = event[name]
                continue
            if not has and (v.requires(gate, value) or _excluded_by_schema(kind, name, event)):
                continue  # the reference has none: neither has the engine
            how = choices.optional()
            if how == "reference" and has:
                shown[name] = event[name]
            elif how == "different":
                shown[name] = self._different_member(choices, kind, name, event.get(name))
        if kind == "trick_won" and v.shuffle_lists and isinstance(shown.get("cards"), list):
            cards = list(shown["cards"])
            choices.rng.shuffle(cards)  # "the cards of the trick (compared in any order)"
            shown["cards"] = cards
        if v.extra_members:
            for name in choices.rng.sample(OWN_MEMBERS, choices.rng.randint(1, 3)):
                if name not in REQUIRED_MEMBERS[kind] and name not in gated:
                    shown[name] = _own_value(name, choices.rng)
        return shown

    def _different_member(self, choices: Choices, kind: str, name: str, reference: JSON) -> JSON:
        """A plausible value of the member, other than the reference's (schema-valid)."""
        rng = choices.rng
        if name == "rule":
            return self._rule_other_than(choices, reference)
        if name == "code":
            pool = [code for code, rules in REASON_CODES.items() if self._undeclared(rules.split(" ")[0])]
            return rng.choice([c for c in [*pool, "MINE"] if c != reference])
        if name in ("points", "cotos"):
            other = [rng.randint(0, 5), rng.randint(0, 5)]
            return other if other != reference else [other[0] + 1, other[1]]
        if name == "suit":
            return rng.choice([s for s in "oceb" if s != reference])
        return reference

    def _rule_other_than(self, choices: Choices, reference: JSON) -> str:
        pool = [rule for rule in ("SCORE-13", "VUELTAS-05", "ARR-01", "RENUNCIO-07", "MATCH-01") if rule != reference]
        pool = [rule for rule in pool if self._undeclared(rule)] + ["RULE-0", "mine"]
        return choices.rng.choice(pool)

    def _own_event(self, choices: Choices) -> dict[str, JSON]:
        rng = choices.rng
        kind = rng.choice(OWN_EVENTS)
        event: dict[str, JSON] = {"type": kind}
        if kind == "turn_changed":
            event["seat"] = rng.randrange(4)
        elif kind == "score_changed":
            event["scores"] = [rng.randint(0, 130), rng.randint(0, 130)]
        elif kind == "sound":
            event["name"] = rng.choice(["shuffle", "card", "¡cante!"])
        elif kind == "x_debug":
            event["x-detail"] = {"depth": rng.randint(0, 9), "text": "<i>debug</i>"}
        return event

    # ---------------------------------------------------------------- state

    def _gate_of(self, name: str) -> str | None:
        for prefix, gate in GATED_FIELDS.items():
            if name == prefix or (prefix.endswith(".") and name.startswith(prefix)):
                return gate
        return None

    def _value(self, name: str, read: Callable[[], JSON], choices: Choices) -> JSON:
        gate = self._gate_of(name)
        if gate is not None:
            value = read()
            if not self.variation.requires(gate, value):
                how = choices.optional()
                if how == "absent":
                    raise UnknownField(f"this engine does not know the field {name!r}")
                if how == "different":
                    value = _different_field(name, value, choices.rng)
        else:
            value = read()
        return choices.members(choices.numbers(value, "state"))

    def state(self, name: str) -> JSON:
        return self._value(name, lambda: self.game.state(name), self._choices("state", name))

    def observation(self, seat: int, name: str) -> JSON:
        if not self.variation.has("observations"):
            raise UnknownField("this engine has no observations")
        seat = _whole(seat)
        return self._value(name, lambda: self.game.observation(seat, name), self._choices("observe", seat, name))

    def end(self) -> None:
        return None


def _needed_by_schema(kind: str, name: str, event: Mapping[str, JSON]) -> bool:
    """A gated member the event's schema still needs (a renuncio names its card or its suit)."""
    return kind == "renuncio" and name == "suit" and "card" not in event


def _excluded_by_schema(kind: str, name: str, event: Mapping[str, JSON]) -> bool:
    """A gated member the event's schema forbids here (a renuncio names its card or its suit, not both)."""
    return kind == "renuncio" and name == "suit" and "card" in event


def _own_value(name: str, rng: Random) -> JSON:
    if name in ("seat", "side"):
        return rng.randrange(4)
    if name == "points":
        return rng.randint(0, 40)
    if name == "timestamp":
        return 1.7e9 + rng.random()
    if name == "x-engine":
        return {"name": "variant", "build": [1, 2, 3]}
    if name == "animation":
        return "slow"
    if name in ("rule", "code"):
        return rng.choice(["MINE-1", "ILLEGAL", ""])
    return rng.choice(["<b>note</b>", "ñandú", 7, None, True])


def _different_field(name: str, reference: JSON, rng: Random) -> JSON:
    """A plausible value of a state field, other than the reference's (valid for fields.json)."""
    if name == "hand_rule":
        return rng.choice([rule for rule in ("SCORE-99", "R-1", None) if rule != reference])
    if name == "match.winner":
        return rng.choice([value for value in (0, 1, None) if value != reference])
    if name.startswith("match."):
        return (reference + 1) if isinstance(reference, int) else 0
    if name.startswith("last_trick_won."):
        return [] if reference else ["Ao", "3o"]
    return reference


class VariantEngine:
    def __init__(self, variation: Variation | None = None) -> None:
        self.variation = variation if variation is not None else variation_from_env()
        self.reference = ReferenceEngine()

    def info(self) -> EngineInfo:
        v = self.variation
        return EngineInfo(
            name="variant",
            version=f"{v.seed}",
            language="python",
            profiles=v.profile_flags(),
            flags=v.flag_values(),
            capabilities=frozenset(v.capabilities),
            protocol=v.protocol,
        )

    def start(self, setup: Setup) -> VariantGame:
        v = self.variation
        flags = dict(setup.get("flags", {}))
        declared = v.flag_values()
        unknown = sorted(set(flags) - set(declared))
        if unknown:  # a flag it does not know: the harness must never send it
            raise SetupRejected(f"unknown flags: {', '.join(unknown)}", [f"{name}=?" for name in unknown])
        unsupported = [f"{name}={value}" for name, value in flags.items() if value not in declared[name]]
        if unsupported:
            raise SetupRejected(f"this engine does not play {', '.join(unsupported)}", unsupported)
        if "position" in setup and not v.has("positions"):
            raise SetupRejected("this engine cannot start from a position", ["setup=position"])
        if "deck" in setup and not v.deck_orders:
            raise SetupRejected("this engine shuffles its own way: give the hands", [v.deck_token])
        implicit = {name: flag_specs()[name].default for name in v.unknown_flags}  # what it plays unaware
        game = self.reference.start({**_whole(dict(setup)), "flags": {**implicit, **flags}})
        return VariantGame(v, game, _key(dict(setup)))

    def close(self) -> None:
        return None


def make() -> VariantEngine:
    """The factory the suite calls (``py:tests.independent.variants:make``): the variation in
    :data:`VARIATION_ENV`, or the default one."""
    return VariantEngine()


# ------------------------------------------------------------------------------------ strategy


def variations(*, max_profiles: int = 4) -> SearchStrategy[Variation]:
    """A hypothesis strategy of :class:`Variation` (hypothesis is imported only here: the engine
    itself needs none)."""
    from hypothesis import strategies as st

    specs = flag_specs()
    # no NUL: the re-run of a profile is a command line, which cannot carry one
    names = st.one_of(st.sampled_from(TRICKY_NAMES), st.text(st.characters(exclude_characters="\x00"), max_size=12))

    @st.composite
    def draw(draw: Any) -> Variation:
        count = draw(st.integers(1, max_profiles))
        own = draw(st.lists(names, min_size=count, max_size=count, unique=True))
        theirs = draw(st.lists(st.sampled_from(profile_names()), min_size=count, max_size=count))
        profiles = []
        for name, base in zip(own, theirs, strict=True):
            flag_names = sorted(specs)
            overrides = draw(st.lists(st.sampled_from(flag_names), max_size=2, unique=True))
            pairs = tuple((flag, draw(st.sampled_from(list(specs[flag].values)))) for flag in overrides)
            profiles.append((name, base, pairs))
        protocol = draw(st.sampled_from([1, 2]))
        used = set()
        for _, base, pairs in profiles:
            used |= set({**rules_for(base).as_dict(), **dict(pairs)}.items())
        droppable = sorted(
            (name, value) for name, spec in specs.items() for value in spec.values if (name, value) not in used
        )
        dropped = (
            tuple(sorted(draw(st.lists(st.sampled_from(droppable), max_size=3, unique=True)))) if droppable else ()
        )
        plain = draw(st.lists(st.sampled_from(["observations", "match", "positions"]), unique=True))
        codes = draw(st.sampled_from(["none", "all", "areas"]))
        reason: list[str] = []
        if codes == "all":
            reason = ["reason_codes"]
        elif codes == "areas":
            areas = draw(st.lists(st.sampled_from(AREAS), min_size=1, max_size=4, unique=True))
            reason = [f"{REASON_CODES_PREFIX}{area}" for area in areas]
        return Variation(
            seed=draw(st.integers(0, 2**31)),
            protocol=protocol,
            capabilities=tuple(sorted([*plain, *reason])),
            profiles=tuple(profiles),
            dropped_values=dropped,
            deck_orders=draw(st.booleans()),
            deck_token=draw(st.sampled_from(DECK_TOKENS)),
            shuffle_members=draw(st.booleans()),
            shuffle_lists=draw(st.booleans()),
            optional=tuple(draw(st.lists(st.sampled_from(OPTIONAL), min_size=1, unique=True))),
            extra_members=draw(st.booleans()),
            extra_events=draw(st.booleans()),
            floats=tuple(draw(st.lists(st.sampled_from(PLACES), unique=True))),
            messages=tuple(draw(st.lists(st.sampled_from(MESSAGES), min_size=1, max_size=4, unique=True))),
            codes=draw(st.sampled_from(CODES)),
            rules=draw(st.sampled_from(RULES)),
            new_point_deal=draw(st.booleans()),
            answer_extras=draw(st.booleans()),
            raw_utf8=draw(st.booleans()),
        )

    return draw()


# ------------------------------------------------------------------------------------ own server


def _server_class() -> type:
    from guinote_conformance.adapters.serve import Server

    class VariantServer(Server):
        """Serves the variant over the protocol with the freedoms of the answers themselves:
        ``x-`` members (in every answer and in hello's ``engine``), members in any order, and
        non-ASCII text written as UTF-8."""

        def __init__(self, engine: VariantEngine) -> None:
            super().__init__(engine)
            self.variation = engine.variation

        def dispatch(self, request: dict[str, Any]) -> dict[str, Any]:
            answer = super().dispatch(request)
            v = self.variation
            rng = Random(zlib.crc32(f"{v.seed}|answer|{_key(request)}".encode()))
            if v.answer_extras:
                answer[f"x-{rng.choice(['trace', 'took-ms', 'engine'])}"] = rng.choice([1.5, "<b>x</b>", [1, {}], None])
                engine = answer.get("engine")
                if isinstance(engine, dict):
                    engine["x-build"] = {"commit": "abc", "dirty": True}
            if v.shuffle_members:
                keys = list(answer)
                rng.shuffle(keys)
                answer = {key: answer[key] for key in keys}
            return answer

        def write(self, stdout: BinaryIO, answer: dict[str, Any]) -> None:
            if not self.variation.raw_utf8:
                return super().write(stdout, answer)
            try:
                line = json.dumps(answer, separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode() + b"\n"
            except (TypeError, ValueError):
                line = self.encode(answer)
            stdout.write(line)
            stdout.flush()
            return None

    return VariantServer


def summary(path: str) -> str:
    """The figures of a full run (``GUINOTE_VARIANTS_LOG``: one JSON line per example), as text."""
    lines = []
    try:
        with open(path, encoding="utf-8") as log:
            found = [json.loads(line) for line in log if line.strip()]
    except FileNotFoundError:
        return f"no figures: {path} was not written"
    runs = [entry for entry in found if "runs" in entry]
    compares = [entry for entry in found if "compare_hands" in entry]
    for number, entry in enumerate(runs, 1):
        statuses = entry["statuses"]
        failures = sum(statuses.get(kind, 0) for kind in ("fail", "error", "timeout"))
        lines.append(
            f"run {number}: {entry['variation']}\n  {entry['runs']} runs: {statuses.get('pass', 0)} pass, "
            f"{statuses.get('not_applicable', 0)} not applicable, {failures} failures; executed "
            f"{entry['executed_of_allowed']}% of the {entry['allowed_by_flags']} runs its flags allow"
        )
        for reason, count in sorted(entry["not_applicable"].items(), key=lambda item: -item[1]):
            lines.append(f"    {count:4} not applicable: {reason}")
    for number, entry in enumerate(compares, 1):
        lines.append(
            f"compare {number}: {entry['variation']}\n  {entry['compare_hands']} hands, "
            f"{entry['divergence_groups']} divergence groups"
        )
    total = sum(entry["runs"] for entry in runs)
    hands = sum(entry["compare_hands"] for entry in compares)
    lines.append(f"{len(runs)} variations run ({total} scenario runs), {len(compares)} compared ({hands} hands)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tests.independent.variants``: serve the variation of :data:`VARIATION_ENV` over
    the protocol with :class:`VariantServer`'s freedoms; ``... summary FILE``: print a full run's figures."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["summary"] and len(args) == 2:
        print(summary(args[1]))
        return 0
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    server = _server_class()(VariantEngine())
    try:
        return int(server.run(sys.stdin.buffer, stdout))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "CAPABILITIES",
    "GATED_FIELDS",
    "GATED_MEMBERS",
    "VARIATION_ENV",
    "VariantEngine",
    "VariantGame",
    "Variation",
    "make",
    "variation_from_env",
    "variations",
]
