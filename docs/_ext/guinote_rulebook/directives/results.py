"""``guinote-results``: a conformance run shown with the results model's own functions
(:mod:`guinote_conformance.results.report`): engine, suite commit, summary, rule area × profile, the failures.

The data comes from :func:`guinote_conformance.report.published.results_for_docs`: a results file (the
``:path:`` option, ``$GUINOTE_RESULTS`` or ``guinote_results``) or a run of the suite made now;
a file made from other scenarios fails the build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from guinote_conformance.base.untrusted import shown  # an engine's text: its controls and bidi overrides made visible
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_conformance.results.report import Report, ResultsError
from guinote_conformance.results.status import Status
from guinote_rulebook.data import results_path
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.domain import CHAPTER_TITLE
from guinote_rulebook.locale import _
from guinote_rulebook.render import (
    Cell,
    area_ref,
    badge,
    code_block,
    field_item,
    literal,
    note,
    para,
    rubric,
    rule_ref,
    table,
    text_para,
    xref,
)


def status_badge(status: Status, text: str | None = None) -> nodes.inline:
    return badge(text or status.value, f"status-{status.value}")


class ResultsDirective(RulebookDirective):
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"path": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        from guinote_conformance.report.published import results_for_docs

        data = self.data()
        path = results_path(self.env, self.options.get("path"))
        if path is not None and not path.exists():
            text = _("No results file at {path}. Run the suite and point GUINOTE_RESULTS at its results.json.")
            return self.finish([note(text_para(text.format(path=path)))])
        try:
            report, source = results_for_docs(path, Path(self.env.doctreedir) / "guinote-results", data.features)
        except ResultsError as error:
            logger.warning("guinote-results: %s", error, location=self.get_location())
            text = _("The results file {path} could not be read: {error}").format(path=path or "-", error=error)
            return self.finish([note(text_para(text), kind=nodes.warning)])
        self.env.note_dependency(str(source))
        out: list[nodes.Node] = [self.header(report, source), self.summary(report), self.areas(report)]
        out.extend(self.problems(report, data))
        return self.finish(out)

    def header(self, report: Report, path: Path) -> nodes.field_list:
        fields = nodes.field_list(classes=["guinote-results-header"])
        for engine in report.engines:
            fields += field_item(_("Engine"), para(nodes.Text(shown(f"{engine.title} ({engine.language})"))))
        # the protocol by its name (GCP/2), which needs no translation
        suite = f"{report.suite.version} ({report.suite.commit}) · {report.suite.protocol_name}"
        fields += field_item(_("Suite version"), para(nodes.Text(suite)))
        fields += field_item(_("Run"), para(nodes.Text(shown(f"{report.started}, {report.duration_s:.1f} s"))))
        fields += field_item(_("File"), para(literal(path.name)))
        return fields

    def summary(self, report: Report) -> nodes.table:
        rows: list[list[Cell]] = [[status_badge(status), str(count)] for status, count in report.summary.items()]
        rows.append([_("total"), str(len(report.results))])
        return table([_("Status"), _("Scenario runs")], rows, ["guinote-results-summary"])

    def areas(self, report: Report) -> nodes.Node:
        columns = report.columns()
        rows: list[list[Cell]] = []
        docname = self.env.docname
        for area, cells in report.by_area().items():
            ref = area_ref(area, area, docname)
            assert isinstance(ref, nodes.Element)
            ref[CHAPTER_TITLE] = True  # a reader finds the area by its chapter's title, in their language
            row: list[Cell] = [ref]
            for column in columns:
                cell = cells.get(column)
                if cell is None:
                    row.append("—")
                    continue
                counts = cell.counts
                passed, total = counts.get(Status.PASS, 0), len(cell.results)
                parts: list[nodes.Node] = [nodes.Text(_("{passed}/{total} pass").format(passed=passed, total=total))]
                for status, count in counts.items():
                    if status is not Status.PASS:
                        parts += [nodes.Text(" "), status_badge(status, f"{count} {status.value}")]
                row.append(parts)
            rows.append(row)
        if not rows:
            return text_para(_("The results file lists no scenario runs."))
        return table([_("Rule area"), *map(shown, columns)], rows, ["guinote-results-areas"])

    def problems(self, report: Report, data: RulebookData) -> list[nodes.Node]:
        docname = self.env.docname
        groups = report.failure_groups()
        # the runs not played are no failure of a rule: one line per reason, before the failures
        out: list[nodes.Node] = [
            text_para(_("{count} scenario runs not run: {reason}").format(count=len(runs), reason=reason))
            for reason, runs in report.not_run.items()
        ]
        out.append(rubric(_("Failures ({count})").format(count=len(groups))))
        if not groups:
            out.append(text_para(_("No failure, error, timeout or unexpected pass.")))
            return out
        for group in groups:
            entry = group.first
            block = nodes.container(classes=["guinote-failure"])
            rules: list[nodes.Node] = []
            for rule in entry.rules:
                rules += [rule_ref(rule, docname) if rule in data.rules else literal(rule), nodes.Text(" ")]
            # the location links to the scenario as the rulebook renders it
            where = xref("scenario", entry.location, entry.location, docname, warn=False, classes=["guinote-code"])
            block += para(
                status_badge(entry.status), nodes.Text(" "), nodes.strong(entry.scenario, entry.scenario),
                nodes.Text(" "), where,
            )  # fmt: skip
            profiles = shown(", ".join(group.profiles))
            detail: list[nodes.Node] = [nodes.Text(_("profile {profile}").format(profile=profiles))]
            if entry.flags:
                flags = " ".join(f"{k}={v}" for k, v in entry.flags.items())
                detail += [nodes.Text(", " + _("flags") + " "), literal(flags)]
            if rules:
                detail += [nodes.Text(", " + _("rules") + " "), *rules]
            block += para(*detail)
            if entry.message:
                block += code_block(shown(entry.message), "text")
            if entry.rerun:
                block += code_block(shown(entry.rerun), "shell")
            out.append(block)
        return out
