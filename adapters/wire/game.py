"""One game inside a :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`:
:class:`SubprocessGame`.

The handle sends its requests through the engine (which relaunches a dead process) and keeps
what a relaunch needs to rebuild the game: its setup and the actions it accepted (a :class:`Slot`
says in which launch the game lives). A failure that leaves the game's state unknown breaks the
handle: every later call raises :class:`~guinote_conformance.adapters.wire.failures.GameLost`.

What the handle asks of its engine is :class:`Host`, declared here: the engine, which makes the
handles, imports this module, and this module imports nothing of the engine's.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from guinote_conformance.adapters.gcp.messages import Apply, Batch, End, ErrorCode, Legal, Observe, Request, State
from guinote_conformance.adapters.interface import JSON, Accepted, Action, EventList, Outcome, Rejected, UnknownField
from guinote_conformance.adapters.wire.failures import EngineClosed, EngineFailure, GameLost

if TYPE_CHECKING:
    from guinote_conformance.adapters.interface import EngineInfo
    from guinote_conformance.adapters.wire.process import EngineProcess, InFlight


@dataclass
class Slot:
    """Where a game lives: its id in one generation of the engine process."""

    game: str
    generation: int


class Host(Protocol):
    """What a game asks of the engine it lives in
    (:class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`):
    its requests sent and answered on the live process (relaunched, and the game rebuilt on it, as
    needed), the engine's declaration, and the list of forgotten games to end."""

    timeout: float
    #: how many times the process was launched: a game of an earlier launch must be rebuilt
    generation: int
    _process: EngineProcess | None
    _info: EngineInfo | None
    #: the answer line of the last request, kept with an accepted action for a replay
    _last_raw: bytes
    _orphans: list[Slot]

    def _ensure_process(self) -> EngineProcess: ...
    def _revive(self, game: SubprocessGame) -> None: ...
    def _post_on(
        self, process: EngineProcess, request: Request, timeout: float, *, later: bool = False
    ) -> InFlight: ...
    def _answer(self, ticket: InFlight) -> dict[str, Any]: ...
    def _call(self, request: Request) -> dict[str, Any]: ...
    def _refused(self, request: Request, answer: dict[str, Any]) -> EngineFailure: ...


class SubprocessGame:
    """One game inside a :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine` (a
    :class:`~guinote_conformance.adapters.interface.GameHandle`)."""

    def __init__(self, engine: Host, setup: str, slot: Slot) -> None:
        self._engine = engine
        self._setup = setup  # JSON text, for replays
        self._slot = slot
        #: for replays: each accepted action (JSON text) with the raw answer line that accepted it, or
        #: the actions of a ``batch`` (the list sent, the harness's own copy) with its raw answer (decoded
        #: only for a replay)
        self._history: list[tuple[str | list[Mapping[str, Any]], bytes]] = []
        self._broken: str | None = None
        self._ended = False
        self._finalizer = weakref.finalize(self, engine._orphans.append, slot)

    @property
    def game_id(self) -> str:
        return self._slot.game

    @property
    def broken(self) -> str | None:
        """Why this game is lost (``None`` while it is playable)."""
        return self._broken

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions: list[dict[str, JSON]] = self._request(Legal)["actions"]
        return actions

    def apply(self, action: Action) -> Outcome:
        answer = self._request(lambda game: Apply(game, dict(action)))
        if answer["accepted"]:
            events: EventList = answer["events"]
            self._history.append((json.dumps(action), self._engine._last_raw))
            return Accepted(events)
        return Rejected(answer["code"], answer.get("rule", ""), answer.get("message", ""))

    def state(self, name: str) -> JSON:
        return self._request(lambda game: State(game, name))["value"]

    def observation(self, seat: int, name: str) -> JSON:
        return self._request(lambda game: Observe(game, seat, name))["value"]

    @property
    def batch_supported(self) -> bool:
        """Whether the engine declared the optional ``batch`` command."""
        info = self._engine._info
        return info is not None and "batch" in info.capabilities

    def batch(
        self, actions: Sequence[Action], fields: Sequence[str], step_fields: Sequence[Sequence[str]] | None = None
    ) -> dict[str, Any]:
        """The optional ``batch`` command: apply ``actions`` in turn in ONE request; the answer's
        ``before`` snapshot (``fields``) and one step per action (``step_fields[i]``, or
        ``fields``; see ``batch.response.json``). Only for an engine that declares the capability
        (:attr:`batch_supported`)."""
        return self.batch_begin(actions, fields, step_fields)()

    def batch_begin(
        self,
        actions: Sequence[Action],
        fields: Sequence[str],
        step_fields: Sequence[Sequence[str]] | None = None,
        expected: Sequence[bytes | None] = (),
    ) -> Callable[[], dict[str, Any]]:
        """:meth:`batch` in two halves: send the request now, and return the function that reads
        its answer (checked as :meth:`batch` checks it), so that the caller can work while the
        engine does (the fuzzer plays the next hand on the reference meanwhile). Any other call
        on this engine first reads the answer and keeps it for that function.

        ``expected[i]``: the canonical text (:func:`~guinote_conformance.adapters.gcp.json_text.canonical`)
        of a valid step, with every event member the engine's capabilities require, that the caller
        expects as step ``i`` (the fuzzer's: the reference's answer), or ``None``. The answer is
        checked as strictly, but a step with exactly that text needs no schema check, nor a look for
        the members the capabilities require."""
        if not self.batch_supported:
            raise EngineFailure("the engine does not declare the 'batch' capability")
        engine = self._engine
        sent: list[Mapping[str, Any]] = [dict(a) for a in actions]
        timeout, engine.timeout = engine.timeout, engine.timeout * max(1.0, len(actions) / 10)
        try:
            steps_fields = None if step_fields is None else [list(names) for names in step_fields]
            message, ticket = self._post(lambda game: Batch(game, sent, list(fields), steps_fields), later=True)
        finally:
            engine.timeout = timeout
        ticket.expected = expected  # read when the answer is: not before this returns

        def answer() -> dict[str, Any]:
            answered = self._outcome(message, ticket)
            steps = answered["steps"]
            if len(steps) != len(sent):
                self._broken = f"the batch answered {len(steps)} steps for {len(sent)} actions"
                raise EngineFailure(f"the engine {self._broken}")
            if any(step["accepted"] for step in steps):  # accepted actions are replayed after a relaunch
                self._history.append((sent, ticket.raw))
            return answered

        return answer

    def _accepted(self) -> Iterator[tuple[dict[str, Any], Any]]:
        """The accepted actions of :attr:`_history`, in order, each with the events it caused."""
        for sent, raw in self._history:
            recorded = json.loads(sent) if isinstance(sent, str) else sent
            if isinstance(recorded, dict):
                yield recorded, json.loads(raw)["events"]
                continue
            for action, step in zip(recorded, json.loads(raw)["steps"], strict=True):
                if step["accepted"]:
                    yield action, step.get("events", [])

    def end(self) -> None:
        """Tell the engine to forget this game (optional: forgotten handles are ended lazily)."""
        if self._ended or self._broken is not None:
            return
        self._ended = True
        self._finalizer.detach()
        engine = self._engine
        if engine._process is not None and not engine._process.dead and self._slot.generation == engine.generation:
            engine._call(End(self._slot.game))

    def _request(self, make: Callable[[str], Request]) -> dict[str, Any]:
        """Send the request ``make(game id)`` (the id changes when the game is rebuilt) and read its answer."""
        return self._outcome(*self._post(make))

    def _post(self, make: Callable[[str], Request], *, later: bool = False) -> tuple[Request, InFlight]:
        """Send the request ``make(game id)``; the request and the ticket of its answer (to be
        read ``later``: see :meth:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine._post_on`)."""
        engine = self._engine
        if self._broken is not None:
            raise GameLost(f"this game was lost earlier: {self._broken}")
        if self._ended:
            raise GameLost("this game was ended")
        try:
            process = engine._ensure_process()
            if self._slot.generation != engine.generation:
                engine._revive(self)
                process = engine._ensure_process()
            message = make(self._slot.game)
            return message, engine._post_on(process, message, engine.timeout, later=later)
        except EngineFailure as failure:
            self._break(failure)
            raise

    def _outcome(self, message: Request, ticket: InFlight) -> dict[str, Any]:
        """The answer to ``message``, or the failure it is (which breaks the game where it must)."""
        engine = self._engine
        try:
            answer = engine._answer(ticket)
        except EngineFailure as failure:
            self._break(failure)
            raise
        if answer["ok"]:
            return answer
        code = answer["error"]
        if code == ErrorCode.UNKNOWN_FIELD and isinstance(message, State | Observe):
            raise UnknownField(answer["message"])
        refused = engine._refused(message, answer)
        if isinstance(message, (Apply, Batch)) or code == ErrorCode.UNKNOWN_GAME:
            self._break(refused)
        raise refused

    def _break(self, failure: EngineFailure) -> None:
        if not isinstance(failure, EngineClosed):
            self._broken = f"{failure.kind}: {failure.summary}"
