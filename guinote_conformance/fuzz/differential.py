"""Differential play: an engine and the reference play the same actions, and every step is compared.

Scenarios pin down each rule in a chosen situation; differential play reaches the situations
nobody thought of. The reference decides everything: it is dealt a deck, a policy chooses each
action among the reference's legal actions (now and then an illegal one, to probe refusals),
and the whole hand is played on the reference first. The engine under test then plays the same
actions, in one ``batch`` request when it declares the capability (see
``docs/checking/protocol.md``), else one call at a time; after every action both answers are
compared (:func:`~guinote_conformance.oracle.steps.compare_steps`): acceptance, events, state fields and
the legal actions that follow. The first difference ends the comparison, to be named by its cause
(:mod:`guinote_conformance.oracle.divergence`). A comparison may be given subjects it leaves out
(``ignored``, :func:`~guinote_conformance.oracle.steps.subject_key`) and a :data:`Judge` that records each
difference and passes over those play can go past, so that a game goes on past them
(:data:`~guinote_conformance.oracle.steps.GOES_ON`). The steps of a hand both engines played already (an
``own_shuffle`` engine's) are compared by :func:`compare_played`.

The fuzzer does this for every action of thousands of hands, so the comparison is kept cheap:
an engine played one call at a time is compared as it answers, one plain equality per step
(member by member only when that fails); the fields of a step are read in one call from a
handle that offers ``state_fields(names)`` (the reference's); a state difference found where the
field was not read at every step is traced to its first step by replaying the actions one at a
time, every field read (:func:`first_difference` replays a whole example so, for the shrinker);
the rich explanation of a divergence is worked out only once it is found.

In: the engine's game and the reference's steps of a hand (:mod:`guinote_conformance.fuzz.play`). Out: the
index of the first step that differs and the :class:`~guinote_conformance.oracle.steps.Difference`, or
none (:func:`compare_batch`; :func:`begin_compare` sends a protocol engine its ``batch`` ahead of
the answer). :mod:`guinote_conformance.fuzz.fuzzer` runs many games and groups the divergences.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import cast

from guinote_conformance.adapters.gcp.json_text import canonical, known_texts, same_value
from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Engine,
    EngineError,
    GameHandle,
    Outcome,
    end_game,
)
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.fuzz.consequences import TRICK, earlier_root, stage_of
from guinote_conformance.fuzz.play import apply_step, batch_of, step_of_batch, steps_of_batch, unknown_of_batch
from guinote_conformance.oracle.steps import (
    FIELDS,
    GOES_ON,
    Difference,
    Step,
    compare_steps,
    read_fields,
    snapshot,
    subject_key,
)

#: What the caller of a comparison decides about a difference it found at a step (its index, the
#: difference): ``True`` to pass over it and go on, no longer comparing its subject
#: (:func:`~guinote_conformance.oracle.steps.subject_key`); ``False`` to stop there. The fuzzer's records every one and
#: says
#: ``True`` to a divergence that play can go past (:data:`~guinote_conformance.oracle.steps.GOES_ON`).
Judge = Callable[[int, Difference], bool]


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


#: Differences looked at past the first, at one step, for the one it follows from (:func:`_compare`).
_LOOK_PAST = 8


def _compare(
    expected: Step, got: Step, *, obligations: Obligations, ignored: AbstractSet[str] = frozenset()
) -> Difference | None:
    """The first difference between the two steps (:func:`compare_steps`), unless another at the
    same step is of an earlier stage of the hand (:func:`~guinote_conformance.fuzz.consequences.stage_of`):
    a hand won by another side and its scores differing at the last trick is a wrong count first,
    whose winner follows from it (the comparison checks the events' members, then the state, in
    their own order: the winner before the scores, the ``hand_over`` event before the totals)."""
    first = compare_steps(expected, got, obligations=obligations, ignored=ignored)
    stage = stage_of(first) if first is not None else None
    if first is None or stage is None or stage == TRICK:
        return first
    seen, found = set(ignored), first
    for _ in range(_LOOK_PAST):
        seen.add(subject_key(found.kind, found.subject))
        following = compare_steps(expected, got, obligations=obligations, ignored=seen)
        if following is None:
            break
        if earlier_root(first, following):
            return following
        found = following
    return first


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
    begin = getattr(handle, "batch_begin", None) if use_batch and batch_of(handle) is not None else None
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
        batch = batch_of(handle) if use_batch else None
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
            found = _compare_answers(actions, reference_steps, receive(), obligations, passing, expected)
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
            found = _compare(mine, theirs, obligations=obligations, ignored=self.ignored)
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
    """The canonical text (:func:`guinote_conformance.adapters.protocol.canonical`) of each step of the ``batch``
    answer that the reference's steps after the first predict; ``None`` for a refused action (its
    message is the engine's own). An engine's step with the very same text is valid as the
    reference's answers are: the adapter need not check it against the schema
    (:func:`guinote_conformance.adapters.protocol.batch_answer_is_valid`)."""
    # (the members of outcome_answer(Accepted(step.events)), written out: this runs for every step)
    return [
        canonical({"accepted": True, "events": step.events, "legal": step.legal, "state": step.state})
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
    expected: Sequence[bytes | None] = (),
) -> tuple[int, Difference] | None:
    """Compare the steps of the ``batch`` answer for every action with the reference's, in order.

    A step whose canonical text is the one the reference's step predicts (``expected``:
    :func:`expected_steps`) is the reference's answer itself: there is nothing to compare (most
    steps; the answer's ``unknown_fields`` aside, which the steps then read as unknown)."""
    raw_steps = cast(list[dict[str, JSON]], answer["steps"])
    if len(raw_steps) != len(actions):
        steps_of_batch(actions, answer)  # (refuses an answer of another length, as it always did)
    unknown = unknown_of_batch(answer)
    # (a step's unknown fields are not in its text; an answer the wire adapter checked says which it found known)
    if expected and not unknown:
        found: list[bool] | None = getattr(answer, "known_steps", None)
        known = found if found is not None and len(found) == len(raw_steps) else known_texts(raw_steps, expected)
    else:
        known = [False] * len(raw_steps)
    ignored = passing.ignored
    count = len(raw_steps) + 1  # (the steps are made only where a comparison needs them)
    for index in range(min(count, len(reference_steps))):
        mine = reference_steps[index]
        if index == 0:  # the state before the batch: its action (if any) was compared in the last batch
            mine = Step(None, True, [], "", "", mine.legal, mine.state)
            before = answer["before"]
            theirs = Step(None, True, [], "", "", before["legal"], {**before["state"], **unknown})
        else:
            if known[index - 1]:
                continue
            theirs = step_of_batch(actions[index - 1], raw_steps[index - 1], unknown)
        difference = _compare(mine, theirs, obligations=obligations, ignored=ignored)
        if difference is not None:
            difference = passing.first(index, mine, theirs, obligations, difference)
            if difference is not None:
                return index, difference
    if count < len(reference_steps):
        failure = Difference("failure", "batch", "an answer for every action", f"{count - 1} answers")
        passing.goes_on(count, failure)  # (never passed over: the judge hears of it)
        return count, failure
    return None


def compare_played(
    handle: GameHandle,
    reference_steps: Sequence[Step],
    engine_steps: Sequence[Step],
    *,
    obligations: Obligations,
    ignored: set[str] | None = None,
    judge: Judge | None = None,
) -> Comparison:
    """The steps both engines played already, compared (a hand the engine dealt from its own
    shuffle and played first: :mod:`guinote_conformance.fuzz.own_deal`), from the second on (the first, the
    end of the hand before, was compared with that hand). The same fields were read of both at each
    step, so a state difference is put to the ``judge`` where it is found (it may have arisen a few
    steps before, where the field was not read: the shrinker's replay finds the very step). ``handle``
    is the engine's game after them."""
    passing = _Passing(ignored if ignored is not None else set(), judge, handle)
    reference_steps = required_only(reference_steps, obligations)
    found: tuple[int, Difference] | None = None
    for index in range(1, min(len(reference_steps), len(engine_steps))):
        mine, theirs = reference_steps[index], engine_steps[index]
        difference = _compare(mine, theirs, obligations=obligations, ignored=passing.ignored)
        while difference is not None and passing.goes_on(index, difference):
            difference = _compare(mine, theirs, obligations=obligations, ignored=passing.ignored)
        if difference is not None:
            found = index, difference
            break
    return Comparison(lambda: found, in_flight=False, passing=passing)


def _compare_in_turn(
    handle: GameHandle, reference_steps: Sequence[Step], obligations: Obligations, passing: _Passing
) -> tuple[int, Difference] | None:
    """Apply the actions one call at a time, each compared as soon as it is answered.

    Most steps agree in every member: a plain equality of the answers settles them, and only
    a step that fails it is compared member by member (:func:`compare_steps`)."""
    first = reference_steps[0]
    theirs = snapshot(handle, None, list(first.state))
    before = Step(None, True, [], "", "", first.legal, first.state)
    difference = _compare(before, theirs, obligations=obligations, ignored=passing.ignored)
    if difference is not None:
        difference = passing.first(0, before, theirs, obligations, difference)
        if difference is not None:
            return 0, difference
    apply, legal_actions = handle.apply, handle.legal_actions
    # a schema-checked in-process engine (guinote_conformance.adapters.checked) need not check an answer that is the
    # reference's own
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
            difference = _compare(mine, theirs, obligations=obligations, ignored=passing.ignored)
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
            difference = _compare(mine, other, obligations=obligations, ignored=ignored)
            while difference is not None and passing is not None and passing.goes_on(index, difference):
                difference = _compare(mine, other, obligations=obligations, ignored=ignored)
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
                difference = _compare(mine, other, obligations=obligations, ignored=ignored)
                if difference is not None:
                    return index, difference, mine
        finally:
            with contextlib.suppress(EngineError):  # compared: the engine may forget the game
                end_game(theirs)
    except EngineError as failure:
        return index, Difference("failure", _failure_kind(failure), "an answer", _first_line(failure)), mine
    return None


def _failure_kind(error: EngineError) -> str:
    return str(getattr(error, "kind", "") or type(error).__name__)


def _first_line(error: Exception) -> str:
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


__all__ = [
    "Comparison",
    "Judge",
    "begin_compare",
    "compare_batch",
    "compare_played",
    "first_difference",
]
