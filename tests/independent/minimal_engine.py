"""A minimal engine test double: what an independent engine answers when it gives only what the
protocol requires of an engine with no capabilities.

It wraps the reference engine (so its rules are right) but shows nothing of the reference's
extras, the way an engine written from the protocol page alone would:

* no capabilities; its own profile names, each given as a full flag set;
* explicit deals only: a deck-order setup is refused as ``unsupported`` and a ``deal`` action
  with a deck is refused (an engine that shuffles its own way);
* ``unknown_field`` for every state field the protocol leaves optional without a capability
  (the match score, the rule that decided the hand);
* events with their required members only (no ``rule``, no ``code``, no match score);
* refusals with a generic code of its own and no rule ID.

The lists below are written from the protocol page (docs/checking/protocol.md), not taken from
the harness: ``tests/independent/test_minimal_engine.py`` checks they agree with it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import replace

from guinote_conformance.adapters.interface import (
    JSON,
    OWN_SHUFFLE,
    Accepted,
    Action,
    EngineInfo,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
    UnknownField,
)
from guinote_conformance.adapters.protocol import PROTOCOL_VERSION
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.reference_engine.flags import flag_specs

#: The members an engine with no capabilities must give, per event of the vocabulary.
REQUIRED_MEMBERS: dict[str, tuple[str, ...]] = {
    "card_played": ("seat", "card"),
    "trick_won": ("seat", "side", "points", "cards"),
    "cards_drawn": ("draws",),
    "arrastre_begins": (),
    "cante": ("seat", "side", "suit", "value"),
    "exchange": ("seat", "gave", "took"),
    "ultimas": ("side", "points"),
    "renuncio": ("seat", "card", "suit"),  # the card, or the suit of a cante
    "claim": ("seat", "side", "valid"),
    "tute": ("seat", "side", "rank"),
    "hand_over": ("scores", "totals", "card_points", "winner", "reason"),
    "de_vueltas": ("totals",),
    "point_won": ("side",),
    "coto_won": ("side",),
    "match_won": ("side",),
    "hand_dealt": ("dealer", "mano", "muestra"),
}
#: State fields an engine without the capability answers ``unknown_field`` for.
OPTIONAL_FIELDS = ("match.", "hand_rule")
#: The engine's own names for the rule sets it plays (reference profile it copies).
OWN_PROFILES = {
    "aragon_online": "lascuarenta",
    "casino_tradicional": "tradicional",
    "resumen_ludoteka": "ludoteka",
    "libro_al_pie": "tradicional_literal",
}
GENERIC_CODE = "ILLEGAL"


def strip_event(event: Mapping[str, JSON]) -> dict[str, JSON]:
    """The event with its type and required members only (an unknown event is kept whole)."""
    kind = str(event.get("type"))
    if kind not in REQUIRED_MEMBERS:
        return dict(event)
    return {"type": kind, **{k: event[k] for k in REQUIRED_MEMBERS[kind] if k in event}}


class MinimalGame:
    def __init__(self, game: ReferenceGame) -> None:
        self.game = game

    def legal_actions(self) -> list[dict[str, JSON]]:
        return [dict(action) for action in self.game.legal_actions()]

    def apply(self, action: Action) -> Outcome:
        if action.get("type") == "deal" and "deck" in action:
            return Rejected(GENERIC_CODE, "", "this engine shuffles its own way: give the hands, muestra and stock")
        outcome = self.game.apply(action)
        if isinstance(outcome, Rejected):
            return Rejected(GENERIC_CODE, "", "not allowed")
        return Accepted([strip_event(event) for event in outcome.events])

    def state(self, name: str) -> JSON:
        if name.startswith(OPTIONAL_FIELDS):
            raise UnknownField(f"this engine does not know the field {name!r}")
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        raise UnknownField("this engine has no observations")

    def end(self) -> None:
        return None


class MinimalEngine:
    #: the protocol version it was written for, and the flags it does not know (an older engine)
    protocol = PROTOCOL_VERSION
    unknown_flags: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.reference = ReferenceEngine()

    def info(self) -> EngineInfo:
        full = self.reference.info()
        profiles = {
            own: {flag: value for flag, value in full.profiles[theirs].items() if flag not in self.unknown_flags}
            for own, theirs in OWN_PROFILES.items()
        }
        return EngineInfo(
            name="minimal",
            version="1.0",
            language="python",
            profiles=profiles,
            flags={name: list(values) for name, values in full.flags.items() if name not in self.unknown_flags},
            capabilities=frozenset(),
            protocol=self.protocol,
        )

    def start(self, setup: Setup) -> MinimalGame:
        unknown = sorted(set(setup.get("flags", {})) - set(self.info().flags))
        if unknown:  # as a strict engine would: a flag it does not know is a mistake of the harness
            raise SetupRejected(f"unknown flags: {', '.join(unknown)}", [f"{name}=?" for name in unknown])
        if "position" in setup:
            raise SetupRejected("this engine cannot start from a position", ["setup=position"])
        if "deck" in setup:
            raise SetupRejected("this engine shuffles its own way: give the hands", ["deal=deck order"])
        implicit = {name: flag_specs()[name].default for name in self.unknown_flags}  # what it plays unaware
        return MinimalGame(self.reference.start({**setup, "flags": {**implicit, **setup["flags"]}}))

    def close(self) -> None:
        return None


class OwnShuffleGame(MinimalGame):
    """A game whose next hand is dealt from the engine's own shuffle: a deal with cards is refused."""

    def __init__(self, game: ReferenceGame, seed: int) -> None:
        super().__init__(game)
        self.shuffle = random.Random(seed)

    def apply(self, action: Action) -> Outcome:
        if action.get("type") == "deal":
            if action.get("deck") or "hands" in action:
                return Rejected(GENERIC_CODE, "", "this engine shuffles the next hand itself")
            deck = deck_codes(self.game.game.rules.deck_size)
            self.shuffle.shuffle(deck)
            action = {"type": "deal", "deck": deck}
        return super().apply(action)


class OwnShuffleEngine(MinimalEngine):
    """The double dealing every next hand (de vueltas, or of a new point) from its own shuffle:
    it declares ``own_shuffle``, takes the next hand's deal with no cards, and refuses cards."""

    def info(self) -> EngineInfo:
        return replace(super().info(), name="own-shuffle", capabilities=frozenset({OWN_SHUFFLE}))

    def start(self, setup: Setup) -> MinimalGame:
        game = super().start(setup)
        return OwnShuffleGame(game.game, seed=len(json.dumps(dict(setup), sort_keys=True)))


class ForcedCanteGame(MinimalGame):
    """A game that will not let a cante be declined: while one may be sung, only cantes are legal."""

    def legal_actions(self) -> list[dict[str, JSON]]:
        legal = super().legal_actions()
        cantes = [action for action in legal if action.get("type") == "cante"]
        return cantes or legal

    def apply(self, action: Action) -> Outcome:
        if action.get("type") in ("draw", "play") and any(a.get("type") == "cante" for a in self.legal_actions()):
            return Rejected(GENERIC_CODE, "", "sing first")
        return super().apply(action)


class ForcedCanteEngine(MinimalEngine):
    """The double with a rule bug an engine's own model may have (CANTE-07: singing is optional)."""

    def start(self, setup: Setup) -> MinimalGame:
        return ForcedCanteGame(super().start(setup).game)


class OlderEngine(MinimalEngine):
    """The same engine as written for GCP/1: it knows no flag added since (``renuncio_faults``)."""

    protocol = 1
    unknown_flags = tuple(name for name, spec in flag_specs().items() if spec.since > 1)


def make() -> MinimalEngine:
    return MinimalEngine()


def make_v1() -> OlderEngine:
    return OlderEngine()


def own_shuffle() -> OwnShuffleEngine:
    return OwnShuffleEngine()


def forced_cante() -> ForcedCanteEngine:
    return ForcedCanteEngine()


def _broken(name: str) -> MinimalEngine:
    """The double with a rule bug planted (a breakage of ``tests.broken_engines.engines``): it
    patches the reference engine of its process, so serve it (``serve:py:...``), never in process."""
    from tests.broken_engines.engines import BREAKAGES, RARE_BREAKAGES

    (BREAKAGES.get(name) or RARE_BREAKAGES[name]).apply()
    return MinimalEngine()


def tute_of_reyes_only() -> MinimalEngine:
    """CANTE-22 broken: only a tute of Reyes is recognised."""
    return _broken("tute_of_reyes_only")


def no_diez_de_ultimas() -> MinimalEngine:
    """SCORE-01 broken: the last trick carries no diez de últimas."""
    return _broken("no_diez_de_ultimas")


def caballo_above_sota() -> MinimalEngine:
    """DECK-06 broken: the Caballo ranks above the Sota."""
    return _broken("caballo_above_sota")


__all__ = [
    "GENERIC_CODE",
    "OPTIONAL_FIELDS",
    "REQUIRED_MEMBERS",
    "MinimalEngine",
    "OlderEngine",
    "caballo_above_sota",
    "forced_cante",
    "make",
    "make_v1",
    "no_diez_de_ultimas",
    "own_shuffle",
    "strip_event",
    "tute_of_reyes_only",
]
