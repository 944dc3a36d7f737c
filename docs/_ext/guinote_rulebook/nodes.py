"""The extension's nodes: a collapsible block, a scenario block, a drawing (inline SVG) and
the worked hand's step-through. Builders other than HTML render the children only (a
drawing then renders as nothing: its text is always beside it)."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from guinote_rulebook.svg import sprite


class details(nodes.General, nodes.Element):
    """A collapsible block (``<details>`` in HTML, plain content elsewhere)."""


class summary(nodes.General, nodes.TextElement):
    """The always-visible line of a :class:`details` block (the extension's own words)."""

    def __init__(self, rawsource: str = "", text: str = "", *children: nodes.Node, **attributes: object) -> None:
        super().__init__(rawsource, text, *children, **attributes)
        self["translatable"] = False


class scenario_block(nodes.General, nodes.Element):
    """One rendered scenario; HTML carries its feature, line and name as data attributes."""


class drawing(nodes.General, nodes.Element):
    """An SVG drawing made by the extension (``node['svg']``), with a text alternative
    (``node['alt']``) for screen readers."""


class stepper(nodes.General, nodes.Element):
    """Frames shown one at a time with back and forward buttons (all at once without
    JavaScript, and in print)."""


def _visit_details(self: Any, node: details) -> None:
    self.body.append(self.starttag(node, "details", CLASS="guinote-details"))


def _depart_details(self: Any, node: details) -> None:
    self.body.append("</details>\n")


def _visit_summary(self: Any, node: summary) -> None:
    self.body.append(self.starttag(node, "summary", suffix=""))


def _depart_summary(self: Any, node: summary) -> None:
    self.body.append("</summary>\n")


def _visit_scenario(self: Any, node: scenario_block) -> None:
    attributes = {
        "data-feature": node.get("feature", ""),
        "data-line": str(node.get("line", "")),
        "data-name": node.get("scenario", ""),
    }
    self.body.append(self.starttag(node, "div", CLASS="guinote-scenario", **attributes))


def _depart_div(self: Any, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def _visit_drawing(self: Any, node: drawing) -> None:
    self.body.append(self.starttag(node, "figure", CLASS="guinote-drawing", role="img", **{"aria-label": node["alt"]}))
    if not getattr(self, "guinote_sprite_done", False):  # the suit emblems, once per page
        self.body.append(sprite())
        self.guinote_sprite_done = True
    # the SVG is made by the extension from escaped text (see svg.py), never from raw input
    self.body.append(node["svg"])


def _depart_drawing(self: Any, node: drawing) -> None:
    self.body.append("</figure>\n")


def _visit_stepper(self: Any, node: stepper) -> None:
    labels = {"data-back": node.get("back", "Back"), "data-forward": node.get("forward", "Forward")}
    self.body.append(self.starttag(node, "div", CLASS="guinote-stepper", **labels))


def _skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def _visit_passthrough(self: Any, node: nodes.Element) -> None:
    """Other builders render the children only."""


def _depart_passthrough(self: Any, node: nodes.Element) -> None:
    pass


def register(app: Sphinx) -> None:
    plain = (_visit_passthrough, _depart_passthrough)
    skip = (_skip, None)
    for node_class, html, other in (
        (details, (_visit_details, _depart_details), plain),
        (summary, (_visit_summary, _depart_summary), plain),
        (scenario_block, (_visit_scenario, _depart_div), plain),
        (drawing, (_visit_drawing, _depart_drawing), skip),
        (stepper, (_visit_stepper, _depart_div), plain),
    ):
        app.add_node(node_class, html=html, latex=other, text=other, man=other, texinfo=other)
