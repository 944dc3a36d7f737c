"""The known-divergences file: what the engine's author already knows, silenced in ``compare``.

Like the expectations file of ``run``, it is TOML, one ``[[known]]`` table per entry, each
with a ``reason`` and at least one pattern (``fnmatch`` globs)::

    [[known]]
    kind = "state"              # acceptance, refusal code, event, state, legal, failure, length
    subject = "total.*"         # what differed: a state field, an event member, an action type
    rule = "VUELTAS-02"         # the rule the reference applied there
    config = "lascuarenta*"     # the rules: a profile, an overlay or a flag set label
    reason = "totals are not carried into the hand de vueltas yet (our issue 42)"

A divergence matching every pattern of an entry is counted under its group but not reported
as a failure. The file is checked before any hand is played: an unknown key, a missing reason,
an unknown kind, or a pattern that can match nothing is an error naming ``file:line``.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.vocabulary import ACTION_TYPES
from conformance.differential import EVENT_KEYS, FIELDS, KINDS, Cause

KEYS = ("kind", "subject", "rule", "config", "reason")
_ENTRY = re.compile(r"^\s*\[\[\s*known\s*\]\]")
_FAILURE_KINDS = (
    "launch", "gave_up", "timeout", "crash", "garbage", "too_long", "wrong_id", "schema", "unsolicited",
    "engine_error", "unexpected", "replay", "broken", "closed", "batch",
)  # fmt: skip


class KnownFileError(ValueError):
    """A known-divergences file that cannot be used; the message starts with ``file:line``."""


@dataclass(frozen=True)
class Known:
    where: str
    reason: str
    kind: str = ""
    subject: str = ""
    rule: str = ""
    config: str = ""

    def matches(self, cause: Cause, config: str) -> bool:
        return (
            (not self.kind or self.kind == cause.kind)
            and (not self.subject or fnmatch.fnmatchcase(cause.subject, self.subject))
            and (not self.rule or fnmatch.fnmatchcase(cause.rule, self.rule))
            and (not self.config or fnmatch.fnmatchcase(config, self.config))
        )


def possible_subjects() -> list[str]:
    """Every subject a divergence can have (for checking the ``subject`` patterns)."""
    subjects = list(FIELDS)
    for kind, members in EVENT_KEYS.items():
        subjects += [kind, f"{kind} (order)", *(f"{kind}.{member}" for member in members)]
    for action in ACTION_TYPES:
        subjects += [action, f"{action} (missing)", f"{action} (extra)"]
    return subjects + list(_FAILURE_KINDS)


def load_known(path: Path, *, rules: Iterable[str], configs: Sequence[str] = ()) -> list[Known]:
    """Read and check a known-divergences file.

    ``rules`` are the rule IDs a ``rule`` pattern may match; ``configs`` the labels of the run
    (a ``config`` pattern matching none of them is an error: it silences nothing)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise KnownFileError(f"{path}: cannot read the known-divergences file: {error.strerror or error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise KnownFileError(f"{path}: not valid TOML: {error}") from None
    lines = text.splitlines()
    starts = [number for number, line in enumerate(lines, 1) if _ENTRY.match(line)]
    extra = sorted(set(data) - {"known"})
    if extra:
        line = _line_of(lines, 1, len(lines), extra[0]) or 1
        raise KnownFileError(f"{path}:{line}: unknown table or key {extra[0]!r}; the file holds [[known]] entries")
    raw_entries = data.get("known", [])
    if not isinstance(raw_entries, list):
        raise KnownFileError(f"{path}:1: 'known' must be an array of tables: write [[known]] entries")
    rule_ids = sorted(set(rules))
    subjects = possible_subjects()
    entries = []
    for number, raw in enumerate(raw_entries):
        first = starts[number] if number < len(starts) else 1
        last = starts[number + 1] - 1 if number + 1 < len(starts) else len(lines)

        def where(key: str | None = None, first: int = first, last: int = last) -> str:
            line = _line_of(lines, first, last, key) if key else None
            return f"{path}:{line or first}"

        if not isinstance(raw, dict):
            raise KnownFileError(f"{where()}: each entry is a table of {', '.join(KEYS)}")
        unknown = sorted(set(raw) - set(KEYS))
        if unknown:
            raise KnownFileError(f"{where(unknown[0])}: unknown key {unknown[0]!r}; keys: {', '.join(KEYS)}")
        for key, value in raw.items():
            if not isinstance(value, str):
                raise KnownFileError(f"{where(key)}: {key} must be a string, not {type(value).__name__}")
        if not raw.get("reason", "").strip():
            raise KnownFileError(f"{where()}: the entry needs a reason (why the divergence is expected)")
        if not any(raw.get(key) for key in ("kind", "subject", "rule", "config")):
            raise KnownFileError(f"{where()}: the entry needs a kind, subject, rule or config pattern")
        kind = raw.get("kind", "")
        if kind and kind not in KINDS:
            raise KnownFileError(f"{where('kind')}: unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
        checks = (
            ("subject", subjects, "a compared field, event member or action type"),
            ("rule", rule_ids, "a rule ID of the index"),
            ("config", list(configs), f"a configuration of this run ({', '.join(configs)})"),
        )
        for key, candidates, what in checks:
            pattern = raw.get(key, "")
            if pattern and (candidates or key != "config") and not fnmatch.filter(candidates, pattern):
                raise KnownFileError(f"{where(key)}: {key} pattern {pattern!r} matches nothing: it must match {what}")
        entries.append(
            Known(where(), raw["reason"], kind, raw.get("subject", ""), raw.get("rule", ""), raw.get("config", ""))
        )
    return entries


def _line_of(lines: Sequence[str], first: int, last: int, key: str | None) -> int | None:
    if key is None:
        return None
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|^\s*\[+\s*{re.escape(key)}\s*\]+")
    for number in range(first, min(last, len(lines)) + 1):
        if pattern.match(lines[number - 1]):
            return number
    return None


def find_known(entries: Sequence[Known], cause: Cause, config: str) -> Known | None:
    return next((entry for entry in entries if entry.matches(cause, config)), None)


__all__ = ["KEYS", "Known", "KnownFileError", "find_known", "load_known", "possible_subjects"]
