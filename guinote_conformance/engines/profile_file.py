"""A club's own rules as a profile file, for ``run --profile-file FILE.toml``.

A club that plays its own reading of some disagreements writes (or downloads) a small TOML file::

    # Peña El Cierzo: guinote-conformance run --profile-file cierzo.toml
    name = "cierzo"              # named in the run's opening lines (letters, digits, _ and -)
    base = "lascuarenta"         # the engine's profile the other flags come from
    [flags]
    cante_per_trick = "many"
    thirty_malas = "off"

The run plays the engine's profile ``base`` with each of these values over it: the profile label
``base+cante_per_trick=many+thirty_malas=off`` (as ``--flag``:
:func:`~guinote_conformance.engines.specs.profile_flags`),
naming only the values that differ from the engine's own ``base`` (the rulebook's "Choose your
rules" page writes every flag).
Every flag and value is checked against the flags the suite declares; a mistake is an input error
naming the file and line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.engines.specs import ProfileError, checked_flag_piece

#: The base a file that names none plays over: the suite's reference profile.
DEFAULT_BASE = "lascuarenta"
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_KEYS = {"name", "base", "flags"}


@dataclass(frozen=True)
class ProfileFile:
    """A club's rules: the engine profile ``base`` with ``flags`` over it."""

    path: Path
    name: str
    base: str = DEFAULT_BASE
    flags: dict[str, str] = field(default_factory=dict)

    def label(self, base_flags: Mapping[str, str] | None = None) -> str:
        """The profile label the run plays: ``base+FLAG=VALUE+...`` (in the file's order), only
        the values that differ from ``base_flags`` (the engine's own profile ``base``) where given."""
        over = base_flags or {}
        pieces = [f"+{flag}={value}" for flag, value in self.flags.items() if over.get(flag) != value]
        return "".join([self.base, *pieces])


def read_profile_file(path: Path) -> ProfileFile:
    """The profile file at ``path``; an :class:`InputError` naming ``path:line`` for a file that
    cannot be read, a TOML mistake, an unknown key, or a flag or value the suite does not declare."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"--profile-file {path}: cannot be read: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line (\d+)", str(error))
        raise InputError(f"{path}:{line.group(1) if line else 1}: not TOML: {error}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InputError(f"{path}:{_line(text, unknown[0])}: unknown key {unknown[0]!r}: use name, base and [flags]")
    name, base, flags = data.get("name", path.stem), data.get("base", DEFAULT_BASE), data.get("flags", {})
    if not isinstance(name, str) or not _NAME.match(name):
        raise InputError(f"{path}:{_line(text, 'name')}: name {name!r}: letters, digits, _ and - (at most 40)")
    if not isinstance(base, str) or not base:
        raise InputError(f"{path}:{_line(text, 'base')}: base: the name of one of the engine's profiles")
    if not isinstance(flags, dict) or not flags:
        raise InputError(f'{path}:{_line(text, "flags")}: [flags]: the values the club chooses, FLAG = "VALUE"')
    chosen: dict[str, str] = {}
    for flag, value in flags.items():
        try:
            chosen.update(checked_flag_piece(f"{flag}={value}"))
        except ProfileError as error:
            said = str(error).partition(": ")[2] or str(error)
            raise InputError(f"{path}:{_line(text, flag)}: {said}") from None
    return ProfileFile(path, name, base, chosen)


def _line(text: str, key: str) -> int:
    """The line ``key`` is set on (or the table ``[key]`` opens), 1 if none."""
    pattern = re.compile(rf"^\s*(?:{re.escape(key)}\s*=|\[{re.escape(key)}\])")
    return next((number for number, line in enumerate(text.splitlines(), start=1) if pattern.match(line)), 1)


__all__ = ["DEFAULT_BASE", "ProfileFile", "read_profile_file"]
