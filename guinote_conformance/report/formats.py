"""Reports built from a :class:`~guinote_conformance.results.report.Report`: the terminal summary, the
one-file HTML report and the JUnit XML file.

Each puts first, or last, what an engine author staring at a red CI wants: the rules most likely
broken (:mod:`guinote_conformance.oracle.causes`). The HTML report leads with them, then one block per
failure, then the rules × profiles matrix; the terminal reads like pytest's (:func:`summary_lines`):
the failures grouped by their likely cause, the first few of each in full, then the counts and the
verdict, and it ends with the likely causes. A scenario failing the same way under several profiles
is one block; a failure blocked by another rule before its own
(:attr:`~guinote_conformance.results.case.CaseResult.blocked_by`) is one line under that rule, and in JUnit a
``blocked_by`` property of its test case. Every text an engine wrote is escaped wherever it is shown.
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
from guinote_conformance.oracle.causes import (
    Cause,
    NumericDifference,
    by_root_cause,
    likely_causes,
    numeric_differences,
)
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


def failure_lines(group: FailureGroup, texts: dict[str, RuleText] | None = None, *, steps: bool = False) -> list[str]:
    """One failure block as plain text lines (for the terminal); with ``steps`` (``run -vv``), the
    scenario's steps, the failing one marked."""
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
    if steps:
        lines.extend(f"    {'>>' if step.line == result.failed_line else '  '} {step.line:4} {step.keyword} {step.text}"
                     for step in result.steps)  # fmt: skip
    lines.append(f"    re-run: {result.rerun}")
    return lines


def blocked_line(group: FailureGroup) -> str:
    """A failure blocked before its own rule, in one line under the rule that blocked it, its root
    cause: its place, its own rules, the scenario, the profiles, where it went wrong."""
    result = group.first
    d = result.divergence
    where = f" — line {d.step_line}: {d.what}" if d is not None else ""
    under = ", ".join(group.profiles) + (f" @{result.symmetry}" if result.symmetry else "")
    rules = ", ".join(result.rules) or "-"
    return f"  {result.status.glyph} {result.location}  {rules}  {result.scenario}  [{under}]{where}"


def cause_lines(causes: list[Cause], texts: dict[str, RuleText] | None = None, start: int = 1) -> list[str]:
    texts = texts if texts is not None else {}
    lines = []
    for rank, cause in enumerate(causes, start):
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


#: How many failures of one likely cause the terminal shows in full, and how many of those it
#: blocked as one line each (``run -v``: every one); the rest are counted, with how to see them.
SHOWN_PER_CAUSE = 3


def summary_lines(report: Report, *, failures: bool = True, trace: bool = False, verbosity: int = 0) -> list[str]:
    """The terminal's account of a run, read like pytest's: the failures by likely cause
    (:func:`failure_section`), the counts (:func:`closing_lines`), and, last, the likely causes
    (:func:`cause_section`). ``run`` prints the table by area and the reports' paths in between."""
    lines = failure_section(report, trace=trace, verbosity=verbosity) if failures else []
    lines += closing_lines(report, verbosity=verbosity)
    return lines + cause_section(report)


def failure_section(report: Report, *, trace: bool = False, verbosity: int = 0) -> list[str]:
    """The failures, grouped by the likely cause that explains them
    (:func:`~guinote_conformance.oracle.causes.by_root_cause`), the highest ranked first: under each,
    its first :data:`SHOWN_PER_CAUSE` failures of distinct scenarios in full (a scenario failing
    again under a symmetry adds nothing to read), the failures it blocked before their own rule
    one line each, and the rest counted, with how to see them. ``verbosity`` above 0 (``run -v``)
    shows every failure; above 1 (``-vv``) each with its steps."""
    texts = rule_texts()
    sections = [(block.cause, list(block.groups)) for block in by_root_cause(report)]
    if not sections:
        return []
    groups = sum(len(groups) for _, groups in sections)
    runs = sum(len(group.members) for _, section in sections for group in section)
    lines = [f"== Failures, by likely cause ({_plural(groups, 'failure block')} for {_plural(runs, 'run')}) =="]
    for cause, section in sections:
        rule = cause.rule if cause is not None else None
        blocked = [group for group in section if rule is not None and group.blocked_by == rule]
        own = [group for group in section if rule is None or group.blocked_by != rule]
        own.sort(key=lambda group: rule not in group.first.rules)  # the scenarios of the rule itself first
        lines.append("")
        lines.append(_section_heading(cause, own, blocked, texts))
        shown_own = own if verbosity > 0 else _distinct(own)[:SHOWN_PER_CAUSE]
        for group in shown_own:
            lines.append("")
            lines.extend(failure_lines(group, texts, steps=verbosity > 1))
            if trace:
                lines.extend(f"      | {transcript_line(entry)}" for entry in group.first.transcript)
        shown_blocked = blocked if verbosity > 0 else _distinct(blocked)[:SHOWN_PER_CAUSE]
        if shown_blocked:
            lines.append("")
            lines.append(f"  blocked at {rule} before reaching their own rule:")
            lines.extend(blocked_line(group) for group in shown_blocked)
        seen = {id(group) for group in shown_own + shown_blocked}
        hidden = [group for group in own + blocked if id(group) not in seen]
        if hidden:
            shown_ids = {group.first.id for group in shown_own + shown_blocked}
            again = sum(1 for group in hidden if group.first.id in shown_ids)
            also = f", {again} of them a scenario above under another symmetry" if again else ""
            lines.append(f"  … {_plural(len(hidden), 'more failure block')} of this cause not shown{also} "
                         "(-v shows every one; index.html has each with its transcript)")  # fmt: skip
    lines.append("")
    return lines


def _section_heading(cause: Cause | None, own: list[FailureGroup], blocked: list[FailureGroup],
                     texts: dict[str, RuleText]) -> str:  # fmt: skip
    """The line that opens the failures of one cause."""
    count = _plural(len(own) + len(blocked), "failure block")
    if cause is None:
        return (f"-- not ranked: {count} that ended in an engine error or a timeout, or a known failure that "
                "now passes (an error or a timeout: check the harness first: validate, smoke) --")  # fmt: skip
    statement = f": {texts[cause.rule].statement}" if cause.rule in texts else ""
    also = f", {len(blocked)} of them blocked before their own rule" if blocked else ""
    return f"-- {cause.title} ({count}{also}){statement} --"


def _distinct(groups: list[FailureGroup]) -> list[FailureGroup]:
    """``groups`` with one group per scenario, in their order: the scenario as written where it
    failed so, rather than under a symmetry of it."""
    kept: dict[tuple[str, str], FailureGroup] = {}
    for group in groups:
        key = (group.first.id, group.first.engine)
        if key not in kept or (kept[key].first.symmetry and not group.first.symmetry):
            kept[key] = group
    chosen = {id(group) for group in kept.values()}
    return [group for group in groups if id(group) in chosen]


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def closing_lines(report: Report, *, verbosity: int = 0) -> list[str]:
    """The counts that close a run: the runs not run by reason, the runs not applicable (by reason
    with ``run -v``, else in one line), the passing runs with checks not made (not with ``-q``),
    and the verdict."""
    lines = not_run_lines(report)
    if verbosity > 0:
        lines.extend(not_applicable_lines(report, limit=len(report.not_applicable)))
    elif report.not_applicable:
        runs = sum(len(found) for found in report.not_applicable.values())
        reasons = _plural(len(report.not_applicable), "reason")
        lines.append(f"{runs} not applicable, for {reasons} (-v lists them; results.json has each run's)")
    if verbosity >= 0:
        lines.extend(not_checked_lines(report))
    counts = ", ".join(f"{count} {status.label}" for status, count in report.summary.items() if count)
    verdict = "FAILED" if report.problems else "PASSED"
    lines.append(f"{verdict}: {len(report.results)} scenario runs: {counts or 'none'}")
    return lines


def cause_section(report: Report) -> list[str]:
    """The likely causes, the last lines of a run: each rule with its evidence and the command that
    re-runs its first failure (none for a run without failures)."""
    groups = report.failure_groups()
    if not groups:
        return []
    texts = rule_texts()
    causes = likely_causes(report)
    failed = sum(len(group.members) for group in groups)
    shared = numeric_differences([g for g in groups if g.first.status is Status.FAIL])
    lines = ["Shared numeric differences: " + "; ".join(d.text for d in shared[:3])] if shared else []
    broken = [r for r in report.problems if r.status in (Status.ERROR, Status.TIMEOUT)]
    if broken:
        lines.append(
            f"{len(broken)} runs ended in an engine error or timeout (not ranked below): "
            "check the harness first (guinote-conformance validate / smoke)"
        )
    lines.append(f"Likely causes ({_plural(len(groups), 'failure block')} for {_plural(failed, 'run')}):")
    for rank, cause in enumerate(causes, 1):
        lines.extend(cause_lines([cause], texts, start=rank))
        # a scenario of the rule itself, else one it did not block, shows the rule broken most plainly
        ranked = sorted(
            cause.groups, key=lambda g: (cause.rule not in g.first.rules, bool(g.blocked_by), bool(g.first.symmetry))
        )
        if ranked and ranked[0].first.rerun:
            lines.append(f"     re-run its first failure: {ranked[0].first.rerun}")
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
    "blocked_line",
    "cause_section",
    "closing_lines",
    "failure_section",
    "render_html",
    "rulebook_url",
    "run_line",
    "summary_lines",
    "write_html",
    "write_junit",
]
