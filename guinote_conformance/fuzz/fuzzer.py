"""The differential fuzzer behind ``guinote-conformance compare``.

For each configuration (a profile, a profile with overlays, a flag set:
:mod:`guinote_conformance.fuzz.configs`) the fuzzer plays games on the reference (now and then an illegal
action: :mod:`guinote_conformance.fuzz.probes`) and replays them on the engine under test
(:mod:`guinote_conformance.fuzz.differential`). A game is one hand, one point (hands de vueltas included)
or a whole match (``depth``). Every divergence, known or not, is grouped by its
:class:`~guinote_conformance.oracle.divergence.Cause` in the run's report (:mod:`guinote_conformance.fuzz.findings`),
and the group keeps a count and its best example. A divergence does not end its game when play can
go past it (:mod:`guinote_conformance.fuzz.judge`): the reference's answer is taken and the game
goes on, its subject no longer compared in that game; one play cannot go past ends the game,
counted in its group. A game the suite cannot follow on this engine ends there, the reason
counted: a play the explicit draw's view of an ``automatic_draw`` engine cannot follow (play steers
clear of most), or the deal of an ``own_shuffle`` engine that cannot be read back (its next hands
are dealt and played on the engine first, then given to the reference:
:mod:`guinote_conformance.fuzz.own_deal`). Over the wire, the fuzzer plays on the reference while
the engine answers: the next hand of a game, or, at its last hand, the next game
(:mod:`guinote_conformance.fuzz.ahead`). Deals and policies are steered toward the rules not seen
yet (:mod:`guinote_conformance.fuzz.steering`), and the rules each hand showed make the run's rule
coverage.
"""

from __future__ import annotations

import contextlib
import random
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    OWN_SHUFFLE,
    Engine,
    EngineError,
    EngineInfo,
    GameHandle,
    SetupRejected,
    UnknownField,
    end_game,
)
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.wire.failures import ENGINE_DOWN
from guinote_conformance.base.untrusted import bounded
from guinote_conformance.engines.explicit_draw import CAPABILITY as AUTOMATIC_DRAW
from guinote_conformance.engines.explicit_draw import followable
from guinote_conformance.fuzz.ahead import Dealt, GameAhead, drop_ahead, next_game, play_ahead, take_ahead
from guinote_conformance.fuzz.configs import ConfigError
from guinote_conformance.fuzz.consequences import Watch
from guinote_conformance.fuzz.differential import begin_compare, compare_played
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.judge import judge as judge_difference
from guinote_conformance.fuzz.known import Known, find_known
from guinote_conformance.fuzz.mano import Aligner, Origin, Unaligned, follow_engine, own_hand_aligner
from guinote_conformance.fuzz.own_deal import Unreadable, play_own_hand
from guinote_conformance.fuzz.play import apply_step, replayed
from guinote_conformance.fuzz.probes import Chooser, choose_action
from guinote_conformance.fuzz.shadow import Shadow
from guinote_conformance.fuzz.steering import (
    GENERATORS,
    POLICIES,
    Layout,
    Policy,
    Reader,
    Steering,
    deck_order,
    explicit_deal,
    rules_shown,
)
from guinote_conformance.oracle.divergence import Config, Divergence, cause_of
from guinote_conformance.oracle.steps import FIELDS, Difference, Step, snapshot
from guinote_conformance.reference_engine.match import next_dealer
from guinote_conformance.results.status import NotApplicable

DEPTHS = ("hand", "point", "match")
#: Most actions a hand may take before the fuzzer calls it endless.
MAX_ACTIONS_PER_HAND = 400


@dataclass
class Fuzzer:
    """Plays games on the reference and the engine under test and compares every step."""

    reference: Engine
    engine: Engine
    info: EngineInfo
    depth: str = "match"
    steer: bool = True
    probe_rate: float = 0.05
    max_hands_per_game: int = 20
    known: Sequence[Known] = ()
    seed: int = 0
    #: ask a protocol engine that declares it for many actions in one ``batch`` request
    batch: bool = True
    #: called after every game with the report so far (progress bars)
    progress: Callable[[FuzzReport], None] | None = None
    #: deal explicitly (hands, muestra, stock) instead of deck orders: set for the rest of the
    #: run when the engine refuses a deck order and takes the explicit deal of the same cards
    explicit_deals: bool = False
    #: ``(worker, workers)``: play only the games whose number is ``worker`` modulo ``workers``
    #: (``compare --jobs``: :mod:`guinote_conformance.fuzz.parallel`)
    share: tuple[int, int] = (0, 1)
    #: called with the reference's game at the end of every hand it plays and the hand's steps (the
    #: first: the state before its actions); the soak run (:mod:`~.soak`) checks its invariants there
    hand_played: Callable[[GameHandle, Sequence[Step]], None] | None = None
    #: stop after this many games in a row whose engine process hung, died or would not start
    #: (:data:`~guinote_conformance.adapters.wire.failures.ENGINE_DOWN`; 0: never): each such game waits for a
    #: timeout or a relaunch, and an engine that is down fails every game alike
    max_engine_failures: int = 5

    def __post_init__(self) -> None:
        if self.depth not in DEPTHS:
            raise ConfigError(f"depth {self.depth!r}: choose {', '.join(DEPTHS)}")
        self.obligations = Obligations.of(self.info)
        self.matches = "match" in self.info.capabilities
        self.own_shuffle = OWN_SHUFFLE in self.info.capabilities
        self.automatic_draw = AUTOMATIC_DRAW in self.info.capabilities
        worker, workers = self.share
        if not 0 <= worker < workers:
            raise ConfigError(f"worker {worker} of {workers}: no such worker")
        # each worker steers by what it has seen; the first (the only one of a run of one job) by the seed itself
        steering_seed = self.seed if worker == 0 else zlib.crc32(f"{self.seed}:worker:{worker}".encode())
        self.steering = Steering(random.Random(steering_seed), steer=self.steer)
        #: the actions the reference's play avoids in the game played (:attr:`Watch.avoid`)
        self.avoid: set[str] = set()
        #: games in a row that ended with the engine process down, and the last one's message
        self._down: tuple[int, str] = (0, "")
        #: the game :meth:`run` plays next (``None``: none, or not within a run), and that game
        #: played ahead on the reference while the engine answers the last hand of this one
        #: (:mod:`guinote_conformance.fuzz.ahead`)
        self.next_game: tuple[Config, int] | None = None
        self.ahead: GameAhead | None = None

    def run(
        self,
        configs: Sequence[Config],
        games: int,
        *,
        seconds: float | None = None,
        report: FuzzReport | None = None,
        first: int = 0,
    ) -> FuzzReport:
        """Play ``games`` games under each configuration (or until ``seconds`` have passed), their
        numbers from ``first`` (a batch of a run shared among workers: :mod:`guinote_conformance.fuzz.batch`).

        The configurations take turns, a game each, so that a run stopped by its time has
        played every one of them alike (not the first alone)."""
        report = report or FuzzReport(self.info.name)
        started = time.perf_counter()
        deadline = started + seconds if seconds else None
        playing: list[Config] = []
        for config in configs:
            unsupported = self.info.unsupported(config.flags)
            if unsupported:
                report.not_applicable[config.label] = f"the engine does not play {', '.join(unsupported)}"
            else:
                playing.append(config)
        numbers = range(first + self.share[0], games, self.share[1])
        for number in numbers:
            for config in list(playing):
                if deadline is not None and time.perf_counter() > deadline:
                    playing.clear()
                    break
                self.next_game = next_game(playing, config, number, numbers)  # (played ahead meanwhile)
                try:
                    self._count_down(self.play_game(config, number, report))
                except SetupRejected as rejected:
                    text = str(rejected)
                    why = text if text.startswith("the reference") else f"the engine refused the setup: {text}"
                    report.not_applicable[config.label] = why
                    playing.remove(config)
                except (AttributeError, TypeError, ValueError, KeyError, IndexError) as error:
                    # an in-process engine answering garbage (not a list of action objects...) is a
                    # failure of that engine, reported like a crash, never a traceback of the run
                    seed, _ = self._rng(config, number)
                    failure = Difference(
                        "failure", type(error).__name__, "an answer", f"{type(error).__name__}: {error}"
                    )
                    self._diverge(report, config, {"flags": dict(config.flags)}, [], failure, seed, "")
                if self.progress is not None:
                    self.progress(report)
                failures, last = self._down
                if self.max_engine_failures and failures >= self.max_engine_failures:
                    report.stopped = f"the engine timed out or crashed in {failures} games in a row; last: {last}"
                    playing.clear()
                    break
            if not playing:
                break
        self.next_game = None
        drop_ahead(self)  # (a game played ahead that the run did not get to: its choice undone)
        report.seconds += time.perf_counter() - started
        return report

    def _count_down(self, divergence: Divergence | None) -> None:
        """The circuit breaker's count: games in a row whose engine process was down (a game
        the engine played to its end, or in which it answered wrongly, breaks the streak)."""
        if divergence is not None and divergence.cause.kind == "failure" and divergence.cause.subject in DOWN_KINDS:
            self._down = (self._down[0] + 1, bounded(str(divergence.got).split("\n")[0], 300))
        else:
            self._down = (0, "")

    def _rng(self, config: Config, number: int) -> tuple[int, random.Random]:
        seed = zlib.crc32(f"{self.seed}:{config.label}:{number}".encode()) & 0x7FFFFFFF
        return seed, random.Random(seed)

    def play_game(
        self, config: Config, number: int, report: FuzzReport, forced: tuple[str, str] | None = None
    ) -> Divergence | None:
        """One game under ``config`` (with the deal generator and policy ``forced``, or those
        the steering chooses); a divergence (also added to ``report``) or ``None``."""
        ahead = take_ahead(self, config, number) if forced is None else None
        dealt = ahead.dealt if ahead is not None else self.deal(config, number, forced)
        seed, rng, generator, policy_name = dealt.seed, dealt.rng, dealt.generator, dealt.policy_name
        dealer, layout, setup = dealt.dealer, dealt.layout, dealt.setup
        first_hand = ahead.steps if ahead is not None else None
        strategy = f"{generator}/{policy_name}"
        report.strategies[strategy] = report.strategies.get(strategy, 0) + 1
        if ahead is not None:
            ours = ahead.ours
        else:
            try:
                ours = self.reference.start(setup)
            except SetupRejected as rejected:  # e.g. a profile of the engine that leaves a flag out
                raise SetupRejected(f"the reference cannot play these rules: {rejected}") from None
        try:
            try:
                theirs = self.engine.start(setup)
            except SetupRejected as rejected:
                if self.explicit_deals:
                    raise
                # an engine that deals its own way refuses deck orders: give it the same cards dealt
                setup = {"flags": dict(config.flags), "dealer": dealer, **explicit_deal(layout)}
                try:
                    theirs = self.engine.start(setup)
                except SetupRejected:
                    raise rejected from None
                if ahead is not None:  # its first hand was played from the deck order: again, from the deal
                    ours, first_hand = self.reference.start(ahead.dealt.setup), None
                    rng.setstate(ahead.after_deal)
                ours = self._deal_explicitly(ours, setup)
        except EngineError as error:
            # an engine that is down at the start fails as such (the breaker counts it); any other refusal is "start"
            kind = error.kind if isinstance(error, ENGINE_DOWN) else "start"
            report.start_failures[config.label] = bounded(str(error).split("\n")[0], 300)
            return self._diverge(
                report, config, setup, [], Difference("failure", kind, "a game", str(error)), seed, strategy
            )
        report.games += 1
        if first_hand is not None and self.hand_played is not None:  # (held back while it was played ahead)
            self.hand_played(ours, first_hand)
        return self._play_game(config, report, rng, setup, ours, theirs, seed, strategy, policy_name, forced,
                               first_hand)  # fmt: skip

    def _play_game(
        self,
        config: Config,
        report: FuzzReport,
        rng: random.Random,
        setup: dict[str, JSON],
        ours: GameHandle,
        theirs: GameHandle,
        seed: int,
        strategy: str,
        policy_name: str,
        forced: tuple[str, str] | None,
        first_hand: list[Step] | None = None,
    ) -> Divergence | None:
        """The game :meth:`play_game` started, played hand after hand until it ends, or until play
        cannot go past a divergence (:mod:`guinote_conformance.fuzz.judge`) or the suite cannot follow
        it on this engine (counted in :attr:`FuzzReport.ended_early`); the divergence that ended it,
        or ``None``. ``first_hand``: the steps of its first hand, played on the reference already
        (:mod:`guinote_conformance.fuzz.ahead`)."""
        watch = Watch()
        self.avoid = watch.avoid
        history: list[dict[str, JSON]] = []  # the reference's actions since ``origin.setup``
        origin = Origin(setup, setup, [])
        played: list[Step] | None = None  # the engine's steps of a hand it dealt itself and played first
        try:
            if first_hand is None:
                first = snapshot(ours, None)
                steps = [first, *self.play_hand(rng, ours, first, POLICIES[policy_name][0], config.flags)]
            else:
                steps = first_hand
            hand, aligned_again = 0, False
            while hand < self.max_hands_per_game:
                watch.hand = hand
                if not aligned_again:  # (a hand played again from the engine's mano is the same hand)
                    report.hands += 1
                    report.played[config.label] = report.played.get(config.label, 0) + 1
                report.actions += len(steps) - 1
                before = len(history)  # the actions of the hands before this one (copied only if replayed)
                fresh = played is None and not history and not origin.engine_actions
                judge = partial(judge_difference, self, watch, report, config, origin.setup, seed, strategy, history,
                                (steps, origin.skip), fresh, played is None)  # fmt: skip
                following: list[Step] | None = None
                checkpoint = None
                if played is not None:
                    report.own_deals += 1
                    comparison = compare_played(theirs, steps, played, obligations=self.obligations,
                                                ignored=watch.ignored, judge=judge)  # fmt: skip
                else:
                    replay = len(origin.engine_actions) + before
                    comparison = begin_compare(
                        theirs,
                        steps,
                        obligations=self.obligations,
                        restart=partial(replayed, self.engine, setup, origin.engine_actions + history, replay),
                        restart_reference=partial(replayed, self.reference, origin.setup, history, before),
                        use_batch=self.batch,
                        ignored=watch.ignored,
                        judge=judge,
                    )
                self._cover(steps, report)
                if comparison.in_flight and not self.own_shuffle and self._goes_on(steps, hand):
                    # While a protocol engine works on this hand, the next one is played on the
                    # reference (the two processes use two cores). It depends on the reference's steps
                    # alone; if this hand diverges it is dropped and the steering wound back, so the
                    # run goes on exactly as if it had never been played.
                    checkpoint = self.steering.checkpoint()
                    following = self._next_hand(rng, config, ours, steps[-1], forced)
                elif comparison.in_flight and not self.own_shuffle and forced is None:
                    play_ahead(self)  # the game's last hand, unless it diverges: the next game meanwhile
                found = comparison.result()
                theirs = comparison.handle  # (a trace that went on past a divergence replayed the game)
                aligned_again = False
                if found is not None:
                    if checkpoint is not None:
                        self.steering.restore(checkpoint)
                    drop_ahead(self)  # (this game goes on, or its divergence is recorded, first)
                    if (index := watch.follow_at) is not None:  # the engine's mano or trick winner: follow it
                        done = history + [s.action for s in steps[1 : index + 1] if s.action is not None]
                        with contextlib.suppress(EngineError):
                            end_game(theirs)
                        record = partial(self._record_passed, report)
                        ours, theirs, history = follow_engine(self.reference, self.engine, origin, done, config, seed,
                                                              strategy, watch, record)  # fmt: skip
                        first = snapshot(ours, None)
                        steps = [first, *self.play_hand(rng, ours, first, POLICIES[policy_name][0], config.flags)]
                        aligned_again = True
                        continue
                    if watch.stopped is not None:
                        return watch.stopped  # the judge recorded it
                    index, difference = found
                    actions = history + [s.action for s in steps[1 + origin.skip : index + 1] if s.action is not None]
                    return self._diverge(report, config, origin.setup, actions, difference, seed, strategy,
                                         steps[index])  # fmt: skip
                history += [s.action for s in steps[1 + origin.skip :] if s.action is not None]
                origin.skip = 0
                played = None
                hand += 1
                if following is None:
                    if not self._goes_on(steps, hand - 1):
                        break
                    if self.own_shuffle:
                        align = own_hand_aligner(self.reference, origin, history, config, seed, strategy,
                                                 watch.ignored, partial(self._record_passed, report))  # fmt: skip
                        shadow = Shadow(self.reference, partial(replayed, self.reference, origin.setup, history,
                                        len(history)), config.flags, config.players, config.deck_size)  # fmt: skip
                        last = steps[-1]
                        steps, played, ours = self._own_hand(rng, config, ours, theirs, last, forced, align, shadow)
                        continue
                    following = self._next_hand(rng, config, ours, steps[-1], forced)
                steps = following
            return None
        except EngineError as error:  # out of a comparison: playing the hand it dealt, or replayed to follow it
            kind = str(getattr(error, "kind", "") or type(error).__name__)
            failure = Difference("failure", kind, "an answer", bounded(str(error), 300))
            divergence = self._diverge(report, config, origin.setup, list(history), failure, seed, strategy)
            report.groups[divergence.cause].ended += 1
            return divergence
        except (Unaligned, NotApplicable) as why:  # (NotApplicable: a play the explicit draw's view cannot follow)
            what = "the engine's mano, trick winner or draw" if isinstance(why, Unaligned) else "this play"
            report.end_early(f"the suite cannot follow {what}: {why}")
            return None
        except Unreadable as why:
            report.own_shuffle_ends += 1
            report.end_early(f"the engine's own deal of the next hand cannot be read back: {why}")
            return None
        finally:
            with contextlib.suppress(EngineError):  # the game is over: the engine may forget it
                end_game(theirs)

    def _own_hand(
        self,
        rng: random.Random,
        config: Config,
        ours: GameHandle,
        theirs: GameHandle,
        last: Step,
        forced: tuple[str, str] | None,
        align: Aligner,
        shadow: Shadow,
    ) -> tuple[list[Step], list[Step], GameHandle]:
        """The next hand of an engine that deals it from its own shuffle: dealt and played on the
        engine first (choosing among the actions the ``shadow`` says the reference takes too), then on
        the reference from the deal read back (:mod:`guinote_conformance.fuzz.own_deal`, the reference set to
        the engine's mano by ``align``); the reference's steps and the engine's, and the reference's game."""
        _, policy_name = forced or self.steering.choose()
        policy = POLICIES[policy_name][0]

        def choose(legal: list[dict[str, JSON]], game: GameHandle) -> dict[str, JSON]:
            try:  # the policy reads the engine's game: a field it does not know leaves the choice to chance
                return self._choose(rng, game, legal, policy, Reader(game), config.flags, probes=False)
            except (UnknownField, EngineError, TypeError, ValueError, KeyError, IndexError):
                return dict(rng.choice(legal))

        ours_steps, theirs_steps, ours = play_own_hand(
            theirs, ours, last, choose, players=config.players, deck_size=config.deck_size,
            max_actions=MAX_ACTIONS_PER_HAND, align=align, shadow=shadow,
        )  # fmt: skip
        if self.hand_played is not None:
            self.hand_played(ours, ours_steps)
        return ours_steps, theirs_steps, ours

    def _goes_on(self, steps: Sequence[Step], hand: int) -> bool:
        """Whether the game goes on after the hand of ``steps`` (the ``hand``-th of the game)."""
        last = steps[-1]
        if len(steps) - 1 >= MAX_ACTIONS_PER_HAND:
            return False
        phase = last.state.get("phase")
        if self.depth == "hand" or phase != "hand_over" or hand + 1 >= self.max_hands_per_game:
            return False
        # de vueltas, the next hand is part of the same point; a new point is a question for the match
        # (an engine without 'match' plays one point)
        vueltas = last.state.get("hand_winner") is None
        return vueltas or (self.depth == "match" and self.matches)

    def _next_hand(
        self, rng: random.Random, config: Config, ours: GameHandle, last: Step, forced: tuple[str, str] | None
    ) -> list[Step]:
        """Deal the next hand on the reference and play it: its steps, from ``last`` (the end of
        the hand before) and the deal on."""
        generator, policy_name = forced or self.steering.choose()
        layout = GENERATORS[generator][0](rng, config.players, config.deck_size)
        dealer = int(next_dealer(int(ours.state("last_trick_winner"))))  # PRE-10, the reference's own rule
        deal = {"type": "deal", **self._cards(layout, config, dealer)}
        step = apply_step(ours, deal)
        if not step.accepted:  # pragma: no cover - the reference refusing its own deal is a bug
            raise AssertionError(f"the reference refused the next deal: {step.code} {step.rule}")
        return [last, step, *self.play_hand(rng, ours, step, POLICIES[policy_name][0], config.flags)]

    def searcher(self, depth: str) -> Fuzzer:
        """A fuzzer of the same engines and choices at ``depth``, seeded apart (better examples)."""
        return Fuzzer(self.reference, self.engine, self.info, depth=depth, probe_rate=self.probe_rate, known=self.known,
                      seed=self.seed + 1, batch=self.batch, explicit_deals=self.explicit_deals)  # fmt: skip

    def smaller(self, group: Group, games: int = 40, deadline: float | None = None) -> Divergence:
        """A better example of ``group`` from more games (:func:`guinote_conformance.fuzz.examples.smaller`)."""
        from guinote_conformance.fuzz.examples import smaller

        return smaller(self, group, games, deadline)

    def smallest(self, group: Group, seconds: float | None = None) -> Divergence:
        """The best example of ``group`` found and shrunk (:func:`guinote_conformance.fuzz.examples.smallest`)."""
        from guinote_conformance.fuzz.examples import smallest

        return smallest(self, group, seconds)

    # -------------------------------------------------------------- pieces

    def deal(self, config: Config, number: int, forced: tuple[str, str] | None) -> Dealt:
        """Game ``number`` of ``config`` as dealt: its own random generator (from the run's seed), the
        deal generator and policy ``forced`` or chosen by the steering, the dealer and the cards."""
        seed, rng = self._rng(config, number)
        generator, policy_name = forced or self.steering.choose()
        dealer = rng.randrange(config.players)
        layout = GENERATORS[generator][0](rng, config.players, config.deck_size)
        setup: dict[str, JSON] = {"flags": dict(config.flags), "dealer": dealer, **self._cards(layout, config, dealer)}
        return Dealt(seed, rng, generator, policy_name, dealer, layout, setup)

    def _cards(self, layout: Layout, config: Config, dealer: int) -> dict[str, JSON]:
        """The cards of one deal: the deck order that deals ``layout`` from ``dealer``, or, to an
        engine that refuses deck orders, the explicit deal (hands, muestra, stock)."""
        if self.explicit_deals:
            return explicit_deal(layout)
        return {"deck": deck_order(layout, config.players, dealer, config.flags.get("deal", "one_by_one"))}

    def _deal_explicitly(self, ours: GameHandle, setup: dict[str, JSON]) -> GameHandle:
        """From now on deal explicitly, the reference too: the reference's game from the explicit
        ``setup``, checked to be the very position its deck order dealt."""
        again = self.reference.start(setup)
        fields = [*FIELDS, *(f"hand.{seat}" for seat in range(int(ours.state("players"))))]
        before, after = snapshot(ours, None, fields), snapshot(again, None, fields)
        if (before.state, before.legal) != (after.state, after.legal):  # pragma: no cover - a reference bug
            raise AssertionError(f"the explicit deal {setup} is not the position its deck order dealt")
        self.explicit_deals = True
        return again

    def play_hand(
        self, rng: random.Random, game: GameHandle, last: Step, policy: Any, flags: Mapping[str, JSON]
    ) -> list[Step]:
        """Play the rest of the hand on the reference (under ``flags``); the steps after ``last``."""
        steps: list[Step] = []
        legal, reader = last.legal, Reader(game)
        # (the choice's pieces are made once a hand, not at every action: this loop is the fuzzer's hottest)
        follow = partial(followable, game, flags) if self.automatic_draw else None
        pick: Chooser = lambda some: policy(rng, some, reader)  # noqa: E731
        rate, avoid = self.probe_rate, self.avoid
        for _ in range(MAX_ACTIONS_PER_HAND):
            if not legal or legal[0].get("type") == "deal":
                break  # the hand is over: the next action is a deal, or nothing (the match is over)
            action = choose_action(rng, game, legal, pick, probe_rate=rate, follow_draw=follow, avoid=avoid)
            step = apply_step(game, action)
            steps.append(step)
            legal = step.legal
        if self.hand_played is not None:
            self.hand_played(game, [last, *steps])
        return steps

    def _choose(self, rng: random.Random, game: GameHandle, legal: list[dict[str, JSON]], policy: Policy,
                reader: Reader, flags: Mapping[str, JSON], *, probes: bool = True) -> dict[str, JSON]:  # fmt: skip
        """The next action on ``game`` (:func:`~guinote_conformance.fuzz.probes.choose_action`): for an
        ``automatic_draw`` engine, no action its explicit draw's view cannot follow while a draw is
        pending; none the engine was found not to take in this game (:attr:`Watch.avoid`)."""
        follow = partial(followable, game, flags) if self.automatic_draw else None
        rate = self.probe_rate if probes else 0.0
        pick: Chooser = lambda some: policy(rng, some, reader)  # noqa: E731
        return choose_action(rng, game, legal, pick, probe_rate=rate, follow_draw=follow, avoid=self.avoid)

    def _cover(self, steps: Sequence[Step], report: FuzzReport) -> None:
        """Count the rules the hand of ``steps`` showed (:func:`rules_shown`), and steer by them."""
        rules = rules_shown(steps)
        report.coverage.update(rules)
        self.steering.observe(list(rules))

    def _diverge(
        self,
        report: FuzzReport,
        config: Config,
        setup: dict[str, JSON],
        actions: list[dict[str, JSON]],
        difference: Difference,
        seed: int,
        strategy: str,
        step: Step | None = None,
    ) -> Divergence:
        cause = cause_of(self.reference, setup, actions, difference, step)
        divergence = Divergence(config, setup, actions, cause, difference.expected, difference.got, seed, strategy)
        self.record(report, divergence)
        return divergence

    def _record_passed(self, report: FuzzReport, divergence: Divergence) -> None:
        self.record(report, divergence)  # (one play goes on past: a mano the reference was set to)
        report.passed_over += 1

    def record(self, report: FuzzReport, divergence: Divergence) -> Group:
        """Count ``divergence`` in the group of its cause (made, known or not, at its first)."""
        cause = divergence.cause
        group = report.groups.get(cause)
        if group is None:
            known = find_known(self.known, cause, divergence.config.label)
            group = report.groups[cause] = Group(cause, divergence, known=known, first_hand=report.hands)
        group.add(divergence)
        if group.known is None and report.first_divergence is None:
            report.first_divergence = report.hands
        return group


#: The failure kinds of an engine process that is down (:data:`~.wire.failures.ENGINE_DOWN`).
DOWN_KINDS = frozenset(str(failure.kind) for failure in ENGINE_DOWN)


__all__ = [
    "DEPTHS",
    "DOWN_KINDS",
    "Fuzzer",
    "explicit_deal",
]
