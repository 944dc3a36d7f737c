"""The printed edition (``tox -e print``, ``docs/build_print.py``): the rulebook as an A5 book
through LaTeX, built with ``-t print`` from its own root document, ``docs/print.rst`` (the
rule chapters and the readings, without the engine-author chapters).

* the book's title, author and file name in the edition's language (:func:`config_inited`),
  and its preface, an unnumbered chapter (:class:`Preface`);
* a link to a page left out of the book (checking/, reference/, contributing/) prints as
  plain text, or as the page's title in italics (:func:`missing_reference`);
* a scenario prints its name and drawing, then its rule IDs, sources and house rules on one line
  (:mod:`.players`), then its steps as players say them, without its place or its Gherkin text;
  a scenario shown again under another rule gives the page of its drawing
  (:class:`ScenariosInPrint`); the worked hand's frames print side by side too;
* a long name in a table or beside a drawing may break after ``_``, ``=`` or ``/``, and the
  extension's tables get column widths made for the page (:class:`NarrowColumns`);
* the matrix of flags × profiles is stacked, each value labelled with its profile
  (:class:`StackedMatrix`);
* the link to the index of rules points to the index the LaTeX builder prints at the end
  (:class:`IndexLinks`).

The LaTeX visitors of the extension's nodes are in :mod:`.print_latex`.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref, start_of_file
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from guinote_rulebook import nodes as own
from guinote_rulebook import print_latex
from guinote_rulebook.render import para

#: the chapters for engine authors, left out of the book
ENGINE_AUTHOR_PAGES = ("checking/", "reference/", "contributing/")
#: the label of the index of rules in the book
RULES_INDEX_LABEL = "guinote-rules"


def is_print(app: Sphinx) -> bool:
    """Whether this build is the book's (conf.py: ``guinote_print``, set by ``-t print``)."""
    return bool(app.config.guinote_print)


def config_inited(app: Sphinx, config: Any) -> None:
    """The book's title page and file in the edition's language (``guinote-es.tex``), and the
    label of the index of rules."""
    if not is_print(app):
        return
    language = config.language or "en"
    if config.guinote_booklet:
        booklet_config(config, language)
        return
    title = config.guinote_html_titles.get(language, config.html_title)
    author = config.guinote_print_authors.get(language, config.author)  # in LaTeX, \\\\ breaks a line
    config.latex_documents = [(config.root_doc, f"guinote-{language}.tex", title, author, "manual")]
    config.latex_elements = {**config.latex_elements, "atendofbody": rules_index_label(config.root_doc)}


def booklet_config(config: Any, language: str) -> None:
    """The club booklet (``-t booklet``): ``guinote-club-es.tex``, its own title, chapters that
    start on any page (it is short), a subject index (LaTeX's general index, fed by
    :mod:`.booklet`) instead of the index of rules, and no domain index."""
    from guinote_rulebook.booklet import BOOKLET_AUTHORS, BOOKLET_TITLES

    title = BOOKLET_TITLES.get(language, BOOKLET_TITLES["en"])
    author = BOOKLET_AUTHORS.get(language, BOOKLET_AUTHORS["en"])
    config.latex_documents = [(config.root_doc, f"guinote-club-{language}.tex", title, author, "manual")]
    config.latex_domain_indices = False
    elements = {key: value for key, value in config.latex_elements.items() if key != "printindex"}
    elements["extraclassoptions"] = "twoside,openany"
    elements["sphinxsetup"] = elements.get("sphinxsetup", "") + BOOKLET_SETUP
    elements["preamble"] = elements.get("preamble", "") + BOOKLET_PREAMBLE
    config.latex_elements = elements


#: the booklet prints in black and white: headings and links in black; its boxes (each a choice
#: of the club) plain black frames, with no shadow and no shading
BOOKLET_SETUP = (
    ", TitleColor={rgb}{0,0,0}, InnerLinkColor={rgb}{0,0,0}, OuterLinkColor={rgb}{0,0,0}"
    ", div.topic_border-width=0.6pt, div.topic_box-shadow=none, div.topic_border-TeXcolor={rgb}{0,0,0},"
    " div.topic_background-TeXcolor={rgb}{1,1,1}, div.topic_padding=2mm"
)


#: the booklet's chapters open with a compact head (a short book: no half-empty pages), and its
#: subject index is in the text's serif
BOOKLET_PREAMBLE = r"""
\makeatletter
\def\@makechapterhead#1{{\parindent\z@\raggedright\normalfont
  \ifnum\c@secnumdepth>\m@ne\large\bfseries\@chapapp\space\thechapter\par\nobreak\vskip 4pt\fi
  \interlinepenalty\@M\huge\bfseries #1\par\nobreak\vskip 16pt}}
\def\@makeschapterhead#1{{\parindent\z@\raggedright\normalfont\interlinepenalty\@M\huge\bfseries #1\par
  \nobreak\vskip 16pt}}
\makeatother
\renewcommand{\sphinxstyleindexentry}[1]{#1}
"""


def rules_index_label(root_doc: str) -> str:
    """LaTeX put just before the indices: a label for the index of rules, which starts the next
    page (the LaTeX builder lists the index in the contents itself)."""
    return "\\cleardoublepage\\phantomsection\\label{\\detokenize{" + f"{root_doc}:{RULES_INDEX_LABEL}" + "}}\n"


# -- links to pages left out of the book -------------------------------------------------------


def engine_author_page(docname: str) -> bool:
    return docname.startswith(ENGINE_AUTHOR_PAGES)


def source_title(source: Path) -> str:
    """The first title of a page's source (reStructuredText or Markdown), or ''."""
    lines = source.read_text(encoding="utf-8").splitlines()
    for line, under in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith("# "):
            return line[2:].strip()
        if line.strip() and re.fullmatch(r"(=+|-+|~+)", under.strip()):
            return line.strip()
    return ""


def translated(env: BuildEnvironment, docname: str, message: str) -> str:
    """``message`` in the edition's language, by the catalogue of page ``docname``."""
    language = env.config.language or "en"
    if language == "en":
        return message
    from babel.messages.pofile import read_po

    for folder in env.config.locale_dirs:
        po = Path(env.srcdir) / folder / language / "LC_MESSAGES" / f"{docname}.po"
        if po.exists():
            with po.open("rb") as handle:
                found = read_po(handle, locale=language).get(message)
            if found is not None and found.string:
                return str(found.string)
    return message


def page_title(env: BuildEnvironment, docname: str) -> str:
    """The title of a page left out of the book, in the edition's language."""
    for suffix in (".rst", ".md"):
        source = Path(env.srcdir) / f"{docname}{suffix}"
        if source.exists():
            title = source_title(source)
            return translated(env, docname, title) if title else docname
    return docname


def missing_reference(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Node | None:
    """In the book, a link to an engine-author page is its text, or the page's title in italics."""
    if not is_print(app) or node.get("refdomain") != "std" or node.get("reftype") != "doc":
        return None
    target = str(node["reftarget"])
    if target.startswith("/"):
        target = target[1:]
    else:  # relative to the page that links
        target = posixpath.normpath(posixpath.join(posixpath.dirname(node.get("refdoc", env.docname)), target))
    # the book leaves out the engine-author pages; the booklet every page but its own and the glossary
    if not engine_author_page(target) and not (app.config.guinote_booklet and target not in env.found_docs):
        return None
    if node.get("refexplicit"):
        return nodes.inline(contnode.astext(), contnode.astext())
    title = page_title(env, target)
    return nodes.emphasis(title, title)


# -- the book's own layout ---------------------------------------------------------------------


def scenarios_by_page(node: nodes.Element, docname: str) -> list[tuple[str, own.scenario_block]]:
    """The scenario blocks of the book's assembled doctree in order, each with its page (the
    LaTeX builder wraps each page in a ``start_of_file`` node whose children keep their
    former parents: the walk goes down, never up)."""
    found: list[tuple[str, own.scenario_block]] = []
    for child in node.children:
        if isinstance(child, own.scenario_block):
            found.append((docname, child))
        elif isinstance(child, nodes.Element):
            page = str(child["docname"]) if isinstance(child, start_of_file) else docname
            found += scenarios_by_page(child, page)
    return found


def run_in(rows: nodes.bullet_list) -> None:
    """A step's rows (each player's cards, the cards of a trick) run on after the step's words,
    one after another, instead of a line each: a page holds twice the scenarios."""
    item = rows.parent
    assert isinstance(item, nodes.Element)
    item.remove(rows)
    words = next((child for child in item.children if isinstance(child, nodes.paragraph)), None)
    said = "; ".join(entry.astext() for entry in rows.children) + "."
    if words is None:
        item += nodes.paragraph("", said)
    else:
        words += nodes.Text(" " + said)


class ScenariosInPrint(SphinxPostTransform):
    """In the book, a scenario shows its drawing under its name, then its steps as players say
    them (how the seats are named said the first time only, each player's cards run on), with its
    tags and house rules on one line above them (:func:`.players.plain_words_for_players`); its
    place in features/ and its Gherkin text, which programs run, are left to the website and the
    feature files (and so is the line that offers it there). A scenario shown again under
    another rule gives its name and the page where it is printed in full. The worked hand's
    frames print their drawing beside their caption."""

    default_priority = 20
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        if not is_print(self.app):
            return
        from guinote_rulebook.locale import _

        first: dict[str, tuple[str, str]] = {}
        conventions: set[str] = set()
        for number, (docname, block) in enumerate(scenarios_by_page(self.document, self.config.root_doc)):
            for text in list(block.findall(nodes.literal_block)):
                text.parent.remove(text)
            for offer in [s for s in block.findall(own.summary) if "guinote-engine" in s.parent.get("classes", [])]:
                offer.parent.remove(offer)
            for rows in [r for r in block.findall(nodes.bullet_list) if "guinote-player-rows" in r["classes"]]:
                run_in(rows)
            for where in [p for p in block.findall(nodes.paragraph) if "guinote-scenario-where" in p["classes"]]:
                where.parent.remove(where)  # a path in the repository means nothing on paper
            for seating in [p for p in block.findall(nodes.paragraph) if "guinote-seating" in p["classes"]]:
                said = seating.astext()
                if said in conventions:  # how the seats are named: said the first time, then drawn
                    seating.parent.remove(seating)
                conventions.add(said)
            figures = list(block.findall(own.drawing))
            key = f"{block.get('feature')}:{block.get('line')}"
            if key not in first:
                if not block["ids"]:
                    block["ids"].append(f"guinote-print-scenario-{number}")
                first[key] = (docname, block["ids"][0])
                if figures:
                    print_latex.stacked(block, figures[0])
                continue
            for figure in figures:
                figure.parent.remove(figure)
            shown = ("guinote-player-steps", "guinote-seating")  # printed in full where it is drawn
            for gone in [n for n in block.findall(nodes.Element) if set(n["classes"]) & set(shown)]:
                if gone.parent is not None:
                    gone.parent.remove(gone)
            refdoc, refid = first[key]
            before, _field, after = str(_("Its steps and its table are on page {page}.")).partition("{page}")
            block += para(nodes.Text(before), print_latex.page_ref(refdoc=refdoc, refid=refid), nodes.Text(after))
        for frame in self.document.findall(nodes.container):
            figures = list(frame.findall(own.drawing))
            if "guinote-frame" in frame["classes"] and len(figures) == 1:
                print_latex.side_by_side(frame, figures[0])


class StackedMatrix(SphinxPostTransform):
    """In the book, the matrix of flags × profiles (eight columns, too many for the page) is
    stacked, as on a phone: under each flag, each profile's value and its sources, labelled
    with the profile (an overlay that keeps the profile's value, "—", is left out)."""

    default_priority = 19  # before NarrowColumns
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        if not is_print(self.app):
            return
        for matrix in list(self.document.findall(nodes.table)):
            if "guinote-flags-matrix" in matrix["classes"]:
                matrix.replace_self(stacked(matrix))


def stacked(matrix: nodes.table) -> nodes.definition_list:
    listing = nodes.definition_list(classes=["guinote-flags-stacked"])
    for row in next(iter(matrix.findall(nodes.tbody))).children:
        entries = [entry for entry in row.children if isinstance(entry, nodes.entry)]
        if not entries:
            continue
        term = nodes.term()
        for paragraph in entries[0].findall(nodes.paragraph):
            term.extend(paragraph.children)
        values: list[nodes.Node] = []
        for entry in entries[1:]:
            values += cell_words(entry)
        line = para(*values[1:])  # without the first separator
        item = nodes.definition_list_item()
        item += term
        item += nodes.definition("", line)
        listing += item
    return listing


def cell_words(entry: nodes.entry) -> list[nodes.Node]:
    """A cell of the matrix as ``· label: value (sources)``; nothing for an inherited value."""
    paragraphs = list(entry.findall(nodes.paragraph))
    if not paragraphs or "guinote-inherited" in paragraphs[0]["classes"]:
        return []
    labels = [node for node in paragraphs[0].findall(nodes.inline) if "guinote-cell-label" in node["classes"]]
    label = labels[0] if labels else None
    value = [node for node in paragraphs[0].children if node is not label]
    words: list[nodes.Node] = [nodes.Text(" · ")]
    if label is not None:
        words += [nodes.strong(label.astext(), label.astext()), nodes.Text(": ")]
    words += value
    if len(paragraphs) > 1:
        words += [nodes.Text(" ("), *paragraphs[1].children, nodes.Text(")")]
    return words


#: where a long name (a flag value, a tag, a feature file) may break in a narrow column
BREAK_AFTER = re.compile("([_=/])(?!\u200b)")


class NarrowColumns(SphinxPostTransform):
    """In the book's tables and scenarios (beside their drawings), a long name (``cards_plus_ultimas``,
    ``deck=48``, ``features/deck.feature``) may break after ``_``, ``=`` or ``/`` (a zero-width
    space, which the LaTeX preamble defines); the extension's tables get column widths made
    for the page (:func:`column_widths`), and a long one may break across pages."""

    default_priority = 21  # after ScenariosInPrint, which makes the columns
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for place in [*self.document.findall(nodes.entry), *self.document.findall(own.scenario_block)]:
            for text in list(place.findall(nodes.Text)):
                broken = BREAK_AFTER.sub("\\1\u200b", str(text))
                if broken != str(text) and text.parent is not None:
                    text.parent.replace(text, nodes.Text(broken))
        if not is_print(self.app):
            return
        for table in self.document.findall(nodes.table):
            if "guinote-table" not in table["classes"]:
                continue
            colspecs = list(table.findall(nodes.colspec))
            widths = column_widths(table, len(colspecs))
            for colspec, width in zip(colspecs, widths, strict=True):
                colspec["colwidth"] = width
            table["classes"].append("colwidths-given")
            if len(list(table.findall(nodes.row))) > LONG:  # it may go on over the page
                table["classes"].append("longtable")


#: the width of a character of a table's text, and a column's padding, in points (roughly)
CHARACTER, PADDING = 5.0, 12.0
#: the width of the book's text, in points
LINE = 330.0
#: a table with more rows than this may break across pages (a smaller one moves whole)
LONG = 8


def column_widths(table: nodes.table, count: int) -> list[int]:
    """Widths (in points) for a table's columns: each as wide as its longest word needs, the
    rest of the line shared in proportion to the text each column holds."""
    texts: list[list[str]] = [[] for _ in range(count)]
    for row in table.findall(nodes.row):
        index = 0
        for entry in row.children:
            if not isinstance(entry, nodes.entry):
                continue
            span = int(entry.get("morecols", 0))
            if not span and index < count:
                texts[index].append(entry.astext())
            index += 1 + span
    minimums, volumes = [], []
    for column_texts in texts:
        words = [word for text in column_texts for word in re.split("[\\s\u200b]+", text)]
        minimums.append(max((len(word) for word in words), default=1) * CHARACTER + PADDING)
        volumes.append(sum(len(text) for text in column_texts) / max(1, len(column_texts)) + 1)
    rest = max(0.0, LINE - sum(minimums))
    return [round(least + rest * volume / sum(volumes)) for least, volume in zip(minimums, volumes, strict=True)]


class Preface(SphinxPostTransform):
    """The rubric of class ``guinote-preface`` (in print.rst) titles the book's preface, an
    unnumbered chapter before chapter 1."""

    default_priority = 20
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for rubric in list(self.document.findall(nodes.rubric)):
            if "guinote-preface" in rubric["classes"]:
                rubric.replace_self(print_latex.preface(rubric.astext(), rubric.astext()))


class IndexLinks(SphinxPostTransform):
    """In the book, a link to the index of rules (``guinote-rules``) points to the index the
    LaTeX builder prints at the end (labelled by :func:`rules_index_label`)."""

    default_priority = 20
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for reference in self.document.findall(nodes.reference):
            uri = str(reference.get("refuri", ""))
            if uri.split("#", 1)[0] in {RULES_INDEX_LABEL, f"{RULES_INDEX_LABEL}.html"}:
                reference["refuri"] = f"%{self.config.root_doc}#{RULES_INDEX_LABEL}"


def setup(app: Sphinx) -> None:
    app.add_config_value("guinote_print", False, "env", bool)
    app.add_config_value("guinote_booklet", False, "env", bool)
    app.add_config_value("guinote_print_authors", {}, "env", dict)
    app.connect("config-inited", config_inited, priority=600)  # after i18n's titles
    app.connect("missing-reference", missing_reference)
    for transform in (Preface, ScenariosInPrint, StackedMatrix, NarrowColumns, IndexLinks):
        app.add_post_transform(transform)
    print_latex.register(app)
