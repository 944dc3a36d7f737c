"""What follows from a divergence already recorded in a game: passed over unrecorded, or the game's end.

A bug shows first where it is (a diez de últimas worth 0, a cante left out of the total, a total not
carried de vueltas, a point scored 2 instead of 1) and then wherever its effect reaches. Those later
differences are not bugs of their own, and a group for each would bury the one the engine has. The
differences a game's comparisons read fall in four stages, each computed from the one before it:

* **the tricks** (:data:`TRICK`): who deals, who took each trick, whose turn it is, the draw's order;
* **the count** (:data:`COUNT`): the points of the hand, its scores and its totals;
* **the decision** (:data:`DECISION`): who won the hand, why, whether it is played de vueltas;
* **the match** (:data:`MATCH`): the points and cotos won, the match's winner.

Once a divergence of one stage is recorded in a game (its *root*), a later difference of that stage
or of a later one follows from it (:meth:`Watch.root_of`): it is not recorded in a group of its own.
Where the two games still stand in the same visible state it is passed over, its subject no longer
compared (a total off by ten); where they no longer do (:func:`parts_courses`: one hand is over and the
other goes on, one point is won and the other goes de vueltas, one deals a new point and the other a
hand de vueltas) play cannot go on from the same state: the game ends there, counted among the games
the root's group ended (:attr:`~guinote_conformance.fuzz.findings.Group.ended`). A root that itself parts the
courses (an engine that ends the hand at 100, a claim it wrongly grants) is recorded and ends its game.

A ``legal`` difference the comparison passed over has its own consequence, kept here too
(:meth:`Watch.follows_from`): the engine's refusal of an action of that type ends the game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from guinote_conformance.adapters.interface import JSON
from guinote_conformance.oracle.divergence import Cause, Divergence
from guinote_conformance.oracle.steps import HAND_DECIDED, Difference, action_key, subject_key

#: Most actions a game plays around (:meth:`Watch.play_around`): each costs a replay of the game.
MOST_AVOIDED = 8

#: The stages, in the order each is computed from the one before it.
TRICK, COUNT, DECISION, MATCH = 0, 1, 2, 3

#: The subjects of the tricks' course: who deals (and so who holds what), who took a trick, whose
#: turn it is, the order of the draw that follows (a legal play differs once one of those does: it
#: follows them, never a root itself).
TRICK_SUBJECTS = frozenset(
    {
        "event hand_dealt.dealer",
        "state dealer",
        "event trick_won.seat",
        "event trick_won.side",
        "event cards_drawn.draws",
        "state turn",
        "state last_trick_winner",
        "state last_trick",
        "state tricks_won",
        "state won_cards",
        "legal play",
    }
)
#: The subjects of the totals a hand carries into the next (de vueltas).
TOTALS = frozenset({"state total", "event hand_over.totals", "event de_vueltas.totals"})
#: Subjects that follow from a root and are never one: a card one engine lets a seat play and the
#: other does not is a rule of its own (the arrastre's) unless the seat or its hand already differ.
FOLLOWING_ONLY = frozenset({"legal play"})
#: Subjects never taken before another difference of the same step (:func:`earlier_root`): the turn
#: after a hand one engine ended is that ending's consequence, not a root of an earlier stage.
NEVER_FIRST = FOLLOWING_ONLY | {"state turn"}

#: The subjects of the count: the points of the hand (cards, últimas, cantes), its scores, its totals.
COUNT_SUBJECTS = frozenset(
    {
        "event trick_won.points",
        "event ultimas",
        "event cante.value",
        "event hand_over.scores",
        "event hand_over.totals",
        "event hand_over.card_points",
        "event de_vueltas.totals",
        "state card_points",
        "state cante_points",
        "state total",
        "state score",
        "state ultimas",
    }
)
#: The subjects of the decision of a hand: its winner and reason, whether the point goes de vueltas,
#: the phase once one of the hands is over.
DECISION_SUBJECTS = frozenset(
    {
        "event hand_over",
        "event de_vueltas",
        "state hand_winner",
        "state hand_reason",
        "state hand_rule",
        "state hand_in_point",
        "state de_vueltas",
        "state phase",
    }
)
#: The subjects of the match: the points and cotos won, the coto's and the match's winners, and the
#: deal of the next hand (offered on one side only once a hand or the match is over on one side only).
MATCH_SUBJECTS = frozenset({"event point_won", "event coto_won", "event match_won", "state match", "legal deal"})

#: The subjects whose difference means the two games no longer stand in the same state: a hand over
#: on one side only, or won by another side; a point won on one side and de vueltas on the other; a
#: coto or the match won on one side only; a deal offered on one side only. After a root, also
#: another seat to play, or another card it may play (:data:`COURSE_AFTER_ROOT`).
COURSE_SUBJECTS = frozenset(
    {
        "event hand_over",
        "event hand_over.winner",
        "event de_vueltas",
        "event point_won",
        "event point_won.side",
        "event coto_won",
        "event match_won",
        "state hand_winner",
        "state hand_in_point",
        "state phase",
        "legal deal",
    }
)
#: What parts the courses when it follows from a root, and is a divergence play goes past otherwise.
COURSE_AFTER_ROOT = COURSE_SUBJECTS | {"state turn", "legal play"}

_STAGES = (
    (TRICK, TRICK_SUBJECTS),
    (COUNT, COUNT_SUBJECTS),
    (DECISION, DECISION_SUBJECTS),
    (MATCH, MATCH_SUBJECTS),
)
_INDEX = re.compile(r"\.\d+$")


def plain_subject(difference: Difference) -> str:
    """The subject of ``difference`` without what tells one instance from another: ``state total``
    for ``total.1``, ``event ultimas`` for ``ultimas (order)``, ``legal deal`` for ``deal (missing)``."""
    subject = difference.subject.replace(" (order)", "")
    if difference.kind == "legal":
        return f"legal {subject.split(' ')[0]}"
    if difference.kind == "state":
        return f"state {subject.split('.')[0]}"
    return f"{difference.kind} {_INDEX.sub('', subject)}"


def stage_of(difference: Difference) -> int | None:
    """The stage (:data:`TRICK`, :data:`COUNT`, :data:`DECISION`, :data:`MATCH`) ``difference`` is
    about, or ``None`` (the play itself: a card's legality, a cante's...). A phase is the decision's
    only where one of the two hands is over (``free`` against ``arrastre`` is the play's), the
    match's where one is over and the other won the match."""
    if difference.kind not in ("event", "state", "legal"):
        return None
    subject = plain_subject(difference)
    if subject == "state phase":  # (a phase is the decision's where one hand is over, the match's where one won it)
        phases = {str(difference.expected), str(difference.got)}
        return None if not phases & HAND_DECIDED else MATCH if phases == HAND_DECIDED else DECISION
    event = subject.split(".")[0]  # a member not listed in its own right is its event's
    for name in (subject, event):
        for stage, subjects in _STAGES:
            if name in subjects:
                return stage
    return None


def _plain(cause: Cause) -> str:
    return plain_subject(Difference(cause.kind, cause.subject, None, None))


def earlier_root(first: Difference, other: Difference) -> bool:
    """Whether ``other``, a difference of the same step as ``first`` that the comparison found
    after it, is the one to take first: of an earlier stage, and able to be a root there."""
    stage, earlier = stage_of(first), stage_of(other)
    if stage is None or earlier is None or earlier >= stage:
        return False
    return plain_subject(other) not in NEVER_FIRST


def parts_courses(difference: Difference, *, following: bool = False) -> bool:
    """Whether the two games no longer stand in the same state after ``difference``
    (:data:`COURSE_SUBJECTS`; :data:`COURSE_AFTER_ROOT` where it is ``following`` a root): play
    cannot go on past it."""
    if stage_of(difference) is None:
        return False
    return plain_subject(difference) in (COURSE_AFTER_ROOT if following else COURSE_SUBJECTS)


#: The difference that tells the engine gave a trick to another seat: the reference follows it.
TRICK_WINNER = "event trick_won.seat"


#: The draw's cards and seats: a difference the reference follows (:attr:`Watch.redraw`).
DRAWS = "event cards_drawn.draws"


def trick_winner(difference: Difference) -> int | None:
    """The seat the engine gave the trick to, where ``difference`` is a trick's winner that
    differs (:data:`TRICK_WINNER`); ``None`` otherwise."""
    seat = difference.got
    if subject_key(difference.kind, difference.subject) != TRICK_WINNER or isinstance(seat, bool):
        return None
    return seat if isinstance(seat, int) else None


@dataclass
class Watch:
    """What one game has passed over: the subjects no longer compared in it, the causes of the
    ``legal`` differences among them, the first divergence recorded at each stage (its roots), the
    divergence it stopped at, and the step to set the reference to the engine's mano at."""

    ignored: set[str] = field(default_factory=set)
    legal: dict[str, Cause] = field(default_factory=dict)
    #: stage -> the root recorded at it, and the hand of the game it was found in
    roots: dict[int, tuple[Cause, int]] = field(default_factory=dict)
    stopped: Divergence | None = None
    #: the hand of the game being compared (the fuzzer counts them)
    hand: int = 0
    #: whether the totals were found to differ in the game: a wrong count reaches the hands after it
    totals_differ: bool = False
    #: the step of the hand compared at which the engine was found to lead from another seat
    #: (:mod:`guinote_conformance.fuzz.mano`): the fuzzer plays that hand again from the engine's mano
    realign: int | None = None
    #: the step at which the engine gave a trick to another seat, and that seat: the fuzzer sets the
    #: reference to it and plays the rest of the hand from there (:func:`guinote_conformance.fuzz.mano.follow_winner`)
    retrick: tuple[int, int] | None = None
    #: the step at which the engine drew other cards for the seats (another order, another card):
    #: the fuzzer sets the reference's hands to the engine's (:func:`guinote_conformance.fuzz.mano.follow_draw`)
    redraw: int | None = None
    #: the actions (:func:`~guinote_conformance.oracle.steps.action_key`) the engine was found not to take
    #: as the reference does (a card or cante it does not offer, one it takes besides): the
    #: reference's play avoids them for the rest of the game
    avoid: set[str] = field(default_factory=set)
    #: the last step both games agree at, before an action of :attr:`avoid`: the fuzzer plays the
    #: rest of the hand again from there (:func:`guinote_conformance.fuzz.mano.follow_engine`)
    replan: int | None = None

    @property
    def follow_at(self) -> int | None:
        """The step at which the reference is to follow the engine (its mano, or a trick's winner),
        or to play again around an action the engine does not take."""
        if self.retrick is not None:
            return self.retrick[0]
        return next((at for at in (self.redraw, self.realign, self.replan) if at is not None), None)

    @property
    def follows_table(self) -> bool:
        """Whether the reference is to be set to the engine's table (a trick's winner, a draw)."""
        return self.retrick is not None or self.redraw is not None

    def play_around(self, index: int, action: Mapping[str, JSON] | None) -> bool:
        """Whether the hand is played again from the step before ``index`` with its action (refused
        by one engine and taken by the other) avoided: at most :data:`MOST_AVOIDED` times in a game,
        and once per action."""
        if action is None:
            return False
        key = action_key(action)
        if key in self.avoid or len(self.avoid) >= MOST_AVOIDED or index < 1:
            return False
        self.avoid.add(key)
        self.replan = index - 1
        return True

    def root_of(self, difference: Difference) -> Cause | None:
        """The divergence recorded earlier in the game that ``difference`` follows from: the first
        root of its stage or of a stage before it, or ``None``. A root of the count reaches past its
        own hand only once the totals were found to differ (:data:`TOTALS`): a count that differs
        in an event alone (an ``ultimas`` event of 0 points, the totals right) does not make the
        totals of a later hand its consequence. The same field of another side as the root's
        (``total.1`` after ``total.0``) follows from nothing: it is its own group, as before."""
        stage = stage_of(difference)
        if stage is None:
            return None
        for earlier in sorted(self.roots):
            if earlier > stage:
                break
            cause, hand = self.roots[earlier]
            if self._reaches(earlier, hand):
                if cause.subject != difference.subject and _plain(cause) == plain_subject(difference):
                    return None  # the same field of another side (total.1 after total.0): the rule broken again
                self._saw(difference)
                return cause
        return None

    def _reaches(self, stage: int, hand: int) -> bool:
        """Whether the root of ``stage`` found in ``hand`` reaches the hand compared now."""
        return stage != COUNT or hand == self.hand or self.totals_differ

    def note(self, difference: Difference, cause: Cause, follow_at: int | None = None) -> None:
        """``difference`` recorded as ``cause``: the root of its stage if it is the first (or the
        first no longer reaches this hand). A trick given to another seat at step ``follow_at`` (where
        the reference may follow the engine there) is followed: :attr:`retrick`; so is a draw that
        gives other cards: :attr:`redraw`."""
        if follow_at is not None and (winner := trick_winner(difference)) is not None:
            self.retrick = (follow_at, winner)
        elif follow_at is not None and subject_key(difference.kind, difference.subject) == DRAWS:
            self.redraw = follow_at
        stage = stage_of(difference)
        if stage is not None and plain_subject(difference) not in FOLLOWING_ONLY:
            current = self.roots.get(stage)
            if current is None or not self._reaches(stage, current[1]):
                self.roots[stage] = (cause, self.hand)
        self._saw(difference)

    def _saw(self, difference: Difference) -> None:
        if plain_subject(difference) in TOTALS:
            self.totals_differ = True

    def follows_from(self, difference: Difference) -> Cause | None:
        """The ``legal`` difference an ``acceptance`` difference follows from: the engine
        refused an action of a type it was found not to offer, or accepted one of a type it was
        found to offer besides."""
        if difference.kind != "acceptance":
            return None
        side = "missing" if difference.expected == "accepted" else "extra"
        return self.legal.get(subject_key("legal", f"{difference.subject} ({side})"))


__all__ = [
    "COUNT",
    "COUNT_SUBJECTS",
    "COURSE_AFTER_ROOT",
    "COURSE_SUBJECTS",
    "DECISION",
    "DECISION_SUBJECTS",
    "DRAWS",
    "MATCH",
    "MATCH_SUBJECTS",
    "MOST_AVOIDED",
    "NEVER_FIRST",
    "TOTALS",
    "TRICK",
    "TRICK_SUBJECTS",
    "TRICK_WINNER",
    "Watch",
    "earlier_root",
    "parts_courses",
    "plain_subject",
    "stage_of",
    "trick_winner",
]
