"""``guinote-results``: a conformance results file shown with the report's own functions
(:mod:`conformance.report`): summary, rule area × profile, and the failures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from conformance.report import BAD, STATUSES, load_results, summary_by_area
from conformance.rulebook_data import RulebookData
from guinote_rulebook.data import results_path
from guinote_rulebook.directives.base import RulebookDirective, logger
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


def status_badge(status: str, text: str | None = None) -> nodes.inline:
    return badge(text or status, f"status-{status}")


class ResultsDirective(RulebookDirective):
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"path": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        data = self.data()
        path = results_path(self.env, self.options.get("path"))
        if not path.exists():
            text = _("No results file at {path}. Run the suite and point GUINOTE_RESULTS at its results.json.")
            return self.finish([note(text_para(text.format(path=path)))])
        self.env.note_dependency(str(path))
        try:
            results = load_results(path)
            entries = [entry for entry in results.get("results", []) if isinstance(entry, dict)]
            by_area = summary_by_area(entries)
        except (OSError, ValueError, KeyError, TypeError) as error:
            logger.warning("guinote-results: %s: %s", path, error, location=self.get_location())
            text = _("The results file {path} could not be read: {error}").format(path=path, error=error)
            return self.finish([note(text_para(text), kind=nodes.warning)])
        out: list[nodes.Node] = []
        if results.get("sample"):
            text = _("This is a sample results file, not a real run: it shows what the page looks like.")
            extra = [text_para(str(results["note"]))] if results.get("note") else []
            out.append(note(text_para(text), *extra, kind=nodes.warning))
        out.append(self.header(results, path))
        out.append(self.summary(results, entries))
        out.append(self.areas(by_area))
        out.extend(self.problems(entries, data))
        return self.finish(out)

    def header(self, results: dict[str, Any], path: Path) -> nodes.field_list:
        engine = results.get("engine", {}) or {}
        run = results.get("run", {}) or {}
        fields = nodes.field_list(classes=["guinote-results-header"])
        name = f"{engine.get('name', '?')} {engine.get('version', '')}".strip()
        fields += field_item(_("Engine"), para(nodes.Text(f"{name} ({engine.get('language', '?')})")))
        suite = str((results.get("suite") or {}).get("version", "?"))
        fields += field_item(_("Suite version"), para(nodes.Text(suite)))
        duration = run.get("duration_s")
        started = str(run.get("started", "?"))
        run_text = f"{started}, {duration:.1f} s" if isinstance(duration, int | float) else started
        fields += field_item(_("Run"), para(nodes.Text(run_text)))
        fields += field_item(_("File"), para(literal(path.name)))
        return fields

    def summary(self, results: dict[str, Any], entries: list[dict[str, Any]]) -> nodes.table:
        declared = results.get("summary") or {}
        counted = Counter(str(entry.get("status")) for entry in entries)
        rows: list[list[Cell]] = []
        for status in STATUSES:
            rows.append([status_badge(status), str(declared.get(status, counted.get(status, 0)))])
        total = sum(int(declared.get(s, counted.get(s, 0))) for s in STATUSES)
        rows.append([_("total"), str(total)])
        return table([_("Status"), _("Scenario runs")], rows, ["guinote-results-summary"])

    def areas(self, by_area: dict[str, dict[str, Any]]) -> nodes.Node:
        columns = sorted({column for cells in by_area.values() for column in cells})
        rows: list[list[Cell]] = []
        docname = self.env.docname
        for area, cells in by_area.items():
            row: list[Cell] = [area_ref(area, area, docname)]
            for column in columns:
                cell = cells.get(column)
                if cell is None or not sum(cell.counts.values()):
                    row.append("—")
                    continue
                counts = cell.counts
                total = sum(counts.values())
                parts: list[nodes.Node] = [
                    nodes.Text(_("{passed}/{total} pass").format(passed=counts.get("pass", 0), total=total))
                ]
                for status in STATUSES[1:]:
                    if counts.get(status):
                        parts += [nodes.Text(" "), status_badge(status, f"{counts[status]} {status}")]
                row.append(parts)
            rows.append(row)
        if not rows:
            return text_para(_("The results file lists no scenario runs."))
        return table([_("Rule area"), *columns], rows, ["guinote-results-areas"])

    def problems(self, entries: list[dict[str, Any]], data: RulebookData) -> list[nodes.Node]:
        docname = self.env.docname
        bad = [entry for entry in entries if entry.get("status") in BAD]
        out: list[nodes.Node] = [rubric(_("Failures ({count})").format(count=len(bad)))]
        if not bad:
            out.append(text_para(_("No failure, error, timeout or unexpected pass.")))
            return out
        for entry in bad:
            block = nodes.container(classes=["guinote-failure"])
            rules: list[nodes.Node] = []
            for rule in entry.get("rules", []):
                rules += [rule_ref(rule, docname) if rule in data.rules else literal(rule), nodes.Text(" ")]
            location = f"{entry.get('feature', '?')}:{entry.get('line', '?')}"
            name = str(entry.get("scenario", entry.get("id", "?")))
            # the location links to the scenario as the rulebook renders it
            where = xref("scenario", location, location, docname, warn=False, classes=["guinote-code"])
            block += para(
                status_badge(str(entry.get("status"))),
                nodes.Text(" "),
                nodes.strong(name, name),
                nodes.Text(" "),
                where,
            )
            flags = entry.get("flags") or {}
            detail: list[nodes.Node] = [nodes.Text(_("profile {profile}").format(profile=entry.get("profile", "?")))]
            if flags:
                detail += [nodes.Text(", " + _("flags") + " "), literal(" ".join(f"{k}={v}" for k, v in flags.items()))]
            if rules:
                detail += [nodes.Text(", " + _("rules") + " "), *rules]
            block += para(*detail)
            if entry.get("message"):
                block += code_block(str(entry["message"]), "text")
            if entry.get("rerun"):
                block += code_block(str(entry["rerun"]), "shell")
            out.append(block)
        return out
