"""Serve an in-process :class:`~guinote_conformance.adapters.interface.Engine` over the conformance protocol (GCP).

``python -m guinote_conformance.adapters.serve`` serves the reference engine; ``--engine py:module:factory`` (or
``module:factory``) serves any engine written in Python (``factory`` is called with no argument
and returns an :class:`~guinote_conformance.adapters.interface.Engine`)::

    python -m guinote_conformance.adapters.serve --engine reference
    python -m guinote_conformance.adapters.serve --engine mypackage.engine:MyEngine

The process reads requests from stdin and answers on stdout, one JSON line each, until
``stop`` or the end of stdin. Anything the served engine prints goes to stderr, so it cannot
corrupt the protocol stream. This module loads no jsonschema (guinote_conformance.adapters.gcp.validation imports
it only to explain a failure), so the served process starts fast; :class:`Server` is also the base
of the hostile test engines.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO

from guinote_conformance.adapters.gcp.json_text import decode, encode
from guinote_conformance.adapters.gcp.messages import (  # no jsonschema: the server starts fast
    COMMANDS,
    OLDEST_PROTOCOL,
    ErrorCode,
)
from guinote_conformance.adapters.in_process import EngineDidNotStart, NotAnEngine, load_factory, served_target
from guinote_conformance.adapters.interface import (
    Engine,
    EngineInfo,
    GameHandle,
    SetupRejected,
    end_game,
    outcome_answer,
)

JSONObject = dict[str, Any]


class RequestError(Exception):
    """A request the server answers with ``{"ok": false, "error": code}``."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def info_to_json(info: EngineInfo) -> JSONObject:
    """The ``engine`` member of the ``hello`` answer."""
    engine: JSONObject = {
        "name": info.name,
        "version": info.version,
        "language": info.language,
        "profiles": {name: dict(flags) for name, flags in info.profiles.items()},
        "flags": {name: list(values) for name, values in info.flags.items()},
        "capabilities": sorted(info.capabilities),
    }
    if info.homepage:
        engine["homepage"] = info.homepage
    return engine


class Server:
    """Answers GCP requests for one in-process engine; games live until ``end``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.games: dict[str, GameHandle] = {}
        self.started = 0
        self.stopping = False
        # one handler per command of the protocol, named after it
        self._handlers: dict[str, Callable[[JSONObject], JSONObject]] = {name: getattr(self, name) for name in COMMANDS}

    # ------------------------------------------------------------------ transport

    def run(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Serve until ``stop`` or the end of ``stdin``; return the exit status."""
        readline = stdin.readline
        while not self.stopping:
            line = readline()
            if not line:
                break
            if not line.strip():
                continue
            self.write(stdout, self.answer_line(line))
        return 0

    @staticmethod
    def encode(answer: JSONObject) -> bytes:
        """One answer line; an answer that is not JSON becomes an ``engine_error`` answer."""
        try:
            return encode(answer)
        except (TypeError, ValueError) as error:
            failure = _error(answer.get("id"), ErrorCode.ENGINE_ERROR, f"the engine's answer is not JSON: {error}")
            return json.dumps(failure, separators=(",", ":")).encode("ascii") + b"\n"

    def write(self, stdout: BinaryIO, answer: JSONObject) -> None:
        stdout.write(self.encode(answer))
        stdout.flush()

    def answer_line(self, line: bytes) -> JSONObject:
        """The answer to one request line (never raises; :meth:`encode` checks it is JSON)."""
        try:
            request = decode(line)
        except ValueError as error:
            return _error(None, ErrorCode.BAD_REQUEST, f"the request is not JSON: {error}")
        if not isinstance(request, dict):
            return _error(None, ErrorCode.BAD_REQUEST, "a request is a JSON object")
        return self.dispatch(request)

    def dispatch(self, request: JSONObject) -> JSONObject:
        """The answer to one parsed request (never raises). Override to alter behaviour."""
        request_id = request.get("id")
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            return _error(None, ErrorCode.BAD_REQUEST, "every request needs an integer 'id'")
        cmd = request.get("cmd")
        handler = self._handlers.get(cmd) if isinstance(cmd, str) else None
        if handler is None:
            known = ", ".join(self._handlers)
            return _error(request_id, ErrorCode.BAD_REQUEST, f"unknown command {cmd!r}; commands: {known}")
        try:
            return {"id": request_id, "ok": True, **handler(request)}
        except RequestError as error:
            return _error(request_id, error.code, error.message, **error.extra)
        except Exception as error:  # the engine's own failure: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            return _error(request_id, ErrorCode.ENGINE_ERROR, f"{type(error).__name__}: {error}")

    # ------------------------------------------------------------------ commands

    def hello(self, request: JSONObject) -> JSONObject:
        version = request.get("protocol")
        info = self.engine.info()
        if not isinstance(version, int) or isinstance(version, bool) or version < OLDEST_PROTOCOL:
            raise RequestError(
                ErrorCode.UNSUPPORTED_PROTOCOL,
                f"this engine speaks protocol {OLDEST_PROTOCOL} to {info.protocol}, not {version!r}",
            )
        engine = info_to_json(info)
        engine["capabilities"] = sorted({*engine["capabilities"], "batch"})  # the server answers 'batch' itself
        # the version the served engine was written for, or the harness's if older (it cannot read a later one)
        return {"protocol": min(version, info.protocol), "engine": engine}

    def start(self, request: JSONObject) -> JSONObject:
        setup = request.get("setup")
        if not isinstance(setup, dict) or not isinstance(setup.get("flags"), dict):
            raise RequestError(ErrorCode.BAD_REQUEST, "start needs a 'setup' object with its 'flags'")
        try:
            game = self.engine.start(setup)
        except SetupRejected as rejected:
            if rejected.unsupported:
                unsupported = list(rejected.unsupported)
                raise RequestError(ErrorCode.UNSUPPORTED, str(rejected), unsupported=unsupported) from None
            raise RequestError(ErrorCode.BAD_SETUP, str(rejected)) from None
        self.started += 1
        game_id = f"g{self.started}"
        self.games[game_id] = game
        return {"game": game_id}

    def game(self, request: JSONObject) -> GameHandle:
        game_id = request.get("game")
        game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise RequestError(ErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        return game

    def legal(self, request: JSONObject) -> JSONObject:
        return {"actions": self.game(request).legal_actions()}

    def apply(self, request: JSONObject) -> JSONObject:
        game = self.game(request)
        action = request.get("action")
        if not isinstance(action, dict):
            raise RequestError(ErrorCode.BAD_REQUEST, "apply needs an 'action' object")
        return outcome_answer(game.apply(action))

    def state(self, request: JSONObject) -> JSONObject:
        game = self.game(request)
        name = request.get("field")
        if not isinstance(name, str):
            raise RequestError(ErrorCode.BAD_REQUEST, "state needs a 'field' string")
        try:
            return {"value": game.state(name)}
        except KeyError as error:
            raise RequestError(ErrorCode.UNKNOWN_FIELD, _key_message(error)) from None

    def observe(self, request: JSONObject) -> JSONObject:
        game = self.game(request)
        name, seat = request.get("field"), request.get("seat")
        if not isinstance(name, str) or not isinstance(seat, int) or isinstance(seat, bool):
            raise RequestError(ErrorCode.BAD_REQUEST, "observe needs an integer 'seat' and a 'field' string")
        try:
            return {"value": game.observation(seat, name)}
        except KeyError as error:
            raise RequestError(ErrorCode.UNKNOWN_FIELD, _key_message(error)) from None

    def batch(self, request: JSONObject) -> JSONObject:
        """The optional ``batch`` command: apply the actions in turn, each answered like
        ``apply`` and followed by the legal actions and the requested fields."""
        game = self.game(request)
        actions, fields = request.get("actions"), request.get("fields")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise RequestError(ErrorCode.BAD_REQUEST, "batch needs an 'actions' list of action objects")
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
            raise RequestError(ErrorCode.BAD_REQUEST, "batch needs a 'fields' list of field names")
        per_step = request.get("step_fields")
        if per_step is not None and (
            not isinstance(per_step, list)
            or len(per_step) != len(actions)
            or not all(isinstance(names, list) and all(isinstance(f, str) for f in names) for names in per_step)
        ):
            raise RequestError(ErrorCode.BAD_REQUEST, "batch 'step_fields' needs one list of field names per action")
        unknown: list[str] = []
        # an engine that reads several fields in one call (the reference's state_fields) is asked so
        bulk: Callable[[list[str]], JSONObject] | None = getattr(game, "state_fields", None)

        def snapshot(names: list[str]) -> JSONObject:
            state: JSONObject = {}
            if bulk is not None:
                state = bulk(names)
                unknown.extend(name for name in names if name not in state and name not in unknown)
                return {"legal": game.legal_actions(), "state": state}
            for name in names:
                if name in unknown:
                    continue
                try:
                    state[name] = game.state(name)
                except KeyError:
                    unknown.append(name)
            return {"legal": game.legal_actions(), "state": state}

        before = snapshot(fields)
        steps = []
        for number, action in enumerate(actions):
            step = outcome_answer(game.apply(action))
            steps.append({**step, **snapshot(fields if per_step is None else per_step[number])})
        for step in (before, *steps):  # a field found unknown late is left out everywhere
            for name in unknown:
                step["state"].pop(name, None)
        answer: JSONObject = {"before": before, "steps": steps}
        if unknown:
            answer["unknown_fields"] = unknown
        return answer

    def end(self, request: JSONObject) -> JSONObject:
        game = self.game(request)
        del self.games[request["game"]]
        end_game(game)  # the served engine's own end(), if its games have one
        return {}

    def stop(self, request: JSONObject) -> JSONObject:
        self.stopping = True
        return {}


def _error(request_id: Any, code: str, message: str, **extra: Any) -> JSONObject:
    return {"id": request_id, "ok": False, "error": code, "message": message, **extra}


def _key_message(error: KeyError) -> str:
    return str(error.args[0]) if error.args else "unknown field"


def load_engine(spec: str) -> Engine:
    """``reference``, ``py:module:factory`` or ``module:factory``, loaded by
    :mod:`guinote_conformance.adapters.in_process`;
    a spec that names no engine, or an engine that cannot start, ends the process with its message."""
    try:
        return load_factory(spec, served_target(spec))
    except (NotAnEngine, EngineDidNotStart) as error:
        raise SystemExit(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m guinote_conformance.adapters.serve", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--engine", default="reference", help="'reference' (default), 'py:module:factory' or 'module:factory'"
    )
    args = parser.parse_args(argv)
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # stray prints of the engine must not corrupt the protocol stream
    engine = load_engine(args.engine)
    try:
        return Server(engine).run(sys.stdin.buffer, stdout)
    except BrokenPipeError:
        return 0
    finally:
        engine.close()


if __name__ == "__main__":
    raise SystemExit(main())
