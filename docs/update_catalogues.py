"""The last steps of ``tox -e docs-i18n``, after ``sphinx-intl update`` wrote the page catalogues.

1. The catalogues of the pages that stay untranslated (``guinote_untranslated_pages`` of
   conf.py: the API reference, the Spanish style page, the pages still in English) are removed:
   sphinx-intl makes one for every page.
2. A message a page's catalogue has untranslated, or only as a draft (``#, fuzzy``: a draft never
   ships, the build and ``run --language es`` treat it as missing), is dropped when ``data.po``
   translates it (the shared catalogue every page reads: a flag's reading, a question, a custom, a
   scenario's title are translated there once), and otherwise takes the translation another page's
   catalogue has for the very same text.
3. A message of nothing but roles (``:question:`B-44```) is its own translation: sphinx-intl's
   draft of it (another code's) is replaced.
4. What is left to translate is listed, one ``file:line: msgid`` a line: translate it there (a
   draft's msgstr is only a proposal: check it, correct it, then remove the ``fuzzy`` mark).

Run from the repository root: ``python docs/update_catalogues.py [docs/locale/es/LC_MESSAGES]``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the checkout's package, run from tox or a bare clone

from guinote_conformance.catalogue.messages import nothing_to_translate  # noqa: E402

LOCALE = DOCS / "locale" / "es" / "LC_MESSAGES"
#: the extension's own phrases: another domain, kept by pybabel (tox -e docs-i18n)
OWN = {"guinote_rulebook.po", "sphinx.po", "source_headings.po", "data.po"}
#: the shared catalogue of the data (guinote_rulebook.locale.SHARED), read with every page's
SHARED = "data.po"


def untranslated_pages(conf: Path = DOCS / "conf.py") -> list[str]:
    """``guinote_untranslated_pages`` of conf.py, read without running it."""
    for node in ast.parse(conf.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "guinote_untranslated_pages" for target in node.targets
        ):
            return [str(page) for page in ast.literal_eval(node.value)]
    return []


def _string(lines: list[str]) -> str:
    """The text of a msgid or msgstr and its continuation lines."""
    return "".join(ast.literal_eval(line.split(" ", 1)[1] if line.startswith("msg") else line) for line in lines)


def entries(text: str) -> list[list[str]]:
    """The catalogue's entries, each a list of lines (the blank lines between them dropped)."""
    return [block.split("\n") for block in re.split(r"\n\s*\n", text.strip("\n")) if block.strip()]


def parts(entry: list[str]) -> tuple[bool, str, str, int, int]:
    """(fuzzy, msgid, msgstr, the msgstr's first line, the line after it) of one entry."""
    fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in entry)
    live = [line for line in entry if not line.startswith("#")]
    msgid_at = next((i for i, line in enumerate(live) if line.startswith("msgid ")), None)
    msgstr_at = next((i for i, line in enumerate(live) if line.startswith("msgstr ")), None)
    if msgid_at is None or msgstr_at is None:
        return fuzzy, "", "", 0, 0
    msgid = _string(live[msgid_at:msgstr_at])
    start = entry.index(live[msgstr_at])
    end = start + 1
    while end < len(entry) and entry[end].startswith('"'):
        end += 1
    return fuzzy, msgid, _string(entry[start:end]), start, end


def translations(paths: list[Path]) -> dict[str, str]:
    """Every message translated (not a draft) in one of the catalogues."""
    found: dict[str, str] = {}
    for path in paths:
        for entry in entries(path.read_text(encoding="utf-8")):
            fuzzy, msgid, msgstr, _, _ = parts(entry)
            if msgid and msgstr and not fuzzy:
                found.setdefault(msgid, msgstr)
    return found


def fill(path: Path, known: dict[str, str], shared: frozenset[str] = frozenset()) -> tuple[int, list[str]]:
    """Drop ``path``'s untranslated and draft messages that the shared catalogue translates, give
    the others the translation another catalogue has; the number filled or dropped, and
    ``file:line: msgid`` of each message still to translate."""
    filled, left, out = 0, [], []
    line = 1
    for entry in entries(path.read_text(encoding="utf-8")):
        fuzzy, msgid, msgstr, start, end = parts(entry)
        first = line
        line += len(entry) + 1
        if msgid and (fuzzy or not msgstr):
            if nothing_to_translate(msgid):  # its own translation (a draft of it is another code's)
                kept = [x for x in entry[:start] if x.strip() != "#, fuzzy"]
                entry = [*kept, f"msgstr {_quote(msgid)}", *entry[end:]]
                filled += 1
            elif msgid in shared:
                filled += 1
                continue
            elif msgid in known:
                kept = [x for x in entry[:start] if x.strip() != "#, fuzzy"]
                entry = [*kept, f"msgstr {_quote(known[msgid])}", *entry[end:]]
                filled += 1
            else:
                left.append(f"{path}:{first}: {msgid[:100]!r}" + (" (a draft: check it)" if fuzzy else ""))
        out.append("\n".join(entry))
    if filled:
        path.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    return filled, left


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main(locale: Path = LOCALE) -> int:
    for page in untranslated_pages():
        (locale / f"{page}.po").unlink(missing_ok=True)
    pages = sorted(path for path in locale.rglob("*.po") if path.name not in OWN)
    known = translations(pages)
    shared = frozenset(translations([locale / SHARED])) if (locale / SHARED).exists() else frozenset()
    total, left = 0, []
    for path in pages:
        filled, missing = fill(path, known, shared)
        total += filled
        left += missing
    print(f"{total} messages given the translation another catalogue has (or left to {SHARED}, which has it)")
    if left:
        print(f"{len(left)} messages to translate (then remove any fuzzy mark):")
        print("\n".join(left))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else LOCALE))
