"""Check an engine's harness before checking its rules.

Two modes, each returning a list of :class:`Finding` for a CLI to print:

* :func:`validate` speaks the protocol at the lowest level: the handshake and one scripted
  game, every answer checked against its JSON Schema, each violation reported (it does not
  stop at the first one), plus the protocol's own rules (unknown fields, unknown games and
  unknown commands answered with the right error, a clean exit after ``stop``);
* :func:`smoke` plays one complete hand through :class:`~adapters.subprocess_adapter.SubprocessEngine`,
  always choosing a legal action, and checks what the conformance scenarios rely on: the legal
  list is not empty until the hand is over, the engine accepts its own legal actions, every
  state field of the vocabulary answers.

A clean report from both means that failures of the conformance suite are about the rules,
not about the harness. Run it as ``python -m adapters.harness_check validate -- ENGINE ARGS...``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from adapters.gcp.json_text import encode
from adapters.gcp.messages import COMMANDS, PROTOCOL_VERSION, PROTOCOL_VERSIONS, ErrorCode
from adapters.gcp.validation import (
    field_violations,
    request_is_valid,
    request_violations,
    response_violations,
    schema_name,
)
from adapters.interface import CAPABILITIES, EngineError, Rejected, SetupRejected, UnknownField
from adapters.obligations import Obligations
from adapters.subprocess_adapter import SubprocessEngine
from adapters.vocabulary import DECK_RANKS, STATE_FIELDS, deck_codes
from adapters.wire.failures import EngineFailure, LaunchFailure, TransportFailure
from adapters.wire.process import EngineProcess
from reference_engine.flags import flag_defaults

Severity = Literal["error", "warning", "info"]
PHASES = ("free", "arrastre", "hand_over", "match_over")


@dataclass(frozen=True)
class Finding:
    """One result of a check. ``check`` groups findings: ``transport``, ``schema``, ``handshake``,
    ``setup``, ``protocol``, ``invariant``, ``field``, ``shutdown`` or ``summary``."""

    severity: Severity
    check: str
    message: str
    step: str = ""
    sent: str | None = None
    received: str | None = None
    details: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        """Not a problem: a warning or an information (only errors fail a check)."""
        return self.severity != "error"

    @property
    def unreachable(self) -> bool:
        """The engine could not be started, or failed its handshake: nothing else could be checked."""
        return self.severity == "error" and self.check == "transport" and self.step in ("launch", "hello")

    def __str__(self) -> str:
        where = f" (at {self.step})" if self.step else ""
        lines = [f"{self.severity.upper():7} {self.check}{where}: {self.message}"]
        if self.sent is not None:
            lines.append(f"          sent:     {self.sent}")
        if self.received is not None:
            lines.append(f"          received: {self.received}")
        lines.extend(f"          {detail}" for detail in self.details)
        return "\n".join(lines)


def has_errors(findings: Sequence[Finding]) -> bool:
    return any(finding.severity == "error" for finding in findings)


def _shown(data: Any) -> str:
    text = data.rstrip(b"\n").decode("utf-8", "backslashreplace") if isinstance(data, bytes) else json.dumps(data)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _explicit_deal(flags: Mapping[str, str], seed: int) -> dict[str, Any]:
    """The same shuffle as :func:`_deck`, dealt as an explicit deal: six cards each, the muestra, the stock.

    For an engine that deals its own way and refuses deck orders (``deal`` flag values it lacks).
    """
    cards = _deck(flags, seed)
    players = int(flags["players"]) if flags.get("players", "").isdigit() else 4
    hands = [cards[6 * seat : 6 * seat + 6] for seat in range(players)]
    return {"hands": hands, "muestra": cards[6 * players], "stock": cards[6 * players + 1 :]}


def _deck(flags: Mapping[str, str], seed: int) -> list[str]:
    size = int(flags["deck"]) if flags.get("deck", "").isdigit() and int(flags["deck"]) in DECK_RANKS else 40
    cards = deck_codes(size)
    random.Random(seed).shuffle(cards)
    return cards


class _Stop(Exception):
    """The session cannot go on (the transport failed)."""


class _Session:
    """A raw protocol session that records findings instead of raising."""

    def __init__(self, argv: Sequence[str], timeout: float, startup_timeout: float, **popen: Any) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.findings: list[Finding] = []
        #: what the session exercised: commands sent, event types seen, state fields read
        self.commands: set[str] = set()
        self.events: set[str] = set()
        self.fields: set[str] = set()
        self.players = 4
        #: what the protocol requires of the engine, once its handshake said what it is
        self.obligations = Obligations()
        self.stderr: deque[str] = deque(maxlen=20)
        try:
            self.process = EngineProcess(
                self.argv,
                ring=self.stderr,
                max_line_bytes=1 << 20,
                reader="auto",
                cwd=popen.get("cwd"),
                env=popen.get("env"),
            )
        except OSError as error:
            raise _Stop(f"cannot run the engine: {error}") from None

    def add(self, severity: Severity, check: str, message: str, step: str = "", **extra: Any) -> None:
        self.findings.append(Finding(severity, check, message, step, **extra))

    def ask(self, step: str, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request; record transport and schema findings; return the answer.

        The framing is :meth:`EngineProcess.exchange`, the one the suite's adapter uses; a transport
        failure ends the session, a schema violation is recorded and the session goes on.
        """
        cmd = str(message["cmd"])
        known = cmd in COMMANDS
        request = {"id": self.process.next_id + 1, **message}
        if known and not request_is_valid(request):  # pragma: no cover - a bug of this module
            self.add(
                "error",
                "internal",
                f"the harness built an invalid request: {request_violations(request)}",
                step,
            )
        try:
            answer, raw = self.process.exchange(message, self.timeout if timeout is None else timeout)
        except TransportFailure as failure:
            self.process.kill()
            self.add(
                "error",
                "transport",
                f"{failure.kind}: {failure.summary}",
                step,
                sent=_shown(failure.sent or encode(request)),
                received=_shown(failure.received or b""),
                details=tuple(f"stderr | {text}" for text in self.stderr),
            )
            raise _Stop from None
        line = encode(request)
        self.commands.add(cmd)
        for event in answer.get("events") or [] if cmd == "apply" else []:
            if isinstance(event, dict) and isinstance(event.get("type"), str):
                self.events.add(event["type"])
        if known:
            for violation in response_violations(cmd, answer):
                self.add(
                    "error",
                    "schema",
                    f"{violation} ({schema_name(cmd, 'response')})",
                    step,
                    sent=_shown(line),
                    received=_shown(raw),
                )
            events = answer.get("events") if cmd == "apply" else None
            missing = self.obligations.missing_in(events) if isinstance(events, list) else ""
            if missing:  # a member this engine's capabilities make required
                self.add("error", "schema", f"{missing} (common.json)", step, sent=_shown(line), received=_shown(raw))
        return answer

    def close(self) -> None:
        if not self.process.dead:
            self.process.kill()


def _check_info(session: _Session, engine: Any) -> None:
    if not isinstance(engine, dict):
        return
    session.add(
        "info",
        "summary",
        f"{engine.get('name')} {engine.get('version')} ({engine.get('language')}); "
        f"capabilities: {', '.join(engine.get('capabilities') or []) or 'none'}; "
        f"profiles: {', '.join(engine.get('profiles') or {}) or 'none'}",
        "hello",
    )
    flags = _dict(engine.get("flags"))
    profiles = _dict(engine.get("profiles"))
    if not profiles:
        session.add(
            "error", "handshake", "the engine declares no profile: the suite cannot choose rules for it", "hello"
        )
    for name, values in profiles.items():
        if not isinstance(values, dict):
            continue
        for flag, value in values.items():
            if value not in flags.get(flag, []):
                session.add(
                    "error",
                    "handshake",
                    f"profile {name!r} sets {flag}={value}, which the 'flags' member does not offer",
                    "hello",
                )
    for capability in engine.get("capabilities") or []:
        if capability not in CAPABILITIES:
            session.add(
                "warning", "handshake", f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}", "hello"
            )
    suite_flags = _suite_flags()
    for flag, values in flags.items():
        if flag not in suite_flags:
            session.add("warning", "handshake", f"flag {flag!r} is unknown to the suite", "hello")
            continue
        for value in values if isinstance(values, list) else []:
            if value not in suite_flags[flag]:
                session.add(
                    "warning", "handshake", f"value {value!r} of flag {flag!r} is unknown to the suite", "hello"
                )
    missing = sorted(set(suite_flags) - set(flags))
    if missing:
        defaults = flag_defaults()
        played = ", ".join(f"{name}={defaults[name]}" for name in missing)
        session.add(
            "info",
            "handshake",
            f"the engine does not declare the flags {', '.join(missing)}: the suite plays them at their defaults "
            f"({played}) and never sends them; scenarios about their other values are not applicable",
            "hello",
        )


def _suite_flags() -> dict[str, list[str]]:
    """Every flag of the suite with its values (the reference engine plays them all)."""
    from adapters.reference import ReferenceEngine

    return {name: list(values) for name, values in ReferenceEngine().info().flags.items()}


def _expect_error(
    session: _Session, step: str, answer: dict[str, Any], code: str, severity: Severity = "error"
) -> None:
    if answer.get("ok") is not False:
        session.add(
            severity, "protocol", f"expected error {code!r}, got a success answer", step, received=_shown(answer)
        )
    elif answer.get("error") != code:
        session.add(
            severity, "protocol", f"expected error {code!r}, got {answer.get('error')!r}", step, received=_shown(answer)
        )


def validate(
    argv: Sequence[str],
    *,
    timeout: float = 5.0,
    startup_timeout: float = 10.0,
    profile: str | None = None,
    seed: int = 0,
    actions: int = 8,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Run the handshake and one scripted game; report every protocol violation."""
    try:
        session = _Session(argv, timeout, startup_timeout, cwd=cwd, env=env)
    except _Stop as stop:
        return [Finding("error", "transport", str(stop), "launch")]
    try:
        _validate_session(session, profile, seed, actions)
    except _Stop:
        pass
    finally:
        session.close()
    return session.findings


def _validate_session(session: _Session, profile: str | None, seed: int, actions: int) -> None:
    hello = session.ask("hello", {"cmd": "hello", "protocol": PROTOCOL_VERSION}, session.startup_timeout)
    for older in reversed(PROTOCOL_VERSIONS[:-1]):  # an engine that takes only its own version
        if hello.get("ok") or hello.get("error") != ErrorCode.UNSUPPORTED_PROTOCOL:
            break
        hello = session.ask(f"hello (protocol {older})", {"cmd": "hello", "protocol": older}, session.startup_timeout)
    if not hello.get("ok"):
        session.add("error", "handshake", f"the engine refused the handshake: {hello.get('message')}", "hello")
        raise _Stop
    version = hello.get("protocol")
    if version not in PROTOCOL_VERSIONS:
        speaks = ", ".join(f"GCP/{number}" for number in PROTOCOL_VERSIONS)
        session.add("error", "handshake", f"the engine speaks protocol {version!r}; the suite speaks {speaks}", "hello")
        raise _Stop
    if version != PROTOCOL_VERSION:
        session.add(
            "info", "handshake", f"the engine was written for GCP/{version}: what GCP/{PROTOCOL_VERSION} "
            "added is optional for it (docs/checking/changelog.md)", "hello",
        )  # fmt: skip
    session.obligations = Obligations(frozenset(_dict(hello.get("engine")).get("capabilities") or []), int(version))
    engine = _dict(hello.get("engine"))
    _check_info(session, engine)
    capabilities = set(engine.get("capabilities") or [])
    profiles = _dict(engine.get("profiles"))
    game: str | None = None
    if profiles:
        name = profile if profile in profiles else next(iter(profiles))
        if profile is not None and profile not in profiles:
            session.add("error", "setup", f"the engine does not declare the profile {profile!r}", "start")
        flags = profiles[name]
        session.players = 2 if _dict(flags).get("players") == "2" else 4
        setup: dict[str, Any] = {"flags": flags, "dealer": 0, "deck": _deck(flags, seed)}
        started = session.ask(f"start ({name})", {"cmd": "start", "setup": setup})
        if started.get("ok") is False and started.get("error") in ("unsupported", "bad_setup"):
            setup = {"flags": flags, "dealer": 0, **_explicit_deal(flags, seed)}
            started = session.ask(f"start ({name}, explicit deal)", {"cmd": "start", "setup": setup})
            if started.get("ok"):
                session.add("info", "setup", "the engine refused a deck order; checked with an explicit deal", "start")
        if started.get("ok"):
            game = started.get("game")
        else:
            session.add(
                "error",
                "setup",
                f"the engine refused its own profile {name!r}: {started.get('error')}: {started.get('message')}",
                "start",
                details=tuple(f"unsupported: {item}" for item in started.get("unsupported") or []),
            )
    if isinstance(game, str):
        _script_game(session, game, capabilities, actions)
    answer = session.ask("legal (unknown game)", {"cmd": "legal", "game": "no-such-game"})
    _expect_error(session, "legal (unknown game)", answer, "unknown_game")
    answer = session.ask("unknown command", {"cmd": "frobnicate"})
    if answer.get("ok") is not False or answer.get("error") != "bad_request":
        message = "an unknown command should be answered with error 'bad_request'"
        session.add("warning", "protocol", message, "unknown command", received=_shown(answer))
    session.ask("stop", {"cmd": "stop"})
    _check_exit(session)
    session.add("info", "summary", _exercised(session.commands, session.events, session.fields), "stop")


def _exercised(commands: set[str], events: set[str], fields: set[str]) -> str:
    """What a check exercised, so that a clean report says what it vouches for."""
    used = [cmd for cmd in COMMANDS if cmd in commands]
    return (
        f"exercised the commands {', '.join(used) or 'none'}; "
        f"the events {', '.join(sorted(events)) or 'none'} (each against its schema); "
        f"{len(fields)} state fields (each against fields.json)"
    )


def _script_game(session: _Session, game: str, capabilities: set[str], actions: int) -> None:
    legal = session.ask("legal", {"cmd": "legal", "game": game})
    moves = legal.get("actions") if legal.get("ok") else None
    if legal.get("ok") and not moves:
        session.add("error", "invariant", "no legal action at the start of a hand", "legal")
    required = ("phase", "turn", "stock_count", "trump", "hand.0")
    players = 2 if session.players == 2 else 4
    for name in _fields(players):
        if session.obligations.field(name) is not None:  # not asked of this engine (a capability it lacks...)
            continue
        answer = session.ask(f"state {name}", {"cmd": "state", "game": game, "field": name})
        if not answer.get("ok"):
            severity: Severity = "error" if name in required else "warning"
            message = f"state field {name!r} is not answered: {answer.get('error')}"
            session.add(severity, "field", message, f"state {name}")
            continue
        session.fields.add(name)
        for violation in field_violations(name, answer.get("value")):
            session.add("error", "field", f"state field {name!r}: {violation} (fields.json)", f"state {name}",
                        received=_shown(answer.get("value")))  # fmt: skip
    answer = session.ask("state (unknown field)", {"cmd": "state", "game": game, "field": "no_such_field"})
    _expect_error(session, "state (unknown field)", answer, "unknown_field")
    if "observations" in capabilities:
        for seat, name in ((0, "hand.0"), (0, "hand.1"), (1, "phase")):
            answer = session.ask(
                f"observe {seat} {name}", {"cmd": "observe", "game": game, "seat": seat, "field": name}
            )
            if not answer.get("ok"):
                session.add("error", "field", f"observation field {name!r} is not answered", f"observe {seat} {name}")
        answer = session.ask(
            "observe (unknown field)", {"cmd": "observe", "game": game, "seat": 0, "field": "no_such_field"}
        )
        _expect_error(session, "observe (unknown field)", answer, "unknown_field")
    answer = session.ask(
        "apply (unknown action type)", {"cmd": "apply", "game": game, "action": {"type": "no_such_action"}}
    )
    if answer.get("ok") is not True or answer.get("accepted") is not False:
        session.add(
            "warning",
            "protocol",
            "an unknown action type should be rejected ('accepted': false), like any illegal move",
            "apply (unknown action type)",
            received=_shown(answer),
        )
    for number in range(1, actions + 1):
        if not isinstance(moves, list) or not moves:
            break
        step = f"apply #{number}"
        answer = session.ask(step, {"cmd": "apply", "game": game, "action": moves[0]})
        if answer.get("ok") and answer.get("accepted") is False:
            session.add(
                "error", "invariant", "the engine rejected an action of its own legal list", step, sent=_shown(moves[0])
            )
            break
        legal = session.ask(f"legal #{number}", {"cmd": "legal", "game": game})
        moves = legal.get("actions") if legal.get("ok") else None
    answer = session.ask("end", {"cmd": "end", "game": game})
    if not answer.get("ok"):
        session.add("error", "protocol", f"'end' failed: {answer.get('error')}", "end")
    answer = session.ask("legal (ended game)", {"cmd": "legal", "game": game})
    _expect_error(session, "legal (ended game)", answer, "unknown_game", "warning")


def _check_exit(session: _Session) -> None:
    popen = session.process.popen
    try:
        status = popen.wait(timeout=session.timeout)
    except subprocess.TimeoutExpired:
        session.add("error", "shutdown", f"the engine did not exit within {session.timeout:g} s of 'stop'", "stop")
        return
    if status != 0:
        session.add("warning", "shutdown", f"the engine exited with status {status} after 'stop' (expected 0)", "stop")
    leftover = bytes(session.process.buffer)
    try:
        chunk = session.process.stdout.read(0.2)
    except OSError:
        chunk = None
    leftover += chunk or b""
    if leftover:
        session.add(
            "warning",
            "shutdown",
            "the engine wrote more output after answering 'stop'",
            "stop",
            received=_shown(leftover),
        )


# --------------------------------------------------------------------------- smoke


def _fields(players: int) -> list[str]:
    names: list[str] = []
    for name in STATE_FIELDS:
        if name.endswith(".<seat>"):
            names.extend(f"{name[:-7]}.{seat}" for seat in range(players))
        elif name.endswith(".<side>"):
            names.extend(f"{name[:-7]}.{side}" for side in range(2))
        else:
            names.append(name)
    return names


def smoke(
    argv: Sequence[str],
    *,
    timeout: float = 5.0,
    startup_timeout: float = 10.0,
    profile: str | None = None,
    seed: int = 0,
    max_actions: int = 500,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Play one complete hand choosing legal actions at random; check what the suite relies on."""
    findings: list[Finding] = []
    engine = SubprocessEngine(argv, timeout, startup_timeout=startup_timeout, cwd=cwd, env=env, max_failed_launches=1)
    try:
        _smoke(engine, findings, profile, seed, max_actions)
    except EngineError as error:
        lines = str(error).splitlines()
        kind = error.kind if isinstance(error, EngineFailure) else "engine_error"
        check = "transport" if not isinstance(error, EngineFailure) or error.fatal else kind
        step = "launch" if isinstance(error, LaunchFailure) else ""
        findings.append(Finding("error", check, lines[0], step, details=tuple(line.strip() for line in lines[1:])))
    finally:
        engine.close()
    return findings


def _smoke(engine: SubprocessEngine, findings: list[Finding], profile: str | None, seed: int, max_actions: int) -> None:
    def add(severity: Severity, check: str, message: str, step: str = "", **extra: Any) -> None:
        findings.append(Finding(severity, check, message, step, **extra))

    info = engine.info()
    if not info.profiles:
        add("error", "handshake", "the engine declares no profile")
        return
    name = profile if profile is not None and profile in info.profiles else next(iter(info.profiles))
    flags = dict(info.profiles[name])
    players = int(flags["players"]) if flags.get("players", "").isdigit() else 4
    try:
        game = engine.start({"flags": flags, "dealer": 0, "deck": _deck(flags, seed)})
    except SetupRejected:
        try:  # an engine that deals its own way: the same cards as an explicit deal
            game = engine.start({"flags": flags, "dealer": 0, **_explicit_deal(flags, seed)})
        except SetupRejected as rejected:
            add("error", "setup", f"the engine refused its own profile {name!r}: {rejected}", "start")
            return
        add("info", "setup", "the engine refused a deck order; the hand was dealt explicitly", "start")
    observations = "observations" in info.capabilities
    obligations = Obligations.of(info)
    missing: set[Any] = set()
    read: set[str] = set()
    events: set[str] = set()

    def read_fields(step: str) -> None:
        for field_name in _fields(players):
            if obligations.field(field_name) is not None:
                continue  # not required of this engine (the match score without 'match'...)
            try:
                value = game.state(field_name)
                read.add(field_name)
                for violation in field_violations(field_name, value):
                    if ("shape", field_name) not in missing:
                        missing.add(("shape", field_name))
                        add("error", "field", f"state field {field_name!r}: {violation} (fields.json)", step,
                            received=_shown(value))  # fmt: skip
            except UnknownField:
                if field_name not in missing:
                    missing.add(field_name)
                    add("error", "field", f"state field {field_name!r} of the vocabulary is not answered", step)
            if observations and field_name.startswith("hand."):
                try:
                    game.observation(0, field_name)
                except UnknownField:
                    if "observe " + field_name not in missing:
                        missing.add("observe " + field_name)
                        add("error", "field", f"observation field {field_name!r} is not answered", step)

    rng = random.Random(seed)
    read_fields("start")
    for number in range(1, max_actions + 1):
        step = f"action #{number}"
        phase = game.state("phase")
        if phase not in PHASES:
            add("warning", "invariant", f"phase {phase!r} is not one of {', '.join(PHASES)}", step)
        if phase in ("hand_over", "match_over"):
            read_fields("hand over")
            winner = game.state("hand_winner") if "hand_winner" not in missing else None
            add("info", "summary", f"the hand ended after {number - 1} actions; hand_winner={winner!r}", step)
            add("info", "summary", _exercised({"hello", "start", "legal", "apply", "state"}, events, read), step)
            return
        legal = game.legal_actions()
        if not legal:
            add("error", "invariant", f"no legal action although the hand is not over (phase {phase!r})", step)
            return
        turn = game.state("turn") if "turn" not in missing else None
        for action in legal:
            if action.get("type") == "play" and turn is not None and action.get("seat") != turn:
                add("warning", "invariant", f"a legal play for seat {action.get('seat')} while 'turn' is {turn}", step)
                break
        action = rng.choice(legal)
        outcome = game.apply(action)
        if not isinstance(outcome, Rejected):
            events.update(str(event.get("type")) for event in outcome.events)
        if isinstance(outcome, Rejected):
            add(
                "error",
                "invariant",
                f"the engine rejected an action of its own legal list: {outcome.code} {outcome.rule}",
                step,
                sent=json.dumps(action),
                received=str(outcome),
            )
            return
        if number % 10 == 0:
            read_fields(step)
    add("error", "invariant", f"the hand did not end after {max_actions} actions")


# --------------------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m adapters.harness_check",
        description="Check an engine's GCP/1 harness: 'validate' checks every message, 'smoke' plays one hand.",
    )
    parser.add_argument("mode", choices=["validate", "smoke", "both"])
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per request (default 5)")
    parser.add_argument("--startup-timeout", type=float, default=10.0, help="seconds for launch + hello (default 10)")
    parser.add_argument("--profile", help="profile to play (default: the engine's first)")
    parser.add_argument("--seed", type=int, default=0)
    parser.epilog = "The engine command follows '--', e.g.: validate -- node my_engine.js"
    arguments = list(sys.argv[1:] if argv is None else argv)
    split = arguments.index("--") if "--" in arguments else len(arguments)
    args = parser.parse_args(arguments[:split])
    command = arguments[split + 1 :]
    if not command:
        parser.error("give the engine command after '--', e.g. -- node my_engine.js")
    findings: list[Finding] = []
    options = {
        "timeout": args.timeout,
        "startup_timeout": args.startup_timeout,
        "profile": args.profile,
        "seed": args.seed,
    }
    if args.mode in ("validate", "both"):
        findings += validate(command, **options)
    if args.mode in ("smoke", "both"):
        findings += smoke(command, **options)
    for finding in findings:
        print(finding)
    errors = sum(1 for finding in findings if finding.severity == "error")
    print(f"{errors} error(s), {sum(1 for f in findings if f.severity == 'warning')} warning(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
