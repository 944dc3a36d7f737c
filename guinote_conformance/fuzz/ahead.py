"""Games played ahead: the next game of a run, dealt and begun on the reference while a protocol
engine answers the last hand of the game before.

In: a run's fuzzer (:class:`~guinote_conformance.fuzz.fuzzer.Fuzzer`) and the game its run plays
next (:func:`next_game`). Out: that game as dealt (:class:`Dealt`), with the reference's game and the
steps of its first hand (:class:`GameAhead`), which :meth:`~guinote_conformance.fuzz.fuzzer.Fuzzer.play_game`
takes when it comes to that game (:func:`take_ahead`).

The rule: over the wire the fuzzer plays the next hand of a game on the reference while the engine
answers this one, so that the two processes use two cores. The last hand of a game has no next
hand: without this, the fuzzer would wait for the engine there, then deal the next game, and the
engine would wait for it. The game played ahead is the one the run plays next, made of the same
choice of the steering and the same random draws, in the same order: the run is exactly the one
played game after game. If the game before does not end with its last hand as expected (it
diverges where play cannot go past it, and plays on from the engine's answer), or the run ends
before the next game, the game played ahead is dropped and the steering wound back
(:func:`drop_ahead`); it is dealt again in its turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from guinote_conformance.adapters.interface import JSON, Engine, EngineInfo, GameHandle, SetupRejected
from guinote_conformance.fuzz.steering import POLICIES, Layout, Steering
from guinote_conformance.oracle.divergence import Config
from guinote_conformance.oracle.steps import Step, snapshot


@dataclass
class Dealt:
    """A game of a run as dealt: its seed and random generator, the deal generator and policy
    the steering chose, the dealer, the cards (``layout``) and the ``setup`` the engines start from."""

    seed: int
    rng: random.Random
    generator: str
    policy_name: str
    dealer: int
    layout: Layout
    setup: dict[str, JSON]


@dataclass
class GameAhead:
    """The next game of a run, dealt and its first hand played on the reference (:func:`play_ahead`)."""

    config: Config
    number: int
    dealt: Dealt
    #: the game's random generator once the cards are dealt: its first hand is played again from
    #: there if the engine refuses the deck order and is dealt the same cards explicitly
    after_deal: Any
    ours: GameHandle
    steps: list[Step]
    #: the steering before the game's choice, restored when the game is dropped
    checkpoint: tuple[Any, dict[str, int]]


class Player(Protocol):
    """What playing ahead needs of the fuzzer (:class:`~guinote_conformance.fuzz.fuzzer.Fuzzer`)."""

    reference: Engine
    info: EngineInfo
    steering: Steering
    next_game: tuple[Config, int] | None
    ahead: GameAhead | None
    avoid: set[str]
    hand_played: Callable[[GameHandle, Sequence[Step]], None] | None

    def deal(self, config: Config, number: int, forced: tuple[str, str] | None) -> Dealt: ...

    def play_hand(
        self, rng: random.Random, game: GameHandle, last: Step, policy: Any, flags: Mapping[str, JSON]
    ) -> list[Step]: ...


def next_game(playing: Sequence[Config], config: Config, number: int, numbers: range) -> tuple[Config, int] | None:
    """The game a run plays after ``config``'s game ``number``: the next configuration's, or the
    first configuration's next number (the configurations take turns, a game each); ``None`` after
    the last."""
    position = next((index for index, other in enumerate(playing) if other is config), None)
    if position is not None and position + 1 < len(playing):
        return playing[position + 1], number
    following = number + numbers.step
    return (playing[0], following) if playing and following in numbers else None


def play_ahead(fuzzer: Player) -> None:
    """Deal the run's next game and play its first hand on the reference now, as
    :meth:`~guinote_conformance.fuzz.fuzzer.Fuzzer.play_game` would, while the engine answers the
    last hand of this game."""
    if fuzzer.next_game is None or fuzzer.ahead is not None:
        return
    config, number = fuzzer.next_game
    if fuzzer.info.unsupported(config.flags):
        return  # (play_game says so, when it comes to the game)
    checkpoint = fuzzer.steering.checkpoint()
    dealt = fuzzer.deal(config, number, None)
    after_deal = dealt.rng.getstate()
    try:
        ours = fuzzer.reference.start(dealt.setup)
    except SetupRejected:
        fuzzer.steering.restore(checkpoint)
        return  # (play_game says why, when it comes to the game)
    # the game's own actions to avoid start empty, and the hook of a hand played waits for the game to be played
    avoid, hook = fuzzer.avoid, fuzzer.hand_played
    fuzzer.avoid, fuzzer.hand_played = set(), None
    try:
        first = snapshot(ours, None)
        policy = POLICIES[dealt.policy_name][0]
        steps = [first, *fuzzer.play_hand(dealt.rng, ours, first, policy, config.flags)]
    finally:
        fuzzer.avoid, fuzzer.hand_played = avoid, hook
    fuzzer.ahead = GameAhead(config, number, dealt, after_deal, ours, steps, checkpoint)


def take_ahead(fuzzer: Player, config: Config, number: int) -> GameAhead | None:
    """The game played ahead, if it is ``config``'s game ``number`` (any other is dropped)."""
    ahead = fuzzer.ahead
    if ahead is not None and ahead.config is config and ahead.number == number:
        fuzzer.ahead = None
        return ahead
    drop_ahead(fuzzer)
    return None


def drop_ahead(fuzzer: Player) -> None:
    """Forget the game played ahead, and undo the steering's choice for it: the run goes on
    exactly as if it had never been played."""
    if fuzzer.ahead is not None:
        fuzzer.steering.restore(fuzzer.ahead.checkpoint)
        fuzzer.ahead = None


__all__ = [
    "Dealt",
    "GameAhead",
    "drop_ahead",
    "next_game",
    "play_ahead",
    "take_ahead",
]
