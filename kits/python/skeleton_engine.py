#!/usr/bin/env python3
"""Skeleton of a Guiñote engine that speaks GCP/2, the Guiñote conformance protocol.

Copy this file next to your engine and fill in the places marked ``TODO(engine)``. It needs
nothing but the Python standard library, and it already runs: the handshake works, setups
with flag values you do not declare are refused as ``unsupported``, and every command you
have not implemented yet is answered with ``engine_error`` ("not implemented: ...").

The protocol, in one paragraph: the harness starts this program ONCE and writes one JSON
request per line on its stdin; the program writes exactly one JSON answer per line on its
stdout, echoing the request's ``id``, and flushes. stdout carries nothing else (log to
stderr). The program exits after answering ``stop``, or when stdin ends. The reference is
``docs/checking/protocol.md``; the JSON Schemas are in ``adapters/schemas/``.

Check your progress with::

    python -m guinote_conformance.adapters.harness_check validate -- python3 skeleton_engine.py
    python -m guinote_conformance.adapters.harness_check smoke -- python3 skeleton_engine.py
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

PROTOCOL = 2

# TODO(engine): who your engine is.
ENGINE = {"name": "my-guinote", "version": "0.0.1", "language": "python"}

# TODO(engine): for each rule flag, the values your engine can play. These are the values of
# the "lascuarenta" profile; add the values you support, one list per flag.
FLAGS: dict[str, list[str]] = {
    "players": ["4"],
    "deck": ["40"],
    "rank_8_9": ["below_caballo"],
    "deal": ["three_three"],
    "cante_per_trick": ["one"],
    "cante_order": ["free"],
    "tute": ["wins_point"],
    "seven_exchange_requires": ["own_side_won_any_trick"],
    "seven_exchange_window": ["between_tricks"],
    "seven_exchange_min": ["higher_than_seven"],
    "seven_is_muestra": ["swap_with_two"],
    "partner_winning_exempts": ["yes"],
    "overtake_reference": ["current_winning_card"],
    "renuncio_handling": ["block"],
    "renuncio_faults": ["out_of_turn_and_cante"],
    "thirty_malas": ["vueltas"],
    "thirty_malas_count": ["cards_plus_ultimas"],
    "thirty_malas_scope": ["first_hand_only"],
    "thirty_malas_trigger": ["any_winner"],
    "vueltas_end": ["automatic"],
    "vueltas_claim_by": ["trick_winner"],
    "points_per_coto": ["3"],
    "cotos_to_win": ["1"],
}

# TODO(engine): your named profiles (a value for every flag). One minimal profile to start.
PROFILES: dict[str, dict[str, str]] = {"lascuarenta": {flag: values[0] for flag, values in FLAGS.items()}}

# TODO(engine): the optional features you implement: "positions" (start from a mid-hand
# position), "observations" (observe), "reason_codes" (rejections carry the suite's reason
# codes and rule IDs; "reason_codes_arrastre", "reason_codes_cantes"... for some rule areas
# only), "match" (the match score across points: cotos, and the deal after a won point).
# "batch" needs nothing of yours: the protocol loop below answers it with legal, apply and state,
# and declares it.
CAPABILITIES: list[str] = []

# TODO(engine): how your engine draws after a free-phase trick (docs/checking/protocol.md, "The draw").
#   "explicit":  the trick ends with a draw pending; legal() lists {"type": "draw"} (with the cantes
#                and the exchange of the trick's winner); apply({"type": "draw"}) deals one card to
#                each seat, the winner first, and answers the "cards_drawn" event.
#   "automatic": your engine draws as the trick ends: the play that completes the trick answers
#                "trick_won" then "cards_drawn"; never list nor accept "draw". The suite holds the
#                draw back on its side (nothing to emulate here).
DRAW = "explicit"
if DRAW == "automatic":
    CAPABILITIES.append("automatic_draw")


class BadSetup(Exception):
    """Raise from Game() for an impossible deal (a card twice, a wrong number of cards...)."""


class UnknownField(Exception):
    """Raise from Game.state/observe for a field name (or seat) that does not exist."""


class Game:
    """One game in progress. TODO(engine): wrap your own game object here."""

    def __init__(self, setup: dict[str, Any]) -> None:
        # setup["flags"]: the value of every flag. Then one of:
        #   setup["deck"]: the deck order, top card first, and setup["dealer"]: the dealer's seat;
        #   setup["hands"], setup["muestra"], setup["stock"], setup["dealer"]: an explicit deal;
        #   setup["position"]: a mid-hand position (only with the "positions" capability).
        # Cards are two characters: rank (A 3 R S C 9 8 7 6 5 4 2) and suit (o c e b), e.g. "Ao".
        raise NotImplementedError("start: create your game from the setup")  # TODO(engine)

    def legal(self) -> list[dict[str, Any]]:
        # Every action the game accepts now, for any seat, e.g.
        # {"type": "play", "seat": 1, "card": "Ao"}, {"type": "draw"}, {"type": "cante", "seat": 0, "suit": "o"}.
        # DRAW == "explicit": while a draw is pending the only play-like action is {"type": "draw"}.
        # DRAW == "automatic": never {"type": "draw"}.
        raise NotImplementedError("legal")  # TODO(engine)

    def apply(self, action: dict[str, Any]) -> dict[str, Any]:
        # Accepted: {"accepted": True, "events": [{"type": "card_played", "seat": 1, "card": "Ao"}, ...]}
        # The play that completes a trick answers {"type": "trick_won", "seat", "side", "points", "cards"};
        # with DRAW == "automatic" it also answers {"type": "cards_drawn", "draws": [[seat, card], ...]}
        # (winner first; the last card drawn is the muestra) and, after the final draw, {"type": "arrastre_begins"}.
        # With DRAW == "explicit" those two come in the answer to {"type": "draw"}.
        # Refused (a normal answer, not an error):
        #   {"accepted": False, "code": "MUST_FOLLOW_SUIT", "rule": "ARR-01", "message": "..."}
        raise NotImplementedError("apply")  # TODO(engine)

    def state(self, field: str) -> Any:
        # The value of a state field of the vocabulary: "phase", "turn", "hand.2", "score.0"...
        # Raise UnknownField for a name that is not a field.
        raise NotImplementedError(f"state {field}")  # TODO(engine)

    def observe(self, seat: int, field: str) -> Any:
        # The field as `seat` sees it: hidden information is None (capability "observations").
        raise NotImplementedError(f"observe {field}")  # TODO(engine)


# --------------------------------------------------------------------------- the protocol loop
# You should not need to change anything below.


class Failure(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


games: dict[str, Game] = {}
started = 0


def game_of(request: dict[str, Any]) -> Game:
    game = games.get(request.get("game"))  # type: ignore[arg-type]
    if game is None:
        raise Failure("unknown_game", f"no game {request.get('game')!r}")
    return game


def handle(request: dict[str, Any]) -> dict[str, Any]:
    global started
    cmd = request.get("cmd")
    if cmd == "hello":
        if not isinstance(request.get("protocol"), int) or request["protocol"] < PROTOCOL:
            raise Failure("unsupported_protocol", f"this engine speaks protocol {PROTOCOL}")
        capabilities = CAPABILITIES + [name for name in ("batch",) if name not in CAPABILITIES]  # batch: answered here
        engine = {**ENGINE, "profiles": PROFILES, "flags": FLAGS, "capabilities": capabilities}
        return {"protocol": PROTOCOL, "engine": engine}
    if cmd == "start":
        setup = request.get("setup")
        if not isinstance(setup, dict) or not isinstance(setup.get("flags"), dict):
            raise Failure("bad_request", "start needs a setup with its flags")
        missing = [f"{flag}={value}" for flag, value in setup["flags"].items() if value not in FLAGS.get(flag, [])]
        if "position" in setup and "positions" not in CAPABILITIES:
            missing.append("positions")
        if missing:
            raise Failure("unsupported", "this engine does not play " + ", ".join(missing), unsupported=missing)
        try:
            game = Game(setup)
        except BadSetup as error:
            raise Failure("bad_setup", str(error)) from None
        started += 1
        games[f"g{started}"] = game
        return {"game": f"g{started}"}
    if cmd == "legal":
        return {"actions": game_of(request).legal()}
    if cmd == "apply":
        return game_of(request).apply(request["action"])
    if cmd in ("state", "observe"):
        game = game_of(request)
        try:
            if cmd == "state":
                return {"value": game.state(request["field"])}
            return {"value": game.observe(request["seat"], request["field"])}
        except UnknownField as error:
            raise Failure("unknown_field", str(error)) from None
    if cmd == "batch":
        return batch(game_of(request), request)
    if cmd == "end":
        game_of(request)
        del games[request["game"]]
        return {}
    if cmd == "stop":
        return {}
    raise Failure("bad_request", f"unknown command {cmd!r}")


def is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def frozen(value: Any) -> Any:
    """The value as JSON carries it now: a later action must not change what an earlier step answered."""
    return json.loads(json.dumps(value))


def batch(game: Game, request: dict[str, Any]) -> dict[str, Any]:
    """The optional command ``batch`` (docs/checking/protocol.md, "batch"), for any Game: the legal
    actions and ``fields`` before the first action (``before``), then one step per action, in
    order: what ``apply`` answers for it, then the legal actions and the fields after it
    (``step_fields[i]``, else ``fields``). A refused action leaves the game as it was and the next
    one is still applied. A field the game does not know is left out of every ``state`` and listed
    once in ``unknown_fields``. Any other failure fails the whole request (``engine_error``): the
    harness then finds the failing action by asking one at a time."""
    actions: Any = request.get("actions")
    fields: Any = request.get("fields")
    per_step: Any = request.get("step_fields")
    if not isinstance(actions, list) or not all(isinstance(action, dict) for action in actions):
        raise Failure("bad_request", "batch needs an 'actions' list of action objects")
    if not is_names(fields):
        raise Failure("bad_request", "batch needs a 'fields' list of field names")
    if per_step is not None and not (
        isinstance(per_step, list) and len(per_step) == len(actions) and all(is_names(names) for names in per_step)
    ):
        raise Failure("bad_request", "batch 'step_fields' needs one list of field names per action")
    unknown: list[str] = []

    def snapshot(names: list[str]) -> dict[str, Any]:
        state = {}
        for name in names:
            if name in unknown:
                continue
            try:
                state[name] = frozen(game.state(name))
            except UnknownField:
                unknown.append(name)
        return {"legal": frozen(game.legal()), "state": state}

    before = snapshot(fields)
    steps = [
        {**frozen(game.apply(action)), **snapshot(fields if per_step is None else per_step[number])}
        for number, action in enumerate(actions)
    ]
    for step in [before, *steps]:  # a field found unknown late is left out everywhere
        for name in unknown:
            step["state"].pop(name, None)
    answer = {"before": before, "steps": steps}
    if unknown:
        answer["unknown_fields"] = unknown
    return answer


def answer(line: str) -> tuple[dict[str, Any], bool]:
    """The answer to one request line, and whether to stop."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"id": None, "ok": False, "error": "bad_request", "message": f"not JSON: {error}"}, False
    if not isinstance(request, dict):
        return {"id": None, "ok": False, "error": "bad_request", "message": "not a JSON object"}, False
    request_id = request.get("id")
    try:
        return {"id": request_id, "ok": True, **handle(request)}, request.get("cmd") == "stop"
    except Failure as failure:
        return {
            "id": request_id,
            "ok": False,
            "error": failure.code,
            "message": failure.message,
            **failure.extra,
        }, False
    except NotImplementedError as error:
        return {"id": request_id, "ok": False, "error": "engine_error", "message": f"not implemented: {error}"}, False
    except Exception as error:  # a bug: report it and keep serving
        traceback.print_exc(file=sys.stderr)
        return {
            "id": request_id,
            "ok": False,
            "error": "engine_error",
            "message": f"{type(error).__name__}: {error}",
        }, False


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, stop = answer(line)
        out.write(json.dumps(reply) + "\n")
        out.flush()
        if stop:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
