"""The Spanish feature files, generated from the English ones: never kept by hand, never committed.

Each English file becomes a file in Gherkin's Spanish dialect (``# language: es``) with the same
lines: every scenario and every step stays on its line, so that a Spanish run's results correspond
to the English run's, ``feature:line`` for ``feature:line``. What is translated:

* the keywords (Característica, Regla, Antecedentes, Escenario, Dado, Cuando, Entonces, Y, Pero);
* the titles of the feature, its rules and its scenarios, from the Spanish catalogues that the
  rulebook's Spanish edition already uses (``docs/locale/es/LC_MESSAGES/rulebook/*.po``, which
  show the same titles), ``data.po`` (the data translated once for every page: a new scenario's
  title goes there) and, for what the rulebook does not show (the features' own titles and
  descriptions), ``features.po`` beside them; the package ships them (``guinote_conformance/locale``);
* the text of each step, through the step's Spanish phrasing
  (:class:`~guinote_conformance.catalogue.phrasing.Phrasing`, declared beside its English pattern).

Tags, card codes, comments and blank lines are kept as they are, and so are tables, but for the
labels of their rows (``seat 2`` → ``jugador 2``, ``stock`` → ``mazo``: :func:`spanish_label`),
which the steps read in either language (:func:`english_label`). A description is
translated as one paragraph (its lines joined) and wrapped again into its own lines; one with no
translation in the catalogues is replaced by a Spanish note that says so, on its first line (its
other lines left empty), never kept in English. The ``# language: es`` header takes the place of a
blank or comment line before the feature; with none, the feature's tags and its line move down one
line, into its description (one line shorter) or onto the blank line below: nothing else moves, so
every rule, scenario and step keeps its line.

A title or a step that cannot be translated is an error naming ``file:line``.

In: the English feature files, the Spanish catalogues and the steps' phrasings. Out: the Spanish
text of a file (:func:`translate_feature`), and the folder of every Spanish file of the suite,
generated once per content in the temporary folder (:func:`spanish_features`).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gherkin.parser import Parser
from gherkin.token_scanner import TokenScanner

from guinote_conformance.base.paths import PACKAGE
from guinote_conformance.catalogue.features import FeatureError, _parser_message, feature_files
from guinote_conformance.catalogue.phrasing import Phrasing

#: the package's link to the rulebook's catalogues (``guinote_conformance/locale`` → ``docs/locale``)
LOCALE = PACKAGE / "locale" / "es" / "LC_MESSAGES"
#: the catalogue of the feature files' own messages: what the rulebook does not show
FEATURES_CATALOGUE = "features.po"
#: the project's data translated once for every page that shows it (the rulebook's ``data.po``)
SHARED_CATALOGUE = "data.po"
HEADER = "# language: es"
KEYWORDS = {
    "Feature": "Característica",
    "Rule": "Regla",
    "Background": "Antecedentes",
    "Scenario": "Escenario",
    "Example": "Ejemplo",
    "Scenario Outline": "Esquema del escenario",
    "Examples": "Ejemplos",
}
STEP_KEYWORDS = {"Given": "Dado", "When": "Cuando", "Then": "Entonces", "And": "Y", "But": "Pero", "*": "*"}
#: the form of «Dado» that agrees with the step's first word («Dada una mano», «Dados los...»)
GIVEN_AGREEMENT = {"una": "Dada", "la": "Dada", "las": "Dadas", "los": "Dados"}
#: gherkin's keyword types, as pytest-bdd's step types (a conjunction takes the step before's)
STEP_TYPES = {"Context": "given", "Action": "when", "Outcome": "then"}
#: the labels of a deal's or a position's table rows, English → Spanish (``seat 2`` → ``jugador 2``)
TABLE_LABELS = {"stock": "mazo"}
SEAT_LABEL = re.compile(r"^seat (\d+)$")
SPANISH_SEAT_LABEL = re.compile(r"^jugador (\d+)$")
#: the folder name of a generated suite: a prefix and the digest of what it is generated from
FOLDER_PREFIX = "guinote-features-es-"


class TranslationError(FeatureError):
    """A title or a step of a feature file that has no Spanish (with file:line)."""


def spanish_label(cell: str) -> str:
    """A table row's label in Spanish (any other cell as it is)."""
    if match := SEAT_LABEL.match(cell):
        return f"jugador {match.group(1)}"
    return TABLE_LABELS.get(cell, cell)


def english_label(cell: str) -> str:
    """A table row's label in English, from either language (how the steps read a Spanish table)."""
    if match := SPANISH_SEAT_LABEL.match(cell):
        return f"seat {match.group(1)}"
    return {es: en for en, es in TABLE_LABELS.items()}.get(cell, cell)


def plain(text: str) -> str:
    """A catalogue's text as a feature file has it: the rulebook's ````code```` markup taken off, as the
    English feature files write flag names and values bare."""
    return re.sub(r"``(.+?)``", r"\1", text)


def read_po(path: Path) -> dict[str, str]:
    """The translated, non-fuzzy messages of a gettext catalogue: ``{msgid: msgstr}``.

    The catalogues are read here, not with babel: the run needs them from an installed wheel,
    where the documentation's tools are not installed."""
    messages: dict[str, str] = {}
    entries: dict[str, str] = {}
    fuzzy = False
    key = ""

    def flush() -> None:
        if entries.get("msgid") and entries.get("msgstr") and not fuzzy:
            messages[entries["msgid"]] = entries["msgstr"]

    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            flush()
            entries, fuzzy, key = {}, False, ""
        elif line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line
        elif line.startswith("#"):
            continue  # a comment, or an obsolete message (#~)
        elif line.startswith('"'):
            entries[key] = entries.get(key, "") + ast.literal_eval(line)
        else:
            word, _, rest = line.partition(" ")
            key = word
            entries[key] = ast.literal_eval(rest)
    return messages


def catalogue_files(locale: Path = LOCALE) -> list[Path]:
    """The catalogues the titles are read from, the last one read winning: the rule pages', the
    feature files' own, and the shared data catalogue (a scenario's title translated once)."""
    shared = [locale / SHARED_CATALOGUE] if (locale / SHARED_CATALOGUE).exists() else []
    return [*sorted((locale / "rulebook").glob("*.po")), locale / FEATURES_CATALOGUE, *shared]


def load_catalogue(locale: Path = LOCALE) -> dict[str, str]:
    """The Spanish of every title and description the feature files may have."""
    catalogue: dict[str, str] = {}
    for path in catalogue_files(locale):
        try:
            catalogue.update(read_po(path))
        except (OSError, SyntaxError, ValueError) as error:
            raise FeatureError(f"{path}: cannot read the Spanish catalogue: {error}") from None
    return catalogue


class _Translator:
    """One English feature file turned into Spanish, line by line."""

    def __init__(self, path: Path, phrasebook: Sequence[Phrasing], catalogue: Mapping[str, str]) -> None:
        self.path = path
        self.phrasebook = phrasebook
        self.catalogue = catalogue
        self.text = path.read_text(encoding="utf-8")
        self.lines = self.text.split("\n")

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"

    def title(self, name: str, line: int, what: str) -> str:
        if not name:
            return ""
        spanish = self.catalogue.get(name)
        if spanish is None:
            raise TranslationError(
                f"{self.where(line)}: the {what} {name!r} has no Spanish title: translate it in "
                f"docs/locale/es/LC_MESSAGES/{SHARED_CATALOGUE} (a scenario or a rule: msgid the title, msgstr "
                f"its Spanish) or in docs/locale/es/LC_MESSAGES/{FEATURES_CATALOGUE} (a feature's own title)"
            )
        return plain(spanish)

    def header_line(self, node: dict[str, Any], name: str, line: int | None = None) -> None:
        """A keyword line with its title, and its description (``line``: where the line goes, if it moves)."""
        own = node["location"]["line"]
        line = line or own
        original = self.lines[own - 1]
        indent = original[: len(original) - len(original.lstrip())]
        keyword = KEYWORDS.get(node["keyword"].strip(), node["keyword"].strip())
        spanish = self.title(node["name"], own, name)
        self.lines[line - 1] = f"{indent}{keyword}: {spanish}".rstrip()
        self.description(node, own, line)

    def description(self, node: dict[str, Any], own: int, line: int) -> None:
        """The description's lines after the keyword's, the keyword line at ``line`` (not ``own``, when it moved)."""
        text: str = node.get("description") or ""
        if not text.strip():
            return
        first = own + 1
        while not self.lines[first - 1].strip():
            first += 1  # the description starts at its first line of text
        taken = max(0, line - first + 1)  # a keyword line that moved down onto the description's first
        count = len(text.split("\n")) - taken
        start = first + taken
        sample = text.split("\n")[0]
        indent = sample[: len(sample) - len(sample.lstrip())] or "  "
        paragraph = " ".join(part.strip() for part in text.split("\n") if part.strip())  # the msgid
        spanish = self.catalogue.get(paragraph)
        if spanish is None:
            # not the English: a Spanish file of mixed languages would pass for translated
            wrapped = [f"(Esta descripción no está traducida: la inglesa está en features/{self.path.name}.)"]
        else:
            wrapped = _wrap(plain(spanish), count)
        for index in range(count):
            self.lines[start - 1 + index] = indent + wrapped[index] if index < len(wrapped) else ""

    def step(self, raw: dict[str, Any], kind: str) -> None:
        line = raw["location"]["line"]
        original = self.lines[line - 1]
        indent = original[: len(original) - len(original.lstrip())]
        keyword = STEP_KEYWORDS.get(raw["keyword"].strip())
        texts = [p.to_spanish(raw["text"]) for p in self.phrasebook if p.kind == kind]
        found = [text for text in texts if text is not None]
        if keyword is None or not found:
            raise TranslationError(
                f"{self.where(line)}: the {kind} step {raw['text']!r} has no Spanish phrasing: give its step "
                "definition one (guinote_conformance.run.steps)"
            )
        if keyword == "Dado":  # the dialect's Dada, Dados, Dadas agree with what follows
            keyword = GIVEN_AGREEMENT.get(found[0].split(" ", 1)[0], keyword)
        self.lines[line - 1] = f"{indent}{keyword} {found[0]}"
        if "dataTable" in raw:
            self.table(raw["dataTable"]["rows"])

    def table(self, rows: list[dict[str, Any]]) -> None:
        """A table's row labels in Spanish, the columns aligned again (cards and codes as they are)."""
        cells = [[cell["value"] for cell in row["cells"]] for row in rows]
        spanish = [[spanish_label(row[0]), *row[1:]] if row else row for row in cells]
        if spanish == cells:
            return
        columns = range(max(map(len, spanish)))
        widths = [max(len(row[index]) for row in spanish if index < len(row)) for index in columns]
        for row, values in zip(rows, spanish, strict=True):
            line = row["location"]["line"]
            original = self.lines[line - 1]
            indent = original[: len(original) - len(original.lstrip())]
            escaped = [value.replace("\\", "\\\\").replace("|", "\\|") for value in values]
            padded = [value.ljust(widths[index]) for index, value in enumerate(escaped)]
            self.lines[line - 1] = f"{indent}| " + " | ".join(padded) + " |"

    def steps(self, raw_steps: list[dict[str, Any]]) -> None:
        kind = "given"
        for raw in raw_steps:
            kind = STEP_TYPES.get(raw.get("keywordType", ""), kind)
            self.step(raw, kind)

    def walk(self, children: list[dict[str, Any]]) -> None:
        for child in children:
            if "background" in child:
                self.header_line(child["background"], "background")
                self.steps(child["background"]["steps"])
            elif "rule" in child:
                self.header_line(child["rule"], "rule")
                self.walk(child["rule"]["children"])
            elif "scenario" in child:
                self.header_line(child["scenario"], "scenario")
                self.steps(child["scenario"]["steps"])
                for examples in child["scenario"].get("examples", []):
                    self.header_line(examples, "examples")

    def translate(self) -> str:
        try:
            document = Parser().parse(TokenScanner(self.text))
        except Exception as error:
            raise FeatureError(_parser_message(self.path, error)) from None
        found = document.get("feature")
        if not found:
            return self.text
        feature: dict[str, Any] = dict(found)
        line = feature["location"]["line"]
        self.header_line(feature, "feature", self.header(line, feature))
        self.walk([dict(child) for child in feature["children"]])
        return "\n".join(self.lines)

    def header(self, line: int, feature: dict[str, Any]) -> int:
        """``# language: es`` before the feature, on a line that holds nothing else; the feature's line.

        With no such line, the header takes the first line and the feature (its tags and its line)
        moves down one line, into its description (one line shorter) or onto the blank line below."""
        first = min([line] + [tag["location"]["line"] for tag in feature.get("tags", [])])
        for index in range(first - 1):
            if not self.lines[index].strip() or self.lines[index].lstrip().startswith("#"):
                self.lines[index] = HEADER
                return line
        below = self.lines[line] if line < len(self.lines) else None
        described = bool((feature.get("description") or "").strip())
        if below is None or (below.strip() and not described):
            raise TranslationError(
                f"{self.where(line)}: no line for the '{HEADER}' header: leave a blank line before the feature "
                "(or its tags), or below its title"
            )
        # the feature's tags (unchanged) and its line move down one line
        self.lines[first : line + 1] = self.lines[first - 1 : line]
        self.lines[first - 1] = HEADER
        return line + 1


def _wrap(text: str, count: int) -> list[str]:
    """``text`` in at most ``count`` lines (the description's own number of lines)."""
    words = text.split()
    width = max(1, len(text) // max(count, 1))
    while True:
        lines: list[str] = []
        for word in words:
            if lines and len(lines[-1]) + 1 + len(word) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        if len(lines) <= count:
            return lines
        width += 5


def translate_feature(path: Path, phrasebook: Sequence[Phrasing], catalogue: Mapping[str, str]) -> str:
    """The Spanish text of the English feature file at ``path``, line for line."""
    try:
        return _Translator(path, phrasebook, catalogue).translate()
    except OSError as error:
        raise FeatureError(f"{path}: cannot read the feature file: {error.strerror or error}") from None


def _digest(files: Sequence[Path], phrasebook: Sequence[Phrasing]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for phrasing in phrasebook:
        digest.update(repr((phrasing.kind, phrasing.english, phrasing.spanish, phrasing.words)).encode())
    for module in (Path(__file__), Path(__file__).with_name("phrasing.py")):  # a new generator, new files
        digest.update(module.read_bytes())
    return digest.hexdigest()[:20]


def spanish_features(phrasebook: Sequence[Phrasing], root: Path | None = None, locale: Path = LOCALE) -> Path:
    """The folder of the Spanish feature files of the suite, generated if not there yet.

    The folder is named by the digest of what it is generated from, in the temporary folder: the
    workers of one run (and later runs) share it, and a change of a feature, a title or a phrasing
    makes a new one. It is written aside and renamed into place, so that no process ever reads a
    half-written one."""
    english = feature_files(root)
    catalogues = [path for path in catalogue_files(locale) if path.is_file()]
    try:
        folder = Path(tempfile.gettempdir()) / f"{FOLDER_PREFIX}{_digest(english + catalogues, phrasebook)}"
    except OSError as error:
        raise FeatureError(f"cannot read the feature files or the Spanish catalogues: {error}") from None
    if folder.is_dir():
        return folder
    catalogue = load_catalogue(locale)
    texts = {path.name: translate_feature(path, phrasebook, catalogue) for path in english}
    try:
        aside = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}tmp-", dir=folder.parent))
    except OSError as error:
        raise FeatureError(f"{folder.parent}: cannot write the Spanish feature files: {error.strerror}") from None
    try:
        for name, text in texts.items():
            (aside / name).write_text(text, encoding="utf-8")
        try:
            os.rename(aside, folder)
        except OSError:
            if not folder.is_dir():  # another process renamed its own first: that one is as good
                raise
    except OSError as error:
        raise FeatureError(f"{folder}: cannot write the Spanish feature files: {error.strerror}") from None
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return folder


def is_spanish_folder(folder: Path) -> bool:
    """Whether ``folder`` is a generated Spanish suite (:func:`spanish_features`)."""
    return folder.name.startswith(FOLDER_PREFIX)
