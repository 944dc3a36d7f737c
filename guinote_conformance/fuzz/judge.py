"""The judgement of a difference found during play: its group, and whether play goes on past it.

In: a difference the comparison of a hand's steps found (:mod:`guinote_conformance.fuzz.differential`),
the game's watch (:class:`~guinote_conformance.fuzz.consequences.Watch`: what was found earlier in the
game) and the run's report. Out: the divergence recorded in its group (or in the group of the
divergence it follows from), and whether play goes on past it (:func:`judge`, a
:data:`~guinote_conformance.fuzz.differential.Judge` once bound to its game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from guinote_conformance.adapters.interface import JSON, Engine
from guinote_conformance.fuzz.consequences import Watch, parts_courses
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.known import Known, find_known
from guinote_conformance.fuzz.mano import mano_differs
from guinote_conformance.oracle.divergence import Config, Divergence, cause_of
from guinote_conformance.oracle.steps import GOES_ON, Difference, Step, subject_key


class Recorder(Protocol):
    """What the judgement needs of the fuzzer (:class:`~guinote_conformance.fuzz.fuzzer.Fuzzer`): the
    reference, the known divergences, and how a divergence is recorded in its group."""

    reference: Engine
    known: Sequence[Known]

    def record(self, report: FuzzReport, divergence: Divergence) -> Group: ...


def judge(
    fuzzer: Recorder,
    watch: Watch,
    report: FuzzReport,
    config: Config,
    setup: dict[str, JSON],
    seed: int,
    strategy: str,
    history: list[dict[str, JSON]],
    hand: tuple[Sequence[Step], int],
    fresh: bool,
    realigns: bool,
    index: int,
    difference: Difference,
) -> bool:
    """A difference the comparison of a hand's steps found at ``index``: recorded in the group of its
    cause (known or not), and whether play goes on past it (a :data:`~guinote_conformance.fuzz.differential.Judge`).
    One of a kind play can go past (:data:`~guinote_conformance.oracle.steps.GOES_ON`) is passed over, its
    subject no longer compared in the game. An action one engine refuses and the other takes is
    played around (:meth:`Watch.play_around`), in the group of the ``legal`` difference it follows
    from if there is one; a failure ends the game, counted in its group's :attr:`~Group.ended`. A
    difference that follows from a divergence recorded earlier in the game
    (:mod:`guinote_conformance.fuzz.consequences`: a total after a wrong count) is no group of its own:
    passed over, or, where the two games no longer stand in the same state, the end of the game,
    counted in the earlier divergence's group. One that parts the games' courses ends the game."""
    steps, skip = hand  # (the steps before ``setup``: its deal, where it is a position after it)
    step = steps[index]
    if realigns and mano_differs(step, difference, fresh):
        watch.realign = index  # (the fuzzer records it, and plays the hand from the engine's mano)
        return False
    actions = history + [s.action for s in steps[1 + skip : index + 1] if s.action is not None]
    root = watch.root_of(difference)
    if root is not None and root in report.groups and difference.kind in GOES_ON:
        if parts_courses(difference, following=True):
            report.groups[root].ended += 1
            watch.stopped = report.groups[root].example
            return False
        report.passed_over += 1
        return True
    cause = cause_of(fuzzer.reference, setup, actions, difference, step)
    divergence = Divergence(config, setup, actions, cause, difference.expected, difference.got, seed, strategy,
                            passed_over=tuple(sorted(watch.ignored)))  # fmt: skip
    # (a divergence known in its own right is its own group, even where it follows from a legal one)
    following = watch.follows_from(difference) if find_known(fuzzer.known, cause, config.label) is None else None
    # an action one engine refuses and the other takes: the hand is played again from the step
    # before, around it (a few times a game); otherwise play cannot go past it
    around = difference.kind == "acceptance" and realigns and watch.play_around(index, step.action)
    report.passed_over += around
    if following is not None and following in report.groups:  # (it follows from a legal difference)
        if not around:
            report.groups[following].ended += 1
            watch.stopped = divergence
        return False
    group = fuzzer.record(report, divergence)
    watch.note(difference, cause, index if realigns else None)
    if watch.follows_table:
        return False  # (the fuzzer plays the rest of the hand from the engine's trick winner or draw)
    if difference.kind in GOES_ON and not parts_courses(difference):
        report.passed_over += 1
        if difference.kind == "legal":
            watch.legal[subject_key(difference.kind, difference.subject)] = cause
        return True
    if not around:
        group.ended += 1
        watch.stopped = divergence
    return False


__all__ = ["judge"]
