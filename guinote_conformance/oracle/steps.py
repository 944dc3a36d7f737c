"""One step of a game on two engines, and the first difference between them.

In: what the reference and the engine under test each answered to one action, as a :class:`Step`:
accepted, or refused with a reason code and a rule; the events; the legal actions that follow; the
state fields read after it (:data:`FIELDS`, by :func:`read_fields`; :func:`snapshot` takes a step
of a game as it stands). Out: the first :class:`Difference` between the two steps
(:func:`compare_steps`), of one of the :data:`KINDS`, or none.

The rule: the steps are compared in what the protocol requires of the engine
(:class:`~guinote_conformance.adapters.obligations.Obligations`: its capabilities and version), nothing else: the
acceptance of the action, the reason code of a refusal, the events in order
(:func:`event_difference`: a member the protocol requires, a list of cards in any order; an engine's
own events are not compared), the state fields (a field that is false is not 0; once the hand is
decided, only those a rule decides: :data:`UNDECIDED_ONCE_DECIDED` are not) and the legal actions
as a set (:func:`action_key`; while the suite's draw is pending, an ``automatic_draw`` engine's
exchanges, cantes and tutes are not: :data:`UNTOLD_BEFORE_DRAW`). A subject ``ignored`` (:func:`subject_key`: a known
divergence passed over earlier in the game) is not compared. The fuzzer's differential play
(:mod:`guinote_conformance.fuzz.differential`), the first divergence of a failed run's transcript
(:mod:`guinote_conformance.oracle.transcript`) and the scenario driver compare with these.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from guinote_conformance.adapters.gcp.json_text import same_value
from guinote_conformance.adapters.interface import JSON, GameHandle, UnknownField
from guinote_conformance.adapters.obligations import Obligations

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


#: The phases of a hand that is decided (over, early or not: a claim, 101 reached, thirty malas...).
HAND_DECIDED = frozenset({"hand_over", "match_over"})
#: The state fields no rule decides once the hand is decided, not compared then: the cards left to
#: draw, the muestra still shown, the trick and the turn of a hand that stopped before its end (who
#: won, why, the scores and the totals are compared, as the ``hand_over`` event's members).
UNDECIDED_ONCE_DECIDED = frozenset({"stock_count", "muestra", "trick", "turn"})
#: The capability of an engine that draws by itself (:mod:`guinote_conformance.engines.explicit_draw`).
AUTOMATIC_DRAW = "automatic_draw"
DRAW: dict[str, JSON] = {"type": "draw"}
#: The action types whose legality an ``automatic_draw`` engine's view cannot tell while the suite's
#: draw is pending: having drawn, it offers the exchange and the cantes of its hand after the draw
#: (:meth:`~guinote_conformance.engines.explicit_draw.ExplicitDrawGame.unknowable`). Not compared in the
#: legal list there; one that is played is still compared in its acceptance.
UNTOLD_BEFORE_DRAW = frozenset({"exchange", "cante", "tute"})


def subject_key(kind: str, subject: str) -> str:
    """What a known divergence silences for the rest of its game, as a comparison's ``ignored``
    holds it: ``state total.0`` (that field), ``event hand_over.reason`` (that member),
    ``event ultimas`` (that event, missing or extra), ``refusal code play`` (the reason codes of
    the refusals of that action type), ``legal cante (missing)`` (the legal actions of that type
    one engine lacks)."""
    return f"{kind} {subject}"


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


@dataclass(frozen=True)
class Difference:
    """The first difference between two steps: its kind, subject, and the two values."""

    kind: str
    subject: str
    expected: JSON
    got: JSON


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
    decided = expected.state.get("phase") in HAND_DECIDED
    for name, value in expected.state.items():
        other = got.state.get(name, UNKNOWN_FIELD)
        if not same_value(value, other) and obligations.field(name, value) is None:  # (a field false is not 0)
            if (ignored and f"state {name}" in ignored) or (decided and name in UNDECIDED_ONCE_DECIDED):
                continue
            return Difference("state", name, value, other)
    if expected.legal == got.legal:
        return None
    offers = obligations.offers
    if AUTOMATIC_DRAW in obligations.capabilities and DRAW in expected.legal:
        # an engine that draws by itself has drawn already: its view before the draw cannot tell these
        mine_legal = {action_key(a): a for a in expected.legal if a.get("type") not in UNTOLD_BEFORE_DRAW}
        theirs_legal = {action_key(a): a for a in got.legal if a.get("type") not in UNTOLD_BEFORE_DRAW}
    else:
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


__all__ = [
    "FIELDS",
    "GOES_ON",
    "HAND_DECIDED",
    "KINDS",
    "UNDECIDED_ONCE_DECIDED",
    "UNTOLD_BEFORE_DRAW",
    "Difference",
    "Step",
    "action_key",
    "compare_steps",
    "event_difference",
    "snapshot",
    "subject_key",
]
