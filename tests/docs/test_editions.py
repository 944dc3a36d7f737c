"""The two editions: the Spanish catalogues are complete and used, every page links to the
same page in the other edition, and a message left untranslated fails the build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.conftest import DOCS, PROJECT, BuiltSite, build, require

LOCALE = DOCS / "locale" / "es" / "LC_MESSAGES"
EXTENSION = DOCS / "_ext" / "guinote_rulebook"


def read_po(path: Path) -> object:
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as handle:
        return babel_read_po(handle, locale="es")


def test_the_spanish_edition_builds_without_warnings(es_site: BuiltSite) -> None:
    assert es_site.status == 0, f"sphinx-build failed:\n{es_site.warnings[-5000:]}\n{es_site.output[-3000:]}"
    assert es_site.warnings.strip() == ""


def test_every_catalogue_is_complete_and_nothing_is_fuzzy() -> None:
    require("babel")
    problems = []
    catalogues = sorted(LOCALE.rglob("*.po"))
    assert len(catalogues) > 20  # one per page, and the extension's own
    for path in catalogues:
        for message in read_po(path):  # type: ignore[attr-defined]
            if not message.id:
                continue
            where = f"{path.relative_to(DOCS)}:{message.lineno}"
            if message.fuzzy:
                problems.append(f"{where}: fuzzy: {message.id[:60]!r}")
            elif not message.string:
                problems.append(f"{where}: untranslated: {message.id[:60]!r}")
    assert not problems, "\n".join(problems[:20])


def test_every_phrase_of_the_extension_is_in_its_catalogue() -> None:
    require("babel")
    from babel.messages.extract import extract_from_dir

    catalogue = {message.id: message.string for message in read_po(LOCALE / "guinote_rulebook.po")}  # type: ignore[attr-defined]
    phrases = {message for _file, _line, message, _comments, _context in extract_from_dir(str(EXTENSION))}
    assert len(phrases) > 100
    missing = sorted(phrase for phrase in phrases if not catalogue.get(phrase))
    assert not missing, f"run `tox -e docs-i18n` and translate: {missing[:10]}"


def test_the_pages_are_in_spanish(es_site: BuiltSite) -> None:
    page = es_site.page("rulebook/cantes")
    assert re.search(r'<html[^>]* lang="es"', page)
    assert "Cantes: las veinte y las cuarenta" in page
    # a rule's title and statement, the extension's field names and the scenario captions
    assert "CANTE-01</span> Un jugador que tiene el Rey y la Sota de un palo puede cantarlos" in page
    assert "Un jugador que tiene el Rey y la Sota de un mismo palo puede declarar la pareja (cantar)." in page
    assert ">Fuentes<" in page and ">Acuerdo<" in page
    assert "Las veinte en copas dan 20 tantos de cante al bando del que canta" in page
    # the scenarios in Spanish Gherkin, as run --language es runs them (tags and card codes as written)
    text = re.sub(r"<[^>]+>", "", page).replace("&#39;", "'").replace("&quot;", '"')
    assert "Escenario: Las veinte en copas dan 20 tantos de cante al bando del que canta" in text
    assert "Scenario:" not in text and "Given " not in text
    assert "Cuando el jugador 0 canta en copas" in text and "| jugador 0 | Rc Sc 2e 5b 6b" in text
    assert "jugador 0" in page  # the drawings are labelled in Spanish


@pytest.mark.parametrize("edition", ["en", "es"])
def test_every_page_links_to_the_same_page_in_the_other_edition(
    edition: str, site: BuiltSite, es_site: BuiltSite
) -> None:
    built = es_site if edition == "es" else site
    other = "en" if edition == "es" else "es"
    missing = []
    for name, text in built.pages().items():
        depth = name.count("/") + 1
        href = f'href="{"../" * depth}{other}/{name}.html"'
        if 'class="guinote-languages"' not in text or href not in text:
            missing.append(name)
    assert not missing, f"pages without the language switch: {missing[:10]}"


def test_an_untranslated_or_fuzzy_message_fails_the_build(tmp_path: Path) -> None:
    require("sphinx")
    built = build(PROJECT, tmp_path, {"GUINOTE_RESULTS": None}, language="es")
    assert built.status != 0
    assert "untranslated message (es)" in built.warnings
    assert "'The rules'" in built.warnings  # fuzzy counts as untranslated
    assert "Test rulebook" not in built.warnings  # the one translated message is used
    assert "Reglamento de prueba" in built.page("index")
    # a message of the data translated once, in data.po, for every page that shows it
    assert "Test data note." not in built.warnings
    assert "Nota de los datos de prueba." in built.page("index")


def test_the_index_of_rules_is_in_spanish(es_site: BuiltSite) -> None:
    page = es_site.page("guinote-rules")
    assert "Índice de reglas" in page
    assert "Cantes: las veinte y las cuarenta" in page  # the chapter, as a group
    assert "Un jugador que tiene el Rey y la Sota de un palo puede cantarlos" in page


def test_a_page_in_one_language_says_so_in_the_other_edition(site: BuiltSite, es_site: BuiltSite) -> None:
    """A Spanish reader meets the engine authors' pages still in English named in Spanish in the
    sidebar, with their language, and told so at their top; the English reader likewise meets the
    translators' style page, in Spanish."""
    sidebar = re.sub(r"<[^>]+>", "", es_site.page("index"))
    assert "Kits para su motor (en inglés)" in sidebar and "Referencia de la API (en inglés)" in sidebar
    assert "Engine kits" not in sidebar and "API reference" not in sidebar
    kits = es_site.page("checking/kits")
    assert "Esta página está, por ahora, solo en inglés." in kits
    assert '<p lang="en">The kits in' in kits  # a screen reader reads the page's own text in English
    assert "solo en inglés" not in es_site.page("rulebook/cantes")  # a translated page: no note
    style = site.page("contributing/spanish_style")
    assert "(in Spanish)" in style and "This page is written in Spanish" in style
    assert "Engine kits" in site.page("checking/kits") and "(in English)" not in site.page("checking/kits")
