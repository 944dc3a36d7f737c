"""A divergence: where an engine first parted from the reference, why, and the record that replays it.

In: a :class:`~guinote_conformance.oracle.steps.Difference` found after some actions, the reference's step
there, and the setup and actions that lead to it, under a :class:`Config`. Out: its :class:`Cause`
(:func:`cause_of`), the key divergences are grouped by; the :class:`Divergence` that holds it with
its example, described in words (:func:`describe_action`) and written as a replayable record that
:func:`load_record` reads back.

The rule: a divergence is named by the rule the engine's answer breaks where the two parted: for
an event member or a state field that differs, the rule that decides it (:func:`owned_rule`,
declared in :mod:`guinote_conformance.oracle.owners`: a trick's winner is the trick-winning rule, a missing
diez de últimas SCORE-01, a count off by the side's cantes CANTE-04), failing that the rule of the
most telling of the reference's events (:func:`~guinote_conformance.oracle.legality.rule_of_step`); for a
difference in what the engine allows (the legal actions, a refusal's reason), the rule
:mod:`guinote_conformance.oracle.legality` finds. A group of a specific rule that a plainer group of the
same run takes in is folded into it (:func:`subsuming`). The first divergence of a failed run's
transcript (:mod:`guinote_conformance.oracle.transcript`) names its rule with the same helpers.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import JSON, Engine
from guinote_conformance.adapters.vocabulary import SUITS
from guinote_conformance.oracle.legality import (
    DECLINE_RULE,
    code_rule,
    declines,
    engine_plays,
    legal_rule,
    ranking_rule,
    rule_of_step,
)
from guinote_conformance.oracle.owners import Trick, owner_of
from guinote_conformance.oracle.steps import Difference, Step, action_key, subject_key

RECORD_FORMAT = "guinote-divergence/2"


@dataclass(frozen=True)
class Config:
    """The rules one game is played under: a label (``lascuarenta+mano_a_mano``,
    ``ludoteka[tute=wins_point]``) and the value of every flag."""

    label: str
    flags: Mapping[str, str]
    #: the engine's own profile the configuration starts from (its names are its own: ``+`` and
    #: ``[`` may be in them, so the label is never split to find it)
    profile: str = ""

    @property
    def players(self) -> int:
        return int(self.flags.get("players", "4"))

    @property
    def deck_size(self) -> int:
        return int(self.flags.get("deck", "40"))


@dataclass(frozen=True)
class Cause:
    """Why two engines diverged, the key divergences are grouped by: the kind, what differed
    (a field, an event member, an action type) and the rule the reference applied there."""

    kind: str
    subject: str
    rule: str

    def __str__(self) -> str:
        return f"{self.kind} {self.subject}" + (f" [{self.rule}]" if self.rule else "")


@dataclass
class Divergence:
    """Where the engine under test first disagreed with the reference."""

    config: Config
    setup: dict[str, JSON]
    actions: list[dict[str, JSON]]
    cause: Cause
    expected: JSON
    got: JSON
    seed: int = 0
    strategy: str = ""
    #: the rule IDs the reference's events and refusals showed in the game, up to the divergence
    message: str = ""
    #: the subjects of the known divergences passed over before it in its game
    #: (:func:`~guinote_conformance.oracle.steps.subject_key`): a replay or a shrink of the example does not
    #: compare them either
    passed_over: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        """How big the example is: actions first, then the cards it shows."""
        return len(self.actions)

    def describe(self) -> str:
        last = describe_action(self.actions[-1]) if self.actions else "before any action"
        where = f"{self.config.label}, seed {self.seed}, after {len(self.actions)} actions (last: {last})"
        if self.passed_over:
            where += f", past the known {', '.join(self.passed_over)}"
        expected, got = _show(self.expected), _show(self.got)
        if self.cause.kind == "legal":
            return f"{where}: legal actions differ: the engine lacks {expected} and offers besides {got}"
        if self.cause.kind == "failure":
            return f"{where}: the engine failed: {self.got}"
        return f"{where}: {self.cause.kind} {self.cause.subject}: expected {expected}, got {got}"

    def record(self) -> dict[str, JSON]:
        """A replayable record: the rules, the setup and the actions that lead to the divergence."""
        return {
            "format": RECORD_FORMAT,
            "config": {"label": self.config.label, "flags": dict(self.config.flags), "profile": self.config.profile},
            "seed": self.seed,
            "strategy": self.strategy,
            "setup": self.setup,
            "actions": self.actions,
            "passed_over": list(self.passed_over),
            "divergence": {
                "kind": self.cause.kind,
                "subject": self.cause.subject,
                "rule": self.cause.rule,
                "expected": self.expected,
                "got": self.got,
            },
        }


#: How each action reads: (as a step of its own, "seat 0 plays Ao"; inside a sentence, "seat 0 playing Ao").
_DESCRIPTIONS = {
    "play": ("seat {seat} plays {card}", "seat {seat} playing {card}"),
    "cante": ("seat {seat} sings {suit}", "seat {seat} singing {suit}"),
    "exchange": ("seat {seat} exchanges for the muestra", "seat {seat} exchanging for the muestra"),
    "claim": ("seat {seat} claims 101", "seat {seat} claiming 101"),
    "tute": ("seat {seat} sings tute of {rank}", "seat {seat} singing tute of {rank}"),
    "draw": ("the cards are drawn", "drawing the cards"),
    "deal": ("the next hand is dealt", "dealing the next hand"),
}
_TUTES = {"R": "reyes", "S": "sotas"}


def describe_action(action: Mapping[str, JSON], *, gerund: bool = False) -> str:
    """An action in words, as the scenarios write it (``seat 1 sings copas``), or as a gerund for
    a sentence about it (``expected seat 1 singing copas to be accepted``)."""
    forms = _DESCRIPTIONS.get(str(action.get("type")))
    if forms is None:
        return json.dumps(dict(action), ensure_ascii=False)
    suit, rank = action.get("suit"), action.get("rank")
    return forms[gerund].format(
        seat=action.get("seat"),
        card=action.get("card"),
        suit=SUITS.get(suit, suit) if isinstance(suit, str) else suit,
        rank=_TUTES.get(rank, rank) if isinstance(rank, str) else rank,
    )


def _show(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


class RecordError(ValueError):
    """A divergence record that cannot be read (the message names the file and the member)."""


@dataclass(frozen=True)
class Record:
    config: Config
    setup: dict[str, JSON]
    actions: list[dict[str, JSON]]
    divergence: dict[str, JSON]
    #: the known divergences passed over before it (:attr:`Divergence.passed_over`)
    passed_over: tuple[str, ...] = ()


def load_record(data: Any, where: str) -> Record:
    """Read a record written by :meth:`Divergence.record` (or the older ``guinote-divergence/1``)."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a divergence record is a JSON object")
    fmt = data.get("format")
    if fmt not in (RECORD_FORMAT, "guinote-divergence/1"):
        raise RecordError(f"{where}: unknown format {fmt!r}; expected {RECORD_FORMAT!r}")
    setup = data.get("setup")
    actions = data.get("actions")
    if not isinstance(setup, dict) or not isinstance(setup.get("flags"), dict):
        raise RecordError(f"{where}: 'setup' must be an object with the 'flags'")
    if not all(isinstance(name, str) and isinstance(value, str) for name, value in setup["flags"].items()):
        raise RecordError(f"{where}: 'setup.flags' must map each flag to its value, a string")
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise RecordError(f"{where}: 'actions' must be a list of action objects")
    passed_over = data.get("passed_over", [])
    if not isinstance(passed_over, list) or not all(isinstance(subject, str) for subject in passed_over):
        raise RecordError(f"{where}: 'passed_over' must be a list of strings (the subjects of known divergences)")
    raw_config = data.get("config") or {"label": str(data.get("profile", "?")), "flags": setup["flags"]}
    if not isinstance(raw_config, dict):
        raise RecordError(f"{where}: 'config' must be an object")
    config = Config(str(raw_config.get("label", "?")), dict(setup["flags"]), str(raw_config.get("profile", "")))
    divergence = data.get("divergence")
    return Record(config, setup, actions, divergence if isinstance(divergence, dict) else {}, tuple(passed_over))


# ---------------------------------------------------------------------------------------- the cause


def cause_of(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step | None,
) -> Cause:
    """The cause of a difference found after ``actions``: the rule the reference applied there
    (for the legal actions, the rule behind the first action only one engine offers)."""
    rule = ""
    missing = difference.expected if isinstance(difference.expected, list) else []
    if difference.kind == "legal" and step is not None and not difference.got and missing:
        keys = {action_key(action) for action in missing if isinstance(action, Mapping)}
        if declines(missing, [action for action in step.legal if action_key(action) not in keys]):
            return Cause(difference.kind, difference.subject, DECLINE_RULE)
    if difference.kind == "legal":
        # a card the engine offers besides breaks the rule of the reference's refusal, which says
        # more than what lets the reference accept a card the engine lacks (a trump offered
        # instead of a card of the suit led breaks ARR-01, not the duty to beat)
        offered = difference.got if difference.got else difference.expected
        try:
            rule = ranking_rule(missing, difference.got) or legal_rule(
                reference, setup, actions, offered, engine_plays(step, missing, difference.got)
            )
        except Exception:  # the rule is a label: never let finding it stop a run
            rule = ""
    elif step is not None and step.action is not None:
        rule = (
            code_rule(reference, setup, actions, difference, step)
            or owned_rule(reference, setup, actions, difference, step)
            or rule_of_step(step)
        )
    return Cause(difference.kind, difference.subject, rule)


#: A plain rule whose group takes in the groups of the more specific rules the same subject can be
#: named by: an engine that refuses even the plainest cante (the trick's winner, before the draw,
#: CANTE-01) refuses the partner's, the one after the draw and the arrastre's for the same reason,
#: not for theirs. (kind, subject) -> (the plain rule, the specific rules it takes in)
SUBSUMED: dict[tuple[str, str], tuple[str, frozenset[str]]] = {
    ("legal", "cante (missing)"): ("CANTE-01", frozenset({"CANTE-05", "CANTE-09", "CANTE-20", "CANTE-25"})),
}


def subsuming(cause: Cause, causes: Collection[Cause]) -> Cause | None:
    """The cause among ``causes`` whose group takes in ``cause``'s, if any: the plain rule's
    (:data:`SUBSUMED`), or, for an action one engine refuses and the other takes, the ``legal``
    difference of the same action and rule (the engine that does not offer a cante refuses it)."""
    plain, specific = SUBSUMED.get((cause.kind, cause.subject), ("", frozenset()))
    wanted = [Cause(cause.kind, cause.subject, plain)] if cause.rule in specific else []
    if cause.kind == "acceptance" and cause.rule:
        wanted += [Cause("legal", f"{cause.subject} ({side})", cause.rule) for side in ("missing", "extra")]
    return next((found for found in wanted if found in causes), None)


def owned_rule(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step,
) -> str:
    """The rule that decides what differs in an event or a state field after ``step``
    (:func:`guinote_conformance.oracle.owners.owner_of`), or ``""`` for another kind of difference."""
    if difference.kind not in ("event", "state") or step.action is None:
        return ""
    subject = subject_key(difference.kind, difference.subject)
    kind = difference.subject.split(".")[0].removesuffix(" (order)")
    # the reference names the rule itself: its event's rule, or the rule that decided its hand
    decisive = "hand_over" if difference.kind == "state" else kind
    named = next((e.get("rule") for e in step.events if e.get("type") == decisive and e.get("rule")), None)
    if named is None and difference.subject == "phase" and difference.expected == "hand_over":
        named = "SCORE-02"
    trick = None
    if subject == "event trick_won.seat" and actions:
        try:
            trick = _trick_of(reference, setup, actions, difference)
        except Exception:  # the rule is a label: never let finding it stop a run
            trick = None
    draws = None
    if subject == "event cards_drawn.draws":
        draws = (difference.expected, difference.got, step.state.get("muestra", "") is None)
    cantes = [step.state.get("cante_points.0", 0), step.state.get("cante_points.1", 0)]
    ends = subject in ("event hand_over", "event hand_over.winner")  # (only there a field may be unread)
    course = course_rule(
        subject, difference, with_fields(reference, setup, actions, step, COURSE_FIELDS) if ends else step
    )
    if course:
        return course
    rule, _ = owner_of(
        subject,
        action=str(step.action.get("type")),
        named=str(named) if named else None,
        trick=trick,
        draws=draws,
        points=(difference.expected, difference.got, cantes),
        expected=difference.expected if isinstance(difference.expected, (int, str)) else None,
    )
    return rule or ""


#: To win a side must pass 100 (an engine that ends the hand on exactly 100 breaks it); only a hand
#: de vueltas stops early (the first hand of a point is played out); every point starts from zero;
#: so does every coto.
PASSING_100, FIRST_HAND_PLAYED_OUT, POINT_FROM_ZERO, COTO_FROM_ZERO = "SCORE-04", "VUELTAS-12", "MATCH-02", "MATCH-12"


#: A side needs thirty malas to take the point.
THIRTY_MALAS = "SCORE-09"

#: What :func:`course_rule` reads of the reference's state.
COURSE_FIELDS = ("total.0", "total.1", "hand_in_point")


def with_fields(
    reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]], step: Step, names: Sequence[str]
) -> Step:
    """``step`` with the state fields ``names`` it lacks read off the reference replayed to it (a
    step reads only the fields its events may change)."""
    missing = [name for name in names if name not in step.state]
    if not missing or not actions:
        return step
    try:
        game = reference.start(setup)
        for previous in actions:
            game.apply(previous)
        read = {name: game.state(name) for name in missing}
    except Exception:  # the rule is a label: never let finding it stop a run
        return step
    return Step(step.action, step.accepted, step.events, step.code, step.rule, step.legal, {**step.state, **read})


def course_rule(subject: str, difference: Difference, step: Step) -> str:
    """The rule an engine breaks where the course of the match parts, read off the reference's
    state after the step: a hand it ends where the reference goes on, with a side on exactly 100
    (:data:`PASSING_100`) or past it in the first hand of a point (:data:`FIRST_HAND_PLAYED_OUT`);
    a total it carries into the deal of a new point (:data:`POINT_FROM_ZERO`); match points it
    keeps once a coto is won (:data:`COTO_FROM_ZERO`). ``""`` otherwise."""
    state = step.state
    thirty = thirty_malas_rule(subject, difference, step)
    if thirty:
        return thirty
    totals = [value for value in (state.get("total.0"), state.get("total.1")) if isinstance(value, int)]
    ended = (subject == "event hand_over" and "hand_over" in (difference.got or [])) or (
        subject == "event hand_over.winner" and difference.expected is None and difference.got is not None
    )
    if ended and isinstance(difference.got, (list, int)):
        if 100 in totals:
            return PASSING_100
        if state.get("hand_in_point") == 0 and totals and max(totals) > 100:
            return FIRST_HAND_PLAYED_OUT
    kind = step.action.get("type") if step.action is not None else None
    if subject.startswith("state total") and kind == "deal" and state.get("hand_in_point") == 0:
        return POINT_FROM_ZERO
    coto_won = any(event.get("type") == "coto_won" for event in step.events)
    if coto_won and subject.startswith(("state match.points", "event point_won.points")):
        return COTO_FROM_ZERO
    return ""


def thirty_malas_rule(subject: str, difference: Difference, step: Step) -> str:
    """Where the reference stopped a side for lack of the thirty malas (its ``hand_over`` says
    ``thirty_malas_*``) and the engine settled the point otherwise: :data:`THIRTY_MALAS` when the
    engine gave the point to that side; else the rule the reference's event names (SCORE-12:
    what becomes of the point). ``""`` for any other difference.

    Not SCORE-10 (what counts toward the thirty), even for an engine that counts the cantes:
    play all but never tells the two apart. A side past 100 in a hand whose cards fall short of 30
    holds more than 60 points of its cantes (with the diez de últimas), so cards and cantes together
    reach 30 (only cantes carried from earlier hands, under ``thirty_malas_scope=all_hands``, can
    make it otherwise); a scenario that sets the count up (``run``) shows what the engine counts."""
    if subject != "event hand_over.winner" or not isinstance(difference.got, int):
        return ""
    over = next((e for e in step.events if e.get("type") == "hand_over"), None)
    if over is None or not str(over.get("reason", "")).startswith("thirty_malas"):
        return ""
    winner = over.get("winner")
    if isinstance(winner, int):
        short = 1 - winner  # thirty_malas_lose / _cannot_win: the point went to the other side
    else:
        totals = [
            value if isinstance(value, int) else -1 for value in (step.state.get("total.0"), step.state.get("total.1"))
        ]
        short = 0 if totals[0] >= totals[1] else 1  # the side past 100 (both: the reference went on)
    if difference.got == short:
        return THIRTY_MALAS
    return str(over.get("rule") or "")  # the side short of them is agreed on: what follows is wrong


def _trick_of(
    reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]], difference: Difference
) -> Trick:
    """The trick the last of ``actions`` completed, each seat's card, replayed on the reference."""
    game = reference.start(setup)
    for previous in actions[:-1]:
        game.apply(previous)
    seats, cards = game.state("trick_seats") or [], game.state("trick") or []
    played = {int(seat): str(card) for seat, card in zip(seats, cards, strict=False)}
    last = actions[-1]
    if isinstance(last.get("seat"), int):
        played[int(str(last["seat"]))] = str(last.get("card"))
    return Trick(played, difference.expected, difference.got)


__all__ = [
    "COTO_FROM_ZERO",
    "COURSE_FIELDS",
    "FIRST_HAND_PLAYED_OUT",
    "PASSING_100",
    "POINT_FROM_ZERO",
    "RECORD_FORMAT",
    "SUBSUMED",
    "THIRTY_MALAS",
    "Cause",
    "Config",
    "Divergence",
    "Record",
    "RecordError",
    "cause_of",
    "course_rule",
    "describe_action",
    "load_record",
    "owned_rule",
    "subsuming",
    "thirty_malas_rule",
    "with_fields",
]
