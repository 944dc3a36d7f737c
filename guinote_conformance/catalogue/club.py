"""A club's own rules, question by question: what the rulebook's "Choose your rules" page
(``docs/club.rst``) and ``guinote-conformance club`` both ask, in the reader's language.

Each flag the suite declares is a question (its summary) with its readings (each value's reading
and sources); a question whose flag changes play only under another flag's values
(``matters_when``) is asked only when the club plays one of them. A club starts from a profile's
values, changes what it plays its own way, and gets a sheet of its rules and the profile file
that ``guinote-conformance run --profile-file`` checks an engine against.

The texts are the rulebook's, in plain words (:func:`plain_words`): a reading keeps its choice,
and leaves its grounds, citations, question codes and flag values to the full text.

In: the flags and profiles of ``profiles.toml``, the Spanish catalogue of the club page
(``club.po``). Out: :class:`Question`\\ s, the sheet and the profile file as text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from guinote_conformance.catalogue.spanish import LOCALE, SHARED_CATALOGUE, read_po
from guinote_conformance.reference_engine.flags import FlagSpec, flag_specs, profile_specs

#: The Spanish of the club page's texts (the questions, the readings, the profiles' summaries).
CLUB_CATALOGUE = "club.po"
#: The profile a club starts from unless it says otherwise: the traditional rulebook's, played at a table.
CLUB_START = "tradicional"
#: Code in a text (a flag's value), as the rulebook's markup has it: ``code``; marked ⟦code⟧ here.
CODE_OPEN, CODE_CLOSE = "\u27e6", "\u27e7"

#: What a player need not read in a reading, in any language: a source or question code, or the
#: project's word for a reading no source states (the sources beside each choice say both).
_CITED = re.compile(rf"\bS00\d|\b[BC]-\d|\binterpret|{CODE_OPEN}")
#: A flag's own value in code (``renuncio_handling=lose_point``), with the word that brings it in.
_FLAG_VALUE = re.compile(rf"\s*(?:\b(?:under|with|con|bajo|si)\s+)?{CODE_OPEN}[^{CODE_CLOSE}]*{CODE_CLOSE}")
_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")


def plain_words(text: str) -> str:
    """A reading or a question as a club reads it: its citations, question codes and flag values
    left out (they stay one click away, in the full text). ``text`` marks code with ⟦ ⟧.

    A reading made of a choice and its grounds, ``choice: grounds`` with the sources in the
    grounds, keeps the choice; ``grounds: choice``, with the sources before the colon, keeps the
    choice after it."""
    text = _PARENTHESIS.sub(lambda match: "" if _CITED.search(match.group(1)) else match.group(0), text)
    text = _FLAG_VALUE.sub("", text)
    if ": " in text:
        before, after = text.split(": ", 1)
        if _CITED.search(after) and not _CITED.search(before):
            text = before.rstrip(".") + "."
        elif _CITED.search(before) and not _CITED.search(after):
            text = after[:1].upper() + after[1:]
    text = re.sub(r"\s+([.,;:)])", r"\1", text.replace(CODE_OPEN, "").replace(CODE_CLOSE, ""))
    return re.sub(r"\s{2,}", " ", text).strip()


#: The project's word for a reading no source states, as a club reads it.
INTERPRETATION = {"en": "interpretation", "es": "interpretación"}


@dataclass(frozen=True)
class Reading:
    value: str
    text: str
    #: the sources that read the rule so (S000..S004, a regional custom Rnnn), or the word for an
    #: interpretation, in the reader's language
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    """One flag as a club is asked it."""

    flag: str
    text: str
    readings: tuple[Reading, ...]
    #: another flag -> its values under which this question changes play (empty: always asked)
    matters_when: Mapping[str, tuple[str, ...]]

    def asked(self, chosen: Mapping[str, str]) -> bool:
        """Whether the club is asked this, given what it chose (or starts from) for the others."""
        return all(chosen.get(other) in values for other, values in self.matters_when.items())

    def reading(self, value: str) -> Reading:
        return next(reading for reading in self.readings if reading.value == value)


def _unroled(text: str) -> str:
    """A catalogue's reST as the data's plain text: a role's target (``:question:`B-42``` is
    ``B-42``), the escapes that keep a role apart from its words taken off."""
    return re.sub(r":[a-z]+:`([^`]*)`", r"\1", text).replace("\\ ", "")


def _translator(language: str, locale: Path = LOCALE) -> Mapping[str, str]:
    """The club page's Spanish, keyed by the data's own text (the page links its codes); what a
    variant added since is in the data's shared catalogue (``data.po``)."""
    if language != "es":
        return {}
    shared = read_po(locale / SHARED_CATALOGUE) if (locale / SHARED_CATALOGUE).exists() else {}
    messages = {**shared, **read_po(locale / CLUB_CATALOGUE)}
    return {_unroled(english): _unroled(spanish) for english, spanish in messages.items()}


def _shown(text: str, catalogue: Mapping[str, str]) -> str:
    """``text`` in the catalogue's language, its ````code```` marked, in plain words."""
    said = catalogue.get(text, text)
    return plain_words(re.sub(r"``(.+?)``", rf"{CODE_OPEN}\1{CODE_CLOSE}", said))


def _sources(sources: tuple[str, ...], language: str) -> tuple[str, ...]:
    return tuple(INTERPRETATION[language] if source == "interpretation" else source for source in sources)


def questions(language: str = "en", flags: Mapping[str, FlagSpec] | None = None) -> list[Question]:
    """Every flag as a question, in the order ``profiles.toml`` declares them."""
    catalogue = _translator(language)
    return [
        Question(
            name,
            _shown(spec.summary, catalogue),
            tuple(
                Reading(value.name, _shown(value.reading, catalogue), _sources(value.sources, language))
                for value in spec.values.values()
            ),
            spec.matters_when,
        )
        for name, spec in (flags or flag_specs()).items()
    ]


def bases(language: str = "en") -> dict[str, str]:
    """The profiles a club may start from (not the overlays), each in plain words; the club's
    start first."""
    catalogue = _translator(language)
    found = {name: _shown(spec.summary, catalogue) for name, spec in profile_specs().items() if not spec.overlay}
    return {CLUB_START: found.pop(CLUB_START), **found} if CLUB_START in found else found


#: The words of the sheet and the file, in both languages.
WORDS = {
    "en": {
        "sheet": "Our rules of Guiñote",
        "based": "Starting from the rules of",
        "check": "Check an engine against them",
    },
    "es": {
        "sheet": "Nuestras reglas de guiñote",
        "based": "Partiendo de las reglas de",
        "check": "Comprobad un juego con ellas",
    },
}


def sheet_text(club: str, base: str, chosen: Mapping[str, str], language: str = "en") -> str:
    """The club's rules to print: each question it was asked and the reading it plays, with its
    sources (the questions its choices make moot are left out)."""
    words = WORDS[language]
    lines = [f"{words['sheet']}: {club}", "", f"{words['based']}: {bases(language)[base]}", ""]
    for question in questions(language):
        if question.asked(chosen):
            reading = question.reading(chosen[question.flag])
            lines += [question.text, f"  {reading.text} ({', '.join(reading.sources)})", ""]
    return "\n".join(lines)


def profile_file_text(club: str, file_name: str, base: str, chosen: Mapping[str, str], language: str = "en") -> str:
    """The profile file of the club's rules: every flag (as the rulebook's page writes it)."""
    words = WORDS[language]
    lines = [
        f"# {words['sheet']}: {club}",
        f"# {words['check']}: guinote-conformance run --profile-file {file_name}.toml",
        f'name = "{file_name}"',
        f'base = "{base}"',
        "",
        "[flags]",
        *(f'{flag} = "{value}"' for flag, value in chosen.items()),
    ]
    return "\n".join(lines) + "\n"


def file_name_of(club: str) -> str:
    """A profile file's name from a club's name: letters, digits, ``_`` and ``-`` (accents dropped)."""
    plain = unicodedata.normalize("NFD", club).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9_-]+", "_", plain).strip("_")[:40] or "our_club"


def starting_values(base: str) -> dict[str, str]:
    """Every flag's value in profile ``base``."""
    return dict(profile_specs()[base].flags)


__all__ = [
    "CLUB_START",
    "Question",
    "Reading",
    "bases",
    "file_name_of",
    "plain_words",
    "profile_file_text",
    "questions",
    "sheet_text",
    "starting_values",
]
