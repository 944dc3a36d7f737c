"""A hand the engine leads from another seat: the reference set to the engine's mano, and play goes on.

PRE-09: the mano, the seat after the dealer, leads the first trick. An engine that gets it wrong
expects another seat to lead, and refuses every card the reference's hand plays after it as out of
turn: the comparison would end each such hand at its deal, and nothing else of the hand would be
compared. So a difference of the turn at the start of a hand (:func:`mano_differs`: the state before
the first action of the game, or after a deal; the ``mano`` of the ``hand_dealt`` event) is not
passed over: the fuzzer records it once, named by the rule that owns the mano
(:func:`mano_cause`, PRE-09), unless the engine's mano is the seat after its own dealer (then the
mano follows a wrong dealer, recorded as the deal's divergence: :func:`breaks_mano`); then it rebuilds
the reference's game from the position just after the deal with the engine's mano to lead
(:func:`aligned`: the reference's ``Game.position``, its ``leader`` replaced), and plays the hand
from there on both. Every later difference of the hand is compared as any other.

The reference's game then no longer follows from the game's setup and actions: the records of the
divergences found after it start from that position (a setup of the ``positions`` capability), the
actions counted from it; the engine's game is replayed from its own setup and every action since.
Where the reference's game cannot tell its position, :class:`Unaligned` says why: the game ends
there, the reason counted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.interface import JSON, Engine, EngineError, GameHandle, UnknownField
from guinote_conformance.fuzz.consequences import Watch
from guinote_conformance.fuzz.play import replayed
from guinote_conformance.oracle.divergence import Cause, Config, Divergence
from guinote_conformance.oracle.owners import owner_of
from guinote_conformance.oracle.steps import Difference, Step, subject_key
from guinote_conformance.reference_engine.cards import parse_card
from guinote_conformance.reference_engine.tricks import next_seat

#: The differences that tell, at the start of a hand, that the engine's mano is another seat.
MANO_SUBJECTS = frozenset({"state turn", "event hand_dealt.mano"})
#: The subject a mano that differs is recorded under (its owner: PRE-09).
MANO_SUBJECT = "mano"
#: The subject under which a dealer found to differ is passed over (the mano follows it).
DEALER_SUBJECT = "event hand_dealt.dealer"
#: The deal event's mano: no longer compared once the reference follows the engine's (own deals).
HAND_DEALT_MANO = "event hand_dealt.mano"


@dataclass
class Origin:
    """Where the two games of one fuzzer's game start from: the reference's ``setup`` (the game's,
    or the position it was last set to the engine's mano at) and the actions the engine played
    before that position (``engine_actions``), from the game's setup (``engine_setup``)."""

    setup: dict[str, JSON]
    engine_setup: dict[str, JSON]
    engine_actions: list[dict[str, JSON]] = field(default_factory=list)
    #: the steps of the hand being compared that come before ``setup`` (its deal, where the
    #: reference was set to the mano of a hand the engine dealt itself): not in the records' actions
    skip: int = 0


class Unaligned(Exception):
    """The reference's game cannot be set to the engine's mano (the message says why)."""


def starts_hand(step: Step, first_of_game: bool) -> bool:
    """Whether ``step`` is the start of a hand: the state before the first action of a game
    (``first_of_game``), or a deal."""
    if step.action is None:
        return first_of_game
    return step.action.get("type") == "deal"


def mano_differs(step: Step, difference: Difference, first_of_game: bool) -> bool:
    """Whether ``difference``, found at ``step``, says the engine leads the new hand from
    another seat (:data:`MANO_SUBJECTS`)."""
    return subject_key(difference.kind, difference.subject) in MANO_SUBJECTS and starts_hand(step, first_of_game)


def seat_of(game: GameHandle, name: str) -> int | None:
    """The seat the engine's state field ``name`` holds (``turn``, ``dealer``), or ``None``."""
    try:
        value = game.state(name)
    except (UnknownField, EngineError):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not float(value).is_integer():
        return None
    return int(value)


def breaks_mano(mano: int, dealer: int | None, players: int, dealer_differs: bool) -> bool:
    """Whether the engine's ``mano`` breaks PRE-09 itself: it is not the seat after its own
    ``dealer``. Where the engine does not tell its dealer, the mano follows a dealer already
    found to differ (``dealer_differs``), else breaks PRE-09."""
    if dealer is None:
        return not dealer_differs
    return mano != next_seat(dealer, players)


def mano_cause() -> Cause:
    """The cause a mano that differs is recorded under: named by the rule that owns the mano."""
    rule, _ = owner_of(subject_key("state", MANO_SUBJECT), action="deal")
    return Cause("state", MANO_SUBJECT, rule or "")


def aligned(
    reference: Engine, at: GameHandle, flags: Mapping[str, JSON], leader: int
) -> tuple[dict[str, JSON], GameHandle]:
    """The setup of the reference's game ``at`` (just after a deal) with ``leader`` to lead, and
    a game of the reference started from it. Raises :class:`Unaligned`."""
    game: Any = getattr(at, "game", None)
    position_of = getattr(game, "position", None)
    if position_of is None:
        raise Unaligned("the reference's game does not tell its position")
    try:
        position = dict(position_of())
    except Exception as error:  # (a position the reference cannot give: a reference bug, said and counted)
        raise Unaligned(f"the reference's position after the deal: {error}") from None
    if position.get("trick") or position.get("last_trick_winner") is not None:
        raise Unaligned("the hand has begun: a mano is set before its first card")
    position["leader"] = leader
    setup: dict[str, JSON] = {"flags": dict(flags), "position": position}
    try:
        return setup, reference.start(setup)
    except Exception as error:
        raise Unaligned(f"the reference refuses its position with the engine's mano: {error}") from None


def follow_mano(
    reference: Engine,
    engine: Engine,
    origin: Origin,
    done: list[dict[str, JSON]],
    config: Config,
    seed: int,
    strategy: str,
    passed_over: tuple[str, ...],
) -> tuple[GameHandle, GameHandle, Divergence | None]:
    """Both games after ``done`` (the actions since ``origin.setup``, a deal last, or none: the
    game's first hand), the reference's set to the engine's mano (:func:`aligned`), and the mano's
    divergence to record if the engine's breaks PRE-09 itself (:func:`breaks_mano`; ``None``
    otherwise). ``origin`` then starts from the reference's new position. Raises :class:`Unaligned`."""
    theirs = replayed(engine, origin.engine_setup, origin.engine_actions + done, len(origin.engine_actions) + len(done))
    at = replayed(reference, origin.setup, done, len(done))
    mano = seat_of(theirs, "turn")
    if mano is None:
        raise Unaligned("the engine does not tell whose turn it is after the deal")
    divergence = None
    if breaks_mano(mano, seat_of(theirs, "dealer"), config.players, DEALER_SUBJECT in passed_over):
        divergence = Divergence(config, origin.setup, list(done), mano_cause(), at.state("turn"), mano, seed,
                                strategy, passed_over=passed_over)  # fmt: skip
    origin.setup, ours = aligned(reference, at, config.flags, mano)
    origin.engine_actions += done
    return ours, theirs, divergence


#: The reference's game just after the deal of a hand the engine dealt itself, the reference's and
#: the engine's steps of that deal, and the engine's game -> the reference's game set to the
#: engine's mano, or ``None`` where the manos agree (:func:`own_hand_aligner`).
Aligner = Callable[[GameHandle, Step, Step, GameHandle], "GameHandle | None"]


def own_hand_aligner(
    reference: Engine,
    origin: Origin,
    history: list[dict[str, JSON]],
    config: Config,
    seed: int,
    strategy: str,
    ignored: set[str],
    record: Callable[[Divergence], None],
) -> Aligner:
    """What sets the reference to the mano of a hand the engine dealt itself (:func:`follow_own_mano`),
    given the reference's actions since ``origin.setup`` before that hand (``history``): the mano
    ``record``-ed as for any hand, and the deal event's mano no longer compared in the game
    (``ignored``: the reference's deal event still names its own)."""

    def align(at: GameHandle, deal: Step, dealt: Step, engine: GameHandle) -> GameHandle | None:
        done = [*history, *([deal.action] if deal.action is not None else [])]
        ours, mano = follow_own_mano(reference, at, dealt, seat_of(engine, "dealer"), origin, done, config, seed,
                                     strategy, tuple(sorted(ignored)))  # fmt: skip
        if ours is not None:
            ignored.add(HAND_DEALT_MANO)
            if mano is not None:
                record(mano)
        return ours

    return align


def follow_own_mano(
    reference: Engine,
    at: GameHandle,
    dealt: Step,
    dealer: int | None,
    origin: Origin,
    done: list[dict[str, JSON]],
    config: Config,
    seed: int,
    strategy: str,
    passed_over: tuple[str, ...],
) -> tuple[GameHandle | None, Divergence | None]:
    """For a hand the engine dealt from its own shuffle and played first: the reference's game
    ``at``, just after the same deal (``done``: the actions since ``origin.setup``, that deal last),
    set to the mano the engine's deal step ``dealt`` shows, and the mano's divergence to record;
    ``(None, None)`` where the two manos agree (``dealer``: the engine's). ``origin`` then starts
    from the new position, the deal step skipped in the records of this hand. Raises
    :class:`Unaligned`."""
    mano = dealt.state.get("turn")
    if isinstance(mano, float) and mano.is_integer():
        mano = int(mano)
    if not isinstance(mano, int) or isinstance(mano, bool) or same_seat(mano, at.state("turn")):
        return None, None
    divergence = None
    if breaks_mano(mano, dealer, config.players, DEALER_SUBJECT in passed_over):
        divergence = Divergence(config, origin.setup, list(done), mano_cause(), at.state("turn"), mano, seed,
                                strategy, passed_over=passed_over)  # fmt: skip
    origin.setup, ours = aligned(reference, at, config.flags, mano)
    origin.engine_actions += done
    origin.skip = 1
    return ours, divergence


def follow_winner(
    reference: Engine, engine: Engine, origin: Origin, done: list[dict[str, JSON]], config: Config, winner: int
) -> tuple[GameHandle, GameHandle]:
    """Both games after ``done`` (the actions since ``origin.setup``, the play that completed a trick
    last), the reference's set to the engine's winner of that trick: he leads next (and draws
    first), and the trick's cards and points go to his side, so that the rest of the hand is
    compared from the same table. ``origin`` then starts from that position. Raises
    :class:`Unaligned` where the reference's hand is over or its position cannot be given."""
    theirs, position = _both_after(reference, engine, origin, done)
    with contextlib.suppress(EngineError, UnknownField):  # (whether the engine's hand goes on: to know)
        if theirs.state("phase") not in ("free", "arrastre"):  # (a hand won with the trick's points, say)
            raise Unaligned("the engine's hand is over at the trick it gave to another seat")
    before = position.get("last_trick_winner")
    position["leader"] = position["last_trick_winner"] = winner
    # (the last trick's cards would say another seat took it: the position leaves them out)
    cards = [str(card) for _, card in position.pop("last_trick", None) or []]
    sides_differ = isinstance(before, int) and ((before - winner) % 2 != 0 if config.players == 4 else before != winner)
    if sides_differ and isinstance(before, int):
        ours_side, theirs_side = (before % 2, winner % 2) if config.players == 4 else (before, winner)
        points = sum(parse_card(card).points for card in cards)
        won = [list(side) for side in position["won_cards"]]
        won[ours_side] = [card for card in won[ours_side] if card not in cards]
        won[theirs_side] += cards
        position["won_cards"] = won
        for name, moved in (("card_points", points), ("tricks_won", 1)):
            counts = list(position[name])
            counts[ours_side] -= moved
            counts[theirs_side] += moved
            position[name] = counts
    return _restarted(reference, origin, done, config, position, "winner"), theirs


def follow_draw(
    reference: Engine, engine: Engine, origin: Origin, done: list[dict[str, JSON]], config: Config
) -> tuple[GameHandle, GameHandle]:
    """Both games after ``done`` (the actions since ``origin.setup``, a draw last), the reference's
    hands set to the engine's (it drew the same cards in another order, or gave a seat another
    card), so that the rest of the hand is compared from the same table. ``origin`` then starts
    from that position. Raises :class:`Unaligned` where the engine does not tell every hand, or its
    hands hold other cards than the reference's."""
    theirs, position = _both_after(reference, engine, origin, done)
    try:
        hands = [[str(card) for card in theirs.state(f"hand.{seat}")] for seat in range(config.players)]
    except (EngineError, UnknownField, TypeError, ValueError) as error:
        raise Unaligned(f"the hands after the draw cannot be read: {error}") from None
    ours_cards = sorted(str(card) for hand in position["hands"] for card in hand)
    if ours_cards != sorted(card for hand in hands for card in hand):
        raise Unaligned("the engine's hands after the draw hold other cards than the reference's")
    position["hands"] = hands
    return _restarted(reference, origin, done, config, position, "hands"), theirs


def _both_after(
    reference: Engine, engine: Engine, origin: Origin, done: list[dict[str, JSON]]
) -> tuple[GameHandle, dict[str, Any]]:
    """The engine's game after ``done`` and the reference's position there (a hand under way)."""
    theirs = replayed(engine, origin.engine_setup, origin.engine_actions + done, len(origin.engine_actions) + len(done))
    at = replayed(reference, origin.setup, done, len(done))
    position_of = getattr(getattr(at, "game", None), "position", None)
    if position_of is None or at.state("phase") not in ("free", "arrastre"):
        raise Unaligned("the reference's hand is over, or its game does not tell its position")
    try:
        return theirs, dict(position_of())
    except Exception as error:  # (a position the reference cannot give: a reference bug, said and counted)
        raise Unaligned(f"the reference's position: {error}") from None


def _restarted(
    reference: Engine,
    origin: Origin,
    done: list[dict[str, JSON]],
    config: Config,
    position: dict[str, Any],
    what: str,
) -> GameHandle:
    """The reference's game started from ``position`` (set to the engine's ``what``); ``origin``
    then starts from it, the engine's actions since its own setup counted."""
    setup: dict[str, JSON] = {"flags": dict(config.flags), "position": position}
    try:
        ours = reference.start(setup)
    except Exception as error:
        raise Unaligned(f"the reference refuses its position with the engine's {what}: {error}") from None
    origin.setup = setup
    origin.engine_actions += done
    return ours


def follow_engine(
    reference: Engine,
    engine: Engine,
    origin: Origin,
    done: list[dict[str, JSON]],
    config: Config,
    seed: int,
    strategy: str,
    watch: Watch,
    record: Callable[[Divergence], None],
) -> tuple[GameHandle, GameHandle, list[dict[str, JSON]]]:
    """Both games after ``done``, the reference's set to what ``watch`` says the engine did: gave a
    trick to another seat (:func:`follow_winner`) or drew other cards (:func:`follow_draw`: the roots
    of the game are cleared, the two tables agree again), led the hand from another seat
    (:func:`follow_mano`, its divergence ``record``-ed where the engine's mano breaks PRE-09), or
    refused an action the reference took (or took one it refused): both games replayed to the step
    before it, where the reference's play goes on around it (:meth:`Watch.play_around`). The
    actions since ``origin.setup`` come last. Raises :class:`Unaligned`."""
    since: list[dict[str, JSON]] = []
    if watch.retrick is not None:
        ours, theirs = follow_winner(reference, engine, origin, done, config, watch.retrick[1])
        watch.roots.clear()
    elif watch.redraw is not None:
        ours, theirs = follow_draw(reference, engine, origin, done, config)
        watch.roots.clear()
    elif watch.realign is not None:
        ignored = tuple(sorted(watch.ignored))
        ours, theirs, divergence = follow_mano(reference, engine, origin, done, config, seed, strategy, ignored)
        if divergence is not None:
            record(divergence)
    else:
        actions = origin.engine_actions + done
        theirs = replayed(engine, origin.engine_setup, actions, len(actions))
        ours, since = replayed(reference, origin.setup, done, len(done)), done
    watch.realign = watch.retrick = watch.redraw = watch.replan = None
    return ours, theirs, since


def same_seat(seat: int, other: JSON) -> bool:
    return isinstance(other, int | float) and not isinstance(other, bool) and float(other) == seat


__all__ = [
    "DEALER_SUBJECT",
    "HAND_DEALT_MANO",
    "MANO_SUBJECT",
    "MANO_SUBJECTS",
    "Aligner",
    "Origin",
    "Unaligned",
    "aligned",
    "breaks_mano",
    "follow_draw",
    "follow_engine",
    "follow_mano",
    "follow_own_mano",
    "follow_winner",
    "mano_cause",
    "mano_differs",
    "own_hand_aligner",
    "same_seat",
    "seat_of",
    "starts_hand",
]
