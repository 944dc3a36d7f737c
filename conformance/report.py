"""Reports built from a results file: the summary by rule area and profile, and the static
HTML matrix of rules × engines/profiles with every failure, what was expected, what came
back, and the command that re-runs just that scenario."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from conformance.rule_index import AREAS, load_rules

STATUSES = ("pass", "fail", "error", "timeout", "not_applicable", "xfail", "xpass")
BAD = ("fail", "error", "timeout", "xpass")
GLYPHS = {"pass": "✔", "fail": "✖", "error": "⚠", "timeout": "⧗", "not_applicable": "⊘", "xfail": "◌", "xpass": "✱"}


def load_results(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != "guinote-conformance-results/1":
        raise ValueError(f"{path}: not a guinote-conformance results file (format {data.get('format')!r})")
    return data


def area_of(rule_id: str) -> str:
    prefix = rule_id.split("-")[0]
    for area, prefixes in AREAS:
        if prefix in prefixes:
            return area
    return "other"


@dataclass
class Cell:
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def worst(self) -> str:
        for status in ("fail", "error", "timeout", "xpass", "xfail", "pass", "not_applicable"):
            if self.counts.get(status):
                return status
        return "none"

    @property
    def label(self) -> str:
        return " ".join(
            f"{GLYPHS[s]}{n}" for s, n in sorted(self.counts.items(), key=lambda kv: STATUSES.index(kv[0])) if n
        )


def columns(results: list[dict[str, Any]]) -> list[str]:
    return sorted({f"{r['engine']} · {r['profile']}" for r in results})


def summary_by_area(results: list[dict[str, Any]]) -> dict[str, dict[str, Cell]]:
    """area -> column -> counts (a scenario counts once per area it has a rule in)."""
    table: dict[str, dict[str, Cell]] = defaultdict(lambda: defaultdict(Cell))
    for result in results:
        column = f"{result['engine']} · {result['profile']}"
        for area in sorted({area_of(rule) for rule in result["rules"]}):
            table[area][column].counts[result["status"]] += 1
    order = {area: n for n, (area, _) in enumerate(AREAS)}
    return dict(sorted(table.items(), key=lambda item: order.get(item[0], len(order))))


def matrix_by_rule(results: list[dict[str, Any]]) -> dict[str, dict[str, Cell]]:
    table: dict[str, dict[str, Cell]] = defaultdict(lambda: defaultdict(Cell))
    for result in results:
        column = f"{result['engine']} · {result['profile']}"
        for rule in result["rules"]:
            table[rule][column].counts[result["status"]] += 1
    return table


def write_html(results_path: Path, out: Path) -> Path:
    """Write ``index.html`` (the matrix and the failures) beside the results."""
    data = load_results(results_path)
    results = data["results"]
    try:
        statements = {rule.id: rule.statement for rule in load_rules().values()}
    except Exception:  # the report must still render without the rule index (e.g. a copied results file)
        statements = {}
    order = {area: n for n, (area, _) in enumerate(AREAS)}
    by_rule = matrix_by_rule(results)
    rules = sorted(by_rule, key=lambda rule: (order.get(area_of(rule), 99), rule))
    env = Environment(loader=PackageLoader("conformance", "templates"), autoescape=select_autoescape())
    html = env.get_template("report.html.j2").render(
        data=data,
        columns=columns(results),
        rules=rules,
        by_rule=by_rule,
        areas=summary_by_area(results),
        area_of=area_of,
        statements=statements,
        problems=[r for r in results if r["status"] in BAD],
        not_applicable=[r for r in results if r["status"] == "not_applicable"],
        glyphs=GLYPHS,
    )
    out.mkdir(parents=True, exist_ok=True)
    target = out / "index.html"
    target.write_text(html, encoding="utf-8")
    return target
