"""``guinote-architecture``: the two flows through the runner's stages and its layers, drawn from
:mod:`conformance` itself (``RUN_FLOW``, ``FUZZ_FLOW``, ``LAYERS``), so the picture cannot drift
from the code: a step or a part of the package that the extension cannot name in the reader's
language is a build warning (an error under ``-W``)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from docutils import nodes

import guinote_conformance
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import drawing
from guinote_rulebook.render import literal, para


def step_names() -> dict[str, str]:
    """The steps of the two flows, in the reader's language."""
    return {
        "catalogue": _("catalogue"),
        "selection": _("selection"),
        "realisation": _("realisation"),
        "driver": _("driver"),
        "engine": _("engine"),
        "results": _("results"),
        "report": _("report"),
        "batch": _("batch"),
        "steering": _("steering"),
        "differential play": _("differential play"),
        "cause": _("cause"),
        "campaign": _("campaign"),
        "shrink": _("shrink"),
        "scenario": _("scenario"),
    }


def part_roles() -> dict[str, str]:
    """What each part of the package does, in the reader's language."""
    return {
        "cli": _("the command line"),
        "plugin": _("the pytest plugin"),
        "suite": _("the scenarios as tests"),
        "__main__": _("python -m, the same command line"),
        "run": _("runs the scenarios"),
        "fuzz": _("fuzzes against the reference"),
        "report": _("terminal, HTML, JUnit, badge, site"),
        "oracle": _("compares with the reference, names the rule"),
        "engines": _("the engine under test, wrapped"),
        "results": _("statuses and the results file"),
        "catalogue": _("features, rule index, self-checks"),
        "base": _("errors, options, untrusted text, paths"),
        "adapters": _("the engine interface and the protocol"),
        "reference_engine": _("the rules of the game: the reference engine"),
    }


BOX_W, BOX_H, GAP, PAD = 170, 52, 26, 8


def _box(x: int, y: int, title: str, code: str) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="#f4f1ea" stroke="#5b4a32"/>'
        f'<text x="{x + BOX_W // 2}" y="{y + 21}" text-anchor="middle" font-size="14" font-weight="bold">'
        f"{escape(title)}</text>"
        f'<text x="{x + BOX_W // 2}" y="{y + 40}" text-anchor="middle" font-size="10" '
        f'font-family="monospace">{escape(code.removeprefix("guinote_conformance."))}</text>'
    )


def flow_svg(steps: Sequence[tuple[str, str]], label: str) -> str:
    """The steps in rows of four, left to right, each with the module that takes it, an arrow between two."""
    per_row = 4
    rows = (len(steps) + per_row - 1) // per_row
    width = PAD * 2 + per_row * BOX_W + (per_row - 1) * GAP
    height = PAD * 2 + rows * BOX_H + (rows - 1) * GAP
    parts = []
    for index, (title, code) in enumerate(steps):
        row, column = divmod(index, per_row)
        x, y = PAD + column * (BOX_W + GAP), PAD + row * (BOX_H + GAP)
        parts.append(_box(x, y, title, code))
        if index + 1 < len(steps):
            if column + 1 < per_row:  # to the next box on the right
                parts.append(f'<path d="M{x + BOX_W},{y + BOX_H // 2} h{GAP - 4}" marker-end="url(#ga-arrow)"/>')
            else:  # down, then back to the first column
                mid = y + BOX_H + GAP // 2
                parts.append(
                    f'<path d="M{x + BOX_W // 2},{y + BOX_H} V{mid} H{PAD + BOX_W // 2} V{mid + GAP // 2 - 4}" '
                    'fill="none" marker-end="url(#ga-arrow)"/>'
                )
    marker = (
        '<defs><marker id="ga-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#5b4a32"/></marker></defs>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" class="guinote-architecture" stroke="#5b4a32" fill="#2b2b2b">'
        f"<title>{escape(label)}</title>{marker}{''.join(parts)}</svg>"
    )


class ArchitectureDirective(RulebookDirective):
    """``.. guinote-architecture::``: the way of a scenario, the way of a fuzzed game, the layers."""

    def run(self) -> list[nodes.Node]:
        names, roles = step_names(), part_roles()
        out: list[nodes.Node] = []
        for title, flow in (
            (_("The way of a scenario"), guinote_conformance.RUN_FLOW),
            (_("The way of a fuzzed game"), guinote_conformance.FUZZ_FLOW),
        ):
            steps = [(self._named(names, step), module) for step, module in flow]
            label = f"{title}: {' → '.join(name for name, _module in steps)}"
            out.append(para(nodes.strong("", title)))
            out.append(drawing(svg=flow_svg(steps, label), alt=label))
            listed = nodes.enumerated_list()
            for name, module in steps:
                listed += nodes.list_item("", para(nodes.Text(f"{name}: "), literal(module)))
            out.append(listed)
        out.append(para(nodes.strong("", _("The layers, from the top down"))))
        layers = nodes.bullet_list()
        for parts, independent in guinote_conformance.LAYERS:
            line = para()
            for index, part in enumerate(parts):
                if index:
                    line += nodes.Text("; ")
                line += literal(f"guinote_conformance.{part}")
                line += nodes.Text(f" ({self._named(roles, part)})")
            if independent:
                line += nodes.Text(" — " + _("independent of each other"))
            layers += nodes.list_item("", line)
        out.append(layers)
        return self.finish(out)

    def _named(self, names: dict[str, str], key: str) -> str:
        if key not in names:
            logger.warning(
                "guinote: no name for %r in the architecture: add it to directives/architecture.py",
                key, location=self.get_location(), type="guinote", subtype="data",
            )  # fmt: skip
        return names.get(key, key)
