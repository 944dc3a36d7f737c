"""The sources' headings in the Spanish edition (``docs/locale/es/LC_MESSAGES/source_headings.po``).

A rule cites the heading of each source it comes from (``features/index/*.toml``), in the source's
own language, with a note in brackets, written in English for the index, saying which part of the
section is meant. The Spanish edition shows the note in Spanish and the source's words as they
are: every heading of the index with a note has its entry (one without is shown as it is), no
entry has English left, and no entry changes a word outside the brackets."""

from __future__ import annotations

import re
import tomllib

from guinote_conformance.catalogue.rule_index import CUSTOM_ID
from guinote_conformance.catalogue.spanish import read_po
from tests.docs.conftest import DOCS, BuiltSite

ROOT = DOCS.parent
CATALOGUE = DOCS / "locale" / "es" / "LC_MESSAGES" / "source_headings.po"
#: English words that no Spanish or Catalan heading has (neither language uses them as words)
ENGLISH = re.compile(
    r"\b(the|of|and|when|once|with|only|trick|tricks|stock|duty|fault|faults|advice|same|dealt|draw|"
    r"deal|dealing|misdeal|cut|shuffle|able|list|pair|pairs|partner|card|cards|game|games|player|played|"
    r"trump|trumps|beat|follow|lose|free|outside|during|without)\b"
)
#: a note in brackets (one level: the headings nest none)
NOTE = re.compile(r"\([^()]*\)")


def index_headings() -> dict[str, str]:
    """Every heading of the index, with where it first appears (``file:line``)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "features" / "index").glob("*.toml")):
        with path.open("rb") as handle:
            rules = tomllib.load(handle).get("rule", [])
        lines = path.read_text(encoding="utf-8").splitlines()
        for rule in rules:
            for source in rule.get("sources", []):
                heading = source.get("heading")
                if CUSTOM_ID.match(source.get("id", "")):
                    continue  # where a custom is played: a proper name, shown as written
                if heading and heading not in found:
                    line = next((n for n, text in enumerate(lines, 1) if f'"{heading}"' in text), 0)
                    found[heading] = f"{path.relative_to(ROOT)}:{line}"
    return found


def missing_headings(catalogue: dict[str, str]) -> list[str]:
    """``file:line: heading`` of every heading of the index with a note in brackets and no entry."""
    return [
        f"{where}: {heading!r} has a note in brackets with no Spanish in {CATALOGUE.relative_to(ROOT)}"
        for heading, where in index_headings().items()
        if NOTE.search(heading) and heading not in catalogue
    ]


def test_every_heading_of_the_index_with_a_note_has_its_spanish_entry() -> None:
    catalogue = read_po(CATALOGUE)
    missing = missing_headings(catalogue)
    assert not missing, "\n".join(missing)
    assert missing_headings({}), "the check sees a heading with a note"
    stale = sorted(set(catalogue) - set(index_headings()))
    assert not stale, f"{CATALOGUE.name} has headings the index no longer cites: {stale}"


def test_the_spanish_headings_have_no_english_left() -> None:
    left = [text for text in read_po(CATALOGUE).values() if ENGLISH.search(text)]
    assert not left, "\n".join(left)
    assert ENGLISH.search("Los cotos (list of faults that lose the partida, a)")  # the check sees one


def test_the_spanish_headings_keep_the_sources_words_outside_the_brackets() -> None:
    changed = [
        (heading, spanish)
        for heading, spanish in read_po(CATALOGUE).items()
        if NOTE.sub("()", heading) != NOTE.sub("()", spanish)
    ]
    assert not changed, changed


def test_a_spanish_rule_page_gives_the_notes_in_spanish(es_site: BuiltSite) -> None:
    page = es_site.page("rulebook/arrastre")
    assert "Segunda fase de la mano o fase de Arrastre (obligación de asistir y de montar)" in page
    assert "duty to follow" not in page
    assert "La mesa i el repartiment; Com es juga pas a pas (6)" in page  # the Catalan source's words stay


def test_the_english_rule_page_keeps_the_index_notes(site: BuiltSite) -> None:
    page = site.page("rulebook/arrastre")
    assert "Segunda fase de la mano o fase de Arrastre (duty to follow and to beat)" in page
