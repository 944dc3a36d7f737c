"""``validate``: the protocol spoken at the lowest level, every violation reported.

:func:`validate` runs the handshake and one scripted game, every answer checked against its
JSON Schema, each violation reported (it does not stop at the first one), plus the protocol's
own rules (unknown fields, unknown games and unknown commands answered with the right error, a
clean exit after ``stop``). Its session (:class:`_Session`) frames the requests as the suite's
adapter does (:class:`~guinote_conformance.adapters.wire.process.EngineProcess`) and records findings instead of
raising.
"""

from __future__ import annotations

import subprocess
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from guinote_conformance.adapters.gcp.json_text import encode
from guinote_conformance.adapters.gcp.messages import COMMANDS, PROTOCOL_VERSION, PROTOCOL_VERSIONS, ErrorCode
from guinote_conformance.adapters.gcp.validation import (
    field_violations,
    request_is_valid,
    request_violations,
    response_violations,
    schema_name,
)
from guinote_conformance.adapters.harness.findings import Finding, Severity, exercised, shown
from guinote_conformance.adapters.harness.setups import deck, explicit_deal, field_names
from guinote_conformance.adapters.interface import CAPABILITIES
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT, TransportFailure
from guinote_conformance.adapters.wire.process import EngineProcess
from guinote_conformance.reference_engine.flags import flag_defaults


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


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
                sent=shown(failure.sent or encode(request)),
                received=shown(failure.received or b""),
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
                    sent=shown(line),
                    received=shown(raw),
                )
            events = answer.get("events") if cmd == "apply" else None
            missing = self.obligations.missing_in(events) if isinstance(events, list) else ""
            if missing:  # a member this engine's capabilities make required
                self.add("error", "schema", f"{missing} (common.json)", step, sent=shown(line), received=shown(raw))
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
    from guinote_conformance.adapters.reference import ReferenceEngine

    return {name: list(values) for name, values in ReferenceEngine().info().flags.items()}


def _expect_error(
    session: _Session, step: str, answer: dict[str, Any], code: str, severity: Severity = "error"
) -> None:
    if answer.get("ok") is not False:
        session.add(
            severity, "protocol", f"expected error {code!r}, got a success answer", step, received=shown(answer)
        )
    elif answer.get("error") != code:
        session.add(
            severity, "protocol", f"expected error {code!r}, got {answer.get('error')!r}", step, received=shown(answer)
        )


def validate(
    argv: Sequence[str],
    *,
    timeout: float = 5.0,
    startup_timeout: float = STARTUP_TIMEOUT,
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
        setup: dict[str, Any] = {"flags": flags, "dealer": 0, "deck": deck(flags, seed)}
        started = session.ask(f"start ({name})", {"cmd": "start", "setup": setup})
        if started.get("ok") is False and started.get("error") in ("unsupported", "bad_setup"):
            setup = {"flags": flags, "dealer": 0, **explicit_deal(flags, seed)}
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
        session.add("warning", "protocol", message, "unknown command", received=shown(answer))
    session.ask("stop", {"cmd": "stop"})
    _check_exit(session)
    session.add("info", "summary", exercised(session.commands, session.events, session.fields), "stop")


def _script_game(session: _Session, game: str, capabilities: set[str], actions: int) -> None:
    legal = session.ask("legal", {"cmd": "legal", "game": game})
    moves = legal.get("actions") if legal.get("ok") else None
    if legal.get("ok") and not moves:
        session.add("error", "invariant", "no legal action at the start of a hand", "legal")
    required = ("phase", "turn", "stock_count", "trump", "hand.0")
    players = 2 if session.players == 2 else 4
    for name in field_names(players):
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
                        received=shown(answer.get("value")))  # fmt: skip
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
            received=shown(answer),
        )
    for number in range(1, actions + 1):
        if not isinstance(moves, list) or not moves:
            break
        step = f"apply #{number}"
        answer = session.ask(step, {"cmd": "apply", "game": game, "action": moves[0]})
        if answer.get("ok") and answer.get("accepted") is False:
            session.add(
                "error", "invariant", "the engine rejected an action of its own legal list", step, sent=shown(moves[0])
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
            received=shown(leftover),
        )
