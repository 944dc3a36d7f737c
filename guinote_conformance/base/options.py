"""Option values the CLI and the pytest plugin share the rules of: one place checks them.

``float("nan")`` and ``float("-1")`` parse, and a timeout of either would never expire (or
expire at once): every option that is a number of seconds is checked here, and a bad value
is an :class:`~guinote_conformance.base.exit_codes.InputError` naming the option (exit code 2).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from guinote_conformance.base.exit_codes import InputError


def seconds(value: float | str, option: str) -> float:
    """``value`` as a number of seconds: finite and greater than 0, else an input error naming ``option``."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{option} {value}: not a number of seconds") from None
    if not math.isfinite(number) or number <= 0:
        raise InputError(f"{option} {_shown(value)}: a number of seconds must be finite and greater than 0")
    return number


def count(value: int | str, option: str) -> int:
    """``value`` as a whole number, 0 or more, else an input error naming ``option``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"{option} {value}: not a whole number") from None
    if number < 0:
        raise InputError(f"{option} {value}: must be 0 or more")
    return number


def positive(value: int | str, option: str) -> int:
    """``value`` as a whole number, 1 or more (a count of workers...), else an input error naming ``option``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"{option} {value}: not a whole number") from None
    if number < 1:
        raise InputError(f"{option} {value}: must be 1 or more")
    return number


def _shown(value: float | str) -> str:
    """The value as the user wrote it (a parsed ``-1.0`` shows as ``-1``)."""
    return value if isinstance(value, str) else f"{value:g}"


def argparse_type(check: Callable[[str, str], object], option: str) -> Callable[[str], object]:
    """``check`` as an argparse ``type=`` (pytest's options): a bad value is a usage error naming the option."""

    def parse(text: str) -> object:
        try:
            return check(text, option)
        except InputError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = option.lstrip("-").replace("-", "_")  # argparse names the type in its message
    return parse


__all__ = ["argparse_type", "count", "positive", "seconds"]
