"""What a check of an engine's harness reports: :class:`Finding`, and the text it quotes.

A finding is an error (the check fails), a warning or an information; :func:`exercised` says
what a check exercised, so that a clean report says what it vouches for.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from guinote_conformance.adapters.gcp.messages import COMMANDS

Severity = Literal["error", "warning", "info"]


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


def shown(data: Any) -> str:
    text = data.rstrip(b"\n").decode("utf-8", "backslashreplace") if isinstance(data, bytes) else json.dumps(data)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


def exercised(commands: set[str], events: set[str], fields: set[str]) -> str:
    """What a check exercised, so that a clean report says what it vouches for."""
    used = [cmd for cmd in COMMANDS if cmd in commands]
    return (
        f"exercised the commands {', '.join(used) or 'none'}; "
        f"the events {', '.join(sorted(events)) or 'none'} (each against its schema); "
        f"{len(fields)} state fields (each against fields.json)"
    )
