"""A club's own rules (guinote_conformance.catalogue.club), on the rulebook's page and from
``guinote-conformance club``: a reading in plain words keeps its choice and leaves its grounds,
citations, question codes and flag values to the full text; the club answers question by
question and gets its sheet and a profile file that checks an engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.catalogue.club import CODE_CLOSE, CODE_OPEN, plain_words, questions
from guinote_conformance.cli import app
from guinote_conformance.engines.profile_file import read_profile_file
from guinote_conformance.reference_engine.flags import flag_specs, profile_specs


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


# ------------------------------------------------------------------------- guinote-conformance club


def answers(*given: str, then_enter: int = 40) -> str:
    """What a club types: the answers given, then Enter (the starting reading) for the rest."""
    return "\n".join([*given, *[""] * then_enter]) + "\n"


def club(tmp_path: Path, text: str, *args: str) -> Result:
    return CliRunner().invoke(app, ["club", "--out", str(tmp_path), *args], input=text)


def test_a_club_answers_in_spanish_and_gets_its_sheet_and_a_file_that_checks_an_engine(tmp_path: Path) -> None:
    questions_es = {question.flag: question for question in questions("es")}
    # Peña El Cierzo starts from ludoteka (2nd: the club's start comes first), and plays one cante
    # per won trick: the 2nd reading of the 5th question (players, deck, deal, cante_per_trick...)
    asked = [flag for flag in flag_specs() if questions_es[flag].asked(profile_specs()["ludoteka"].flags)]
    picks = ["2" if flag == "cante_per_trick" else "" for flag in asked]
    done = club(tmp_path, answers("Peña El Cierzo", "2", *picks))
    assert done.exit_code == 0, done.output
    rules = read_profile_file(tmp_path / "Pena_El_Cierzo.toml")
    assert (rules.name, rules.base) == ("Pena_El_Cierzo", "ludoteka") and set(rules.flags) == set(flag_specs())
    assert rules.label(profile_specs()["ludoteka"].flags) == "ludoteka+cante_per_trick=one"
    sheet = (tmp_path / "Pena_El_Cierzo.txt").read_text(encoding="utf-8")
    assert sheet.startswith("Nuestras reglas de guiñote: Peña El Cierzo") and sheet in done.output
    assert questions_es["cante_per_trick"].reading("one").text in sheet
    # the 9 and 8 are not asked with the 40-card deck; nothing in code, English or a question code
    assert questions_es["rank_8_9"].text not in done.output
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\b[BC]-\d|\binterpretation\b|\bthe\b", sheet), sheet


def test_a_number_out_of_range_is_asked_again(tmp_path: Path) -> None:
    done = club(tmp_path, answers("Peña", "7", "1"), "--language", "en")
    assert done.exit_code == 0, done.output
    assert "a number from 1 to 4" in done.output
    assert read_profile_file(tmp_path / "Pena.toml").base == "tradicional"


def test_answers_that_end_early_write_nothing(tmp_path: Path) -> None:
    done = club(tmp_path, "Peña\n2\n")
    assert done.exit_code == ExitCode.USAGE
    assert "the answers ended before the last question: nothing written" in done.output
    assert list(tmp_path.iterdir()) == []


def test_the_clubs_file_checks_the_reference_with_no_failure(tmp_path: Path) -> None:
    done = club(tmp_path, answers("Cierzo", "", "", "", "", "2"))
    assert done.exit_code == 0, done.output
    ran = CliRunner().invoke(
        app,
        ["run", "--engine", "reference", "--profile-file", str(tmp_path / "Cierzo.toml"), "--area", "cantes",
         "--jobs", "1", "--report-dir", str(tmp_path / "r")],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
