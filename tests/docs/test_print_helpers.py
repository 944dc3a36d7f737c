"""The printed edition's helpers (docs/_ext/guinote_rulebook/printed.py and print_latex.py), on
small inputs and fast; the books themselves are checked by test_print.py (tox -e print)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.docs.conftest import DOCS, require

require("sphinx")
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

from guinote_rulebook import print_latex, printed, svg  # noqa: E402
from guinote_rulebook.render import table  # noqa: E402

from guinote_conformance.catalogue.rulebook import TablePicture  # noqa: E402


def test_a_drawing_stands_alone_with_its_emblems_and_its_size() -> None:
    drawing = svg.table_svg(TablePicture(players=4, hands={0: ["Ao", "Sc"]}), "a table")
    assert " width=" not in drawing.split(">", 1)[0]  # the web's drawing has only a viewBox
    alone = print_latex.standalone_svg(drawing)
    root = alone.split(">", 1)[0]
    assert ' width="380"' in root and " height=" in root
    assert '<symbol id="gs-o"' in alone and '<symbol id="gs-back"' in alone
    assert alone.count("<svg") == 1
    height = float(root.split('viewBox="0 0 380 ', 1)[1].split('"', 1)[0])
    assert print_latex.drawing_height(drawing) == pytest.approx(height * 0.75 * print_latex.DRAWING_SCALE)


@pytest.mark.printed  # cairosvg and its cairo library come with the print extras (tox -e print)
def test_a_drawing_is_made_pdf_once(tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:  # OSError: no cairo library
        pytest.fail(f"cairosvg is not usable ({error}): pip install -e '.[print]'")
    row = svg.cards_row(["Ao", "3c", "Re"], "three cards")
    first = print_latex.drawing_pdf(row, tmp_path)
    assert first.read_bytes().startswith(b"%PDF")
    assert print_latex.drawing_pdf(row, tmp_path) == first
    assert len(list(tmp_path.iterdir())) == 1


def test_each_column_is_as_wide_as_its_longest_word_needs() -> None:
    long_value = "exchanger_\u200bwon_\u200blast_\u200btrick"
    reading = "The exchanger himself won the trick just played, " * 3
    node = table(["Value", "Reading", "Sources"], [[long_value, reading, "S000, S004"], ["none", "No.", "S002"]])
    widths = printed.column_widths(node, 3)
    assert widths[0] >= len("exchanger_") * printed.CHARACTER + printed.PADDING
    assert widths[2] >= len("Sources") * printed.CHARACTER + printed.PADDING
    assert widths[1] > widths[0] and widths[1] > widths[2]  # the text takes the rest of the line
    assert sum(widths) == pytest.approx(printed.LINE, abs=3)


def test_a_page_left_out_of_the_book_is_named_by_its_title(tmp_path: Path) -> None:
    rst = tmp_path / "guide.rst"
    rst.write_text(".. a comment\n\nChecking your engine\n====================\n\nText.\n", encoding="utf-8")
    markdown = tmp_path / "protocol.md"
    markdown.write_text("# The wire protocol\n\nText.\n", encoding="utf-8")
    assert printed.source_title(rst) == "Checking your engine"
    assert printed.source_title(markdown) == "The wire protocol"
    assert printed.engine_author_page("contributing/variant")
    assert not printed.engine_author_page("rulebook/deck")


# -- the club booklet (guinote_rulebook/booklet.py) ---------------------------------------------


def test_every_disagreement_has_one_place_in_the_booklet() -> None:
    from guinote_rulebook.booklet import CLUB_AREAS, flags_by_area
    from guinote_rulebook.data import engine_specs

    from guinote_conformance.catalogue.rule_index import AREAS
    from guinote_conformance.catalogue.rulebook import load_rulebook

    flags, _profiles = engine_specs()
    data = load_rulebook(DOCS.parent / "features", DOCS.parent)
    placed = flags_by_area(data, flags)
    assert sorted(name for names in placed.values() for name in names) == sorted(flags)
    assert set(placed) <= {*CLUB_AREAS, "variants"}
    assert set(CLUB_AREAS) <= {area for area, _prefixes in AREAS}


def test_the_booklet_asks_in_plain_words_what_the_data_asks_with_flag_values() -> None:
    """A question whose words in profiles.toml name a flag value has its plain words in the
    booklet, and only those (an override left behind when the data is reworded fails here)."""
    import re

    from guinote_rulebook.booklet import PLAIN_QUESTIONS
    from guinote_rulebook.data import engine_specs

    flags, _profiles = engine_specs()
    coded = {name for name, spec in flags.items() if re.search(r"\w=\w|\b[a-z]+_[a-z_]+\b", spec.summary)}
    assert coded == set(PLAIN_QUESTIONS)


@pytest.mark.parametrize(
    ("left", "tidied"),
    [
        ("El juego de dos. Vea .", "El juego de dos."),
        ("con la notación (vea ).", "con la notación."),
        ("sale primero: vea ). Y una mano", "sale primero). Y una mano"),
        ("hasta que se roba (o se cambia, vea SEVEN).", "hasta que se roba (o se cambia)."),
        ("speaks of the score instead): see .", "speaks of the score instead)."),
        ("a seven muestra ().", "a seven muestra."),
        ("the As (see the deck).", "the As (see the deck)."),  # a «see» before words stays
    ],
)
def test_what_a_code_that_printed_nothing_leaves_is_tidied(left: str, tidied: str) -> None:
    from guinote_rulebook.booklet import emptied

    assert emptied(left) == tidied


def test_every_statement_and_choice_of_the_booklet_has_its_spanish() -> None:
    """The Spanish booklet reads its rules from the rule pages' catalogues and its choices from
    «Elegid vuestras reglas»' (club.po): each is there, so the booklet builds."""
    from guinote_rulebook.booklet import PLAIN_QUESTIONS, catalogue, club_areas
    from guinote_rulebook.data import engine_specs
    from guinote_rulebook.render import linked_rest

    from guinote_conformance.catalogue.rulebook import load_rulebook

    data = load_rulebook(DOCS.parent / "features", DOCS.parent)
    locale = DOCS / "locale" / "es" / "LC_MESSAGES"
    missing = [
        rule.id
        for area, rules in club_areas(data)
        for rule in rules
        if linked_rest(rule.statement, data) not in catalogue(locale / "rulebook" / f"{area}.po")
    ]
    flags, _profiles = engine_specs()
    club = catalogue(locale / "club.po")
    for name, spec in flags.items():
        texts = [value.reading for value in spec.values.values()]
        texts += [] if name in PLAIN_QUESTIONS else [spec.summary]
        missing += [f"{name}: {text[:40]}" for text in texts if linked_rest(text, data) not in club]
    assert not missing, missing[:10]


def test_the_index_finds_a_card_by_its_capital_and_a_word_with_or_without_one() -> None:
    from guinote_rulebook.booklet import term_pattern

    assert term_pattern("Tres").search("el Tres de oros") and not term_pattern("Tres").search("tres puntos")
    assert term_pattern("arrastre").search("Arrastre y fase") and term_pattern("arrastre").search("en el arrastre")
    assert not term_pattern("mano").search("manos")  # a whole word only
