"""Reports built from a :class:`~guinote_conformance.results.report.Report`: the terminal summary, the
one-file HTML report and the JUnit XML file.

Each leads with what an engine author staring at a red CI wants first: the verdict and the
rules most likely broken (:mod:`guinote_conformance.oracle.causes`), then one block per failure (a scenario
failing the same way under several profiles is one block; a failure blocked by another rule before
its own, :attr:`~guinote_conformance.results.case.CaseResult.blocked_by`, is one line under that rule, and
in JUnit a ``blocked_by`` property of its test case), then the rules × profiles matrix.
Every text an engine wrote is escaped wherever it is shown.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader

from guinote_conformance import __version__
from guinote_conformance.adapters.vocabulary import HAND_END_REASONS
from guinote_conformance.base.paths import published_rulebook
from guinote_conformance.base.untrusted import shown, template_value
from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.oracle.causes import Cause, NumericDifference, likely_causes, numeric_differences
from guinote_conformance.results.case import CaseResult, area_of, area_order
from guinote_conformance.results.report import FailureGroup, Report
from guinote_conformance.results.status import Status, legend

#: Where the rulebook's rule pages are by default: the English edition published for this very
#: version of the suite, so that a report made from the wheel links to the rules it checked.
#: ``$GUINOTE_RULEBOOK_URL`` (or ``site --rulebook-url``) names another: a URL, or the folder of a
#: local build (``tox -e docs`` writes ``docs/_build/html``; a bilingual build's ``en/`` is taken).
DEFAULT_RULEBOOK = published_rulebook(__version__)
#: Characters XML 1.0 cannot carry: :func:`~guinote_conformance.base.untrusted.shown` has already made them
#: visible escapes, this is the last guard of the file's well-formedness.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class RuleText:
    statement: str
    area: str


def rule_texts() -> dict[str, RuleText]:
    """Each rule's statement and area, or nothing when the rule index is not beside the package."""
    try:
        return {rule.id: RuleText(rule.statement, rule.area) for rule in load_rules().values()}
    except Exception:  # a copied results file still renders without the rule index
        return {}


def rulebook_root(base: str | None = None) -> str:
    """The rulebook edition the links go to: ``base``, ``$GUINOTE_RULEBOOK_URL`` or the published one.
    A folder (no ``scheme://``) is a local build, linked as ``file:``; the root of a bilingual build
    (``en/`` and ``es/`` inside) stands for its English edition."""
    root = base or os.environ.get("GUINOTE_RULEBOOK_URL") or DEFAULT_RULEBOOK
    if "://" in root:
        return root.rstrip("/")
    folder = Path(root).expanduser().resolve()
    if (folder / "en" / "index.html").is_file():
        folder = folder / "en"
    return folder.as_uri()


def rulebook_url(rule: str, base: str | None = None) -> str:
    return f"{rulebook_root(base)}/rulebook/{area_of(rule)}.html#rule-{rule.lower()}"


def feature_url(feature: str) -> str:
    path = Path(feature)
    return (path if path.is_absolute() else Path.cwd() / path).as_uri()


def reason_notes(result: CaseResult) -> list[str]:
    """What the hand-end reasons of a failed check mean (from the vocabulary), if it compares them."""
    notes = []
    for label, text in (("expected", result.expected), ("got", result.got)):
        reason = (text or "").strip('"')
        if reason in HAND_END_REASONS:
            notes.append(f"{label} {reason}: {HAND_END_REASONS[reason]}")
    return notes


# ---------------------------------------------------------------------------------- plain text


def failure_lines(group: FailureGroup, texts: dict[str, RuleText] | None = None) -> list[str]:
    """One failure block as plain text lines (for the terminal)."""
    result = group.first
    texts = texts if texts is not None else {}
    stage = f" — {result.stage_text}" if result.stage else ""
    lines = [
        f"{result.status.glyph} {result.status.label}{stage}: {result.scenario}",
        f"    {result.location}  rules {', '.join(result.rules) or '-'}  profiles {', '.join(group.profiles)}",
    ]
    if result.rules and result.rules[0] in texts:
        lines.append(f"    {result.rules[0]}: {texts[result.rules[0]].statement}")
    lines.append(f"    {result.message}")
    lines.extend(f"    ({note})" for note in reason_notes(result))
    if result.divergence is not None:
        d = result.divergence
        rule = f" — the engine's answer breaks {d.rule}" if d.rule else ""
        lines.append(f"    first divergence (line {d.step_line}): {d.call}: {d.what}{rule}")
    lines.append(f"    re-run: {result.rerun}")
    return lines


def blocked_lines(blocked: dict[str, list[FailureGroup]], texts: dict[str, RuleText] | None = None) -> list[str]:
    """The failures blocked before their own rule, collapsed under the rule that blocked them:
    a heading per root cause, then one line per blocked scenario (its place, its own rules, the
    profiles, where it went wrong)."""
    texts = texts if texts is not None else {}
    lines: list[str] = []
    for rule, groups in blocked.items():
        statement = f": {texts[rule].statement}" if rule in texts else ""
        count = f"{len(groups)} failure{'' if len(groups) == 1 else 's'}"
        lines.append(f"Blocked by {rule}{statement}")
        lines.append(f"  {count} of other rules went wrong at {rule} before reaching their own:")
        for group in groups:
            result = group.first
            d = result.divergence
            where = f" — line {d.step_line}: {d.what}" if d is not None else ""
            lines.append(
                f"  {result.status.glyph} {result.location}  {', '.join(result.rules) or '-'}  {result.scenario}  "
                f"[{', '.join(group.profiles)}]{where}"
            )
        lines.append("")
    return lines


def cause_lines(causes: list[Cause], texts: dict[str, RuleText] | None = None) -> list[str]:
    texts = texts if texts is not None else {}
    lines = []
    for rank, cause in enumerate(causes, 1):
        statement = f": {texts[cause.rule].statement}" if cause.rule in texts else ""
        count = len(cause.groups)
        lines.append(f"{rank}. {cause.title} explains {count} failure{'' if count == 1 else 's'}{statement}")
        lines.extend(f"     - {line}" for line in cause.evidence)
    return lines


def not_run_lines(report: Report, limit: int = 5) -> list[str]:
    """One line per reason why scenario runs were not played (the most frequent first)."""
    reasons = list(report.not_run.items())
    lines = [f"{len(runs)} scenario run{'' if len(runs) == 1 else 's'} not run: {reason}" for reason, runs in reasons]
    if len(lines) > limit:
        rest = sum(len(runs) for _, runs in reasons[limit:])
        lines[limit:] = [f"{rest} more not run, for {len(reasons) - limit} other reasons (results.json has each)"]
    return lines


def not_applicable_lines(report: Report, limit: int = 8) -> list[str]:
    """One line per reason why scenario runs were not applicable, the most frequent first."""
    reasons = list(report.not_applicable.items())
    lines = [f"{len(runs)} not applicable: {reason}" for reason, runs in reasons[:limit]]
    if len(reasons) > limit:
        rest = sum(len(runs) for _, runs in reasons[limit:])
        lines.append(f"{rest} more not applicable, for {len(reasons) - limit} other reasons (results.json has each)")
    return lines


def not_checked_lines(report: Report) -> list[str]:
    """Passing runs with checks not made because the protocol does not require them of the engine."""
    return [
        f"{len(runs)} passing run{'' if len(runs) == 1 else 's'} with checks not made: {why}"
        for why, runs in report.not_checked.items()
    ]


def run_line(result: CaseResult) -> str:
    """One scenario run in one line (``run -v`` prints one per run as it ends)."""
    under = result.profile + (f" @{result.symmetry}" if result.symmetry else "")
    return (
        f"{result.status.glyph} {result.status.label:<14} {result.feature}:{result.line}  {result.scenario}  [{under}]"
    )


def summary_lines(report: Report, *, failures: bool = True, trace: bool = False, verbosity: int = 0) -> list[str]:
    """The terminal summary after a run: verdict, likely causes, one block per failure, counts.

    ``verbosity`` below 0 (``run -q``) leaves out the reasons of the runs not applicable and the
    checks not made (the counts say how many); above 0 (``-v``) lists every not-applicable reason."""
    texts = rule_texts()
    groups = report.failure_groups()
    lines: list[str] = []
    if groups:
        causes = likely_causes(report)
        failed = sum(len(group.members) for group in groups)
        blocks = f"{len(groups)} failure block{'' if len(groups) == 1 else 's'}"
        runs = f"{failed} run{'' if failed == 1 else 's'}"
        lines.append(f"Likely causes ({blocks} for {runs}):")
        lines.extend(cause_lines(causes, texts))
        broken = [r for r in report.problems if r.status in (Status.ERROR, Status.TIMEOUT)]
        if broken:
            lines.append(
                f"{len(broken)} runs ended in an engine error or timeout (not ranked above): "
                "check the harness first (guinote-conformance validate / smoke)"
            )
        shared = numeric_differences([g for g in groups if g.first.status is Status.FAIL])
        if shared:
            lines.append("Shared numeric differences:")
            lines.extend(f"   - {difference.text}" for difference in shared[:3])
        lines.append("")
    if failures:
        for group in groups:
            if group.blocked_by:
                continue  # collapsed under the rule that blocked it, below
            lines.extend(failure_lines(group, texts))
            if trace:
                lines.extend(f"      | {transcript_line(entry)}" for entry in group.first.transcript)
            lines.append("")
        lines.extend(blocked_lines(report.blocked(groups), texts))
    lines.extend(not_run_lines(report))
    if verbosity >= 0:
        reasons = len(report.not_applicable) if verbosity > 0 else 8
        lines.extend(not_applicable_lines(report, limit=reasons))
        lines.extend(not_checked_lines(report))
    counts = ", ".join(f"{count} {status.label}" for status, count in report.summary.items() if count)
    verdict = "FAILED" if report.problems else "PASSED"
    lines.append(f"{verdict}: {len(report.results)} scenario runs: {counts or 'none'}")
    return lines


def transcript_line(entry: Any) -> str:
    """One call of a transcript as a line: ``→ apply {...}  ← {...}``."""
    import json

    if entry.get("call") == "omitted":
        return f"… {entry.get('count')} calls left out …"
    args = entry.get("args")
    shown = "" if args is None else " " + (args if isinstance(args, str) else json.dumps(args, ensure_ascii=False))
    if "error" in entry:
        answer = f"raised {entry['error']}"
    else:
        value = entry.get("answer")
        answer = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"[{entry.get('step', '?')}] {entry.get('call')}{shown} -> {answer}"


# ---------------------------------------------------------------------------------- HTML


def render_html(report: Report) -> str:
    # every text may come from the engine: escape all of it (select_autoescape would leave a
    # template named *.html.j2 unescaped), after finalize has made its control characters visible
    env = Environment(
        loader=PackageLoader("guinote_conformance.report", "templates"), autoescape=True, finalize=template_value
    )
    env.filters["transcript_line"] = transcript_line
    texts = rule_texts()
    groups = report.failure_groups()
    blocked = report.blocked(groups)
    group_of: dict[int, str] = {}
    for group in groups:
        for member in group.members:
            group_of[id(member)] = group.key
    spans: list[tuple[str, int]] = []
    for column in report.columns():
        title = report.engine_of_column(column).title
        if spans and spans[-1][0] == title:
            spans[-1] = (title, spans[-1][1] + 1)
        else:
            spans.append((title, 1))
    by_rule = report.by_rule()
    areas = sorted({area_of(rule) for rule in by_rule}, key=area_order)
    return env.get_template("report.html.j2").render(
        report=report,
        engines=report.engines,
        columns=report.columns(),
        by_area=report.by_area(),
        by_rule=by_rule,
        areas=areas,
        causes=likely_causes(report) if report.problems else [],
        crashed=[r for r in report.problems if r.status in (Status.ERROR, Status.TIMEOUT)],
        shared=numeric_differences([g for g in groups if g.first.status is Status.FAIL])[:5],
        groups=groups,
        own_groups=[group for group in groups if not group.blocked_by],
        blocked=blocked,
        group_key=lambda result: group_of.get(id(result), ""),
        engine_spans=spans,
        not_applicable=list(report.not_applicable.items()),
        not_checked=list(report.not_checked.items()),
        not_run=not_run_lines(report),
        texts=texts,
        statuses=list(Status),
        rulebook_url=rulebook_url,
        reason_notes=reason_notes,
        feature_url=feature_url,
        area_of=area_of,
        column_of=report.column,
        legend=legend(),
    )


def write_html(report: Report, out: Path) -> Path:
    """Write ``index.html`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "index.html"
    target.write_text(render_html(report), encoding="utf-8")
    return target


# ---------------------------------------------------------------------------------- JUnit


def _xml(text: object) -> str:
    """Text for the JUnit file: an engine's ESC or NUL shown as ``\\x1b``, never dropped."""
    return _XML_ILLEGAL.sub("\ufffd", shown(text))


def junit_name(result: CaseResult, report: Report) -> str:
    rules = " ".join(result.rules) or "(no rule)"
    where = f"{report.engine(result.engine).name} · {result.profile}"
    where += f" · {result.symmetry}" if result.symmetry else ""  # the same scenario in a rotated, relabelled world
    return f"{rules}: {result.scenario} ({result.location}) [{where}]"


def junit_body(result: CaseResult) -> str:
    lines = [f"{result.location}  engine {result.engine}  profile {result.profile}"]
    if result.symmetry:
        lines[0] += f"  symmetry {result.symmetry}"
    if result.stage:
        lines.append(f"stage: {result.stage_text}")
    if result.blocked_by:
        lines.append(f"blocked by {result.blocked_by}: went wrong there before reaching its own rules")
    if result.divergence is not None:
        d = result.divergence
        lines.append(f"first divergence from the reference (line {d.step_line}): {d.call}: {d.what}")
        if d.rule:
            lines.append(f"  the engine's answer breaks {d.rule} ({d.basis})")
    if result.steps:
        lines.append("steps:")
        for step in result.steps:
            mark = ">>" if step.line == result.failed_line else "  "
            lines.append(f"{mark} {step.line:4} {step.keyword} {step.text}")
    if result.transcript:
        lines.append("transcript:")
        lines.extend(f"  {transcript_line(entry)}" for entry in result.transcript)
    if result.stderr:
        lines.append("engine stderr (tail):")
        lines.extend(f"  | {line}" for line in result.stderr)
    lines.append(f"re-run: {result.rerun}")
    return "\n".join(lines)


def write_junit(report: Report, path: Path) -> Path:
    """JUnit XML: a case per scenario run, named by rule ID and scenario, classname by area."""
    suites = ET.Element("testsuites", name="guinote-conformance")
    for entry in report.engines or []:
        mine = [r for r in report.results if r.engine == entry.spec]
        counts = {status: sum(1 for r in mine if r.status is status) for status in Status}
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=_xml(f"guinote-conformance: {entry.title}"),
            tests=str(len(mine)),
            failures=str(counts[Status.FAIL] + counts[Status.XPASS]),
            errors=str(counts[Status.ERROR] + counts[Status.TIMEOUT] + counts[Status.NOT_RUN]),
            skipped=str(counts[Status.NOT_APPLICABLE] + counts[Status.XFAIL]),
            time=f"{sum(r.duration_s for r in mine):.3f}",
            timestamp=_xml(report.started),  # a results file given to ``report`` may come from anywhere
        )
        # what ran: the suite's and the protocol's versions, where a CI page shows the suite
        properties = ET.SubElement(suite, "properties")
        for name, value in (
            ("suite version", report.suite.version),
            ("suite commit", report.suite.commit),
            ("protocol", report.suite.protocol_name),
            ("engine protocol", f"GCP/{entry.protocol}" if entry.protocol else "GCP/?"),
        ):
            ET.SubElement(properties, "property", name=name, value=_xml(value))
        why = not_run_lines(Report(results=[r for r in mine if r.status is Status.NOT_RUN]))
        if why:  # why runs are missing, in one line
            ET.SubElement(properties, "property", name="not run", value=_xml("; ".join(why)))
        for result in mine:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_xml(f"{result.areas[0]}.{result.profile}"),
                name=_xml(junit_name(result, report)),
                file=_xml(result.feature),
                line=str(result.line),
                time=f"{result.duration_s:.3f}",
            )
            if result.blocked_by:  # the root cause, for CI pages that group or filter by property
                properties_of_case = ET.SubElement(case, "properties")
                ET.SubElement(properties_of_case, "property", name="blocked_by", value=_xml(result.blocked_by))
            message = result.message.split("\n")[0][:500]
            if result.what and result.expected is not None:
                message = f"{result.what}: expected {result.expected}, got {result.got}"
            if result.status in (Status.FAIL, Status.XPASS):
                node = ET.SubElement(case, "failure", message=_xml(message), type=result.status.value)
                node.text = _xml(junit_body(result))
            elif result.status in (Status.ERROR, Status.TIMEOUT):
                node = ET.SubElement(case, "error", message=_xml(message), type=result.status.value)
                node.text = _xml(junit_body(result))
            elif result.status is Status.NOT_RUN:
                # an error, not <skipped>: CI systems show a skip as green, and a run that did not play
                # its scenarios has not passed them; nor a <failure>, which says the rule was broken
                ET.SubElement(case, "error", message=_xml(f"not run: {result.message}"[:500]), type="not_run")
            elif result.status in (Status.NOT_APPLICABLE, Status.XFAIL):
                ET.SubElement(case, "skipped", message=_xml(f"{result.status.label}: {result.message}"[:500]))
    tree = ET.ElementTree(suites)
    ET.indent(tree)
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path


__all__ = [
    "Cause",
    "NumericDifference",
    "blocked_lines",
    "render_html",
    "rulebook_url",
    "run_line",
    "summary_lines",
    "write_html",
    "write_junit",
]
