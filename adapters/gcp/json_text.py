"""The JSON of the protocol: a message as one line and back, a value's canonical text and identity.

:func:`encode` writes a message as a protocol line; :func:`decode` reads one, refusing what is
not protocol JSON (:class:`NotProtocolJSON`: nested deeper than :data:`MAX_DEPTH`, a member
name repeated). :func:`canonical` is a value's canonical text, and :func:`same_value` says
whether two values are the same JSON value (a boolean is never a number). :func:`non_text` finds
a string that no JSON text can carry (a lone surrogate), for the in-process schema check
(:mod:`guinote_conformance.adapters.checked`), which refuses what the wire refuses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import orjson


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a protocol line: compact JSON, ASCII-only, ``\\n``-terminated. Raises
    :class:`TypeError` or :class:`ValueError` for a message that is not JSON (a set, ``NaN``...).

    orjson writes it (a ``batch`` answer of a whole hand is written several times faster than by
    :mod:`json`) when its text is ASCII and reads back as ``message``: orjson writes ``NaN`` as
    ``null`` and some Python objects (a dataclass, a date) as JSON that :mod:`json` refuses, and
    such a message is written, or refused, by :mod:`json` as before."""
    try:
        data = orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError: a set, an integer beyond 64 bits, a lone surrogate...
        data = b""
    if data and data.isascii() and orjson.loads(data) == message:
        return data + b"\n"
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


#: The deepest nesting of arrays and objects a message may have (the protocol's own messages
#: nest a few levels): deeper is not a protocol line, so no code of the harness, recursive or
#: not, ever meets a deeper value. It is the depth orjson encodes (its limit, checked by the tests).
MAX_DEPTH = 254


class NotProtocolJSON(ValueError):
    """A line that is JSON but not protocol JSON: nested too deep, or a name repeated in one object."""


def decode(line: bytes | str) -> Any:
    """Parse one protocol line (without or with its ``\\n``); raise :class:`ValueError` if it is
    not JSON (RFC 8259, UTF-8: ``NaN``, ``Infinity``, a lone surrogate, a number beyond a double's
    range are not), or :class:`NotProtocolJSON` if it nests deeper than :data:`MAX_DEPTH` or
    repeats a member name in one object (I-JSON, RFC 7493: every parser then reads it alike)."""
    value = orjson.loads(line)  # orjson.JSONDecodeError is a ValueError
    if not isinstance(value, dict | list):
        return value
    try:
        again = orjson.dumps(value)  # C code, bounded: refuses what nests deeper than MAX_DEPTH
    except orjson.JSONEncodeError:
        raise NotProtocolJSON(f"arrays and objects nested deeper than {MAX_DEPTH} levels") from None
    data = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    # Every ':' outside a string separates a member; orjson keeps the last of repeated names, so
    # the text read back has fewer. A colon written as an escape (\u003a) is counted the slow way
    # (looked for only in a line that has an escape \u003 at all: most lines have none).
    escaped = b"\\u003" in data and _ESCAPED_COLON.search(data) is not None
    if escaped:
        json.loads(data, object_pairs_hook=_unique_members)
    elif data.count(b":") != again.count(b":"):
        raise NotProtocolJSON("a member name is repeated in one object")
    return value


_ESCAPED_COLON = re.compile(rb"\\u003[aA]")


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        raise NotProtocolJSON("a member name is repeated in one object")
    return members


def canonical(value: Any) -> bytes | None:
    """``value`` as canonical JSON text (members sorted by key), or ``None`` if it is not JSON.

    Two values have the same canonical text exactly when they are the same JSON value: unlike
    Python's ``==``, ``1``, ``1.0`` and ``true`` differ."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError: a set, an integer too large for JSON numbers...
        return None


def known_texts(values: Sequence[Any], texts: Sequence[bytes | None]) -> list[bool]:
    """For each of ``values``, whether its canonical text (:func:`canonical`) is ``texts[i]``
    (``None``: no text is known; a value past the end of ``texts`` has none).

    A run of values whose texts are all known is written in one go and compared with the run of
    texts joined as a list (equal exactly when each value's text is its own, the elements of a
    JSON array being read one way only); only a run that differs is compared value by value. A
    ``batch`` answer of a whole hand is mostly such runs (a differential fuzzer's steps, the
    reference's own answers, between the refusals of its probes)."""
    found = [False] * len(values)
    count, start = min(len(values), len(texts)), 0
    while start < count:
        if texts[start] is None:
            start += 1
            continue
        end = start + 1
        while end < count and texts[end] is not None:
            end += 1
        run = cast(list[bytes], texts[start:end])
        if canonical(list(values[start:end])) == b"[" + b",".join(run) + b"]":
            found[start:end] = [True] * (end - start)
        else:
            found[start:end] = [canonical(values[index]) == run[index - start] for index in range(start, end)]
        start = end
    return found


_SURROGATE = re.compile("[\ud800-\udfff]")


def non_text(value: Any, where: str = "") -> str | None:
    """The path (``name``, ``profiles.x``, ``[2].card``; ``""`` for ``value`` itself) of the first
    string in ``value``, dict keys included, that is not Unicode text (it holds a lone
    surrogate, which UTF-8, and so JSON, cannot carry), or ``None`` when every string is text.
    A key in the path has its lone surrogates written as escapes (``\\udcff``): the path is text."""
    if isinstance(value, str):
        return where if _SURROGATE.search(value) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = key.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(key, str) else str(key)
            inner = f"{where}.{name}" if where else name
            if isinstance(key, str) and _SURROGATE.search(key):
                return f"{inner} (the key)"
            found = non_text(item, inner)
            if found is not None:
                return found
    elif isinstance(value, list | tuple | set | frozenset):
        for index, item in enumerate(sorted(value, key=repr) if isinstance(value, set | frozenset) else value):
            found = non_text(item, f"{where}[{index}]")
            if found is not None:
                return found
    return None


def same_value(expected: Any, got: Any) -> bool:
    """Whether ``got`` is the JSON value ``expected``: equal, with a boolean never taken for a
    number (Python has ``True == 1`` and ``False == 0``; JSON has ``true`` and ``1`` apart, and an
    engine that writes a boolean field as ``0`` or ``1`` is wrong). Numbers compare by value
    (``1`` is ``1.0``, as for JSON Schema's integers); objects and arrays member by member, an
    object's ``x-`` members left out (extensions: the harness ignores them wherever they are).

    Values of the same scalar type are compared at once; containers equal by ``==`` whose
    canonical texts (:func:`canonical`) agree are the same; only the rest are walked."""
    kind = type(expected)
    if kind is type(got) and kind is not list and kind is not dict:
        return bool(expected == got)
    if expected != got:
        return _same_but_extensions(expected, got)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return _same_text(expected, got) or all(same_value(a, b) for a, b in zip(expected, got, strict=True))
    if isinstance(expected, dict) and isinstance(got, dict):
        return _same_text(expected, got) or all(same_value(value, got[key]) for key, value in expected.items())
    return isinstance(expected, bool) == isinstance(got, bool)


def _same_but_extensions(expected: Any, got: Any) -> bool:
    """Containers that differ by ``==``: the same value if they differ only by ``x-`` members."""
    if isinstance(expected, dict) and isinstance(got, dict):
        mine = {key: value for key, value in expected.items() if not key.startswith("x-")}
        theirs = {key: value for key, value in got.items() if not key.startswith("x-")}
        return mine.keys() == theirs.keys() and all(same_value(value, theirs[key]) for key, value in mine.items())
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)) and len(expected) == len(got):
        return all(same_value(a, b) for a, b in zip(expected, got, strict=True))
    return False


def _same_text(expected: Any, got: Any) -> bool:
    text = canonical(expected)
    return text is not None and text == canonical(got)
