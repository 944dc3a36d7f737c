"""``tox -e docs-i18n``'s last step (docs/update_catalogues.py): a message translated in one
catalogue is translated in every catalogue that has it, a draft (fuzzy) is never taken for a
translation, what is left to translate is listed at file:line, and the pages that stay in English
get no catalogue."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from guinote_conformance.catalogue.spanish import read_po
from tests.docs.conftest import DOCS

READING = "The first side to two cotos wins the match (S000 Objetivo; S004 Los "


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("update_catalogues", DOCS / "update_catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def locale(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DOCS / "locale" / "es" / "LC_MESSAGES", tmp_path / "LC_MESSAGES"))


def blank(path: Path, msgid_start: str, fuzzy: bool = False) -> str:
    """Empty the translation of the message that starts with ``msgid_start`` (or mark it a draft)."""
    text = path.read_text(encoding="utf-8")
    at = text.index(f'"{msgid_start}')
    start = text.rindex("msgid", 0, at)
    msgstr = text.index("msgstr", at)
    end = text.find("\n\n", msgstr)
    full = next(key for key in read_po(path) if key.startswith(msgid_start))
    drafted = text[:start] + "#, fuzzy\n" + text[start:]
    text = drafted if fuzzy else text[:msgstr] + 'msgstr ""' + text[end:]
    path.write_text(text, encoding="utf-8")
    return full


def test_a_message_translated_elsewhere_is_filled_and_the_rest_listed(locale: Path) -> None:
    update = load()
    match = locale / "rulebook" / "match.po"
    reading = blank(match, READING)
    assert reading not in read_po(match)
    draft = blank(locale / "profiles.po", READING, fuzzy=True)
    filled, left = update.fill(match, update.translations(sorted(locale.rglob("*.po"))))
    assert filled == 1 and left == []
    assert read_po(match)[reading] == read_po(locale / "disagreements.po")[reading]
    assert draft == reading

    # a draft is not a translation: with no other catalogue translating it, it is listed at its line
    for name in ("disagreements.po", "rulebook/match.po", "club.po"):
        blank(locale / name, READING)
    filled, left = update.fill(locale / "profiles.po", update.translations(sorted(locale.rglob("*.po"))))
    assert filled == 0 and len(left) == 1
    assert left[0].startswith(f"{locale / 'profiles.po'}:") and left[0].endswith("(a draft: check it)")
    line = int(left[0].split(":")[1])
    assert (locale / "profiles.po").read_text(encoding="utf-8").splitlines()[line - 1] == "#, fuzzy"


def test_a_message_the_shared_catalogue_translates_is_dropped_from_the_pages(locale: Path) -> None:
    update = load()
    match = locale / "rulebook" / "match.po"
    reading = blank(match, READING)
    spanish = read_po(locale / "disagreements.po")[reading]
    shared = locale / "data.po"
    shared.write_text(
        shared.read_text(encoding="utf-8") + f"\nmsgid {update._quote(reading)}\nmsgstr {update._quote(spanish)}\n"
    )
    update.main(locale)
    assert reading not in match.read_text(encoding="utf-8").replace('"\n"', "")  # no empty copy left
    assert read_po(shared)[reading] == spanish


def test_a_message_of_nothing_but_a_role_is_its_own_translation(locale: Path) -> None:
    update = load()
    page = locale / "disagreements.po"
    draft = '\n#, fuzzy\nmsgid ":question:`B-99`"\nmsgstr ":question:`B-43`"\n'  # what sphinx-intl proposes
    page.write_text(page.read_text(encoding="utf-8") + draft, encoding="utf-8")
    filled, left = update.fill(page, {})
    assert filled == 1 and left == []
    assert read_po(page)[":question:`B-99`"] == ":question:`B-99`"


def test_the_pages_that_stay_in_english_get_no_catalogue(locale: Path) -> None:
    update = load()
    pages = update.untranslated_pages()
    assert "reference/api" in pages and "checking/kits" in pages
    (locale / "checking" / "kits.po").write_text("", encoding="utf-8")
    update.main(locale)
    assert not (locale / "checking" / "kits.po").exists()
