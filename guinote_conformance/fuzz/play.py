"""Playing actions on one game: the steps it answers, one call at a time or in one ``batch``.

In: a game (the reference's or an engine's) and the actions to apply. Out: the
:class:`~guinote_conformance.oracle.steps.Step` of each action, after a snapshot of the game before them
(:func:`play_actions`, :func:`apply_step`).

The rule: reading every field after every action would cost more than playing, so after an action
only the fields its (reference) events say may have changed are read (:func:`fields_after`), and
all of them at a deal and at the end of a hand. A game whose engine declares the ``batch``
capability (:func:`batch_of`) answers all the actions in one request, read back as steps
(:func:`steps_of_batch`). The fuzzer plays its games on the reference with these, and
:mod:`guinote_conformance.fuzz.differential` replays them on the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from guinote_conformance.adapters.interface import JSON, Accepted, Engine, GameHandle
from guinote_conformance.oracle.steps import FIELDS, UNKNOWN_FIELD, Step, read_fields, snapshot


def fields_after(events: Sequence[Mapping[str, JSON]]) -> tuple[str, ...]:
    """The state fields worth comparing after an action with these (reference) events.

    Reading every field after every action would cost more than playing; a field is read
    where the reference's events say it changed, and all of them at the deal and the end of a
    hand. A difference found later than it arose is traced back by
    :func:`~guinote_conformance.fuzz.differential.compare_batch`."""
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
    batch = batch_of(game) if use_batch else None
    if batch is not None:
        return steps_of_batch(actions, batch(actions, list(wanted[0]), [list(names) for names in wanted[1:]]))
    steps = [snapshot(game, None, wanted[0])]
    steps.extend(apply_step(game, action, wanted[number]) for number, action in enumerate(actions, 1))
    return steps


def replayed(engine: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]], count: int) -> GameHandle:
    """A new game of ``engine`` after the first ``count`` of ``actions``."""
    game = engine.start(setup)
    for action in actions[:count]:
        game.apply(action)
    return game


def batch_of(game: GameHandle) -> Callable[..., dict[str, JSON]] | None:
    """The handle's ``batch`` method, if it has one and its engine declares the capability."""
    batch: Callable[..., dict[str, JSON]] | None = getattr(game, "batch", None)
    return batch if batch is not None and getattr(game, "batch_supported", False) else None


def steps_of_batch(actions: Sequence[dict[str, JSON]], answer: Mapping[str, JSON]) -> list[Step]:
    """The steps of a ``batch`` answer (fields the engine does not know read as unknown)."""
    unknown = unknown_of_batch(answer)
    before = answer["before"]
    steps = [Step(None, True, [], "", "", before["legal"], {**before["state"], **unknown})]
    for action, raw in zip(actions, answer["steps"], strict=True):
        steps.append(step_of_batch(action, raw, unknown))
    return steps


def unknown_of_batch(answer: Mapping[str, JSON]) -> dict[str, JSON]:
    """The fields a ``batch`` answer says the engine does not know, each read as :data:`UNKNOWN_FIELD`."""
    return dict.fromkeys(answer.get("unknown_fields") or [], UNKNOWN_FIELD)


def step_of_batch(action: dict[str, JSON], raw: Mapping[str, JSON], unknown: Mapping[str, JSON]) -> Step:
    """The step of ``action`` in a ``batch`` answer, ``raw`` (``unknown``: :func:`unknown_of_batch`)."""
    state = {**raw["state"], **unknown} if unknown else raw["state"]
    if raw["accepted"]:
        return Step(action, True, list(raw.get("events") or []), "", "", raw["legal"], state)
    code, rule = str(raw.get("code", "")), str(raw.get("rule", ""))
    return Step(action, False, [], code, rule, raw["legal"], state)


__all__ = [
    "apply_step",
    "batch_of",
    "fields_after",
    "play_actions",
    "replayed",
]
