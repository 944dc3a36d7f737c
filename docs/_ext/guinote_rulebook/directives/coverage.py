"""``guinote-coverage`` (rules covered, not executable and uncovered, by area) and
``guinote-interpretations`` (where the project chose because the sources are silent)."""

from __future__ import annotations

from typing import Any

from docutils import nodes

from guinote_conformance.catalogue.rulebook import coverage
from guinote_conformance.run import realisations
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _
from guinote_rulebook.render import Cell, area_ref, bullets, literal, note, rubric, rule_ref, table, text_para


class CoverageDirective(RulebookDirective):
    def run(self) -> list[nodes.Node]:
        data = self.data()
        docname = self.env.docname
        report = coverage(data)
        if not report.areas:
            return self.finish([note(text_para(_("The rule index is empty so far.")))])
        rows: list[list[Cell]] = []
        for item in report.areas:
            rows.append(
                [
                    area_ref(item.area.id, item.area.title, docname),
                    str(len(item.covered)),
                    str(len(item.not_executable)),
                    str(len(item.missing)),
                    str(len(item.area.rules)),
                    str(item.scenarios),
                ]
            )
        totals = report.totals()
        rows.append(
            [
                nodes.strong("", _("All areas")),
                *(str(totals[key]) for key in ("covered", "not_exec", "missing", "total", "scenarios")),
            ]
        )
        headers = [_("Area"), _("Covered"), _("Not executable"), _("Uncovered"), _("Rules"), _("Scenarios")]
        out: list[nodes.Node] = [table(headers, rows, ["guinote-coverage"])]
        uncovered = [item for item in report.areas if item.missing]
        if uncovered:
            out.append(rubric(_("Rules without a scenario")))
            out.append(
                bullets(
                    [
                        [
                            area_ref(item.area.id, item.area.title, docname),
                            nodes.Text(": "),
                            *[n for rule in item.missing for n in (rule_ref(rule, docname), nodes.Text(" "))],
                        ]
                        for item in uncovered
                    ]
                )
            )
        if report.orphans:
            out.append(rubric(_("Rule tags missing from the index")))
            items = []
            for rule, scenarios in report.orphans.items():
                places: dict[str, list[str]] = {}
                for scenario in scenarios:
                    places.setdefault(data.relative(scenario.path), []).append(str(scenario.line))
                where = "; ".join(f"{path} ({', '.join(lines)})" for path, lines in places.items())
                items.append([literal(rule), nodes.Text(f": {len(scenarios)} × {where}")])
            out.append(bullets(items, ["guinote-orphans"]))
        out.extend(self.realised(data.scenarios))
        if report.untagged:
            out.append(rubric(_("Scenarios without a rule tag")))
            out.append(
                bullets(
                    [[nodes.Text(f"{s.name} "), literal(f"{data.relative(s.path)}:{s.line}")] for s in report.untagged]
                )
            )
        return self.finish(out)

    def realised(self, scenarios: list[Any]) -> list[nodes.Node]:
        """How many position scenarios any engine can run: reached by play (realised) or only loaded."""
        reach = realisations.coverage(scenarios)
        out: list[nodes.Node] = [rubric(_("Positions reached by play"))]
        text = _(
            "{realised} of {positions} scenarios that start from a mid-hand position are reached by a deal and "
            "legal plays, so an engine without the 'positions' capability runs them."
        )
        out.append(text_para(text.format(realised=reach.realised, positions=reach.positions)))
        if reach.positions_only:
            out.append(text_para(_("Only an engine that loads positions can run these:")))
            out.append(
                bullets([[literal(where), nodes.Text(f" {name}: {why}")] for where, name, why in reach.positions_only])
            )
        if reach.missing:
            out.append(text_para(_("No realisation is stored yet for these (run guinote-conformance realise):")))
            out.append(bullets([[literal(where), nodes.Text(f" {name}")] for where, name in reach.missing]))
        return out


class InterpretationsDirective(RulebookDirective):
    def run(self) -> list[nodes.Node]:
        data = self.data()
        docname = self.env.docname
        rows: list[list[Cell]] = []
        for area in data.areas:
            for rule in area.rules:
                if rule.agreement != "interpretation" and not rule.interpretation:
                    continue
                choice = rule.interpretation or rule.note or ""
                rows.append(
                    [[rule_ref(rule.id, docname)], self.data_para(rule.statement, data), self.data_para(choice, data)]
                )
        if not rows:
            return self.finish([note(text_para(_("No rule of the index is an interpretation yet.")))])
        legend = text_para(
            _(
                "{count} rules where the project had to choose because the sources are silent or unclear. "
                "The reference engine marks each of these places in its code with the rule ID and the word "
                "'interpretation'."
            ).format(count=len(rows)),
            ["guinote-legend"],
        )
        headers = [_("Rule"), _("Statement"), _("What the project chose")]
        return self.finish([legend, table(headers, rows, ["guinote-interpretations"])])
