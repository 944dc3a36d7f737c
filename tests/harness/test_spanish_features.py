"""The Spanish phrasings of the steps and the Spanish feature files generated through them.

Every step of the suite has one English phrasing and a Spanish one that reads back to the same
arguments; every generated file keeps the English file's lines (each scenario and each step on
its line, with its tags and tables); what cannot be translated is an error naming ``file:line``.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import guinote_conformance.run.steps  # noqa: F401  (every step declared: the phrasebook is full)
from guinote_conformance.catalogue.features import feature_files, load_scenarios, parse_feature
from guinote_conformance.catalogue.phrasing import Phrasing, PhrasingError
from guinote_conformance.catalogue.spanish import (
    HEADER,
    TranslationError,
    english_label,
    is_spanish_folder,
    load_catalogue,
    read_po,
    spanish_features,
    translate_feature,
)
from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

STEP_TYPES = {"Given": "given", "When": "when", "Then": "then"}


def _typed_steps() -> dict[tuple[str, str], str]:
    """Every distinct (type, text) of the suite's steps, with where it is first used."""
    found: dict[tuple[str, str], str] = {}
    for scenario in load_scenarios():
        kind = "given"
        for step in scenario.steps:
            kind = STEP_TYPES.get(step.keyword, kind)
            found.setdefault((kind, step.text), f"{scenario.path.name}:{step.line}")
    return found


def test_every_step_of_the_suite_has_one_phrasing_that_reads_back_in_spanish() -> None:
    problems = []
    for (kind, text), where in sorted(_typed_steps().items()):
        english = [p for p in PHRASEBOOK if p.kind == kind and p.english_re.fullmatch(text)]
        if len(english) != 1:
            problems.append(f"{where}: {kind} {text!r}: {len(english)} English phrasings match (one must)")
            continue
        spanish = english[0].to_spanish(text)
        if spanish is None:
            problems.append(f"{where}: {kind} {text!r}: no Spanish (a word its table lacks)")
            continue
        readers = [p for p in PHRASEBOOK if p.kind == kind and p.spanish_re.fullmatch(spanish)]
        if readers != english:
            problems.append(f"{where}: the Spanish {spanish!r} is read by {len(readers)} phrasings, not its own")
            continue
        arguments = english[0].english_re.fullmatch(text).groupdict()  # type: ignore[union-attr]
        if english[0].english_arguments(spanish) != arguments:
            problems.append(f"{where}: {spanish!r} reads back as {english[0].english_arguments(spanish)}, "
                            f"not {arguments}")  # fmt: skip
    assert not problems, "\n".join(problems)


def test_every_phrasing_is_declared_once_and_fits_its_english_pattern() -> None:
    assert len(PHRASEBOOK) == len({(p.kind, p.english) for p in PHRASEBOOK}) > 50
    for phrasing in PHRASEBOOK:
        assert phrasing.spanish_re.pattern  # the template's fields are the pattern's groups


def test_a_template_without_the_pattern_s_groups_is_an_error_that_names_the_step() -> None:
    with pytest.raises(PhrasingError, match=r"seat \(\?P<seat>.*the English pattern the groups \[.seat.\]"):
        _ = Phrasing("when", r"seat (?P<seat>\d+) plays", "juega").spanish_pattern


def test_words_optional_parts_and_prefixes_go_both_ways() -> None:
    phrasing = Phrasing(
        "then",
        r"seat (?P<seat>\d+) (?P<modal>may|may not) play (?P<what>any card|exactly .+)(?: under rule (?P<rule>\S+))?$",
        "el jugador {seat} {modal} jugar {what}[ según la regla {rule}]",
        {
            "modal": {"may": "puede", "may not": "no puede"},
            "what": {"any card": "cualquier carta", "exactly *": "exactamente *"},
        },
    )
    assert phrasing.to_spanish("seat 1 may not play exactly 4o 2o") == "el jugador 1 no puede jugar exactamente 4o 2o"
    assert phrasing.to_spanish("seat 1 may play any card under rule ARR-01") == (
        "el jugador 1 puede jugar cualquier carta según la regla ARR-01"
    )
    assert phrasing.english_arguments("el jugador 1 no puede jugar exactamente 4o 2o") == {
        "seat": "1", "modal": "may not", "what": "exactly 4o 2o", "rule": None,
    }  # fmt: skip
    assert phrasing.english_arguments("el jugador 1 may play any card") is None


def test_every_generated_file_keeps_the_english_lines_scenarios_steps_and_tags(tmp_path: Path) -> None:
    catalogue = load_catalogue()
    for path in feature_files():
        text = translate_feature(path, PHRASEBOOK, catalogue)
        english_lines = path.read_text(encoding="utf-8").split("\n")
        spanish_lines = text.split("\n")
        assert len(spanish_lines) == len(english_lines), path.name
        assert HEADER in spanish_lines[:3], path.name
        for before, after in zip(english_lines, spanish_lines, strict=True):
            assert before.lstrip().startswith("|") == after.lstrip().startswith("|"), (path.name, before, after)
        spanish_path = tmp_path / path.name
        spanish_path.write_text(text, encoding="utf-8")
        english = parse_feature(path)
        spanish = parse_feature(spanish_path)
        assert [(s.line, s.tags, s.flags, s.rules) for s in spanish] == [
            (s.line, s.tags, s.flags, s.rules) for s in english
        ]
        for es, en in zip(spanish, english, strict=True):
            # the tables as they are, but for their rows' labels (jugador 2, mazo), which read back in English
            tables = [tuple(tuple(map(english_label, row)) for row in step.table) for step in es.steps]
            assert tables == [step.table for step in en.steps], (path.name, es.line)
            assert [step.line for step in es.steps] == [step.line for step in en.steps]
            assert es.name != en.name or es.name.isupper(), (path.name, es.line, es.name)


def _feature(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "own.feature"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


CATALOGUE = {"Own": "Propia", "OWN-01 A rule": "OWN-01 Una regla", "A scenario": "Un escenario"}


def test_a_step_without_a_spanish_phrasing_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = _feature(
        tmp_path,
        """
        Feature: Own

          Rule: OWN-01 A rule

            Scenario: A scenario
              Given the deck is shuffled by a juggler
        """,
    )
    with pytest.raises(TranslationError, match=rf"^{path}:6: the given step 'the deck is shuffled by a juggler'"):
        translate_feature(path, PHRASEBOOK, CATALOGUE)


def test_a_title_without_spanish_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = _feature(tmp_path, "Feature: Own\n\n  Scenario: Another scenario\n    Then the action is accepted\n")
    with pytest.raises(TranslationError, match=rf"^{path}:3: the scenario 'Another scenario' has no Spanish title"):
        translate_feature(path, PHRASEBOOK, CATALOGUE)


def test_a_feature_with_no_line_for_the_header_is_an_error(tmp_path: Path) -> None:
    path = _feature(tmp_path, "Feature: Own\n  Scenario: A scenario\n    Then the action is accepted\n")
    with pytest.raises(TranslationError, match=rf"^{path}:1: no line for the '# language: es' header"):
        translate_feature(path, PHRASEBOOK, CATALOGUE)


def test_a_description_is_translated_from_the_catalogue_or_said_untranslated(tmp_path: Path) -> None:
    path = _feature(
        tmp_path,
        """
        @players=2
        Feature: Own
          Said in two
          lines.

          Scenario: A scenario
            Then the action is accepted
        """,
    )
    plain = translate_feature(path, PHRASEBOOK, CATALOGUE).split("\n")
    note = f"  (Esta descripción no está traducida: la inglesa está en features/{path.name}.)"
    assert plain[:4] == [HEADER, "@players=2", "Característica: Propia", note]
    assert plain[5:7] == ["  Escenario: Un escenario", "    Entonces la acción se acepta"]
    path.write_text("\n" + path.read_text(encoding="utf-8"), encoding="utf-8")  # a free line for the header
    translated = translate_feature(path, PHRASEBOOK, {**CATALOGUE, "Said in two lines.": "Dicho en dos líneas."})
    assert translated.split("\n")[:5] == [HEADER, "@players=2", "Característica: Propia", "  Dicho en dos", "  líneas."]


def test_the_labels_of_a_table_are_spanish_and_read_back_in_english(tmp_path: Path) -> None:
    path = _feature(
        tmp_path,
        """

        Feature: Own

          Scenario: A scenario
            Given a deal by seat 0:
              | seat 0  | Ao 2o 3o 4o 5o 6o |
              | muestra | 7o                |
              | stock   | ...               |
        """,
    )
    lines = translate_feature(path, PHRASEBOOK, CATALOGUE).split("\n")
    assert lines[4:7] == [
        "      | jugador 0 | Ao 2o 3o 4o 5o 6o |",
        "      | muestra   | 7o                |",
        "      | mazo      | ...               |",
    ]
    assert [english_label(label) for label in ("jugador 0", "muestra", "mazo", "seat 1")] == [
        "seat 0", "muestra", "stock", "seat 1",
    ]  # fmt: skip


def test_the_catalogue_reader_skips_fuzzy_and_obsolete_messages_and_joins_lines(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Language: es\\n"\n\nmsgid "A"\nmsgstr ""\n"U"\n"no"\n\n#, fuzzy\nmsgid "B"\nmsgstr "Dos"\n\n'
        '#~ msgid "C"\n#~ msgstr "Tres"\n\nmsgid "D"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert read_po(po) == {"A": "Uno"}


def test_the_suite_is_generated_once_into_a_folder_of_its_own() -> None:
    folder = spanish_features(PHRASEBOOK)
    assert is_spanish_folder(folder)
    assert sorted(path.name for path in folder.glob("*.feature")) == [path.name for path in feature_files()]
    assert spanish_features(PHRASEBOOK) == folder


#: English words that a Spanish step, title or description must not hold (outside quotes and codes)
ENGLISH = {"the", "an", "and", "of", "to", "is", "are", "seat", "side", "trick", "hand", "plays", "may", "wins"}


def test_the_spanish_files_hold_no_english_word_outside_tags_tables_and_quotes() -> None:
    problems = []
    for path in sorted(spanish_features(PHRASEBOOK).glob("*.feature")):
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if line.lstrip().startswith(("@", "|", "#")):
                continue
            # quoted values, JSON, code, the note's path
            prose = re.sub(r'"[^"]*"|\[.*\]|``[^`]*``|\(.*features/\S+\)', " ", line)
            words = [word for word in re.findall(r"[\w=]+", prose) if "_" not in word and "=" not in word]  # codes out
            english = sorted({word for word in words if word in ENGLISH})
            if english:
                problems.append(f"features/{path.name} (es):{number}: {', '.join(english)}: {line.strip()}")
    assert not problems, "\n".join(problems[:30])


def test_the_spanish_titles_and_descriptions_write_code_bare_as_the_english_files_do() -> None:
    from guinote_conformance.catalogue.spanish import plain

    assert plain("Con ``cante_per_trick=many`` pueden seguir") == "Con cante_per_trick=many pueden seguir"
    folder = spanish_features(PHRASEBOOK)
    assert not [path.name for path in folder.glob("*.feature") if "``" in path.read_text(encoding="utf-8")]
