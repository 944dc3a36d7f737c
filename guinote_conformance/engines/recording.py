"""Record what a scenario asked the engine and what it answered, whatever the engine is.

:class:`RecordingEngine` wraps any :class:`~guinote_conformance.adapters.interface.Engine` (in process or over the
protocol), so a failure shows the same engine-agnostic transcript for every engine, and the
calls can be replayed on the reference engine to find where the two parted
(:mod:`guinote_conformance.oracle.transcript`). The wire layer is not touched.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    Action,
    Engine,
    EngineInfo,
    GameHandle,
    Outcome,
    Rejected,
    Setup,
    end_game,
)
from guinote_conformance.engines.explicit_draw import PartlyKnown

#: A transcript shown in a report keeps its first and last calls.
HEAD, TAIL = 12, 48
#: Longest JSON text of one argument or answer kept in a report (an engine may answer megabytes).
MAX_TEXT = 1500


@dataclass
class Call:
    """One call on the interface: ``start``, ``legal``, ``apply``, ``state`` or ``observe``."""

    call: str
    args: JSON
    step: int
    answer: JSON = None
    #: the exception the call raised (its class name and text), if it raised
    error: str | None = None
    #: the answer as the interface returned it (Outcome, list...), for the replay
    raw: Any = None

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"call": self.call, "step": self.step, "args": _bounded(self.args)}
        if self.error is not None:
            data["error"] = self.error[:MAX_TEXT]
        else:
            data["answer"] = _bounded(self.answer)
        return data


def outcome_json(outcome: Outcome) -> JSON:
    if isinstance(outcome, Rejected):
        return {"refused": {"code": outcome.code, "rule": outcome.rule, "message": outcome.message}}
    return {"accepted": list(outcome.events)}


def _bounded(value: JSON) -> JSON:
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= MAX_TEXT:
        return value
    return f"{text[:MAX_TEXT]}… ({len(text)} characters)"


@dataclass
class Transcript:
    calls: list[Call] = field(default_factory=list)
    #: the line of the step running now (the plugin moves it before each step)
    step: int = 0

    def bounded(self, *, whole: bool = False) -> list[dict[str, JSON]]:
        """The calls as JSON, the middle of a long transcript left out (unless ``whole``)."""
        calls = self.calls
        if whole or len(calls) <= HEAD + TAIL:
            return [call.to_json() for call in calls]
        omitted: dict[str, JSON] = {"call": "omitted", "count": len(calls) - HEAD - TAIL}
        return [*(c.to_json() for c in calls[:HEAD]), omitted, *(c.to_json() for c in calls[-TAIL:])]


class RecordingGame:
    def __init__(self, game: GameHandle, transcript: Transcript) -> None:
        self._game = game
        self._transcript = transcript

    def _record(self, name: str, args: JSON, do: Callable[[], Any], as_json: Callable[[Any], JSON]) -> Any:
        call = Call(name, args, self._transcript.step)
        self._transcript.calls.append(call)
        try:
            answer = do()
        except Exception as error:
            call.error = f"{type(error).__name__}: {error}"
            raise
        call.raw = answer
        call.answer = as_json(answer)
        return answer

    def legal_actions(self) -> list[dict[str, JSON]]:
        answer: list[dict[str, JSON]] = self._record("legal", None, self._game.legal_actions, list)
        return answer

    def apply(self, action: Action) -> Outcome:
        answer: Outcome = self._record("apply", dict(action), lambda: self._game.apply(action), outcome_json)
        return answer

    def state(self, name: str) -> JSON:
        return self._record("state", name, lambda: self._game.state(name), lambda value: value)

    def observation(self, seat: int, name: str) -> JSON:
        return self._record("observe", [seat, name], lambda: self._game.observation(seat, name), lambda value: value)

    def end(self) -> None:
        """The engine may forget the game (not recorded: the transcript is of the scenario's calls)."""
        end_game(self._game)

    def unknowable(self, action: Mapping[str, JSON]) -> str | None:
        """What the recorded game cannot tell (see :class:`~guinote_conformance.engines.explicit_draw.PartlyKnown`)."""
        return self._game.unknowable(action) if isinstance(self._game, PartlyKnown) else None


class RecordingEngine:
    """An :class:`Engine` that records every call of one scenario in :attr:`transcript`."""

    def __init__(self, engine: Engine, transcript: Transcript | None = None) -> None:
        self.inner = engine
        self.transcript = transcript or Transcript()

    def info(self) -> EngineInfo:
        return self.inner.info()

    def start(self, setup: Setup) -> RecordingGame:
        call = Call("start", json.loads(json.dumps(dict(setup))), self.transcript.step)
        self.transcript.calls.append(call)
        try:
            game = self.inner.start(setup)
        except Exception as error:
            call.error = f"{type(error).__name__}: {error}"
            raise
        call.answer = "started"
        return RecordingGame(game, self.transcript)

    def close(self) -> None:
        return None  # the plugin owns the real engine and closes it at the end of the session

    def stderr_tail(self, lines: int = 20) -> list[str]:
        tail = getattr(self.inner, "stderr_tail", None)
        if tail is None:
            return []
        found = tail(lines)
        return [str(line) for line in found]
