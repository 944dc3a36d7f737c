"""The printed rulebook (``tox -e print``): the books that docs/build_print.py made, checked.

Opt-in: the books take minutes to build and need TeX, so these tests are marked ``printed`` and
left out of the default run; ``tox -e print`` builds the books, then runs them (``-m printed``)
on the languages it built ($GUINOTE_PRINT_LANGUAGES). A book that is missing fails with its path.
They read the PDFs with pypdf (the ``print`` extras) and the LaTeX transcripts."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOOKS = Path(os.environ.get("GUINOTE_PRINT_DIR", ROOT / "docs" / "_build" / "print"))
#: the books built (``tox -e print -- es`` builds one)
LANGUAGES = tuple(os.environ.get("GUINOTE_PRINT_LANGUAGES", "es en").split())

pytestmark = pytest.mark.printed

#: A5 in points, and how far a page may be from it
A5 = (419.53, 595.28)
TOLERANCE = 1.0
#: the book's sane size: the rule chapters with two scenarios to a page, the readings, the glossary
PAGES = range(300, 701)
#: the builder's and the LaTeX class's own English, which the Spanish book must not show
ENGLISH = ("Contents", "Chapter", "Index", "Release", "Table", "continues on next page", "continued from previous page")
#: the Spanish book's own words for them (babel's and Sphinx's Spanish, the extension's catalogue)
SPANISH = ("Índice general", "Capítulo", "Índice de reglas", "Versión", "Guiñote: el reglamento anotado")


def built(stem: str) -> Path:
    """The PDF ``BOOKS/<stem>.pdf`` (a book, ``guinote-es``, or a booklet, ``guinote-club-es``)."""
    path = BOOKS / f"{stem}.pdf"
    if not path.exists():
        pytest.fail(f"{path} was not built (tox -e print -- {stem.rsplit('-', 1)[-1]})")
    return path


@cache
def pdf(stem: str) -> Any:
    """pypdf's reader of :func:`built` ``(stem)``."""
    try:
        import pypdf
    except ImportError:
        pytest.fail("pypdf is missing: pip install -e '.[print]' (tox -e print)")
    return pypdf.PdfReader(built(stem))


def latex_log(stem: str) -> str:
    """LaTeX's transcript of the PDF ``stem``: a book's is in ``latex-<language>``, a booklet's in
    ``latex-club-<language>``."""
    path = BOOKS / f"latex-{stem.removeprefix('guinote-')}" / f"{stem}.log"
    if not path.exists():
        pytest.fail(f"{path} is missing (tox -e print -- {stem.rsplit('-', 1)[-1]})")
    return path.read_text(encoding="latin-1")


def book(language: str) -> Path:
    return built(f"guinote-{language}")


def reader(language: str) -> Any:
    return pdf(f"guinote-{language}")


@cache
def text(language: str) -> str:
    """The book's text, with the hyphens of codes made plain and a code broken at its hyphen
    joined again (``ARR-`` / ``01``)."""
    pages = [page.extract_text() or "" for page in reader(language).pages]
    joined = "\n".join(pages)
    joined = re.sub("[\u2010\u2011\u2012\u2212\u00ad]", "-", joined)
    return re.sub(r"-\s*\n\s*", "-", joined)


def transcript(language: str) -> str:
    return latex_log(f"guinote-{language}")


def rule_ids() -> list[str]:
    ids = []
    for path in sorted((ROOT / "features" / "index").glob("*.toml")):
        with path.open("rb") as handle:
            ids += [str(rule["id"]) for rule in tomllib.load(handle).get("rule", [])]
    return ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_a5(language: str) -> None:
    wrong = []
    for number, page in enumerate(reader(language).pages, start=1):
        size = (float(page.mediabox.width), float(page.mediabox.height))
        if abs(size[0] - A5[0]) > TOLERANCE or abs(size[1] - A5[1]) > TOLERANCE:
            wrong.append(f"page {number}: {size[0]:.1f} x {size[1]:.1f} pt")
    assert not wrong, "\n".join(wrong[:10])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_count_is_sane(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    count = len(reader(language).pages)
    with capsys.disabled():
        print(f"\n{book(language).name}: {count} pages")
    assert count in PAGES, f"{count} pages, outside {PAGES.start}-{PAGES.stop - 1}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_of_the_index_is_in_the_book(language: str) -> None:
    ids = rule_ids()
    assert len(ids) > 150
    content = text(language)
    missing = [rule for rule in ids if not re.search(rf"\b{re.escape(rule)}\b", content)]
    assert not missing, f"{len(missing)} rules missing, e.g. {missing[:10]}"


def fonts_in(resources: Any, seen: set[int]) -> Iterator[tuple[str, Any]]:
    """Every font of a page's resources, those of its drawings (form XObjects) included."""
    if resources is None:
        return
    resources = resources.get_object()
    for name, font in (resources.get("/Font") or {}).items():
        yield str(name), font.get_object()
    for xobject in (resources.get("/XObject") or {}).values():
        number = getattr(xobject, "idnum", None)
        if number is not None and number in seen:
            continue
        if number is not None:
            seen.add(number)
        form = xobject.get_object()
        if form.get("/Subtype") == "/Form":
            yield from fonts_in(form.get("/Resources"), seen)


def embedded(font: Any) -> bool:
    if font.get("/Subtype") == "/Type3":  # its glyphs are drawn in the file
        return True
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False
    descriptor = descriptor.get_object()
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_font_is_embedded(language: str) -> None:
    seen: set[int] = set()
    fonts: set[str] = set()
    bare: set[str] = set()
    for page in reader(language).pages:
        for _name, font in fonts_in(page.get("/Resources"), seen):
            name = str(font.get("/BaseFont", "?"))
            fonts.add(name)
            if not embedded(font):
                bare.add(name)
    assert len(fonts) >= 4  # the text, its bold and italic, the code, the drawings' sans
    assert not bare, f"not embedded: {sorted(bare)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_drawings_are_in_the_book(language: str) -> None:
    """Each drawing of the table is a PDF of its own, included as a form XObject."""
    forms: set[int] = set()
    for page in reader(language).pages:
        resources = page.get("/Resources")
        if resources is None:
            continue
        for xobject in (resources.get_object().get("/XObject") or {}).values():
            if xobject.get_object().get("/Subtype") == "/Form":
                forms.add(xobject.idnum)
    assert len(forms) > 300


def test_the_spanish_book_is_in_spanish() -> None:
    content = text("es")
    english = [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}\b", content)]
    assert not english, f"English of the builder in the Spanish book: {english}"
    absent = [words for words in SPANISH if words not in content]
    assert not absent, f"missing from the Spanish book: {absent}"
    # the preface and the extension's own sentence for a scenario drawn elsewhere
    assert "Sobre este libro" in content and "Sus pasos y su mesa están en la página" in content


#: a code in a sentence: a flag's name or value (``thirty_malas``, ``deck=48``), a reason code
#: (``MUST_FOLLOW_SUIT``)
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z_]+=[a-z0-9_|]+|\b[A-Z]+_[A-Z_]+\b")
#: codes the Spanish book may print: the profiles page's passage for engine authors, which the book
#: prints as it is (the style guide, ``.. guinote-engine-authors::``)
CODES_FOR_ENGINE_AUTHORS = frozenset({"guinote_conformance", "reference_engine", "rules_for"})


def test_the_spanish_book_says_house_rules_in_words_not_codes() -> None:
    """The flag values a scenario is played under, a flag's name in a sentence, a reason code: in the
    players' words (the web's plain words, and each scenario's house rules in one sentence)."""
    content = text("es").replace("\u200b", "")
    codes = sorted(set(CODE.findall(content)) - CODES_FOR_ENGINE_AUTHORS)
    assert not codes, f"{len(codes)} codes in the Spanish book: {codes[:20]}"
    assert "Se juega con la opción: " in content and "Se juega con las opciones: " in content


def test_the_english_book_has_its_own_words() -> None:
    content = text("en")
    for words in ("Contents", "Chapter 1", "Index of rules", "About this book", "Guiñote: the annotated rulebook"):
        assert words in content


def test_the_spanish_book_is_hyphenated_in_spanish() -> None:
    log = transcript("es")
    assert "spanish.ldf" in log
    assert "No hyphenation patterns were preloaded" not in log


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_runs_off_the_page_and_every_reference_resolves(language: str) -> None:
    log = transcript(language)
    assert "There were undefined references" not in log
    widths = [float(width) for width in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert max(widths, default=0.0) < 10, f"a line runs {max(widths):.0f} pt into the margin"
