"""The club booklet (``tox -e print``): the booklets that docs/build_print.py made, checked as the
book is (test_print.py: A5 pages, the page count, fonts embedded, nothing past the margin), and
for what a club needs: at most 48 pages, black and white, a box for every disagreement, a one-page
summary, card and score sheet, a subject index, and on the Spanish booklet's pages no code, flag
value, file path, tag, rule ID or English word.

Opt-in like the book's tests (marked ``printed``): they read the PDFs with pypdf, their text with
pypdf and pdftotext (poppler-utils), and the LaTeX folders."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.docs.conftest import DOCS
from tests.docs.test_print import A5, BOOKS, TOLERANCE, built, embedded, fonts_in, latex_log, pdf

pytestmark = pytest.mark.printed

#: the booklets built (``tox -e print -- es`` builds one language)
LANGUAGES = tuple(word for word in os.environ.get("GUINOTE_PRINT_LANGUAGES", "es en").split() if word in ("es", "en"))
#: what a club can print and staple: at most 48 A5 pages (and, to be the booklet, some 20 at least)
PAGES = range(20, 49)
#: a rule ID or a question code (DECK-05, B-17), a flag value (snake_case), code quotes, a tag, a
#: path of the project, an area's prefix (SEVEN)
CODES = re.compile(
    r"\b[A-Z]{2,}-\d+\b|\b[BC]-\d+\b|\b[a-z]+_[a-z_]+\b|``|(?<![\w.])@[a-z]\w*|\b\w+\.(feature|toml|py|rst)\b"
    r"|\bfeatures/|\b(DECK|DEAL|FREE|ARR|CANTE|SEVEN|SCORE|VUELTAS|MATCH|RENUNCIO|CONDUCT|TWO|REGION|PRE)\b"
)
#: English words a Spanish page must not show (none of them is Spanish or Catalan)
ENGLISH = (
    "the", "and", "with", "which", "see", "flag", "rule", "rules", "trick", "player", "hand", "point", "seat",
    "profile", "scenario", "interpretation", "Choice", "Sources", "Traditional", "page", "Contents", "Chapter",
)  # fmt: skip
#: the words of the Spanish edition's style that the booklet must not use
BANNED = re.compile(r"(?i)\basientos?\b|\bbater[ií]a\b|\barn[eé]s\b")
#: the section heads of the pages that must each fit on one page, by language, and a phrase of
#: their last paragraph
ONE_PAGE = {
    "es": (("El juego en una página", "El encuentro."), ("Tarjeta de consulta", "De vueltas."), ("Anotador", "Cotos")),
    "en": (("The game on one page", "The match."), ("Quick reference", "De vueltas."), ("Score sheet", "Cotos")),
}  # fmt: skip


def booklet(language: str) -> Path:
    return built(f"guinote-club-{language}")


def reader(language: str) -> Any:
    return pdf(f"guinote-club-{language}")


@cache
def pages(language: str) -> tuple[str, ...]:
    """Each page's text as pdftotext reads it (the words a reader sees), hyphens joined."""
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing (Debian: poppler-utils)")
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(booklet(language)), "-"], capture_output=True, text=True, check=True
    ).stdout
    texts = out.split("\f")
    return tuple(re.sub(r"(\w)-\n(\w)", r"\1\2", re.sub("[\u2010\u2011\u00ad]", "-", text)) for text in texts)


def transcript(language: str) -> str:
    return latex_log(f"guinote-club-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_booklet_is_a5_and_at_most_48_pages(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    count = len(reader(language).pages)
    with capsys.disabled():
        print(f"\n{booklet(language).name}: {count} pages")
    assert count in PAGES, f"{count} pages, outside {PAGES.start}-{PAGES.stop - 1}"
    for number, page in enumerate(reader(language).pages, start=1):
        size = (float(page.mediabox.width), float(page.mediabox.height))
        assert abs(size[0] - A5[0]) <= TOLERANCE and abs(size[1] - A5[1]) <= TOLERANCE, f"page {number}: {size}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_font_of_the_booklet_is_embedded(language: str) -> None:
    seen: set[int] = set()
    fonts, bare = set(), set()
    for page in reader(language).pages:
        for _name, font in fonts_in(page.get("/Resources"), seen):
            fonts.add(str(font.get("/BaseFont", "?")))
            if not embedded(font):
                bare.add(str(font.get("/BaseFont", "?")))
    assert len(fonts) >= 3
    assert not bare, f"not embedded: {sorted(bare)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_runs_off_the_booklet_page_and_every_reference_resolves(language: str) -> None:
    log = transcript(language)
    assert "There were undefined references" not in log
    widths = [float(width) for width in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert max(widths, default=0.0) < 10, f"a line runs {max(widths):.0f} pt into the margin"
    assert not any("??" in text for text in pages(language)), "a page reference printed as ??"


#: a colour operator of a PDF content stream: gray (g/G), RGB (rg/RG) or CMYK (k/K)
COLOUR = re.compile(rb"(?<![\w.])((?:[\d.]+\s+){1,4})(rg|RG|k|K)\b")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_booklet_prints_in_black_and_white(language: str) -> None:
    """No picture and no colour: every colour set on a page is a gray (equal RGB parts, or CMYK
    with black only)."""
    coloured = []
    for number, page in enumerate(reader(language).pages, start=1):
        resources = page.get("/Resources")
        xobjects = (resources.get_object().get("/XObject") or {}) if resources is not None else {}
        assert not xobjects, f"page {number} has a picture: {list(xobjects)}"
        for match in COLOUR.finditer(page.get_contents().get_data() if page.get_contents() else b""):
            parts = [float(part) for part in match.group(1).split()]
            gray = len(set(parts)) == 1 if match.group(2) in (b"rg", b"RG") else not any(parts[:3])
            if not gray:
                coloured.append(f"page {number}: {match.group(0).decode()}")
    assert not coloured, "\n".join(coloured[:10])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_booklet_has_no_codes_paths_tags_or_rule_ids(language: str) -> None:
    found = [
        f"page {number}: {match.group(0)!r} in …{text[max(0, match.start() - 30) : match.end() + 30]!r}…"
        for number, text in enumerate(pages(language), start=1)
        for match in CODES.finditer(text)
    ]
    assert not found, "\n".join(found[:15])


def test_the_spanish_booklet_has_no_english_word() -> None:
    words = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b")
    found = [
        f"page {number}: {match.group(0)!r} in …{text[max(0, match.start() - 30) : match.end() + 30]!r}…"
        for number, text in enumerate(pages("es"), start=1)
        for match in [*words.finditer(text), *BANNED.finditer(text)]
    ]
    assert not found, "\n".join(found[:15])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_disagreement_is_a_boxed_choice_with_its_sources(language: str) -> None:
    from guinote_conformance.reference_engine.flags import flag_specs

    label = {"es": "Opción:", "en": "Choice:"}[language]
    text = "\n".join(pages(language))
    assert text.count(label) == len(flag_specs())
    assert text.count({"es": "Reglamento tradicional:", "en": "Traditional rulebook:"}[language]) == len(flag_specs())
    for source in ("S000", "S002", "S003", "S004"):
        assert source in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_the_card_and_the_score_sheet_each_fit_on_one_page(language: str) -> None:
    if str(DOCS / "_ext") not in sys.path:
        sys.path.insert(0, str(DOCS / "_ext"))
    from guinote_rulebook.booklet import SHEET_ROWS

    texts = pages(language)
    contents = {"es": "Índice general", "en": "Contents"}[language]
    found = []
    for heading, last in ONE_PAGE[language]:
        # the page where the part starts: the first that shows its heading, the contents left out
        at = [
            number
            for number, text in enumerate(texts)
            if contents not in text and re.search(rf"^\s*[\d.]*\s*{re.escape(heading)}\s*$", text, re.M)
        ]
        assert at, f"no page starts the part {heading!r}"
        assert last in " ".join(texts[at[0]].split()), f"{heading!r} goes on past its page ({at[0] + 1})"
        found.append(texts[at[0]])
    sheet = found[-1].split()
    assert all(str(row) in sheet for row in range(1, SHEET_ROWS + 1)), "the score sheet's lines, one per hand"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_is_by_subject(language: str) -> None:
    path = BOOKS / f"latex-club-{language}" / f"guinote-club-{language}.ind"
    assert path.exists(), f"{path}: the subject index was not made"
    entries = re.findall(r"\\item\s+\\spxentry\{([^}]*)\}", path.read_text(encoding="utf-8"))
    assert len(entries) >= 40
    assert {"arrastre", "renuncio", "muestra", "coto"} <= set(entries)
    assert not [entry for entry in entries if CODES.search(entry)]
