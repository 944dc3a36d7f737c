"""The symmetries of the game, and the engine wrapper that plays a scenario in a transformed world.

Nothing in the rules depends on which seat a player sits in, nor on which suit is which: rotate
every seat by the same number (the dealer and the mano with them) and relabel the four suits (the
trump suit too), and the same game is played, its outcome rotated and relabelled alike. A
:class:`Symmetry` is one such change: a seat rotation and a suit permutation, named ``r1+ocbe``
(seats moved on by 1; oros stays oros, copas copas, espadas becomes bastos and bastos espadas).
The identity is ``r0+oceb``. A four-player table has 4 × 24 symmetries, a two-player one 2 × 24;
rotating by an odd number of seats swaps the two sides.

:class:`SymmetricEngine` sits between the scenario driver and the engine under test: every seat,
side, card and suit the harness sends (the setup's deck order, deal, dealer and position, the
actions, the fields' ``.<seat>`` and ``.<side>`` suffixes, the observer's seat) is mapped into the
transformed world, and every answer (events, field values, legal actions) mapped back, so that a
scenario's text and checks stay as written while the engine plays a rotated and relabelled game.
A refusal's code and rule are the same in every world; its free-text message is passed on as the
engine wrote it. An answer of the wrong shape (a seat that is not a number, a card that is no
card) is passed on unchanged, for the driver's checks to report.

What carries a seat, a side, a card or a suit is declared once, here, by the names of the
vocabulary (:data:`ACTION_MEMBERS`, :data:`EVENT_MEMBERS`, :data:`FIELD_VALUES`,
:data:`POSITION_MEMBERS`); ``tests/harness/test_symmetry.py`` checks the declaration against
:mod:`guinote_conformance.adapters.vocabulary` and the protocol's schemas, so a new member cannot be missed.

Which symmetries a run plays (:func:`chosen`): ``sample`` (the default: each scenario once more,
under one symmetry and one profile drawn from a hash of its ID), ``all`` (the whole group, under
every profile), ``none`` (the scenarios as written), or a comma-separated list of names.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Action,
    Engine,
    EngineInfo,
    GameHandle,
    Outcome,
    Setup,
    end_game,
)
from guinote_conformance.adapters.vocabulary import SUITS
from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.catalogue.rule_index import RuleEntry
from guinote_conformance.engines.explicit_draw import PartlyKnown

#: The suits in their order of the notation (``o c e b``): a permutation names their images in it.
SUIT_ORDER = "".join(SUITS)
NAME = re.compile(r"^r(\d)\+([oceb]{4})$")
#: The modes of ``--symmetries`` besides a list of names.
MODES = ("sample", "all", "none")
#: The environment variable that gives ``--symmetries`` its default (the project's tests set ``none``:
#: a test of another matter counts the runs of the scenarios as written).
SYMMETRIES_ENV = "GUINOTE_SYMMETRIES"


class SymmetryError(InputError):
    """A ``--symmetries`` value that names no symmetry (the message says the forms)."""


@dataclass(frozen=True, order=True)
class Symmetry:
    """A seat rotation (seat ``s`` becomes ``s + rotation``) and a suit permutation (``suits[i]`` is
    the image of the ``i``-th suit of :data:`SUIT_ORDER`)."""

    rotation: int = 0
    suits: str = SUIT_ORDER

    @property
    def name(self) -> str:
        return f"r{self.rotation}+{self.suits}"

    @property
    def identity(self) -> bool:
        return self.rotation == 0 and self.suits == SUIT_ORDER

    def describe(self) -> str:
        """In words, for a failure's message: ``seats moved on by 1, suits o→c c→o``."""
        moved = [f"{old}→{new}" for old, new in zip(SUIT_ORDER, self.suits, strict=True) if old != new]
        parts = [f"seats moved on by {self.rotation}"] if self.rotation else []
        parts += [f"suits {' '.join(moved)}"] if moved else []
        return ", ".join(parts) or "the identity"

    def inverse(self) -> Symmetry:
        back = "".join(SUIT_ORDER[self.suits.index(suit)] for suit in SUIT_ORDER)
        return Symmetry((-self.rotation) % 4, back)

    @classmethod
    def parse(cls, text: str) -> Symmetry:
        match = NAME.match(text.strip())
        if match is None or sorted(match.group(2)) != sorted(SUIT_ORDER) or int(match.group(1)) > 3:
            raise SymmetryError(
                f"{text!r} names no symmetry: write r<rotation 0-3>+<the images of o c e b>, e.g. r1+ocbe "
                f"(or one of {', '.join(MODES)})"
            )
        return cls(int(match.group(1)), match.group(2))


IDENTITY = Symmetry()


def group(players: int) -> list[Symmetry]:
    """Every symmetry of a table of ``players`` seats, the identity first."""
    perms = ["".join(p) for p in itertools.permutations(SUIT_ORDER)]
    return [Symmetry(rotation, suits) for rotation in range(players) for suits in perms]


def _digest(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def sample(key: str, players: int) -> Symmetry:
    """The one symmetry other than the identity that the default run plays ``key`` (a scenario ID)
    under: drawn from a hash of the key, so a run is the same every time."""
    others = group(players)[1:]
    return others[_digest(key) % len(others)]


def pick(key: str, count: int) -> int:
    """An index below ``count`` drawn from a hash of ``key`` (the profile a sampled run plays)."""
    return _digest(f"profile:{key}") % count


def chosen(mode: str, players: int) -> list[Symmetry] | None:
    """The symmetries ``mode`` plays at a table of ``players`` under every profile; ``None`` for
    ``sample`` (the identity under every profile, and one sampled run: the plan chooses it)."""
    if mode == "sample":
        return None
    if mode == "none":
        return [IDENTITY]
    if mode == "all":
        return group(players)
    return [Symmetry.parse(name) for name in mode.split(",") if name.strip()]


def check_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`MODES` or a list of names; a :class:`SymmetryError` otherwise."""
    if mode not in MODES:
        names = [name for name in mode.split(",") if name.strip()]
        if not names:
            raise SymmetryError(f"--symmetries is one of {', '.join(MODES)} or a list of names, e.g. r1+ocbe")
        for name in names:
            Symmetry.parse(name)
    return mode


def symmetries_line(mode: str) -> str:
    """What a run's ``--symmetries`` adds, in words (a line of the run's opening summary)."""
    if mode == "sample":
        return ("  symmetries: each scenario also runs once under a symmetry of the game drawn from its ID "
                "(--symmetries all: every one)")  # fmt: skip
    if mode == "none":
        return "  symmetries: none, the scenarios as written only"
    if mode == "all":
        return "  symmetries: every one, under every profile (96 at four players, 48 mano a mano)"
    return f"  symmetries: {mode}, under every profile"


# ---------------------------------------------------------------------------------- what is mapped

#: The shapes of a value: a seat, a side, a card, a suit, or a combination of them.
SEAT, SIDE, CARD, SUIT = "seat", "side", "card", "suit"
Shape = str | tuple[Any, ...] | Mapping[str, Any]


def many(shape: Shape) -> tuple[str, Shape]:
    """A list, each item of ``shape``."""
    return ("list", shape)


def per_seat(shape: Shape) -> tuple[str, Shape]:
    """A list indexed by seat (``hands``): rotated, each item of ``shape``."""
    return ("per_seat", shape)


def per_side(shape: Shape) -> tuple[str, Shape]:
    """A list indexed by side (``scores``): swapped by an odd rotation, each item of ``shape``."""
    return ("per_side", shape)


CARDS = many(CARD)
PLAYED = many(("pair", SEAT, CARD))  # [[seat, card], ...]
SCORES = per_side("plain")
CANTE: dict[str, Shape] = {"seat": SEAT, "side": SIDE, "suit": SUIT}

#: The members of an action (``deal`` in either form) that carry a seat, a card or a suit.
ACTION_MEMBERS: dict[str, Shape] = {
    "seat": SEAT, "card": CARD, "suit": SUIT, "deck": CARDS, "hands": per_seat(CARDS), "muestra": CARD,
    "stock": CARDS,
}  # fmt: skip
#: For each event of the vocabulary, its members that carry a seat, a side, a card or a suit.
EVENT_MEMBERS: dict[str, dict[str, Shape]] = {
    "card_played": {"seat": SEAT, "card": CARD},
    "trick_won": {"seat": SEAT, "side": SIDE, "cards": CARDS},
    "cards_drawn": {"draws": PLAYED},
    "arrastre_begins": {},
    "cante": CANTE,
    "exchange": {"seat": SEAT, "gave": CARD, "took": CARD},
    "ultimas": {"side": SIDE},
    "renuncio": {"seat": SEAT, "card": CARD, "suit": SUIT},
    "claim": {"seat": SEAT, "side": SIDE},
    "tute": {"seat": SEAT, "side": SIDE},
    "hand_over": {"scores": SCORES, "totals": SCORES, "card_points": SCORES, "winner": SIDE},
    "de_vueltas": {"totals": SCORES},
    "point_won": {"side": SIDE, "points": SCORES, "cotos": SCORES},
    "coto_won": {"side": SIDE},
    "match_won": {"side": SIDE},
    "hand_dealt": {"dealer": SEAT, "mano": SEAT, "muestra": CARD},
}
#: The state and observation fields whose value carries a seat, a side, a card or a suit (the
#: vocabulary's names; a field's ``.<seat>`` or ``.<side>`` suffix is mapped by :meth:`SymmetricGame.field`).
FIELD_VALUES: dict[str, Shape] = {
    "turn": SEAT, "leader": SEAT, "dealer": SEAT, "mano": SEAT, "trump": SUIT, "muestra": CARD, "trick": CARDS,
    "trick_seats": many(SEAT), "last_trick": CARDS, "last_trick_winner": SEAT, "ultimas": SIDE,
    "cantes": many({**CANTE}), "sung_suits": many(SUIT), "hand_winner": SIDE, "match.winner": SIDE,
    "hand.<seat>": CARDS, "won_cards.<side>": CARDS, "last_trick_won.<side>": CARDS,
}  # fmt: skip
#: The members of a mid-hand position (``reference_engine/position.py`` documents the format).
POSITION_MEMBERS: dict[str, Shape] = {
    "dealer": SEAT, "hands": per_seat(CARDS), "muestra": CARD, "trump": SUIT, "stock": CARDS, "leader": SEAT,
    "trick": PLAYED, "last_trick": PLAYED, "last_trick_winner": SEAT, "card_points": SCORES, "tricks_won": SCORES,
    "sung": many({"seat": SEAT, "suit": SUIT}), "carried": SCORES, "carried_malas": SCORES, "first_over": SIDE,
    "won_cards": per_side(CARDS), "match_points": SCORES, "cotos": SCORES,
}  # fmt: skip
#: The members of a setup (a deck order or an explicit deal; its position has its own table).
SETUP_MEMBERS: dict[str, Shape] = {"dealer": SEAT, "deck": CARDS, "hands": per_seat(CARDS), "muestra": CARD,
                                   "stock": CARDS, "position": POSITION_MEMBERS}  # fmt: skip
#: The field suffixes that index a seat or a side (``hand.<seat>``).
SUFFIXES = {"<seat>": SEAT, "<side>": SIDE}


def _index(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


@dataclass(frozen=True)
class Mapper:
    """One symmetry at a table of ``players`` seats, applied to values of a :data:`Shape`."""

    symmetry: Symmetry
    players: int

    def seat(self, value: Any) -> Any:
        index = _index(value)
        if index is None or not 0 <= index < self.players:
            return value  # not a seat: the driver's checks say so
        return (index + self.symmetry.rotation) % self.players

    def side(self, value: Any) -> Any:
        index = _index(value)
        if index is None or index not in (0, 1):
            return value
        return (index + self.symmetry.rotation) % 2

    def suit(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) == 1 and value in SUIT_ORDER:
            return self.symmetry.suits[SUIT_ORDER.index(value)]
        return value

    def card(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) == 2 and value[1] in SUIT_ORDER:
            return value[0] + self.suit(value[1])
        return value

    def apply(self, value: Any, shape: Shape) -> Any:
        """``value`` of ``shape`` in the transformed world."""
        if value is None:
            return None
        if isinstance(shape, str):
            scalar: dict[str, Callable[[Any], Any]] = {SEAT: self.seat, SIDE: self.side, CARD: self.card,
                                                       SUIT: self.suit}  # fmt: skip
            return scalar[shape](value) if shape in scalar else value
        if isinstance(shape, Mapping):
            if not isinstance(value, Mapping):
                return value
            return {key: self.apply(item, shape[key]) if key in shape else item for key, item in value.items()}
        kind = shape[0]
        if not isinstance(value, list):
            return value
        if kind == "list":
            return [self.apply(item, shape[1]) for item in value]
        if kind == "pair":
            if len(value) != len(shape) - 1:
                return value
            return [self.apply(item, part) for item, part in zip(value, shape[1:], strict=True)]
        move = self.seat if kind == "per_seat" else self.side
        size = self.players if kind == "per_seat" else 2
        if len(value) != size:
            return value
        moved: list[Any] = [None] * size
        for index, item in enumerate(value):
            moved[move(index)] = self.apply(item, shape[1])
        return moved

    def inverse(self) -> Mapper:
        return Mapper(self.symmetry.inverse(), self.players)

    def field(self, name: str) -> str:
        """A field name with its seat or side suffix mapped (``hand.1`` -> ``hand.2`` under ``r1``)."""
        head, dot, tail = name.rpartition(".")
        index = _index(int(tail)) if dot and tail.isdigit() else None
        if index is None:
            return name
        for suffix, kind in SUFFIXES.items():
            if f"{head}.{suffix}" in _FIELD_NAMES:
                return f"{head}.{self.apply(index, kind)}"
        return name

    def field_shape(self, name: str) -> Shape:
        """The shape of the value of field ``name`` (``"plain"`` for one that carries nothing to map)."""
        head, dot, tail = name.rpartition(".")
        if dot and tail.isdigit():
            for suffix in SUFFIXES:
                if f"{head}.{suffix}" in FIELD_VALUES:
                    return FIELD_VALUES[f"{head}.{suffix}"]
        return FIELD_VALUES.get(name, "plain")

    def event(self, event: Mapping[str, JSON]) -> dict[str, JSON]:
        members = EVENT_MEMBERS.get(str(event.get("type")), {})
        mapped: dict[str, JSON] = self.apply(event, members)
        return mapped

    def setup(self, setup: Setup) -> dict[str, JSON]:
        mapped: dict[str, JSON] = self.apply(setup, SETUP_MEMBERS)
        position = setup.get("position")
        unset = ("leader", "last_trick_winner", "dealer")
        if isinstance(position, Mapping) and not position.get("trick") and all(position.get(k) is None for k in unset):
            # the format's last default leader, seat 0, is a seat like any other: it turns with the table
            mapped["position"] = {**mapped["position"], "leader": self.seat(0)}
        return mapped


def _field_names() -> frozenset[str]:
    from guinote_conformance.adapters.vocabulary import STATE_FIELDS

    return frozenset(STATE_FIELDS)


_FIELD_NAMES = _field_names()


# ---------------------------------------------------------------------------------- the wrapper


class SymmetricGame:
    """A game of the engine under test, played in the transformed world and seen in the scenario's."""

    def __init__(self, game: GameHandle, mapper: Mapper) -> None:
        self.game = game
        self.forward = mapper
        self.back = mapper.inverse()

    def legal_actions(self) -> list[dict[str, JSON]]:
        return [self.back.apply(action, ACTION_MEMBERS) for action in self.game.legal_actions()]

    def apply(self, action: Action) -> Outcome:
        outcome = self.game.apply(self.forward.apply(action, ACTION_MEMBERS))
        if isinstance(outcome, Accepted):
            return Accepted([self.back.event(event) for event in outcome.events])
        return outcome

    def state(self, name: str) -> JSON:
        return self.back.apply(self.game.state(self.forward.field(name)), self.forward.field_shape(name))

    def observation(self, seat: int, name: str) -> JSON:
        value = self.game.observation(self.forward.seat(seat), self.forward.field(name))
        return self.back.apply(value, self.forward.field_shape(name))

    def unknowable(self, action: Mapping[str, JSON]) -> str | None:
        """What the engine's game cannot tell (:class:`~guinote_conformance.engines.explicit_draw.PartlyKnown`)."""
        if isinstance(self.game, PartlyKnown):
            return self.game.unknowable(self.forward.apply(action, ACTION_MEMBERS))
        return None

    def end(self) -> None:
        end_game(self.game)


class SymmetricEngine:
    """An engine whose games are played under ``symmetry`` (the table's size read from each setup's flags)."""

    def __init__(self, engine: Engine, symmetry: Symmetry) -> None:
        self.engine = engine
        self.symmetry = symmetry

    def info(self) -> EngineInfo:
        return self.engine.info()

    def start(self, setup: Setup) -> GameHandle:
        flags = setup.get("flags")
        players = str(flags.get("players", "4")) if isinstance(flags, Mapping) else "4"
        mapper = Mapper(self.symmetry, int(players) if players.isdigit() and int(players) > 0 else 4)
        return SymmetricGame(self.engine.start(mapper.setup(setup)), mapper)

    def close(self) -> None:
        self.engine.close()

    def __getattr__(self, name: str) -> Any:  # e.g. stderr_tail of a subprocess engine
        return getattr(self.engine, name)


def asymmetric_reason(scenario: Scenario, rules: Mapping[str, RuleEntry]) -> str | None:
    """Why ``scenario`` does not hold under the symmetries of the game: a rule it is tagged with
    says so in the rule index (``asymmetric = "..."``); it then runs as written only."""
    for rule in scenario.rules:
        entry = rules.get(rule)
        if entry is not None and entry.asymmetric:
            return f"{rule} does not hold with the seats rotated or the suits relabelled: {entry.asymmetric}"
    return None


def sampled_runs(key: str, tables: Sequence[int]) -> tuple[int, Symmetry] | None:
    """The sampled run of scenario ``key``: the index of the (engine, profile) case it plays under,
    among those it can play (``tables``: each one's number of players), and the symmetry; ``None``
    when it can play none."""
    if not tables:
        return None
    index = pick(key, len(tables))
    return index, sample(key, tables[index])


__all__ = [
    "ACTION_MEMBERS",
    "EVENT_MEMBERS",
    "FIELD_VALUES",
    "IDENTITY",
    "MODES",
    "POSITION_MEMBERS",
    "SYMMETRIES_ENV",
    "Mapper",
    "SymmetricEngine",
    "SymmetricGame",
    "Symmetry",
    "SymmetryError",
    "check_mode",
    "chosen",
    "group",
    "sample",
    "sampled_runs",
    "symmetries_line",
]
