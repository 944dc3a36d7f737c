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
as a failure; its game goes on when play can go past it, as after any divergence
(:func:`guinote_conformance.fuzz.judge.judge`). The
file is checked before any hand is played: an unknown key, a missing reason, an unknown kind,
or a pattern that can match nothing is an error naming ``file:line``.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from guinote_conformance.adapters.obligations import event_entries
from guinote_conformance.adapters.vocabulary import ACTION_TYPES
from guinote_conformance.base.toml_entries import Entry, read_entries
from guinote_conformance.oracle.divergence import Cause
from guinote_conformance.oracle.steps import FIELDS, KINDS

KEYS = ("kind", "subject", "rule", "config", "reason")
_FAILURE_KINDS = (
    "launch", "gave_up", "timeout", "crash", "garbage", "too_long", "wrong_id", "schema", "unsolicited",
    "engine_error", "unexpected", "replay", "broken", "closed", "batch", "start",
    # an in-process engine: an answer the schemas refuse, an exception of its own
    # (guinote_conformance.adapters.contained)
    "ShapeError", "raised",
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
    for kind, members in event_entries().items():
        subjects += [kind, f"{kind} (order)", *(f"{kind}.{member}" for member in members)]
    for action in ACTION_TYPES:
        subjects += [action, f"{action} (missing)", f"{action} (extra)"]
    return subjects + list(_FAILURE_KINDS)


def load_known(path: Path, *, rules: Iterable[str], configs: Sequence[str] = ()) -> list[Known]:
    """Read and check a known-divergences file.

    ``rules`` are the rule IDs a ``rule`` pattern may match; ``configs`` the labels of the run
    (a ``config`` pattern matching none of them is an error: it silences nothing)."""
    entries = read_entries(path, "known", KEYS, what="known-divergences file", error=KnownFileError)
    rule_ids = sorted(set(rules))
    subjects = possible_subjects()
    return [_known(entry, rule_ids, subjects, configs) for entry in entries]


def _known(entry: Entry, rule_ids: Sequence[str], subjects: Sequence[str], configs: Sequence[str]) -> Known:
    if not any(entry.get(key) for key in ("kind", "subject", "rule", "config")):
        raise KnownFileError(f"{entry.where()}: the entry needs a kind, subject, rule or config pattern")
    kind = entry.get("kind")
    if kind and kind not in KINDS:
        raise KnownFileError(f"{entry.where('kind')}: unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    checks = (
        ("subject", subjects, "a compared field, event member or action type"),
        ("rule", rule_ids, "a rule ID of the index"),
        ("config", configs, f"a configuration of this run ({', '.join(configs)})"),
    )
    for key, candidates, what in checks:
        pattern = entry.get(key)
        if pattern and (candidates or key != "config") and not fnmatch.filter(candidates, pattern):
            raise KnownFileError(f"{entry.where(key)}: {key} pattern {pattern!r} matches nothing: it must match {what}")
    return Known(entry.where(), entry.get("reason"), kind, entry.get("subject"), entry.get("rule"), entry.get("config"))


def find_known(entries: Sequence[Known], cause: Cause, config: str) -> Known | None:
    return next((entry for entry in entries if entry.matches(cause, config)), None)


__all__ = ["KEYS", "Known", "KnownFileError", "find_known", "load_known", "possible_subjects"]
