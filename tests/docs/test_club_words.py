"""The club page in plain words: a reading keeps its choice and leaves its grounds, citations,
question codes and flag values to "More detail" (directives/club.py, ``plain_words``)."""

from __future__ import annotations

import sys

import pytest

from tests.docs.conftest import DOCS, require

require("sphinx")
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

from guinote_rulebook.directives.club import plain_words  # noqa: E402

CODE_OPEN, CODE_CLOSE = "\u27e6", "\u27e7"


@pytest.mark.parametrize(
    ("full", "plain"),
    [
        # choice: grounds with the sources -> the choice
        (
            "Any available cante may be sung first: S002/S003 (Errores típicos) give it as advice; S000 sets no order.",
            "Any available cante may be sung first.",
        ),
        # grounds with a source: choice -> the choice, capitalised
        (
            "Literal S004 renuncio b): the duty to beat applies even when the partner is winning.",
            "The duty to beat applies even when the partner is winning.",
        ),
        # a citation in parentheses, whatever it holds (a colon included), and a question code
        (
            "The card stands (S000 Glosario, Renuncio; S002/S003 Errores típicos: it may cost the partida).",
            "The card stands.",
        ),
        ("It may exchange it for a seven muestra (B-40).", "It may exchange it for a seven muestra."),
        # a flag's own value in code, with the word that brings it in, in either language
        (
            f"Qué faltas son renuncios con {CODE_OPEN}renuncio_handling=lose_point{CODE_CLOSE}.",
            "Qué faltas son renuncios.",
        ),
        (f"Who may claim (with {CODE_OPEN}vueltas_end=claim{CODE_CLOSE}).", "Who may claim."),
        # what needs nothing left out is left as it is
        ("Several cantes may follow the same won trick.", "Several cantes may follow the same won trick."),
        ("Only the duties of play (follow, beat, trump).", "Only the duties of play (follow, beat, trump)."),
    ],
)
def test_a_reading_in_plain_words(full: str, plain: str) -> None:
    assert plain_words(full) == plain
