"""Differential play: an engine and the reference play the same actions, and every step is compared.

Scenarios pin down each rule in a chosen situation; differential play reaches the situations
nobody thought of. The reference decides everything: it is dealt a deck, a policy chooses each
action among the reference's legal actions (now and then an illegal one, to probe refusals),
and the whole hand is played on the reference first. The engine under test then plays the same
actions, in one ``batch`` request when it declares the capability (see
``docs/checking/protocol.md``), else one call at a time; after every action both answers are
compared: acceptance, events, state fields and the legal actions that follow. The first
difference is a :class:`Divergence`, with its :class:`Cause` (what differed, and the rule the
reference applied there) and a record that replays it. A comparison may be given subjects it
leaves out (``ignored``, :func:`subject_key`) and a :data:`Judge` that passes over the
differences it knows, so that a game goes on past a known divergence (:data:`GOES_ON`).

The fuzzer does this for every action of thousands of hands, so the comparison is kept cheap:
an engine played one call at a time is compared as it answers, one plain equality per step
(member by member only when that fails); the fields of a step are read in one call from a
handle that offers ``state_fields(names)`` (the reference's); the rich explanation of a
divergence is worked out only once it is found.

This module owns the comparison and the record format; :mod:`conformance.fuzz.fuzzer` runs many games
and groups the divergences, :mod:`conformance.fuzz.steering` chooses deals and actions,
:mod:`conformance.fuzz.scenario` shrinks a divergence and writes it as a Gherkin scenario.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, cast

from adapters.gcp.json_text import canonical, same_value
from adapters.interface import (
    JSON,
    Accepted,
    Engine,
    EngineError,
    GameHandle,
    Outcome,
    Rejected,
    UnknownField,
    end_game,
    outcome_answer,
)
from adapters.obligations import Obligations
from adapters.vocabulary import SUITS
from conformance.oracle.rules import rules_of_events

RECORD_FORMAT = "guinote-divergence/2"

#: State fields compared after every action (names of the vocabulary).
FIELDS = (
    "phase",
    "turn",
    "trick",
    "muestra",
    "stock_count",
    "card_points.0",
    "card_points.1",
    "cante_points.0",
    "cante_points.1",
    "total.0",
    "total.1",
    "hand_winner",
    "hand_in_point",
    "match.points.0",
    "match.points.1",
)
UNKNOWN_FIELD = "(unknown field)"

#: Kinds of divergence, in the order they are checked after an action.
KINDS = {
    "acceptance": "one engine accepted the action, the other refused it",
    "refusal code": "both refused the action, with different reason codes",
    "event": "the events of the action differ",
    "state": "a state field differs",
    "legal": "the legal actions differ",
    "failure": "the engine failed (crashed, hung, broke the protocol)",
    "length": "the hand did not end",
}
#: Kinds of divergence that play can go past: the engine accepted or refused the action as the
#: reference did, so both games go on with the same actions (a known divergence of these kinds is
#: passed over and its subject no longer compared in that game: :func:`subject_key`). A known
#: ``legal`` difference is passed over too, until the reference plays an action of that type
#: that the engine refuses (or the reverse): play cannot go past that.
GOES_ON = frozenset({"refusal code", "event", "state", "legal"})


def subject_key(kind: str, subject: str) -> str:
    """What a known divergence silences for the rest of its game, as a comparison's ``ignored``
    holds it: ``state total.0`` (that field), ``event hand_over.reason`` (that member),
    ``event ultimas`` (that event, missing or extra), ``refusal code play`` (the reason codes of
    the refusals of that action type), ``legal cante (missing)`` (the legal actions of that type
    one engine lacks)."""
    return f"{kind} {subject}"


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


@dataclass(slots=True)
class Step:
    """What one engine answered to one action, and its state after it (``action`` is ``None``
    for the snapshot before the first action). The fuzzer makes one per action and engine: the
    hot paths pass every member positionally."""

    action: dict[str, JSON] | None
    accepted: bool = True
    events: list[dict[str, JSON]] = field(default_factory=list)
    code: str = ""
    rule: str = ""
    legal: list[dict[str, JSON]] = field(default_factory=list)
    state: dict[str, JSON] = field(default_factory=dict)


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
    #: the subjects of the known divergences passed over before it in its game (:func:`subject_key`):
    #: a replay or a shrink of the example does not compare them either
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


# ---------------------------------------------------------------------------------------- playing


#: The members of an action of the vocabulary (common.json's ``action``): the others an engine may
#: add (``x-`` members) are not compared.
ACTION_MEMBERS = ("type", "seat", "card", "suit", "rank")


def action_key(action: Mapping[str, JSON]) -> str:
    """One action as a comparable string: its members of the vocabulary, a whole number as the
    integer it is (``2.0`` is ``2``: numbers compare by value); a ``deal`` stands for a deal of
    any deck order."""
    if action.get("type") == "deal":
        return "deal"
    members = {name: action[name] for name in ACTION_MEMBERS if name in action}
    seat = members.get("seat")
    if isinstance(seat, float) and seat.is_integer():
        members["seat"] = int(seat)
    return json.dumps(members, sort_keys=True, separators=(",", ":"), default=str)


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


def fields_after(events: Sequence[Mapping[str, JSON]]) -> tuple[str, ...]:
    """The state fields worth comparing after an action with these (reference) events.

    Reading every field after every action would cost more than playing; a field is read
    where the reference's events say it changed, and all of them at the deal and the end of a
    hand. A difference found later than it arose is traced back by :func:`compare_batch`."""
    if len(events) == 1:
        return _FIELDS_AFTER.get(str(events[0].get("type")), FIELDS)
    kinds = tuple([str(event.get("type")) for event in events])
    found = _FIELDS_AFTER_KINDS.get(kinds)
    if found is None:
        names: dict[str, None] = {}
        for kind in kinds:
            names.update(dict.fromkeys(_FIELDS_AFTER.get(kind, FIELDS)))
        found = _FIELDS_AFTER_KINDS[kinds] = tuple(names)
    return found


_POINTS = ("card_points.0", "card_points.1", "total.0", "total.1")
_FIELDS_AFTER: dict[str, tuple[str, ...]] = {
    "card_played": (),  # the next legal actions show whose turn it is
    "trick_won": ("turn", "trick", *_POINTS),
    "cards_drawn": ("phase", "stock_count", "muestra"),
    "arrastre_begins": ("phase",),
    "cante": ("cante_points.0", "cante_points.1", "total.0", "total.1"),
    "exchange": ("muestra",),
    "ultimas": _POINTS,
}
#: The fields after the steps of several events, by their types (a trick won with its draw...).
_FIELDS_AFTER_KINDS: dict[tuple[str, ...], tuple[str, ...]] = {}


def read_fields(game: GameHandle, names: Sequence[str]) -> dict[str, JSON]:
    """The fields ``names`` of ``game`` (a field it does not know reads as :data:`UNKNOWN_FIELD`).

    A handle with a ``state_fields(names)`` method (the reference's) answers them in one call,
    leaving out the fields it does not know; any other handle is asked one field at a time."""
    bulk: Callable[[Sequence[str]], dict[str, JSON]] | None = getattr(game, "state_fields", None)
    if bulk is not None:
        values = bulk(names)
        return values if len(values) == len(names) else {name: values.get(name, UNKNOWN_FIELD) for name in names}
    state: dict[str, JSON] = {}
    read = game.state
    for name in names:
        try:
            state[name] = read(name)
        except UnknownField:
            state[name] = UNKNOWN_FIELD
    return state


def snapshot(game: GameHandle, action: dict[str, JSON] | None, fields: Sequence[str] = FIELDS) -> Step:
    """The legal actions and ``fields`` of ``game`` now, as a :class:`Step` of ``action``."""
    state = read_fields(game, fields) if fields else {}
    return Step(action, True, [], "", "", list(game.legal_actions()), state)


def apply_step(game: GameHandle, action: dict[str, JSON], fields: Sequence[str] | None = None) -> Step:
    """Apply ``action`` to ``game`` and take the snapshot that follows it (of ``fields``, or of
    the fields its events may have changed)."""
    outcome = game.apply(action)
    if isinstance(outcome, Accepted):
        events = list(outcome.events)
        names = fields_after(events) if fields is None else fields
        state = read_fields(game, names) if names else {}
        return Step(action, True, events, "", "", list(game.legal_actions()), state)
    state = read_fields(game, fields) if fields else {}  # a refused action changes nothing
    return Step(action, False, [], outcome.code, outcome.rule, list(game.legal_actions()), state)


def play_actions(
    game: GameHandle,
    actions: Sequence[dict[str, JSON]],
    fields: Sequence[Sequence[str]] | None = None,
    *,
    use_batch: bool = True,
) -> list[Step]:
    """Apply ``actions`` in turn; the snapshot before them, then one step per action.

    ``fields[i]`` are the fields to read after action ``i`` (``fields[0]``: before any;
    default: every field). An engine handle with a ``batch`` method (a protocol engine that
    declares the ``batch`` capability) answers them all in one request; any other handle is
    asked one call at a time.
    """
    wanted = fields if fields is not None else [FIELDS] * (len(actions) + 1)
    batch = _batch_of(game) if use_batch else None
    if batch is not None:
        return steps_of_batch(actions, batch(actions, list(wanted[0]), [list(names) for names in wanted[1:]]))
    steps = [snapshot(game, None, wanted[0])]
    steps.extend(apply_step(game, action, wanted[number]) for number, action in enumerate(actions, 1))
    return steps


def _batch_of(game: GameHandle) -> Callable[..., dict[str, JSON]] | None:
    """The handle's ``batch`` method, if it has one and its engine declares the capability."""
    batch: Callable[..., dict[str, JSON]] | None = getattr(game, "batch", None)
    return batch if batch is not None and getattr(game, "batch_supported", False) else None


def steps_of_batch(actions: Sequence[dict[str, JSON]], answer: Mapping[str, JSON]) -> list[Step]:
    """The steps of a ``batch`` answer (fields the engine does not know read as unknown)."""
    unknown = dict.fromkeys(answer.get("unknown_fields") or [], UNKNOWN_FIELD)
    before = answer["before"]
    steps = [Step(None, True, [], "", "", before["legal"], {**before["state"], **unknown})]
    for action, raw in zip(actions, answer["steps"], strict=True):
        state = {**raw["state"], **unknown} if unknown else raw["state"]
        if raw["accepted"]:
            steps.append(Step(action, True, list(raw.get("events") or []), "", "", raw["legal"], state))
        else:
            code, rule = str(raw.get("code", "")), str(raw.get("rule", ""))
            steps.append(Step(action, False, [], code, rule, raw["legal"], state))
    return steps


# ---------------------------------------------------------------------------------------- comparing


@dataclass(frozen=True)
class Difference:
    """The first difference between two steps: its kind, subject, and the two values."""

    kind: str
    subject: str
    expected: JSON
    got: JSON


#: What the caller of a comparison decides about a difference it found at a step (its index, the
#: difference): ``True`` to pass over it and go on, no longer comparing its subject
#: (:func:`subject_key`); ``False`` to stop there. The fuzzer's says ``True`` to a known
#: divergence that play can go past (:data:`GOES_ON`).
Judge = Callable[[int, Difference], bool]


def compare_steps(
    expected: Step, got: Step, *, obligations: Obligations, ignored: AbstractSet[str] = frozenset()
) -> Difference | None:
    """The first difference between the reference's step and the engine's, or ``None``: in what
    the protocol requires of the engine (``obligations``), nothing else, and not in the subjects
    ``ignored`` (:func:`subject_key`: the known divergences passed over earlier in the game)."""
    action = expected.action
    if action is not None:
        if expected.accepted != got.accepted:
            return Difference(
                "acceptance",
                str(action.get("type")),
                "accepted" if expected.accepted else f"refused as {expected.code}",
                "accepted" if got.accepted else f"refused as {got.code}",
            )
        if (
            not expected.accepted
            and expected.code != got.code
            and obligations.gives_reason_code(expected.code, expected.rule)
            and not (ignored and f"refusal code {action.get('type')}" in ignored)
        ):
            return Difference("refusal code", str(action.get("type")), expected.code, got.code)
        if expected.accepted and expected.events != got.events:
            difference = event_difference(expected.events, got.events, obligations, ignored)
            if difference is not None:
                return difference
    for name, value in expected.state.items():
        other = got.state.get(name, UNKNOWN_FIELD)
        if not same_value(value, other) and obligations.field(name, value) is None:  # (a field false is not 0)
            if ignored and f"state {name}" in ignored:
                continue
            return Difference("state", name, value, other)
    if expected.legal == got.legal:
        return None
    offers = obligations.offers
    mine_legal = {action_key(a): a for a in expected.legal if offers(a, expected.state)}
    theirs_legal = {action_key(a): a for a in got.legal if offers(a, expected.state)}
    if mine_legal.keys() != theirs_legal.keys():
        missing = [mine_legal[k] for k in sorted(mine_legal.keys() - theirs_legal.keys())]
        extra = [theirs_legal[k] for k in sorted(theirs_legal.keys() - mine_legal.keys())]
        if ignored:
            missing = [a for a in missing if f"legal {a.get('type')} (missing)" not in ignored]
            extra = [a for a in extra if f"legal {a.get('type')} (extra)" not in ignored]
            if not missing and not extra:
                return None
        first = (missing or extra)[0]
        side = "missing" if missing else "extra"
        return Difference("legal", f"{first.get('type')} ({side})", missing, extra)
    return None


def event_difference(
    expected: Sequence[Mapping[str, JSON]],
    got: Sequence[Mapping[str, JSON]],
    obligations: Obligations,
    ignored: AbstractSet[str] = frozenset(),
) -> Difference | None:
    """The first difference between the reference's events and the engine's, in order: a member
    both have that the protocol requires of the engine (``hand_over.reason``), or an event one of
    them lacks or has in another place. An engine's own event types are not compared, nor the
    members and events ``ignored`` holds (:func:`subject_key`)."""
    mine, theirs = obligations.vocabulary_events(expected), obligations.vocabulary_events(got)
    if ignored:  # an event known to be missing, extra or out of order: the others are compared
        dropped = {
            event.get("type")
            for event in (*mine, *theirs)
            if f"event {event.get('type')}" in ignored or f"event {event.get('type')} (order)" in ignored
        }
        if dropped:
            mine = [event for event in mine if event.get("type") not in dropped]
            theirs = [event for event in theirs if event.get("type") not in dropped]
    kinds_mine = [str(event.get("type")) for event in mine]
    kinds_theirs = [str(event.get("type")) for event in theirs]
    for ours, other in zip(mine, theirs, strict=False):
        kind = str(ours.get("type"))
        if kind != other.get("type"):
            subject = kind if kind not in kinds_theirs else f"{kind} (order)"
            return Difference("event", subject, kinds_mine, kinds_theirs)
        for name in obligations.compared(other, ours):
            if not _same_member(ours[name], other.get(name)):
                if ignored and f"event {kind}.{name}" in ignored:
                    continue
                return Difference("event", f"{kind}.{name}", ours[name], other.get(name))
    if len(kinds_mine) == len(kinds_theirs):
        return None
    longer = kinds_mine if len(kinds_mine) > len(kinds_theirs) else kinds_theirs
    return Difference("event", longer[min(len(kinds_mine), len(kinds_theirs))], kinds_mine, kinds_theirs)


def _same_member(expected: JSON, got: JSON) -> bool:
    """The same value of an event member: a list of cards (``trick_won.cards``) in any order."""
    if same_value(expected, got):
        return True
    strings = isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got)
    if strings and all(isinstance(item, str) for item in expected) and all(isinstance(item, str) for item in got):
        return sorted(expected) == sorted(got)
    return False


# ---------------------------------------------------------------------------------------- rules of a step


def rule_of_step(step: Step) -> str:
    """The rule the reference applied at ``step``: its refusal's rule, or the rule behind the
    most telling of its events (see :func:`conformance.oracle.rules.rules_of_events`)."""

    if not step.accepted:
        return step.rule
    rules = rules_of_events(step.events, step.state)
    return rules[0] if rules else ""


def legal_rule(reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]], extra: JSON) -> str:
    """The rule behind a legal-actions difference: the reference's refusal of an action the
    engine offers besides, or the rule of the events of an action the engine does not offer."""
    if not isinstance(extra, list) and not isinstance(extra, dict):
        return ""
    action = extra[0] if isinstance(extra, list) and extra else extra
    if not isinstance(action, dict) or action.get("type") == "deal":
        return ""
    game = reference.start(setup)
    for previous in actions:
        game.apply(previous)
    if action.get("type") == "play":
        allowing = play_allowed_by(game, action)
        if allowing:
            return allowing
    outcome = game.apply(action)
    if isinstance(outcome, Rejected):
        return outcome.rule
    return rule_of_step(Step(action, events=list(outcome.events), state=snapshot(game, None).state))


def play_allowed_by(game: GameHandle, action: Mapping[str, JSON]) -> str:
    """The rule that lets the reference accept a card the engine does not offer: free play
    (PLAY-07), a lead (ARR-14), following suit (ARR-01), trumping (ARR-03) or a discard (ARR-08)."""
    if game.state("phase") == "free":
        return "PLAY-07"
    trick = game.state("trick")
    card = str(action.get("card", ""))
    if not trick:
        return "ARR-14"
    if card[1:] == str(trick[0])[1:]:
        return "ARR-01"
    return "ARR-03" if card[1:] == game.state("trump") else "ARR-08"


def compare_batch(
    handle: GameHandle,
    reference_steps: Sequence[Step],
    *,
    obligations: Obligations,
    restart: Callable[[], GameHandle],
    restart_reference: Callable[[], GameHandle],
    use_batch: bool = True,
    ignored: set[str] | None = None,
    judge: Judge | None = None,
) -> tuple[int, Difference] | None:
    """Play the actions of ``reference_steps`` on the engine's ``handle``; the index of the
    first step that differs and the difference, or ``None``. ``reference_steps[0]`` is the
    reference's snapshot before these actions.

    ``restart()`` and ``restart_reference()`` give fresh games at the same point as ``handle``:
    a failure during a batch, or a state field that differs where it was not read at every
    step, is traced to its first step by replaying the actions one at a time, every field read.

    ``ignored`` holds the subjects not compared (:func:`subject_key`). With a ``judge``, each
    difference found is put to it: one it passes over has its subject added to ``ignored`` and
    the comparison goes on (the rest of that step too); the first it does not pass over is the
    result. Without one, the first difference is.
    """
    return begin_compare(
        handle, reference_steps, obligations=obligations, restart=restart, restart_reference=restart_reference,
        use_batch=use_batch, ignored=ignored, judge=judge,
    ).result()  # fmt: skip


class Comparison:
    """A comparison of one batch of steps under way (:func:`begin_compare`): :meth:`result`
    finishes it. ``in_flight`` while the engine is still working on it (a protocol engine
    asked ahead of time); otherwise the result is already known.

    :attr:`handle` is the engine's game after the compared steps, once :meth:`result` is known:
    the handle compared, or the game a trace replayed when the comparison went on past a
    divergence it traced (the handle compared is then ended)."""

    def __init__(
        self, finish: Callable[[], tuple[int, Difference] | None], *, in_flight: bool, passing: _Passing
    ) -> None:
        self._finish = finish
        self.in_flight = in_flight
        self._passing = passing  # (holds the handle: ``finish`` must not hold the comparison, a cycle)

    def result(self) -> tuple[int, Difference] | None:
        """The index of the first step that differs and the difference, or ``None``."""
        return self._finish()

    @property
    def handle(self) -> GameHandle:
        return self._passing.handle


def begin_compare(
    handle: GameHandle,
    reference_steps: Sequence[Step],
    *,
    obligations: Obligations,
    restart: Callable[[], GameHandle],
    restart_reference: Callable[[], GameHandle],
    use_batch: bool = True,
    ignored: set[str] | None = None,
    judge: Judge | None = None,
) -> Comparison:
    """:func:`compare_batch` begun: a handle whose ``batch`` can be sent ahead of its answer
    (``batch_begin``: a protocol engine) is sent the request now and works on it while the
    caller goes on (the fuzzer plays the next hand on the reference, so the two processes use
    two cores); its answer is read and compared by :meth:`Comparison.result`. Any other handle
    is compared now."""
    actions = [step.action for step in reference_steps[1:] if step.action is not None]
    reference_steps = required_only(reference_steps, obligations)
    begin = getattr(handle, "batch_begin", None) if use_batch and _batch_of(handle) is not None else None
    passing = _Passing(ignored if ignored is not None else set(), judge, handle)

    def traced(found: tuple[int, Difference] | None) -> tuple[int, Difference] | None:
        if found is None or found[1].kind != "state":
            return found
        if judge is None:
            return _trace(actions[: found[0]], restart, restart_reference, obligations, None, passing) or found
        # going on past known divergences: the whole batch is traced, and play goes on from the trace's game
        result = _trace(actions, restart, restart_reference, obligations, None, passing)
        if result is None and subject_key(found[1].kind, found[1].subject) not in passing.ignored:
            # the trace did not find it again (an engine whose answers change): the difference stands
            return None if passing.goes_on(*found) else found
        return result

    def known(found: tuple[int, Difference] | None) -> Comparison:
        return Comparison(lambda: found, in_flight=False, passing=passing)

    if begin is None:
        batch = _batch_of(handle) if use_batch else None
        try:
            if batch is None:
                found = _compare_in_turn(handle, reference_steps, obligations, passing)
            else:
                answer = batch(*_batch_request(actions, reference_steps))
                found = _compare_answers(actions, reference_steps, answer, obligations, passing)
        except EngineError as error:
            return known(_trace(actions, restart, restart_reference, obligations, error, passing))
        return known(traced(found))
    expected = expected_steps(reference_steps)  # the steps the reference predicts are checked cheaply
    try:
        receive: Callable[[], dict[str, JSON]] = begin(*_batch_request(actions, reference_steps), expected)
    except EngineError as error:
        return known(_trace(actions, restart, restart_reference, obligations, error, passing))

    def finish() -> tuple[int, Difference] | None:
        try:
            found = _compare_answers(actions, reference_steps, receive(), obligations, passing)
        except EngineError as error:
            return _trace(actions, restart, restart_reference, obligations, error, passing)
        return traced(found)

    return Comparison(finish, in_flight=True, passing=passing)


@dataclass(slots=True)
class _Passing:
    """The subjects a comparison does not compare, the judge that adds to them, and the engine's
    game it compares (a trace that goes on past a known divergence replaces it with its own)."""

    ignored: set[str]
    judge: Judge | None
    handle: GameHandle

    def goes_on(self, index: int, difference: Difference) -> bool:
        """Put ``difference`` to the judge: whether the comparison passes over it (its subject
        then ignored). Only a difference of a kind play can go past (:data:`GOES_ON`) is passed
        over; the judge hears of every other all the same (it records them)."""
        if self.judge is None or not self.judge(index, difference) or difference.kind not in GOES_ON:
            return False
        self.ignored.add(subject_key(difference.kind, difference.subject))
        return True

    def first(
        self, index: int, mine: Step, theirs: Step, obligations: Obligations, difference: Difference
    ) -> Difference | None:
        """The first difference between the two steps (``difference`` found already) that the
        comparison does not pass over. A state difference is left to the trace (it may have
        arisen at an earlier step, where the field was not read)."""
        if self.judge is None:
            return difference
        found: Difference | None = difference
        while found is not None and found.kind != "state" and self.goes_on(index, found):
            found = compare_steps(mine, theirs, obligations=obligations, ignored=self.ignored)
        return found


def required_only(steps: Sequence[Step], obligations: Obligations) -> Sequence[Step]:
    """``steps`` with only the state fields the protocol requires of the engine: the others are
    neither asked of it nor compared (the match score of an engine without ``match``...)."""
    excluded = obligations.unrequired_fields
    if not excluded or all(excluded.isdisjoint(step.state) for step in steps):
        return steps
    kept = []
    for step in steps:
        if not excluded.isdisjoint(step.state):
            state = {name: value for name, value in step.state.items() if name not in excluded}
            step = Step(step.action, step.accepted, step.events, step.code, step.rule, step.legal, state)
        kept.append(step)
    return kept


def _batch_request(
    actions: Sequence[dict[str, JSON]], reference_steps: Sequence[Step]
) -> tuple[Sequence[dict[str, JSON]], list[str], list[list[str]]]:
    """The arguments of the ``batch`` of ``actions``: the fields before them, and after each."""
    fields = [list(step.state) for step in reference_steps]
    return actions, fields[0], fields[1:]


def expected_steps(reference_steps: Sequence[Step]) -> list[bytes | None]:
    """The canonical text (:func:`adapters.protocol.canonical`) of each step of the ``batch``
    answer that the reference's steps after the first predict; ``None`` for a refused action (its
    message is the engine's own). An engine's step with the very same text is valid as the
    reference's answers are: the adapter need not check it against the schema
    (:func:`adapters.protocol.batch_answer_is_valid`)."""
    return [
        canonical({**outcome_answer(Accepted(step.events)), "legal": step.legal, "state": step.state})
        if step.accepted
        else None
        for step in reference_steps[1:]
    ]


def _compare_answers(
    actions: Sequence[dict[str, JSON]],
    reference_steps: Sequence[Step],
    answer: Mapping[str, JSON],
    obligations: Obligations,
    passing: _Passing,
) -> tuple[int, Difference] | None:
    """Compare the steps of the ``batch`` answer for every action with the reference's, in order."""
    steps = steps_of_batch(actions, answer)
    ignored = passing.ignored
    for index, (mine, theirs) in enumerate(zip(reference_steps, steps, strict=False)):
        if index == 0:  # the state before the batch: its action (if any) was compared in the last batch
            mine = Step(None, True, [], "", "", mine.legal, mine.state)
        difference = compare_steps(mine, theirs, obligations=obligations, ignored=ignored)
        if difference is not None:
            difference = passing.first(index, mine, theirs, obligations, difference)
            if difference is not None:
                return index, difference
    if len(steps) < len(reference_steps):
        failure = Difference("failure", "batch", "an answer for every action", f"{len(steps) - 1} answers")
        passing.goes_on(len(steps), failure)  # (never passed over: the judge hears of it)
        return len(steps), failure
    return None


def _compare_in_turn(
    handle: GameHandle, reference_steps: Sequence[Step], obligations: Obligations, passing: _Passing
) -> tuple[int, Difference] | None:
    """Apply the actions one call at a time, each compared as soon as it is answered.

    Most steps agree in every member: a plain equality of the answers settles them, and only
    a step that fails it is compared member by member (:func:`compare_steps`)."""
    first = reference_steps[0]
    theirs = snapshot(handle, None, list(first.state))
    before = Step(None, True, [], "", "", first.legal, first.state)
    difference = compare_steps(before, theirs, obligations=obligations, ignored=passing.ignored)
    if difference is not None:
        difference = passing.first(0, before, theirs, obligations, difference)
        if difference is not None:
            return 0, difference
    apply, legal_actions = handle.apply, handle.legal_actions
    # a schema-checked in-process engine (adapters.checked) need not check an answer that is the reference's own
    expects = getattr(type(handle), "expects_answers", False)
    apply_expecting = cast(Callable[[dict[str, JSON], bytes | None], Outcome], apply)
    legal_expecting = cast(Callable[[bytes | None], list[dict[str, JSON]]], legal_actions)
    for index in range(1, len(reference_steps)):
        mine = reference_steps[index]
        action = mine.action
        assert action is not None
        if expects:
            outcome = apply_expecting(action, canonical(mine.events) if mine.accepted else None)
        else:
            outcome = apply(action)
        if isinstance(outcome, Accepted):
            accepted, events, code, rule = True, outcome.events, "", ""
            same = mine.accepted and events == mine.events
        else:
            accepted, events, code, rule = False, [], outcome.code, outcome.rule
            same = not mine.accepted and (code == mine.code or not obligations.gives_reason_code(mine.code, mine.rule))
        wanted = mine.state
        if wanted:
            state = read_fields(handle, list(wanted))
            same = same and same_value(wanted, state)  # (not ==: a field that is false is not 0)
        else:
            state = {}
        legal = legal_expecting(canonical(mine.legal)) if expects else legal_actions()
        if type(legal) is not list:
            legal = list(legal)
        if not (same and legal == mine.legal):
            theirs = Step(action, accepted, list(events), code, rule, list(legal), state)
            difference = compare_steps(mine, theirs, obligations=obligations, ignored=passing.ignored)
            if difference is not None:
                difference = passing.first(index, mine, theirs, obligations, difference)
                if difference is not None:
                    return index, difference
    return None


def _trace(
    actions: Sequence[dict[str, JSON]],
    restart: Callable[[], GameHandle],
    restart_reference: Callable[[], GameHandle],
    obligations: Obligations,
    error: EngineError | None,
    passing: _Passing | None = None,
) -> tuple[int, Difference] | None:
    """The first step of ``actions`` where the engine differs or fails, every field read.

    With ``passing`` and its judge (a comparison that goes on past known divergences), a
    difference the judge passes over is not the result: the trace goes on, and its game becomes
    the comparison's :attr:`~Comparison.handle` (the one compared until then is ended)."""
    ours = restart_reference()
    ignored: AbstractSet[str] = passing.ignored if passing is not None else frozenset()
    index = 0
    found: tuple[int, Difference] | None = None
    try:
        theirs = restart()
        if passing is not None and passing.judge is not None:
            with contextlib.suppress(EngineError):  # the trace's game replaces it
                end_game(passing.handle)
            passing.handle = theirs
        for index in range(len(actions) + 1):
            if index == 0:
                mine, other = snapshot(ours, None), snapshot(theirs, None)
            else:
                mine, other = (
                    apply_step(ours, actions[index - 1], FIELDS),
                    apply_step(theirs, actions[index - 1], FIELDS),
                )
            difference = compare_steps(mine, other, obligations=obligations, ignored=ignored)
            while difference is not None and passing is not None and passing.goes_on(index, difference):
                difference = compare_steps(mine, other, obligations=obligations, ignored=ignored)
            if difference is not None:
                return index, difference
    except EngineError as failure:
        found = index, Difference("failure", _failure_kind(failure), "an answer", _first_line(failure))
    if found is None and error is not None:
        found = index, Difference("failure", _failure_kind(error), "an answer", _first_line(error))
    if found is not None and passing is not None:
        passing.goes_on(*found)  # (a failure is never passed over: the judge hears of it all the same)
    return found


def first_difference(
    reference: Engine,
    engine: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    *,
    obligations: Obligations,
    ignored: AbstractSet[str] = frozenset(),
) -> tuple[int, Difference, Step] | None:
    """Replay ``actions`` one at a time on both engines, every field read: the first step that
    differs (0: before any action) in a subject not ``ignored``, the difference and the
    reference's step there."""
    ours = reference.start(setup)
    index = 0
    mine = snapshot(ours, None)
    try:
        theirs = engine.start(setup)
        try:
            other = snapshot(theirs, None)
            for index in range(len(actions) + 1):
                if index:
                    action = actions[index - 1]
                    mine, other = apply_step(ours, action, FIELDS), apply_step(theirs, action, FIELDS)
                difference = compare_steps(mine, other, obligations=obligations, ignored=ignored)
                if difference is not None:
                    return index, difference, mine
        finally:
            with contextlib.suppress(EngineError):  # compared: the engine may forget the game
                end_game(theirs)
    except EngineError as failure:
        return index, Difference("failure", _failure_kind(failure), "an answer", _first_line(failure)), mine
    return None


#: Where the engine offers only cantes (or tutes, or a claim) and not the draw or the next card
#: the reference allows too, it does not let the player decline them: singing is optional.
DECLINE_RULE = "CANTE-07"
_DECLARATIONS = frozenset({"cante", "tute", "claim"})
#: What a player does instead of singing: draw, play on, or exchange the seven.
_DECLINED_BY = frozenset({"draw", "play", "exchange"})


def may_declare(legal: Sequence[Mapping[str, JSON]]) -> bool:
    """Whether ``legal`` (the reference's) offers a cante, a tute or a claim: where an engine
    that will not let one be declined refuses the draw or the next card."""
    return any(action.get("type") in _DECLARATIONS for action in legal)


def declines(missing: Sequence[Mapping[str, JSON]], offered: Any) -> bool:
    """Whether an engine that lacks ``missing`` (the draw, or a card to play) and offers only
    ``offered``, all cantes, tutes or claims, does not let the player decline them (CANTE-07)."""
    kinds = {str(action.get("type")) for action in missing if isinstance(action, Mapping)}
    offered_kinds = {str(action.get("type")) for action in offered or [] if isinstance(action, Mapping)}
    declined = bool(kinds & _DECLINED_BY) and kinds <= _DECLINED_BY | _DECLARATIONS
    return declined and bool(offered_kinds) and offered_kinds <= _DECLARATIONS


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
        offered = difference.got if difference.subject.endswith("(extra)") else difference.expected
        try:
            rule = legal_rule(reference, setup, actions, offered)
        except Exception:  # the rule is a label: never let finding it stop a run
            rule = ""
    elif step is not None and step.action is not None:
        rule = rule_of_step(step)
    return Cause(difference.kind, difference.subject, rule)


def _failure_kind(error: EngineError) -> str:
    return str(getattr(error, "kind", "") or type(error).__name__)


def _first_line(error: Exception) -> str:
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def _show(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


__all__ = [
    "FIELDS",
    "GOES_ON",
    "KINDS",
    "RECORD_FORMAT",
    "Cause",
    "Comparison",
    "Config",
    "Difference",
    "Divergence",
    "Judge",
    "Record",
    "RecordError",
    "Step",
    "action_key",
    "apply_step",
    "begin_compare",
    "cause_of",
    "compare_batch",
    "compare_steps",
    "declines",
    "describe_action",
    "event_difference",
    "fields_after",
    "first_difference",
    "legal_rule",
    "load_record",
    "may_declare",
    "play_actions",
    "play_allowed_by",
    "rule_of_step",
    "snapshot",
    "subject_key",
]
