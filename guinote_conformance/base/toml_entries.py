"""Files of ``[[name]]`` entries (TOML) whose every mistake is reported with ``file:line``.

The expectations file of ``run``, the known-divergences file of ``compare`` and the list of
equivalent mutants share one shape: an array of tables, each entry a few string keys and a
``reason``. This module reads such a file and checks what they all check (readable UTF-8,
valid TOML, no other table, entries that are tables of known string keys with a reason);
each owner then checks its own keys' values, naming the line with :meth:`Entry.where`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    """One ``[[name]]`` table: its string values, and where it and each of its keys are."""

    path: Path
    values: Mapping[str, str]
    line: int
    key_lines: Mapping[str, int]

    def get(self, key: str) -> str:
        return self.values.get(key, "")

    def where(self, key: str = "") -> str:
        """``file:line`` of ``key`` (of the entry's header if ``key`` is empty or absent)."""
        return f"{self.path}:{self.key_lines.get(key, self.line)}"


def read_entries(path: Path, table: str, keys: Sequence[str], *, what: str, error: type[Exception]) -> list[Entry]:
    """The ``[[table]]`` entries of the file at ``path`` (``what`` names the file in messages).

    Raises ``error`` with a message starting with ``file:line`` (or the file alone when the
    file cannot be read or parsed) for every mistake a caller's own checks need not repeat.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as failure:
        raise error(f"{path}: cannot read the {what}: {failure.strerror or failure}") from None
    except UnicodeDecodeError as failure:
        raise error(f"{path}: the {what} is not UTF-8 text ({failure.reason})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as failure:
        raise error(f"{path}: not valid TOML: {failure}") from None
    lines = text.splitlines()
    extra = sorted(set(data) - {table})
    if extra:
        line = _first_line(lines, extra[0]) or 1
        raise error(f"{path}:{line}: unknown table or key {extra[0]!r}; the {what} holds [[{table}]] entries")
    raw_entries = data.get(table, [])
    if not isinstance(raw_entries, list):
        raise error(f"{path}:{_first_line(lines, table) or 1}: write each entry as a [[{table}]] table")
    positions = _entry_lines(lines, table)
    entries = []
    for number, raw in enumerate(raw_entries):
        line, key_lines = positions[number] if number < len(positions) else (1, {})
        entry = Entry(path, {}, line, key_lines)
        if not isinstance(raw, dict):
            raise error(f"{entry.where()}: an entry is a table of {', '.join(keys)}")
        for key, value in raw.items():
            if key not in keys:
                raise error(f"{entry.where(key)}: unknown key {key!r}; the keys are {', '.join(keys)}")
            if not isinstance(value, str):
                raise error(f"{entry.where(key)}: {key} must be a string, not {type(value).__name__} {value!r}")
        if not raw.get("reason", "").strip():
            raise error(f"{entry.where()}: the entry needs a reason")
        entries.append(Entry(path, dict(raw), line, key_lines))
    return entries


def _entry_lines(lines: Sequence[str], table: str) -> list[tuple[int, dict[str, int]]]:
    """For each ``[[table]]`` header in order: its line, and the line of each of its keys.

    tomllib gives no positions, and these files are small: a line scan finds them.
    """
    header = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
    found: list[tuple[int, dict[str, int]]] = []
    inside = False
    for number, line in enumerate(lines, start=1):
        if header.match(line):
            found.append((number, {}))
            inside = True
        elif line.lstrip().startswith("["):
            inside = False  # another table: the keys below it are not the entry's
        elif inside and (match := re.match(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')\s*=", line)):
            found[-1][1].setdefault(match.group(1).strip("\"'"), number)
    return found


def _first_line(lines: Sequence[str], key: str) -> int | None:
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|^\s*\[+\s*{re.escape(key)}\s*\]+")
    return next((number for number, line in enumerate(lines, 1) if pattern.match(line)), None)


__all__ = ["Entry", "read_entries"]
