"""Text an engine wrote, made safe to show, to store and to name files with: the one owner of that policy.

An engine under test is hostile: its name, version, profile and flag names, rejection messages and
codes, returned values and stderr reach the terminal, the HTML report, the JUnit file, the results
file and (through ``compare``) file names. Every place that shows or stores such text passes it
through one of these functions; none of them keeps a policy of its own.

* :func:`shown`: text safe to show anywhere (terminal, HTML, XML). Control characters (C0 except
  newline and tab, DEL, C1), lone surrogates, the XML non-characters U+FFFE/U+FFFF and the bidi
  overrides and isolates (which reorder what a reader sees, as in "Trojan Source") become visible
  escapes in Python's notation (``\\x1b``, ``\\udcff``, ``\\u202e``). Every other character,
  ``ñ``, ``ç``, ``·`` or an emoji, is kept as it is. HTML and XML escaping stay the job of the
  template engine and of ElementTree; :func:`shown` only removes what they let through.
* :func:`template_value`: :func:`shown` as a Jinja ``finalize``, for templates with autoescape.
* :func:`one_line`: :func:`shown`, and newlines and tabs escaped too, for one-line places (a
  Gherkin title, a table cell).
* :func:`markup`: :func:`shown` then :func:`rich.markup.escape`, for engine text inside a rich
  markup string (a table title, header or cell; a line with ``[red]`` in it).
* :func:`scrub`: a JSON-like value whose strings (dict keys too) hold no lone surrogate, so that
  it can be written as UTF-8 and sent between pytest-xdist's processes (execnet refuses
  strings that are not UTF-8 encodable). A lone surrogate becomes the same visible escape
  :func:`shown` prints (``\\udcff``), not U+FFFD: what is stored reads as what is shown, and
  says which code the engine sent.
* :func:`scrub_report`: :func:`scrub` for pytest's report of a test (its failure text and
  captured output), before pytest-xdist sends it to the controller.
* :func:`file_part`: a safe file-name component (ASCII letters, digits and ``-_.+``, bounded,
  never empty, never ``.`` or ``..``, never a path separator); a name that had to change gets
  a short hash of the original, so two names never share a file.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from markupsafe import Markup
from rich.markup import escape as _rich_escape

if TYPE_CHECKING:
    from _pytest.reports import TestReport

#: What :func:`shown` escapes: C0 controls but tab and newline, DEL and C1, lone surrogates,
#: U+FFFE/U+FFFF, and the bidi embeddings, overrides and isolates.
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
#: The same, newline and tab included, for :func:`one_line`.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: The longest file-name component :func:`file_part` returns (well under any file system's 255).
FILE_PART_MAX = 80
_FILE_CHARS = re.compile(r"[^A-Za-z0-9._+-]+")
#: Names Windows reserves whatever the extension.
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(10)), *(f"LPT{n}" for n in range(10))}


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: object) -> str:
    """``text`` (``str()`` of it) with every character that could act on a terminal or reader
    replaced by a visible escape; newlines and tabs kept."""
    return _UNSHOWABLE.sub(_escape, text if isinstance(text, str) else str(text))


def template_value(value: object) -> object:
    """A Jinja ``finalize`` for every template that shows engine text (the HTML report, the site, the
    badge): each value printed has its controls and bidi overrides made visible (:func:`shown`)
    before autoescape escapes it. Markup (a macro's output, ``|join`` of escaped items) keeps its
    tags: the escapes only add backslashes and hex digits."""
    if isinstance(value, Markup):
        return Markup(shown(str(value)))
    return shown(value)


def one_line(text: object) -> str:
    """:func:`shown`, with newlines and tabs escaped as well: ``text`` stays on one line."""
    return _NOT_ONE_LINE.sub(_escape, text if isinstance(text, str) else str(text))


def bounded(text: str, limit: int) -> str:
    """At most ``limit`` characters of ``text`` and no lone surrogate (it could not be written as UTF-8)."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def markup(text: object) -> str:
    """``text`` for a rich markup string: :func:`shown`, then rich's escape of ``[...]``."""
    return _rich_escape(shown(text))


def scrub(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings and dict keys replaced by its escape
    (``\\udcff``); lists, tuples and dicts are copied, everything else returned as it is."""
    if isinstance(value, str):
        return _SURROGATE.sub(_escape, value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    return value


def scrub_report(report: TestReport) -> None:
    """pytest's report of a test made fit for pytest-xdist's channel, which refuses strings that
    are not UTF-8 encodable (the worker dies with execnet's ``DumpError``): a failure text or
    captured output holding a lone surrogate (an in-process engine's exception message) is
    replaced by its scrubbed text."""
    if report.longrepr is not None and not isinstance(report.longrepr, tuple):
        text = str(report.longrepr)
        if _SURROGATE.search(text):
            report.longrepr = scrub(text)
    elif isinstance(report.longrepr, tuple):  # a skip: (path, line, message)
        report.longrepr = (report.longrepr[0], report.longrepr[1], scrub(report.longrepr[2]))
    report.sections = [(title, scrub(content)) for title, content in report.sections]


def file_part(text: object) -> str:
    """``text`` as one safe component of a file name: ASCII letters, digits and ``-_.+``
    (accents dropped, anything else ``_``), at most :data:`FILE_PART_MAX` characters, never
    empty, hidden, ``.``/``..`` or a Windows device name. A name that had to change ends with
    ``-`` and 8 hex digits of its SHA-256, so different names stay different files."""
    original = text if isinstance(text, str) else str(text)
    decomposed = unicodedata.normalize("NFKD", original)
    ascii_text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    part = _FILE_CHARS.sub("_", ascii_text).lstrip(".")
    if part.split(".")[0].upper() in _RESERVED:
        part = "_" + part
    if part == original and 0 < len(part) <= FILE_PART_MAX:
        return part
    digest = hashlib.sha256(scrub(original).encode("utf-8")).hexdigest()[:8]
    return f"{part[: FILE_PART_MAX - 9]}-{digest}" if part else digest


__all__ = [
    "FILE_PART_MAX",
    "bounded",
    "file_part",
    "markup",
    "one_line",
    "scrub",
    "scrub_report",
    "shown",
    "template_value",
]
