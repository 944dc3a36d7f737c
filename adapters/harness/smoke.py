"""``smoke``: one complete hand played through the suite's own adapter.

:func:`smoke` plays the hand through :class:`~guinote_conformance.adapters.subprocess_adapter.SubprocessEngine`,
always choosing a legal action, and checks what the conformance scenarios rely on: the legal
list is not empty until the hand is over, the engine accepts its own legal actions, every
state field of the vocabulary answers.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from guinote_conformance.adapters.gcp.validation import field_violations
from guinote_conformance.adapters.harness.findings import Finding, Severity, exercised, shown
from guinote_conformance.adapters.harness.setups import deck, explicit_deal, field_names
from guinote_conformance.adapters.interface import EngineError, Rejected, SetupRejected, UnknownField
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.subprocess_adapter import STARTUP_TIMEOUT, SubprocessEngine
from guinote_conformance.adapters.wire.failures import EngineFailure, LaunchFailure

PHASES = ("free", "arrastre", "hand_over", "match_over")


def smoke(
    argv: Sequence[str],
    *,
    timeout: float = 5.0,
    startup_timeout: float = STARTUP_TIMEOUT,
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
        game = engine.start({"flags": flags, "dealer": 0, "deck": deck(flags, seed)})
    except SetupRejected:
        try:  # an engine that deals its own way: the same cards as an explicit deal
            game = engine.start({"flags": flags, "dealer": 0, **explicit_deal(flags, seed)})
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
        for field_name in field_names(players):
            if obligations.field(field_name) is not None:
                continue  # not required of this engine (the match score without 'match'...)
            try:
                value = game.state(field_name)
                read.add(field_name)
                for violation in field_violations(field_name, value):
                    if ("shape", field_name) not in missing:
                        missing.add(("shape", field_name))
                        add("error", "field", f"state field {field_name!r}: {violation} (fields.json)", step,
                            received=shown(value))  # fmt: skip
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
            add("info", "summary", exercised({"hello", "start", "legal", "apply", "state"}, events, read), step)
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
