"""The club booklet (``-t booklet``, docs/build_print.py): a short printed edition, at most 48 A5
pages, for clubs to print in black and white.

Its text about the rules is the project's data, never retyped:

* ``guinote-booklet-rules``: the rules as the traditional rulebook plays them, area by area. Each
  area prints the statements of its rules on which the sources agree (or that one source states,
  or that follow from the others), in the edition's language (the rule pages' own catalogues,
  ``rulebook/<area>.po``), without their IDs; then each disagreement whose rules start in that
  area, as a boxed choice (:func:`choice_box`): the question and every reading with its sources
  and their headings (as the rulebook cites them), the reading of the traditional rulebook
  marked. The question and the readings are those of «Elegid vuestras reglas» (``club.po``);
* ``guinote-booklet-cards``: the cards' order and points, from the reference engine;
* ``guinote-booklet-sheet``: the score sheet (anotador), a grid for LaTeX only.

In the booklet, a link to a rule prints the page where its statement is (or nothing, for a rule
the booklet leaves out), a link to a question, flag or profile prints nothing, and every glossary
term met in the rules gets an entry in the subject index (:class:`BookletLinks`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from guinote_conformance.catalogue.rule_index import RuleEntry
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_conformance.catalogue.spanish import read_po
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.area import AreaDirective
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _
from guinote_rulebook.print_latex import page_ref
from guinote_rulebook.render import linked_rest, para, section, source_ref

#: the booklet's title page, by language (in LaTeX, ``\\`` breaks a line)
BOOKLET_TITLES = {"es": "Guiñote: el cuaderno del club", "en": "Guiñote: the club booklet"}
BOOKLET_AUTHORS = {
    "es": r"Las reglas de cuatro fuentes escritas,\\con lo que cada club elige",
    "en": r"The rules of four written sources,\\with what each club chooses",
}
#: the rules every club starts from: the traditional rulebook's (as on «Elegid vuestras reglas»)
CLUB_PROFILE = "tradicional"
#: the areas the booklet prints, in order (two players and the regional decks are variants: their
#: disagreements print at the end, under :data:`VARIANTS`)
CLUB_AREAS = (
    "deck", "deal", "free_phase", "arrastre", "cantes", "seven", "scoring", "vueltas", "match", "renuncio",
    "conduct",
)  # fmt: skip
#: the agreements whose statements print as the club's rules; a disagreement prints as a box,
#: and the project's own interpretations of what no source settles stay in the full rulebook
PRINTED_AGREEMENTS = ("yes", "single", "derived")
#: the questions whose words in the data name flag values (which the booklet never prints): in
#: plain words here, as a club asks them
PLAIN_QUESTIONS = {
    "renuncio_faults": _("Which faults are renuncios, where an illegal card costs the point."),
    "vueltas_claim_by": _("Who may claim in a hand de vueltas, where the point goes to a claim."),
}
#: the label of a printed statement, for the page references of the booklet
LABEL = "booklet-rule-{rule}"


@cache
def catalogue(path: Path) -> dict[str, str]:
    return read_po(path) if path.exists() else {}


def page_words(env: Any, docname: str, message: str, location: Any = None) -> str:
    """``message`` as the page ``docname`` of the rulebook shows it in the edition's language
    (its catalogue); the English edition shows the message itself. A message with no
    translation is a warning (``-W`` fails the build) and prints as it is."""
    language = env.config.language or "en"
    if language == "en":
        return message
    folder = Path(env.srcdir) / next(iter(env.config.locale_dirs or ["locale"])) / language / "LC_MESSAGES"
    found = catalogue(folder / f"{docname}.po").get(message)
    if found is None:
        logger.warning(
            "guinote: the booklet needs %r translated in %s", message, folder / f"{docname}.po", location=location
        )
        return message
    return found


def club_areas(data: RulebookData) -> Iterator[tuple[str, list[RuleEntry]]]:
    """Each printed area and its rules that print as statements."""
    for area_id in CLUB_AREAS:
        area = data.area(area_id)
        if area is not None:
            yield area_id, [rule for rule in area.rules if rule.agreement in PRINTED_AGREEMENTS]


def flags_by_area(data: RulebookData, flags: dict[str, Any]) -> dict[str, list[str]]:
    """Each flag under the area of its first rule (the order of the flags kept); a flag whose
    rules are in no printed area goes under ``"variants"``."""
    placed: dict[str, list[str]] = {}
    order = {area: position for position, area in enumerate(CLUB_AREAS)}
    for name, spec in flags.items():
        areas = [data.rules[rule].area for rule in spec.rules if rule in data.rules]
        printed = sorted((area for area in areas if area in order), key=order.__getitem__)
        placed.setdefault(printed[0] if printed else "variants", []).append(name)
    return placed


class BookletRulesDirective(AreaDirective):
    """The club's rules, area by area, each disagreement a boxed choice."""

    required_arguments = 0

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        flags, profiles = engine_specs()
        club = profiles[CLUB_PROFILE].flags
        placed = flags_by_area(data, flags)
        result: list[nodes.Node] = []
        for area_id, rules in club_areas(data):
            page = f"rulebook/{area_id}"
            title = self.area_title(area_id)
            node = section(f"booklet-{area_id}", self.plain_title(nodes.Text(title)), self.state.document)
            listing = nodes.bullet_list(classes=["guinote-booklet-rules"])
            for rule in rules:
                item = nodes.list_item()
                text = page_words(self.env, page, linked_rest(rule.statement, data), self.get_location())
                # the statement's label, for the page references of the booklet (a target prints one)
                item += para(nodes.target("", "", ids=[LABEL.format(rule=rule.id)]), *self.rest_nodes(text))
                listing += item
            node += listing
            for name in placed.get(area_id, []):
                node += whole(self.choice_box(name, flags[name], club.get(name), data))
            result.append(node)
        if placed.get("variants"):
            title = str(_("Variants: two players, other decks"))
            node = section("booklet-variants", self.plain_title(nodes.Text(title)), self.state.document)
            for name in placed["variants"]:
                node += whole(self.choice_box(name, flags[name], club.get(name), data))
            result.append(node)
        return self.finish(result)

    def area_title(self, area_id: str) -> str:
        from guinote_rulebook.printed import source_title

        title = source_title(Path(self.env.srcdir) / "rulebook" / f"{area_id}.rst")
        return page_words(self.env, f"rulebook/{area_id}", title, self.get_location())

    def choice_box(self, name: str, spec: Any, club_value: str | None, data: RulebookData) -> nodes.topic:
        """A disagreement as a box: its question, then each reading with its sources and their
        headings; the traditional rulebook's reading marked."""
        if name in PLAIN_QUESTIONS:
            question = str(PLAIN_QUESTIONS[name])
        else:
            question = page_words(self.env, "club", linked_rest(spec.summary, data), self.get_location())
        box = nodes.topic(classes=["guinote-booklet-choice"])
        choice = str(_("Choice"))  # (outside the f-string: pybabel extracts it)
        heading = nodes.title("", "", nodes.Text(f"{choice}: "), *self.rest_nodes(question))
        heading["translatable"] = False
        box += heading
        readings = nodes.bullet_list()
        for value in spec.values.values():
            reading = page_words(self.env, "club", linked_rest(value.reading, data), self.get_location())
            item = nodes.list_item()
            words = self.rest_nodes(reading)
            if value.name == club_value:
                words = [nodes.strong("", str(_("Traditional rulebook:"))), nodes.Text(" "), *words]
            item += para(*words)
            item += para(*self.cited(value.sources, spec.rules, data), classes=["guinote-booklet-sources"])
            readings += item
        box += readings
        return box

    def cited(self, sources: tuple[str, ...], rules: tuple[str, ...], data: RulebookData) -> list[nodes.Node]:
        """``Sources: S002, heading; S004, heading``: each source with the heading under which
        the first of the flag's rules that cites it finds it."""
        docname = self.env.docname
        said = str(_("Sources"))  # (outside the f-string: pybabel extracts it)
        words: list[nodes.Node] = [nodes.emphasis("", f"{said}: ")]
        for index, source in enumerate(sources):
            if index:
                words.append(nodes.Text("; "))
            words.append(source_ref(source, docname))
            headings = [
                cited.heading
                for rule in rules
                if rule in data.rules
                for cited in data.rules[rule].sources
                if cited.id == source and cited.heading
            ]
            if headings:  # where the flag's first rule that cites the source finds it
                heading = self.source_heading(headings[0])
                words += [nodes.Text(", "), nodes.emphasis(heading, heading)]
        return words


#: a box's paragraphs apart as in the text (a minipage sets them close)
BOX_SPACING = "\\setlength{\\parskip}{3pt}\n"


def whole(box: nodes.Element) -> list[nodes.Node]:
    """A box kept on one page (in LaTeX, inside a minipage: a box never breaks)."""
    return [
        nodes.raw(
            "", "\\par\\medskip\\noindent\\begin{minipage}{\\linewidth}\\setlength{\\parskip}{3pt}\n", format="latex"
        ),
        box,
        nodes.raw("", "\\end{minipage}\\par\\medskip\n", format="latex"),
    ]


class BookletCardsDirective(RulebookDirective):
    """The cards of a suit, highest first, each with its points: the reference engine's order
    and points, on one line (``As 11 · Tres 10 · … · Dos 0``)."""

    def run(self) -> list[nodes.Node]:
        from guinote_conformance.reference_engine.cards import RANK_ORDER_BELOW_CABALLO, Rank

        self.note_engine_dependency()
        ranks = [rank for rank in RANK_ORDER_BELOW_CABALLO if rank not in (Rank.NUEVE, Rank.OCHO)]
        words: list[nodes.Node] = []
        for rank in ranks:
            if words:
                words.append(nodes.Text(" · "))
            words += [nodes.strong("", rank.spanish.capitalize()), nodes.Text(f"\u00a0{rank.points}")]
        return self.finish([para(*words, classes=["guinote-booklet-cards"])])


class sheet(nodes.General, nodes.Element):
    """The score sheet: a grid printed only in LaTeX."""


class BookletSheetDirective(RulebookDirective):
    """The anotador: a grid to score a match hand by hand (for each side its cards, cantes and
    diez de últimas, and the running total; whether the hand went de vueltas), and the points and
    cotos each side has won."""

    def run(self) -> list[nodes.Node]:
        node = sheet()
        node["headings"] = [
            str(_("Hand")),
            str(_("Cards")),
            str(_("Cantes")),
            str(_("Diez de últimas")),
            str(_("Total")),
        ]
        node["sides"] = [str(_("Us")), str(_("Them"))]
        node["vueltas"] = str(_("De vueltas?"))
        node["won"] = [str(_("Points (partidas)")), str(_("Cotos"))]
        return [node]


#: the hands of the score sheet (one block: a point is rarely more than a hand and its vueltas)
SHEET_ROWS = 14
#: a column of the grid: centred, 10.5 mm
_COLUMN = ">{\\centering\\arraybackslash}p{10.5mm}|"


def _visit_sheet(self: Any, node: sheet) -> None:
    hand, cards, cantes, ultimas, total = (self.encode(text) for text in node["headings"])
    us, them = (self.encode(text) for text in node["sides"])
    vueltas = self.encode(node["vueltas"])
    points, cotos = (self.encode(text) for text in node["won"])
    head = "\\textbf{" + "}&\\textbf{".join([cards, cantes, ultimas, total]) + "}"
    rows = "".join(f"{number}&&&&&&&&&\\\\[2.6mm]\\hline\n" for number in range(1, SHEET_ROWS + 1))
    self.body.append(
        "\n\\par\\noindent{\\scriptsize\\setlength{\\tabcolsep}{2pt}\\renewcommand{\\arraystretch}{1.25}"
        "\\begin{tabular}{|c|" + _COLUMN * 8 + ">{\\centering\\arraybackslash}p{9mm}|}\\hline\n"
        f"&\\multicolumn{{4}}{{c|}}{{\\textbf{{{us}}}}}&\\multicolumn{{4}}{{c|}}{{\\textbf{{{them}}}}}&\\\\\\hline\n"
        f"\\textbf{{{hand}}}&{head}&{head}&\\textbf{{{vueltas}}}\\\\\\hline\\hline\n"
        f"{rows}\\end{{tabular}}}}\\par\\bigskip\n"
        "\\noindent{\\small\\renewcommand{\\arraystretch}{1.6}\\begin{tabular}{|l|p{30mm}|p{30mm}|}\\hline\n"
        f"&\\textbf{{{us}}}&\\textbf{{{them}}}\\\\\\hline\n"
        f"\\textbf{{{points}}}&&\\\\[2mm]\\hline\n\\textbf{{{cotos}}}&&\\\\[2mm]\\hline\n"
        "\\end{tabular}}\\par\n"
    )
    raise nodes.SkipNode


def _skip(self: Any, node: nodes.Node) -> None:
    raise nodes.SkipNode


class BookletLinks(SphinxPostTransform):
    """In the booklet: a link to a rule prints the page of its statement (or nothing if the
    booklet leaves the rule out); a link to a question, flag or profile prints nothing (the
    booklet has no codes), nor does a link to a page the booklet leaves out; every glossary term
    met in the rules and in the game's chapter gets an entry of the subject index."""

    default_priority = 5  # before the references are resolved (10)
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        if not self.config.guinote_booklet:
            return
        root = self.config.root_doc
        printed = dict(labels_by_page(self.document, root))  # each printed statement's label, and its page
        for xref in list(self.document.findall(addnodes.pending_xref)):
            if xref.get("refdomain") == "std" and xref.get("reftype") == "doc" and not self.in_booklet(xref):
                xref.parent.remove(xref)  # a page the booklet leaves out: the reader could not turn to it
                continue
            if xref.get("refdomain") != "guinote":
                continue
            target = xref.parent if isinstance(xref.parent, nodes.inline) and len(xref.parent) == 1 else xref
            label = LABEL.format(rule=xref["reftarget"])
            if xref["reftype"] == "rule" and label in printed:
                page = str(_("p. {page}")).partition("{page}")
                parent = target.parent
                at = parent.index(target)
                parent[at : at + 1] = [
                    nodes.Text(page[0]),
                    page_ref(refdoc=printed[label], refid=label),
                    nodes.Text(page[2]),
                ]
            else:
                target.parent.remove(target)
        self.tidy()
        self.index_terms()

    def in_booklet(self, xref: addnodes.pending_xref) -> bool:
        target = str(xref["reftarget"])
        if target.startswith("/"):
            target = target[1:]
        else:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(str(xref.get("refdoc", ""))), target))
        return target in self.env.found_docs

    def tidy(self) -> None:
        """Brackets and words left empty by a code that printed nothing: ``()``, ``: see .``."""
        for element in list(self.document.findall(nodes.TextElement)):
            merged: list[nodes.Node] = []
            for child in element.children:
                if merged and isinstance(child, nodes.Text) and isinstance(merged[-1], nodes.Text):
                    merged[-1] = nodes.Text(str(merged[-1]) + str(child))
                else:
                    merged.append(child)
            for index, child in enumerate(merged):
                if isinstance(child, nodes.Text):
                    merged[index] = nodes.Text(emptied(str(child)))
            changed = len(merged) != len(element.children)
            if changed or any(a is not b for a, b in zip(merged, element.children, strict=True)):
                element.children = []
                element.extend(merged)

    def index_terms(self) -> None:
        """The subject index: each word of the table that the glossary explains (the first line
        of an entry, its Spanish; ``pareja, bando`` gives two), at the glossary and on every
        paragraph of the rules and the game that uses it."""
        terms: list[str] = []
        for item in self.document.findall(nodes.definition_list_item):
            lines = [child for child in item.children if isinstance(child, nodes.term)]
            for number, term in enumerate(lines):
                names = [name for name in re.split(r",\s*", term.astext()) if name]
                for entry in list(term.findall(addnodes.index)):
                    # the glossary's own entry: the whole line, in every language the line is in
                    target = entry["entries"][0][2] if entry["entries"] else ""
                    entry["entries"] = [] if number else [("single", name, target, "main", None) for name in names]
                if not number:
                    terms += [name for name in names if len(name) > 3 and name not in terms]
        patterns = [(name, term_pattern(name)) for name in terms if name not in EVERYDAY_WORDS]
        for paragraph in self.document.findall(nodes.paragraph):
            if any(isinstance(parent, nodes.definition_list) for parent in ancestors(paragraph)):
                continue  # the glossary indexes its own terms
            text = paragraph.astext()
            found = [name for name, pattern in patterns if pattern.search(text)]
            if found:
                paragraph.insert(0, addnodes.index(entries=[("single", name, "", "", None) for name in found]))


#: what a code that printed nothing leaves (empty brackets, a «see» before nothing), and a «see»
#: before an area's prefix
EMPTIED = re.compile(
    r"\s+(See|Vea|Véase)\s*\."  # a sentence «See .»
    r"|\s*\(\s*[,;]?\s*\)"  # brackets left empty
    r"|[:,;]?\s*\b(see|vea|véase)\s*(?=[.;)])"  # «see» before nothing
    r"|[:,;]?\s*\b(see|vea|véase)\s+[A-Z]{3,}\b(?![-\w])"  # «see SEVEN»: an area's prefix
)


#: words of the glossary that are also everyday words («vale»: it is worth; «dar»: to give): the
#: index sends to their glossary entry only
EVERYDAY_WORDS = ("vale", "dar")


def term_pattern(name: str) -> re.Pattern[str]:
    """A glossary word as the text uses it: a card's name with its capital (the Tres, not
    «tres puntos»), another word with or without one (at the start of a sentence)."""
    head, rest = re.escape(name[0]), re.escape(name[1:])
    first = head if name[0].isupper() else f"[{head}{re.escape(name[0].upper())}]"
    return re.compile(rf"(?<!\w){first}{rest}(?!\w)")


def emptied(text: str) -> str:
    """``text`` without what codes that printed nothing left (``(see )`` goes whole)."""
    while (tidied := EMPTIED.sub("", text)) != text:
        text = tidied
    return text


def labels_by_page(node: nodes.Element, docname: str) -> Iterator[tuple[str, str]]:
    """The labels of the printed statements, each with its page (walking down: in the assembled
    booklet, a page's nodes keep their former parents, see :func:`.printed.scenarios_by_page`)."""
    for child in node.children:
        if isinstance(child, nodes.target):
            yield from ((node_id, docname) for node_id in child["ids"] if node_id.startswith(LABEL.format(rule="")))
        elif isinstance(child, nodes.Element):
            page = str(child["docname"]) if isinstance(child, addnodes.start_of_file) else docname
            yield from labels_by_page(child, page)


def ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    while node.parent is not None:
        node = node.parent
        yield node


def setup(app: Sphinx) -> None:
    app.add_node(
        sheet,
        latex=(_visit_sheet, None),
        html=(_skip, None),
        text=(_skip, None),
        man=(_skip, None),
        texinfo=(_skip, None),
    )
    app.add_directive("guinote-booklet-rules", BookletRulesDirective)
    app.add_directive("guinote-booklet-cards", BookletCardsDirective)
    app.add_directive("guinote-booklet-sheet", BookletSheetDirective)
    app.add_post_transform(BookletLinks)


__all__ = ["BookletCardsDirective", "BookletRulesDirective", "BookletSheetDirective"]
