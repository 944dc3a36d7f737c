"""``club``: a club's own rules from the command line, as the rulebook's "Choose your rules" page
gives them: the profile to start from, then each question in plain words, the reading the club
plays (Enter keeps the starting one); out come the sheet of its rules and the profile file that
``run --profile-file`` checks an engine against.

In: the answers typed (or piped in, one per line). Out: ``<club>.toml`` and the sheet, printed and
written beside it (``<club>.txt``), from :mod:`guinote_conformance.catalogue.club`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.catalogue.club import (
    CLUB_START,
    Question,
    bases,
    file_name_of,
    profile_file_text,
    questions,
    sheet_text,
    starting_values,
)
from guinote_conformance.cli.common import checked

#: What the prompts say, in both languages.
PROMPTS = {
    "en": {
        "name": "Name of your club",
        "base": "Start from the rules of",
        "pick": "Your choice (Enter: {default})",
        "wrote": "wrote {toml} (for run --profile-file) and {sheet} (to print)",
        "range": "a number from 1 to {count}",
    },
    "es": {
        "name": "Nombre del club",
        "base": "Partir de las reglas de",
        "pick": "Vuestra opción (Intro: {default})",
        "wrote": "escrito {toml} (para run --profile-file) y {sheet} (para imprimir)",
        "range": "un número del 1 al {count}",
    },
}


def _choose(title: str, options: list[str], default: int, words: dict[str, str]) -> int:
    """The number of the option chosen (from 1), ``default`` on Enter."""
    typer.echo(f"\n{title}")
    for number, option in enumerate(options, start=1):
        typer.echo(f"  {number}. {option}")
    while True:
        said = str(typer.prompt(words["pick"].format(default=default), default=str(default), show_default=False))
        if said.strip().isdigit() and 1 <= int(said) <= len(options):
            return int(said)
        typer.echo(words["range"].format(count=len(options)))


def _ask(question: Question, current: str, words: dict[str, str]) -> str:
    values = [reading.value for reading in question.readings]
    options = [f"{reading.text} ({', '.join(reading.sources)})" for reading in question.readings]
    return values[_choose(question.text, options, values.index(current) + 1, words) - 1]


def club(
    language: Annotated[str, typer.Option(help="the language of the questions: es or en")] = "es",
    out: Annotated[Path, typer.Option(metavar="DIR", help="where the profile file and the sheet are written")] = Path(
        "."
    ),
) -> None:
    """Choose your club's rules, question by question, and get the sheet to print and the profile
    file to check an engine against (the rulebook's "Choose your rules" page, in the terminal)."""
    with checked():
        if language not in PROMPTS:
            raise InputError(f"--language {language}: es or en")
        if not out.is_dir():
            raise InputError(f"--out {out}: not a folder")
        words = PROMPTS[language]
        profiles = bases(language)
        names = list(profiles)
        try:
            name = str(typer.prompt(words["name"], default="nuestro club" if language == "es" else "our club")).strip()
            base = names[_choose(words["base"], list(profiles.values()), names.index(CLUB_START) + 1, words) - 1]
        except typer.Abort:
            raise InputError("the answers ended before the last question: nothing written") from None
        chosen = starting_values(base)
        try:
            for question in questions(language):
                if question.asked(chosen):
                    chosen[question.flag] = _ask(question, chosen[question.flag], words)
        except typer.Abort:  # the answers piped in ran out, or Ctrl-C: nothing written
            raise InputError("the answers ended before the last question: nothing written") from None
        file_name = file_name_of(name)
        toml, sheet = out / f"{file_name}.toml", out / f"{file_name}.txt"
        toml.write_text(profile_file_text(name, file_name, base, chosen, language), encoding="utf-8")
        text = sheet_text(name, base, chosen, language)
        sheet.write_text(text, encoding="utf-8")
        typer.echo(f"\n{text}")
        typer.echo(words["wrote"].format(toml=toml, sheet=sheet))


CLUB_EPILOG = (
    "Examples:\n\n"
    "  guinote-conformance club                      # in Spanish, files in this folder\n\n"
    "  guinote-conformance club --language en --out rules/\n\n"
    "  guinote-conformance run --engine reference --profile-file nuestro_club.toml"
)
