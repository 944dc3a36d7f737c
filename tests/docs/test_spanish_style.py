"""The language of the table: the Spanish edition never uses a rendering its style data bans
(``docs/locale/es/style.toml``: «unas veinte», totals that «se arrastran», «tu», calques...)
nor a bare flag value in a sentence, neither in the catalogues nor in the built pages. Each
hit is reported as ``file:line``, with what to write instead."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.docs.conftest import DOCS, BuiltSite, require

STYLE = DOCS / "locale" / "es" / "style.toml"
CATALOGUES = DOCS / "locale" / "es" / "LC_MESSAGES"
#: code in a message: ``literal``, `literal` (MyST), :role:`target`, {placeholders}
CODE = re.compile(r"``.*?``|:[\w:-]+:`[^`]*`|`[^`]*`|\{[^}]*\}", re.S)
#: pages that stay in English by design (conf.py: guinote_untranslated_pages)
ENGLISH_PAGES = {"reference/api", "genindex", "search", "py-modindex"}
#: the JSON schemas' descriptions are the schemas' own (English) text: the closing note of
#: the Spanish edition lists it among what a Spanish reader still meets in English
ENGLISH_PAGES |= {"reference/schemas"}
#: the style page quotes what it bans
STYLE_PAGE = "contributing/spanish_style"


@dataclass(frozen=True)
class Banned:
    id: str
    pattern: re.Pattern[str]
    reason: str
    use: str
    example: str


@cache
def style() -> dict[str, Any]:
    with STYLE.open("rb") as handle:
        return tomllib.load(handle)


@cache
def banned() -> list[Banned]:
    return [
        Banned(entry["id"], re.compile(entry["pattern"]), entry["reason"], entry["use"], entry["example"])
        for entry in style()["banned"]
    ]


@cache
def bare_flags(*, snake_case_only: bool = False) -> re.Pattern[str]:
    """A flag name or value outside code; ``snake_case_only``: only those with an underscore,
    which can be nothing but code (on a built page, an English word such as *one* or *lose*
    may be a word of an English source heading)."""
    from guinote_conformance.reference_engine.flags import flag_specs

    names: set[str] = set()
    for spec in flag_specs().values():
        names |= {spec.name, *spec.values}
    allowed = set(style()["bare_flags"]["allowed"])
    words = sorted(
        (name for name in names if not name.isdigit() and name not in allowed and ("_" in name or not snake_case_only)),
        key=len,
        reverse=True,
    )
    alternatives = "|".join(map(re.escape, words))
    return re.compile(rf"(?<![\w`=./:-])(?:{alternatives})(?![\w`=]|\.\w)")


def hits(text: str, where: str, line: int, *, attribute: bool = False, page: bool = False) -> list[str]:
    """Every banned rendering (and bare flag value) in ``text``, code left out; in an
    attribute (a text alternative, a tooltip), which cannot set code apart, a flag value is
    allowed."""
    prose = CODE.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), text)
    for quoted in style()["quoted"]["headings"]:
        prose = prose.replace(quoted, " " * len(quoted))
    found: list[str] = []
    for rule in banned():
        for match in rule.pattern.finditer(prose):
            at = line + prose.count("\n", 0, match.start())
            found.append(f"{where}:{at}: {rule.id} «{match.group()}» ({rule.reason}; escriba: {rule.use})")
    for match in [] if attribute else bare_flags(snake_case_only=page).finditer(prose):
        at = line + prose.count("\n", 0, match.start())
        value = match.group()
        found.append(f"{where}:{at}: bare-flag «{value}» (un valor de opción va como código: ``{value}``)")
    return found


def catalogue_hits(path: Path) -> list[str]:
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalogue = read_po(handle)
    found: list[str] = []
    for message in catalogue:
        if not message.id or not isinstance(message.string, str) or not message.string:
            continue
        found += hits(message.string, str(path.relative_to(DOCS.parent)), message.lineno or 0)
    return found


def test_every_banned_rendering_has_an_example_that_the_check_catches() -> None:
    for rule in banned():
        assert hits(rule.example, "example", 1), rule.id
    assert hits("los perfiles tradicional toman none", "example", 1)
    assert not hits("los perfiles tradicional toman ``none``; canta las veinte; el arrastre; el Rey", "ok", 1)


def test_the_spanish_catalogues_use_the_language_of_the_table() -> None:
    require("babel")
    found = [hit for path in sorted(CATALOGUES.rglob("*.po")) for hit in catalogue_hits(path)]
    assert not found, "\n".join(found)


def test_a_banned_rendering_in_a_catalogue_is_reported_with_its_file_and_line(tmp_path: Path) -> None:
    require("babel")
    po = DOCS / "locale" / "es" / "LC_MESSAGES" / "zz-style-check-probe.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "A twenty"\nmsgstr ""\n"Canta "\n"unas veinte."\n', encoding="utf-8")
    try:
        found = catalogue_hits(po)
    finally:
        po.unlink()
    assert len(found) == 1 and found[0].startswith("docs/locale/es/LC_MESSAGES/zz-style-check-probe.po:4: unas-veinte")


class _Prose(HTMLParser):
    """A page's text and its text alternatives (alt, aria-label, title), code left out."""

    SKIP: ClassVar[set[str]] = {"code", "pre", "script", "style", "kbd", "samp"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.in_title = False  # an SVG's <title> (or the page's): a text alternative
        self.parts: list[tuple[int, str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.in_title = True
        if tag in self.SKIP:
            self.depth += 1
        for name, value in attrs:
            if name in {"alt", "aria-label", "title"} and value and not self.depth:
                self.parts.append((self.getpos()[0], value, True))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.parts.append((self.getpos()[0], data, self.in_title))


def test_the_built_spanish_pages_use_the_language_of_the_table(es_site: BuiltSite) -> None:
    found: list[str] = []
    for name, html in es_site.pages().items():
        if name in ENGLISH_PAGES or name == STYLE_PAGE:
            continue
        parser = _Prose()
        parser.feed(html)
        for line, text, attribute in parser.parts:
            found += hits(text, f"{name}.html", line, attribute=attribute, page=True)
    assert not found, "\n".join(found[:200])


@pytest.mark.parametrize("rule", banned(), ids=lambda rule: rule.id)
def test_each_banned_rendering_fails_the_page_check(rule: Banned) -> None:
    parser = _Prose()
    parser.feed(f"<p>{rule.example}</p><code>{rule.example}</code>")
    assert len([hit for line, text, _ in parser.parts for hit in hits(text, "page.html", line)]) == 1


def feature_hits(path: Path) -> list[str]:
    """The banned renderings of a generated Spanish feature file: its titles, descriptions and steps.

    Tags and tables are left out (rule IDs, sources, flags, card codes); a bare flag value is not
    looked for: a step's arguments are the protocol's codes, and the rulebook shows the whole
    Gherkin text as code."""
    found: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.lstrip().startswith(("@", "|", "#")):
            continue
        found += hits(line, f"features/{path.name} (es)", number, attribute=True)
    return found


def test_the_generated_spanish_features_use_the_language_of_the_table() -> None:
    import guinote_conformance.run.steps  # noqa: F401  (every step declared: the phrasebook is full)
    from guinote_conformance.catalogue.spanish import spanish_features
    from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

    folder = spanish_features(PHRASEBOOK)
    files = sorted(folder.glob("*.feature"))
    assert files
    found = [hit for path in files for hit in feature_hits(path)]
    assert not found, "\n".join(found[:50])


def test_a_banned_rendering_in_a_spanish_step_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "probe.feature"
    path.write_text("# language: es\nCaracterística: Prueba\n\n  Escenario: El asiento 2 juega\n", encoding="utf-8")
    found = feature_hits(path)
    assert len(found) == 1 and found[0].startswith("features/probe.feature (es):4: asiento")
