"""Engines for the fuzzer's own tests: the reference adapter with one answer changed.

They wrap the reference's answers instead of patching its modules, so they run in the test
process next to the reference they are compared with (``py:tests.fuzz.engines:NAME``)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from guinote_conformance.adapters.interface import JSON, Accepted, Action, EngineInfo, Outcome, Rejected, Setup
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame


class _Game:
    """The reference's game with the flaws ``flaw`` names (several joined by ``+``)."""

    def __init__(self, inner: ReferenceGame, flaw: str) -> None:
        self.inner = inner
        self.flaw = flaw
        self.flaws = frozenset(flaw.split("+"))

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions = self.inner.legal_actions()
        if self.flaws & {"no_cantes", "refuses_cantes"}:  # CANTE-01: never offers a cante
            return [a for a in actions if a.get("type") != "cante"]
        if "refuses_draw" in self.flaws:  # PLAY-08: never offers the draw after a free-phase trick
            return [a for a in actions if a.get("type") != "draw"]
        if "boolean_seats" in self.flaws:  # a protocol slip Python's == cannot see: True == 1
            return [{**a, "seat": True} if a.get("seat") == 1 else a for a in actions]
        return actions

    def apply(self, action: Action) -> Outcome:
        if self.flaw in _FAILURES and action.get("card") == "Ao" and self.inner.state("phase") == "arrastre":
            _FAILURES[self.flaw]()  # served: the process dies or stops answering on this very action
        if "refuses_draw" in self.flaws and action.get("type") == "draw":  # ... nor takes it
            return Rejected("NOTHING_TO_DRAW", "PLAY-08", "nothing to draw")
        if "refuses_cantes" in self.flaws and action.get("type") == "cante":  # ... nor takes one
            return Rejected("CANTE_NOT_ALLOWED", "CANTE-01", "this engine has no cantes")
        outcome = self.inner.apply(action)
        if "ultimas_zero" in self.flaws and isinstance(outcome, Accepted):  # SCORE-06, in the event only
            return Accepted([{**e, "points": 0} if e.get("type") == "ultimas" else e for e in outcome.events])
        if "hand_over_without_rule" in self.flaws and isinstance(outcome, Accepted):  # what 'reason_codes' requires
            return Accepted([{k: v for k, v in e.items() if k != "rule" or e.get("type") != "hand_over"}
                             for e in outcome.events])  # fmt: skip
        if "wrong_play_codes" in self.flaws and isinstance(outcome, Rejected) and action.get("type") == "play":
            return Rejected("NOT_YOUR_TURN", outcome.rule, outcome.message)  # the same refusal, another code
        return outcome

    def state(self, name: str) -> JSON:
        if "forgets_totals" in self.flaws and name.startswith("total."):  # VUELTAS-02: nothing is carried
            return self.inner.state("score." + name.partition(".")[2])
        return self.inner.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.inner.observation(seat, name)


#: Failures of a served engine, on playing the As de oros in the arrastre (the same action each
#: time the game is replayed, as a real crash would be).
_FAILURES: dict[str, Callable[[], object]] = {"crashes": lambda: os._exit(3), "hangs": lambda: time.sleep(600)}


class FlawedEngine(ReferenceEngine):
    def __init__(self, flaw: str) -> None:
        self.flaw = flaw

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(f"flawed-{self.flaw}", full.version, full.language, full.profiles, full.flags,
                          full.capabilities)  # fmt: skip

    def start(self, setup: Setup) -> Any:
        return _Game(super().start(setup), self.flaw)


def no_cantes() -> FlawedEngine:
    return FlawedEngine("no_cantes")


def forgets_totals() -> FlawedEngine:
    return FlawedEngine("forgets_totals")


def refuses_cantes() -> FlawedEngine:
    """Never offers a cante, and refuses one (play cannot go past the reference's cante)."""
    return FlawedEngine("refuses_cantes")


def ultimas_zero() -> FlawedEngine:
    """The diez de últimas is 0 in its ``ultimas`` event (and right everywhere else)."""
    return FlawedEngine("ultimas_zero")


def no_cantes_ultimas_zero() -> FlawedEngine:
    """Both: it offers no cante (but takes one) and writes the diez de últimas as 0."""
    return FlawedEngine("no_cantes+ultimas_zero")


def refuses_draw() -> FlawedEngine:
    return FlawedEngine("refuses_draw")


def wrong_play_codes() -> FlawedEngine:
    """Refuses the plays the reference refuses, with another reason code."""
    return FlawedEngine("wrong_play_codes")


def hand_over_without_rule() -> FlawedEngine:
    """Its ``hand_over`` event lacks the rule that its ``reason_codes`` capability makes required."""
    return FlawedEngine("hand_over_without_rule")


def boolean_seats() -> FlawedEngine:
    """Served, it writes seat 1 of its legal actions as ``true``: equal in Python, not in JSON."""
    return FlawedEngine("boolean_seats")


class _Garbage(_Game):
    def legal_actions(self) -> list[dict[str, JSON]]:
        return ["not an action"]  # type: ignore[list-item]  # the point: an engine answering garbage


class GarbageEngine(FlawedEngine):
    def start(self, setup: Setup) -> Any:
        return _Garbage(ReferenceEngine.start(self, setup), self.flaw)


def garbage() -> GarbageEngine:
    return GarbageEngine("garbage")


def explicit_deal_no_cantes() -> Any:
    """``no_cantes`` dealing its own way: it refuses deck orders (tests/harness/explicit_deal_engine.py)."""
    from tests.harness.explicit_deal_engine import ExplicitDealEngine

    return ExplicitDealEngine(no_cantes())


def explicit_deal_forgets_totals() -> Any:
    """``forgets_totals`` (a rule of the second hand of a point) dealing its own way."""
    from tests.harness.explicit_deal_engine import ExplicitDealEngine

    return ExplicitDealEngine(forgets_totals())


def crashes() -> FlawedEngine:
    """Served, its process exits on the As de oros played in the arrastre."""
    return FlawedEngine("crashes")


def hangs() -> FlawedEngine:
    """Served, it stops answering on the As de oros played in the arrastre."""
    return FlawedEngine("hangs")


class _Down(_Game):
    """A game whose engine process is gone: every call fails as ``failure`` says."""

    def __init__(self, inner: ReferenceGame, failure: Callable[[], Exception]) -> None:
        super().__init__(inner, "down")
        self.failure = failure

    def apply(self, action: Action) -> Outcome:
        raise self.failure()


class DownEngine(FlawedEngine):
    """The reference, but the games whose number (from 0, in the order of their first start: a
    game replayed to trace a divergence keeps its number) ``pattern`` marks with ``t`` time out,
    with ``c`` crash at their start, with ``g`` answer garbage (a wrong answer, not a process that
    is down); ``.`` is played well. The pattern repeats."""

    def __init__(self, pattern: str) -> None:
        super().__init__("down")
        self.pattern = pattern
        self.numbers: dict[str, int] = {}

    @property
    def started(self) -> int:
        """The games started (each counted once)."""
        return len(self.numbers)

    def start(self, setup: Setup) -> Any:
        from guinote_conformance.adapters.subprocess_adapter import EngineCrashed, EngineTimeout, GarbageAnswer

        number = self.numbers.setdefault(json.dumps(setup, sort_keys=True), len(self.numbers))
        mark = self.pattern[number % len(self.pattern)]
        game = super().start(setup).inner
        if mark == "c":
            raise EngineCrashed("the engine exited with code 3 (hypothetical)")
        if mark == "t":
            return _Down(game, lambda: EngineTimeout("no answer within 1.0 s (hypothetical)"))
        if mark == "g":
            return _Down(game, lambda: GarbageAnswer("the answer is not JSON (hypothetical)"))
        return _Game(game, "none")


def crashes_at_every_start() -> DownEngine:
    """Every game's start fails as a process that exited: no game is ever played."""
    return DownEngine("c")


class RefusesEverySetup(FlawedEngine):
    """Declares the reference's profiles but refuses every setup (a deck order and an explicit deal alike)."""

    def start(self, setup: Setup) -> Any:
        from guinote_conformance.adapters.interface import SetupRejected

        raise SetupRejected("this engine plays online only", ["deal=deck order", "deal=explicit"])


def refuses_every_setup() -> RefusesEverySetup:
    return RefusesEverySetup("refuses_setups")


class _Raising(_Game):
    """A game whose code fails as Python code can, at the sixth action: an exception of its own
    (``raises``), an outcome that is no outcome (``answers_none``), or the end of the process (``exits``)."""

    def __init__(self, inner: ReferenceGame, flaw: str) -> None:
        super().__init__(inner, flaw)
        self.applied = 0

    def apply(self, action: Action) -> Outcome:
        self.applied += 1
        if self.applied > 5:
            if self.flaw == "raises":
                raise RuntimeError("internal error \x1b[31min the engine")
            if self.flaw == "answers_none":
                return None  # type: ignore[return-value]  # the point: an engine answering garbage
            if self.flaw == "exits":
                raise SystemExit(4)
        return self.inner.apply(action)

    def legal_actions(self) -> list[dict[str, JSON]]:
        if self.flaw == "legal_raises" and self.applied > 5:
            raise ZeroDivisionError("division by zero")
        return self.inner.legal_actions()


class RaisingEngine(FlawedEngine):
    def start(self, setup: Setup) -> Any:
        return _Raising(ReferenceEngine.start(self, setup), self.flaw)


def raises() -> RaisingEngine:
    return RaisingEngine("raises")


def legal_raises() -> RaisingEngine:
    return RaisingEngine("legal_raises")


def answers_none() -> RaisingEngine:
    return RaisingEngine("answers_none")


def exits() -> RaisingEngine:
    return RaisingEngine("exits")


#: Games started in this process by :func:`dies_once`.
_STARTED = [0]


class _DiesOnce(_Game):
    """``no_cantes``, whose process ends (``os._exit``) at the first As de oros played in the arrastre
    of all its processes, once it has started 20 games (a worker that has finished a few batches): the
    file named by ``GUINOTE_DIES_ONCE`` is made then, and after it the games go on."""

    def apply(self, action: Action) -> Outcome:
        marker = os.environ.get("GUINOTE_DIES_ONCE", "")
        arrastre = action.get("card") == "Ao" and self.inner.state("phase") == "arrastre"
        if marker and _STARTED[0] > 20 and arrastre:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                os._exit(9)  # the worker process, killed in the middle of a game
        return super().apply(action)


class DiesOnceEngine(FlawedEngine):
    def start(self, setup: Setup) -> Any:
        _STARTED[0] += 1
        return _DiesOnce(ReferenceEngine.start(self, setup), "no_cantes")


def dies_once() -> DiesOnceEngine:
    """In process, it ends the worker that plays it once (see :class:`_DiesOnce`); otherwise ``no_cantes``."""
    return DiesOnceEngine("no_cantes")


def main_process_only() -> FlawedEngine:
    """``no_cantes``, which cannot start in a process started by another (a worker of ``compare --jobs``)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        raise RuntimeError("this engine's licence server is not reachable from here")
    return FlawedEngine("no_cantes")
