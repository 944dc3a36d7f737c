"""The extension's nodes in the printed edition's LaTeX (see :mod:`.printed`).

* a drawing becomes a PDF made from its SVG (cairosvg), included at one scale for the whole
  book, so every card prints the same size; if the conversion fails, the drawing's text
  alternative prints in its place (with a warning);
* a frame of the worked hand prints as two columns: its drawing on the left, its words on the
  right (:class:`columns`, :class:`column`), one box that never breaks; a scenario prints its
  drawing under its name and its steps under the drawing, the full width of the page (:func:`stacked`);
* a collapsible block's summary prints as a bold line before its content; the other nodes
  print their children;
* :class:`page_ref` prints the page of a label (LaTeX's ``\\pageref``), :class:`preface` the
  title of the book's preface (an unnumbered chapter).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from guinote_rulebook import nodes as own
from guinote_rulebook.svg import sprite_symbols

logger = logging.getLogger(__name__)

#: where the drawings' PDFs go, under the LaTeX output folder
DRAWINGS = "drawings"
#: the drawings' scale in the book: an SVG pixel is 3/4 pt, so a card 40 px wide prints 15.6 pt
#: (5.5 mm) wide, its index still clear, and the table of four players (496 px high) 193 pt high,
#: under half of the page's text: a scenario and its steps to a page (at 0.63 the book took 32
#: pages more)
DRAWING_SCALE = 0.52
#: the width of a two-column block's drawing column (the words take the rest)
DRAWING_COLUMN = 0.6


class columns(nodes.General, nodes.Element):
    """Columns side by side, kept on one page; made only for LaTeX."""


class column(nodes.General, nodes.Element):
    """One of :class:`columns`; ``node['width']`` is its share of the line."""


class preface(nodes.General, nodes.TextElement):
    """The title of the book's preface: an unnumbered chapter, listed in the contents."""


class page_ref(nodes.Inline, nodes.TextElement):
    """The page of the label ``node['refdoc']:node['refid']``; made only for LaTeX."""


# -- the drawings ------------------------------------------------------------------------------

_ROOT_TAG = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def standalone_svg(svg: str) -> str:
    """A drawing's SVG as a file of its own: the suit emblems (which a web page defines once)
    inside it, and its size in pixels where it only has a viewBox."""
    root = _ROOT_TAG.search(svg)
    if root is None:
        raise ValueError("not an SVG drawing")
    tag = root.group(0)
    size = _VIEWBOX.search(tag)
    if size is not None and " width=" not in tag:
        tag = tag[:-1] + f' width="{size.group(1)}">'
    if size is not None and " height=" not in tag:
        tag = tag[:-1] + f' height="{size.group(2)}">'
    if "xmlns=" not in tag:
        tag = tag[:-1] + ' xmlns="http://www.w3.org/2000/svg">'
    return f"{svg[: root.start()]}{tag}<defs>{sprite_symbols()}</defs>{svg[root.end() :]}"


def drawing_height(svg: str) -> float:
    """A drawing's printed height, in points (0 if it has no viewBox)."""
    root = _ROOT_TAG.search(svg)
    size = _VIEWBOX.search(root.group(0)) if root else None
    return float(size.group(2)) * 0.75 * DRAWING_SCALE if size else 0.0


def drawing_pdf(svg: str, folder: Path) -> Path:
    """The drawing as a PDF in ``folder``, named by its content (one file per distinct drawing)."""
    import cairosvg  # the print environment's: tox -e print

    text = standalone_svg(svg)
    path = folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:20]}.pdf"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        cairosvg.svg2pdf(bytestring=text.encode("utf-8"), write_to=str(path))
    return path


def _visit_drawing(self: Any, node: own.drawing) -> None:
    in_column = isinstance(node.parent, column)
    before, after = ("", "\\par\n") if in_column else ("\\begin{center}", "\\end{center}\n")
    outdir = Path(self.builder.outdir)
    try:
        path = drawing_pdf(str(node["svg"]), outdir / DRAWINGS)
    except Exception as error:  # the drawing's text alternative, never a silent gap
        logger.warning("guinote: a drawing could not be made for print: %s", error, location=node)
        self.body.append(f"\n{before}\\itshape {self.encode(str(node['alt']))}{after}")
        raise nodes.SkipNode from None
    graphic = "\\sphinxincludegraphics[scale=" + str(DRAWING_SCALE) + "]{" + path.relative_to(outdir).as_posix() + "}"
    self.body.append(f"\n{before}{graphic}{after}")
    raise nodes.SkipNode


# -- the other nodes ---------------------------------------------------------------------------


def _visit_summary(self: Any, node: own.summary) -> None:
    self.body.append("\n\\par\\medskip\\noindent\\textbf{")


def _depart_summary(self: Any, node: own.summary) -> None:
    self.body.append("}\\par\\nopagebreak\n")


def _visit_block(self: Any, node: nodes.Element) -> None:
    self.body.append("\n\\par\n")
    if node["ids"]:  # a label, for a page reference (a scenario shown again)
        self.body.append(self.hypertarget_to(node, anchor=True) + "\n")


def _depart_block(self: Any, node: nodes.Element) -> None:
    self.body.append("\n\\par\n")


def _visit_columns(self: Any, node: columns) -> None:
    self.body.append("\n\\par\\medskip\\noindent")


def _depart_columns(self: Any, node: columns) -> None:
    self.body.append("\\par\\medskip\n")


def _visit_column(self: Any, node: column) -> None:
    # top-aligned: the column starts with an empty line of no height
    align = "\\centering" if node.get("centered") else "\\raggedright"
    self.body.append("\\begin{minipage}[t]{" + str(node["width"]) + "\\linewidth}\\vspace{0pt}" + align + "\n")


def _depart_column(self: Any, node: column) -> None:
    last = node.parent is not None and node.parent.children[-1] is node
    self.body.append("\\end{minipage}" + ("" if last else "\\hfill"))


def _visit_preface(self: Any, node: preface) -> None:
    title = self.encode(node.astext())
    self.body.append(
        f"\n\\chapter*{{{title}}}\\addcontentsline{{toc}}{{chapter}}{{{title}}}\\markboth{{{title}}}{{{title}}}\n"
    )
    raise nodes.SkipNode


def _visit_page_ref(self: Any, node: page_ref) -> None:
    self.body.append("\\pageref{" + self.idescape(f"{node['refdoc']}:{node['refid']}") + "}")
    raise nodes.SkipNode


def side_by_side(block: nodes.Element, figure: own.drawing) -> None:
    """``block``'s drawing on the left, its other children (its words) on the right."""
    figure.parent.remove(figure)
    words = column(width=f"{1 - DRAWING_COLUMN - 0.03:.2f}")
    words.extend(child for child in block.children if not _empty_container(child))
    picture = column(width=f"{DRAWING_COLUMN:.2f}")
    picture += figure
    pair = columns()
    pair += picture
    pair += words
    block.children = []
    block += pair


def stacked(block: nodes.Element, figure: own.drawing) -> None:
    """``block``'s drawing under its name, centred and kept with it, its words under the drawing,
    the full width of the page: a scenario's steps, in the players' words, are too long for the
    column beside a drawing (there they took twice the pages)."""
    figure.parent.remove(figure)
    picture = column(width="1.00", centered=True)
    if block.children and not isinstance(block.children[0], nodes.container):  # the name: one box with it
        name = block.children[0]
        block.remove(name)
        picture += name
    picture += figure
    pair = columns()
    pair += picture
    block.insert(0, pair)


def _empty_container(node: nodes.Node) -> bool:
    return isinstance(node, nodes.container) and not node.children


def register(app: Sphinx) -> None:
    """The LaTeX visitors (the HTML and text ones are in :mod:`.nodes`)."""
    block = (_visit_block, _depart_block)
    app.add_node(own.drawing, override=True, latex=(_visit_drawing, None))
    app.add_node(own.summary, override=True, latex=(_visit_summary, _depart_summary))
    app.add_node(own.details, override=True, latex=block)
    app.add_node(own.scenario_block, override=True, latex=block)
    app.add_node(own.stepper, override=True, latex=block)
    app.add_node(columns, latex=(_visit_columns, _depart_columns))
    app.add_node(column, latex=(_visit_column, _depart_column))
    app.add_node(page_ref, latex=(_visit_page_ref, None))
    app.add_node(preface, latex=(_visit_preface, None))
