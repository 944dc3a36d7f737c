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

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from guinote_conformance.catalogue.rule_index import AREAS, RuleEntry
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_conformance.catalogue.spanish import read_po
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.area import AreaDirective
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _, word
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
    folder = Path(env.srcdir) / list(env.config.locale_dirs or ["locale"])[0] / language / "LC_MESSAGES"
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
            node += addnodes.index(entries=[("single", title, node["ids"][0], "", None)])
            listing = nodes.bullet_list(classes=["guinote-booklet-rules"])
            for rule in rules:
                item = nodes.list_item()
                text = page_words(self.env, page, linked_rest(rule.statement, data), self.get_location())
                # the statement's label, for the page references of the booklet (a target prints one)
                item += para(nodes.target("", "", ids=[LABEL.format(rule=rule.id)]), *self.rest_nodes(text))
                listing += item
            node += listing
            for name in placed.get(area_id, []):
                node += self.choice_box(name, flags[name], club.get(name), data)
            result.append(node)
        if placed.get("variants"):
            title = str(_("Variants: two players, other decks"))
            node = section("booklet-variants", self.plain_title(nodes.Text(title)), self.state.document)
            for name in placed["variants"]:
                node += self.choice_box(name, flags[name], club.get(name), data)
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
        box += nodes.title("", "", nodes.Text(f"{_('Choice')}: "), *self.rest_nodes(question))
        box[0]["translatable"] = False
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
        words: list[nodes.Node] = [nodes.emphasis("", f"{_('Sources')}: ")]
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


class BookletCardsDirective(RulebookDirective):
    """The cards of a suit, highest first, with their points: the reference engine's order."""

    def run(self) -> list[nodes.Node]:
        from guinote_conformance.reference_engine.cards import RANK_ORDER_BELOW_CABALLO, Rank

        from guinote_rulebook.render import table

        self.note_engine_dependency()
        ranks = [rank for rank in RANK_ORDER_BELOW_CABALLO if rank not in (Rank.NUEVE, Rank.OCHO)]
        names = [rank.spanish.capitalize() for rank in ranks]
        points = [str(rank.points) if rank.points else "0" for rank in ranks]
        node = table(["", *names], [[str(_("Points")), *points]], classes=["guinote-booklet-cards"])
        return self.finish([node])


class sheet(nodes.General, nodes.Element):
    """The score sheet: a grid printed only in LaTeX."""


class BookletSheetDirective(RulebookDirective):
    """The anotador: a grid to score a match hand by hand, for each side its cards, cantes and
    diez de últimas, the hand's total, and whether it goes de vueltas."""

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
        node["points"] = str(_("Points won (partidas): us / them"))
        return [node]


SHEET_ROWS = 12


def _visit_sheet(self: Any, node: sheet) -> None:
    hand, cards, cantes, ultimas, total = (self.encode(text) for text in node["headings"])
    us, them = (self.encode(text) for text in node["sides"])
    vueltas = self.encode(node["vueltas"])
    head = "\\textbf{" + "}&\\textbf{".join([cards, cantes, ultimas, total]) + "}"
    rows = "".join(f"{number}&&&&&&&&&\\\\[3.2mm]\\hline\n" for number in range(1, SHEET_ROWS + 1))
    self.body.append(
        "\n\\par\\noindent{\\scriptsize\\setlength{\\tabcolsep}{2pt}\\renewcommand{\\arraystretch}{1.25}"
        "\\begin{tabular}{|c|*{4}{>{\\centering\\arraybackslash}p{10.5mm}|}*{4}{>{\\centering\\arraybackslash}p{10.5mm}|}"
        ">{\\centering\\arraybackslash}p{9mm}|}\\hline\n"
        f"&\\multicolumn{{4}}{{c|}}{{\\textbf{{{us}}}}}&\\multicolumn{{4}}{{c|}}{{\\textbf{{{them}}}}}&\\\\\\hline\n"
        f"\\textbf{{{hand}}}&{head}&{head}&\\textbf{{{vueltas}}}\\\\\\hline\\hline\n"
        f"{rows}\\end{{tabular}}}}\\par\\medskip\n"
        "\\noindent\\textbf{" + self.encode(node["points"]) + "}\\quad\\fbox{\\rule{0pt}{5mm}\\hspace{25mm}}"
        "\\quad\\fbox{\\rule{0pt}{5mm}\\hspace{25mm}}\\par\n"
    )
    raise nodes.SkipNode


def _skip(self: Any, node: nodes.Node) -> None:
    raise nodes.SkipNode


class BookletLinks(SphinxPostTransform):
    """In the booklet: a link to a rule prints the page of its statement (or nothing if the
    booklet leaves the rule out); a link to a question, flag or profile prints nothing (the
    booklet has no codes); every glossary term met in the rules and in the game's chapter gets an
    entry of the subject index."""

    default_priority = 5  # before the references are resolved (10)
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        if not self.config.guinote_booklet:
            return
        root = self.config.root_doc
        printed = dict(labels_by_page(self.document, root))  # each printed statement's label, and its page
        for xref in list(self.document.findall(addnodes.pending_xref)):
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
                    merged[index] = nodes.Text(EMPTIED.sub("", str(child)))
            if len(merged) != len(element.children) or any(a is not b for a, b in zip(merged, element.children)):
                element.children = []
                element.extend(merged)

    def index_terms(self) -> None:
        terms: list[str] = []
        for term in self.document.findall(nodes.term):
            for name in re.split(r",\s*", term.astext()):
                if len(name) > 3 and name not in terms:
                    terms.append(name)
        patterns = [(name, re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)) for name in terms]
        for item in self.document.findall(nodes.paragraph):
            if any(isinstance(parent, nodes.definition_list) for parent in ancestors(item)):
                continue  # the glossary indexes its own terms
            text = item.astext()
            found = [name for name, pattern in patterns if pattern.search(text)]
            if found:
                item.insert(0, addnodes.index(entries=[("single", name, "", "", None) for name in found]))


#: what a code that printed nothing leaves (empty brackets, a «see» before nothing), and a «see»
#: before an area's prefix
EMPTIED = re.compile(
    r"\s*\(\s*[,;]?\s*\)"  # brackets left empty
    r"|[:,;]?\s*\b(see|vea|véase)\s*(?=[.;)])"  # «see» before nothing
    r"|[:,;]?\s*\b(see|vea|véase)\s+[A-Z]{3,}\b(?![-\w])"  # «see SEVEN»: an area's prefix
)


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


__all__ = ["BookletCardsDirective", "BookletRulesDirective", "BookletSheetDirective", "word"]
