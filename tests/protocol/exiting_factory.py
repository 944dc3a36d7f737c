"""``py:`` engine factories that exit instead of returning an engine (the CLI must say so, exit 3)."""

from __future__ import annotations

from typing import NoReturn


def make() -> NoReturn:
    raise SystemExit(0)


def make_with_message() -> NoReturn:
    raise SystemExit("no engine here")
