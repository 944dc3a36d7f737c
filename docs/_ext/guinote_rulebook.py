"""Sphinx extension of the Guiñote conformance suite: the annotated rulebook.

It renders the project's own data, so the published rulebook can never drift from the suite:

* the rule index (``features/index/<area>.toml``, :mod:`conformance.rule_index`);
* the scenarios (``features/*.feature``, :mod:`conformance.catalogue`);
* the flags and profiles (:mod:`reference_engine.flags`, ``reference_engine/profiles.toml``);
* the JSON Schemas of the wire protocol (``adapters/schemas/*.json``);
* a conformance run: ``$GUINOTE_RESULTS`` (a results file CI made) or a run of the suite made
  at build time (:mod:`conformance.published`);
* a hand played at build time by the reference engine.

Directives: ``guinote-area``, ``guinote-flags-matrix``, ``guinote-flags``, ``guinote-profiles``,
``guinote-questions``, ``guinote-schemas``, ``guinote-results``, ``guinote-coverage``,
``guinote-example`` and ``guinote-automodules``. Roles: ``:rule:`ARR-01```, ``:flag:`deal```,
``:source:`S000``` and ``:question:`B-17```.

Every rule gets a section with the explicit label ``rule-<id lower>`` (``rule-arr-01``), every
flag ``flag-<name>``, every profile or overlay ``profile-<name>``, every open question
``question-<code lower>`` (``question-b-17``), every schema ``schema-<file stem>``; ``:ref:``
reaches them from any page.

Open questions (``features/index/questions.toml``) give a meaning to the codes ``B-nn`` (a
disagreement between sources) and ``C-nn`` (a gap no source settles) that the rule index, the
flags and the engine cite. Wherever the rulebook renders such a code it links to the question;
a code with no entry is a warning (unless the project has no questions file at all).

Missing data (an area not indexed yet, no schemas, no results file) renders as a note, never
as a warning, so the site builds with whatever exists; inconsistent data (a rule naming an
unknown flag, a malformed results file, a feature that does not parse) is a warning.
"""

from __future__ import annotations

import json
import os
import pkgutil
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from pygments.lexers import get_lexer_by_name
from pygments.token import Error as ErrorToken
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.parsing import nested_parse_to_nodes

from conformance.catalogue import Scenario, Step, load_scenarios, scenarios_by_rule
from conformance.results import Report, ResultsError, Status
from conformance.rule_index import AREAS, CUSTOM_ID, RULE_ID, SOURCE_IDS, Area, RuleEntry, load_areas

logger = logging.getLogger(__name__)

AGREEMENT_TEXT = {
    "yes": "the sources that cover it agree",
    "single": "stated by one source only",
    "disagree": "the sources disagree: each reading is a value of the flag",
    "derived": "follows from other rules; no source states it in so many words",
    "interpretation": "no source settles it; this is the project's reading",
}
REASONS = {
    "over_100": "it has 101 or more",
    "vueltas": "neither side has 101",
    "thirty_malas_lose": "the other side lacks its treinta malas",
    "thirty_malas_cannot_win": "the other side lacks its treinta malas",
    "thirty_malas_vueltas": "the side over 100 lacks its treinta malas",
    "tute": "it sang tute",
    "renuncio": "the other side made a renuncio",
}
RULE_ID_IN_TEXT = re.compile(r"(?<![A-Za-z0-9-])([A-Z]+-\d{2})(?![0-9])")
QUESTION_ID = re.compile(r"^[BC]-\d{2}$")
QUESTION_KINDS = {"B": "disagreement", "C": "gap"}
QUESTIONS_FILE = "questions.toml"
PREFIX_TO_AREA = {prefix: area_id for area_id, prefixes in AREAS for prefix in prefixes}


# ---------------------------------------------------------------------------------------------
# Custom nodes: a collapsible block and a scenario block (with data attributes for tests).


class details(nodes.General, nodes.Element):
    """A collapsible block (``<details>`` in HTML, plain content elsewhere)."""


class summary(nodes.General, nodes.TextElement):
    """The always-visible line of a :class:`details` block."""


class scenario_block(nodes.General, nodes.Element):
    """One rendered scenario; HTML carries its feature, line and name as data attributes."""


def _visit_details_html(self: Any, node: details) -> None:
    self.body.append(self.starttag(node, "details", CLASS="guinote-details"))


def _depart_details_html(self: Any, node: details) -> None:
    self.body.append("</details>\n")


def _visit_summary_html(self: Any, node: summary) -> None:
    self.body.append(self.starttag(node, "summary", suffix=""))


def _depart_summary_html(self: Any, node: summary) -> None:
    self.body.append("</summary>\n")


def _visit_scenario_html(self: Any, node: scenario_block) -> None:
    attributes = {
        "data-feature": node.get("feature", ""),
        "data-line": str(node.get("line", "")),
        "data-name": node.get("scenario", ""),
    }
    self.body.append(self.starttag(node, "div", CLASS="guinote-scenario", **attributes))


def _depart_div_html(self: Any, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def _visit_passthrough(self: Any, node: nodes.Element) -> None:
    """Other builders render the children only."""


def _depart_passthrough(self: Any, node: nodes.Element) -> None:
    pass


# ---------------------------------------------------------------------------------------------
# The data, loaded once per build (re-read when a file changes).


@dataclass(frozen=True)
class Question:
    """An open question: a disagreement between sources (``B-nn``) or a gap (``C-nn``)."""

    id: str
    kind: str
    title: str
    summary: str
    flags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


def load_questions(path: Path) -> tuple[dict[str, Question], list[str]]:
    """The questions of ``path`` by code, and the problems found (each one a message)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        return {}, [f"{path.name}: {error}"]
    questions: dict[str, Question] = {}
    errors: list[str] = []
    for entry in raw.get("question", []):
        code = str(entry.get("id", ""))
        where = f"{path.name}: question {code or '(no id)'}"
        if not QUESTION_ID.match(code):
            errors.append(f"{where}: a question ID looks like B-17 or C-10")
            continue
        if code in questions:
            errors.append(f"{where} is listed twice")
            continue
        kind = str(entry.get("kind", ""))
        if kind != QUESTION_KINDS[code[0]]:
            errors.append(f"{where}: kind must be {QUESTION_KINDS[code[0]]!r}")
        missing = [name for name in ("title", "summary") if not entry.get(name)]
        if missing:
            errors.append(f"{where}: missing {', '.join(missing)}")
        flag = entry.get("flag", ())
        flags = (flag,) if isinstance(flag, str) else tuple(str(name) for name in flag)
        questions[code] = Question(
            code,
            kind,
            str(entry.get("title", "")),
            str(entry.get("summary", "")),
            flags,
            tuple(str(rule) for rule in entry.get("rules", [])),
        )
    return questions, errors


@dataclass
class RulebookData:
    root: Path
    features: Path
    areas: list[Area] = field(default_factory=list)
    rules: dict[str, RuleEntry] = field(default_factory=dict)
    #: None when the project has no questions file (codes then render as plain text).
    questions: dict[str, Question] | None = None
    scenarios: list[Scenario] = field(default_factory=list)
    by_rule: dict[str, list[Scenario]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    errors_reported: bool = False

    def area(self, area_id: str) -> Area | None:
        return next((area for area in self.areas if area.id == area_id), None)

    def indexed_area_ids(self) -> set[str]:
        return {area.id for area in self.areas}

    def relative(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def data_files(self) -> list[Path]:
        return sorted(self.features.glob("index/*.toml")) + sorted(self.features.glob("*.feature"))


def _signature(paths: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    result = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            continue
        result.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(result)


_DATA_CACHE: dict[tuple[str, tuple[tuple[str, int, int], ...]], RulebookData] = {}


def repo_root(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_root
    return Path(configured).resolve() if configured else Path(env.srcdir).resolve().parent


def features_dir(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_features_dir
    return Path(configured).resolve() if configured else repo_root(env) / "features"


def schemas_dir(env: BuildEnvironment) -> Path:
    configured = env.config.guinote_schemas_dir
    return Path(configured).resolve() if configured else repo_root(env) / "adapters" / "schemas"


def results_path(env: BuildEnvironment, option: str | None = None) -> Path | None:
    """The results file to show; ``None``: run the suite now (conformance.published)."""
    chosen = option or os.environ.get("GUINOTE_RESULTS") or env.config.guinote_results
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()


def load_data(env: BuildEnvironment) -> RulebookData:
    root = repo_root(env)
    folder = features_dir(env)
    probe = RulebookData(root, folder)
    key = (str(folder), _signature(probe.data_files()))
    if key in _DATA_CACHE:
        return _DATA_CACHE[key]
    data = probe
    try:
        # questions.toml sits beside the area files but holds no rules: it is not an area
        data.areas = [area for area in load_areas(folder) if area.id != Path(QUESTIONS_FILE).stem or area.rules]
        for area in data.areas:
            for rule in area.rules:
                if rule.id in data.rules:
                    data.errors.append(f"rule {rule.id} is listed twice (areas {data.rules[rule.id].area}, {area.id})")
                data.rules.setdefault(rule.id, rule)
    except Exception as error:  # the index's own errors name the file and rule
        data.errors.append(f"rule index: {error}")
    questions_path = folder / "index" / QUESTIONS_FILE
    if questions_path.exists():
        data.questions, problems = load_questions(questions_path)
        data.errors.extend(problems)
    try:
        data.scenarios = load_scenarios(folder)
        data.by_rule = scenarios_by_rule(data.scenarios)
    except Exception as error:  # FeatureError carries file:line
        data.errors.append(f"features: {error}")
    _DATA_CACHE.clear()
    _DATA_CACHE[key] = data
    return data


def _engine_flags() -> tuple[dict[str, Any], dict[str, Any]]:
    from reference_engine.flags import flag_specs, profile_specs

    return dict(flag_specs()), dict(profile_specs())


def _profiles_toml() -> Path | None:
    try:
        spec = import_module("reference_engine")
    except ImportError:
        return None
    location = Path(str(spec.__file__)).parent / "profiles.toml"
    return location if location.exists() else None


def area_of_rule(rule_id: str) -> str | None:
    return PREFIX_TO_AREA.get(rule_id.split("-")[0])


# ---------------------------------------------------------------------------------------------
# Node helpers.


def text_para(text: str, classes: Sequence[str] = ()) -> nodes.paragraph:
    return nodes.paragraph(text, text, classes=list(classes))


def para(*children: nodes.Node, classes: Sequence[str] = ()) -> nodes.paragraph:
    node = nodes.paragraph(classes=list(classes))
    node.extend(children)
    return node


def literal(text: str, classes: Sequence[str] = ()) -> nodes.literal:
    return nodes.literal(text, text, classes=list(classes))


def badge(text: str, kind: str, link: str | None = None, docname: str = "") -> nodes.inline:
    """A badge; with ``link``, the badge's text links to that label (silently, if it is missing)."""
    classes = ["guinote-badge", f"guinote-badge-{kind}"]
    if link is None:
        return nodes.inline(text, text, classes=classes)
    node = nodes.inline(classes=classes)
    node += ref_to(link, text, docname, warn=False)
    return node


def ref_to(label: str, text: str, docname: str, *, warn: bool, classes: Sequence[str] = ()) -> nodes.Node:
    """A link to an explicit label showing ``text``, inside an inline with ``classes`` (the
    standard domain replaces the link's own content when it resolves it). Unresolved, it stays
    plain text, with a warning only if ``warn`` is true."""
    xref = addnodes.pending_xref(
        "",
        nodes.inline(text, text),
        refdomain="std",
        reftype="ref",
        reftarget=label,
        refexplicit=True,
        refwarn=warn,
        refdoc=docname,
    )
    if not classes:
        return xref
    wrapper = nodes.inline(classes=list(classes))
    wrapper += xref
    return wrapper


def rule_label(rule_id: str) -> str:
    return f"rule-{rule_id.lower()}"


def rule_ref(rule_id: str, docname: str, *, warn: bool = False) -> nodes.Node:
    return ref_to(rule_label(rule_id), rule_id, docname, warn=warn, classes=["guinote-code", "guinote-rule-ref"])


def flag_ref(name: str, docname: str, text: str | None = None, *, warn: bool = False) -> nodes.Node:
    return ref_to(f"flag-{name}", text or name, docname, warn=warn, classes=["guinote-code", "guinote-flag-ref"])


def source_ref(source_id: str, docname: str) -> nodes.Node:
    if CUSTOM_ID.match(source_id):  # a regional custom is labelled as one, never as a document
        return ref_to("regional-customs", f"{source_id} (regional custom)", docname, warn=False)
    if source_id not in SOURCE_IDS:
        return nodes.emphasis(source_id, source_id)
    return ref_to(f"source-{source_id.lower()}", source_id, docname, warn=False)


def question_label(code: str) -> str:
    return f"question-{code.lower()}"


def question_ref(code: str, docname: str, *, warn: bool = False) -> nodes.Node:
    return ref_to(question_label(code), code, docname, warn=warn, classes=["guinote-code", "guinote-question-ref"])


def warn_unknown_question(code: str, location: Any) -> None:
    logger.warning(
        "guinote: %s is cited but has no entry in features/index/%s",
        code,
        QUESTIONS_FILE,
        location=location,
        type="guinote",
        subtype="question",
    )


def linked_text(
    text: str,
    known: set[str] | dict[str, Any],
    docname: str,
    questions: dict[str, Question] | None = None,
    location: Any = None,
) -> list[nodes.Node]:
    """``text`` with every known rule ID turned into a link to its rule and, given the
    ``questions``, every ``B-nn``/``C-nn`` code into a link to its question (a code with no
    question is a warning at ``location``)."""
    result: list[nodes.Node] = []
    position = 0
    for match in RULE_ID_IN_TEXT.finditer(text):
        code = match.group(1)
        if code in known:
            link = rule_ref(code, docname)
        elif questions is not None and QUESTION_ID.match(code):
            if code not in questions:
                warn_unknown_question(code, location)
                continue
            link = question_ref(code, docname)
        else:
            continue
        if match.start() > position:
            result.append(nodes.Text(text[position : match.start()]))
        result.append(link)
        position = match.end()
    if position < len(text):
        result.append(nodes.Text(text[position:]))
    return result


def sources_inline(sources: Iterable[str], docname: str) -> list[nodes.Node]:
    result: list[nodes.Node] = []
    for index, source in enumerate(sources):
        if index:
            result.append(nodes.Text(", "))
        result.append(source_ref(source, docname))
    return result


def field_item(name: str, *body: nodes.Node) -> nodes.field:
    item = nodes.field()
    item += nodes.field_name(name, name)
    content = nodes.field_body()
    content.extend(body)
    item += content
    return item


def bullets(items: Iterable[Sequence[nodes.Node]], classes: Sequence[str] = ()) -> nodes.bullet_list:
    listing = nodes.bullet_list(classes=list(classes))
    for children in items:
        entry = nodes.list_item()
        entry += para(*children)
        listing += entry
    return listing


Cell = str | nodes.Node | Sequence[nodes.Node]


def _cell(content: Cell) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(content, str):
        entry += text_para(content)
    elif isinstance(content, nodes.Node):
        entry += content if isinstance(content, nodes.Body) else para(content)
    else:
        children = list(content)
        if children and all(isinstance(child, nodes.Body) for child in children):
            entry.extend(children)
        elif children:
            entry += para(*children)
    return entry


def table(headers: Sequence[str], rows: Iterable[Sequence[Cell]], classes: Sequence[str] = ()) -> nodes.table:
    """A table; column widths follow the longest text of each column (for the text builders)."""
    header_row = nodes.row()
    for header in headers:
        header_row += _cell(header)
    body_rows = []
    for row in rows:
        table_row = nodes.row()
        for content in row:
            table_row += _cell(content)
        body_rows.append(table_row)
    widths = [max(4, len(header)) for header in headers]
    for table_row in body_rows:
        for index, entry in enumerate(table_row.children[: len(widths)]):
            widths[index] = max(widths[index], min(40, len(entry.astext())))
    node = nodes.table(classes=["guinote-table", *classes])
    group = nodes.tgroup(cols=len(headers))
    node += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += header_row
    body = nodes.tbody()
    group += body
    body.extend(body_rows)
    return node


def note(*children: nodes.Node, kind: type[nodes.Element] = nodes.note) -> nodes.Element:
    node = kind()
    node.extend(children)
    return node


def section(label: str, title: str | Sequence[nodes.Node], document: nodes.document) -> nodes.section:
    node = nodes.section(ids=[nodes.make_id(label)], names=[label])
    if isinstance(title, str):
        node += nodes.title(title, title)
    else:
        heading = nodes.title()
        heading.extend(title)
        node += heading
    document.note_explicit_target(node, node)
    return node


def code_block(text: str, language: str, *, translatable: bool = False) -> nodes.literal_block:
    node = nodes.literal_block(text, text, language=language)
    if not translatable:
        node["translatable"] = False
    return node


@cache
def _lexes_cleanly(language: str, text: str) -> bool:
    lexer = get_lexer_by_name(language)
    return not any(str(token).startswith(str(ErrorToken)) for token, _ in lexer.get_tokens(text))


def gherkin_block(text: str) -> nodes.literal_block:
    """A ``gherkin`` code block, or plain text if Pygments would stumble on it (no warning)."""
    return code_block(text, "gherkin" if _lexes_cleanly("gherkin", text) else "text")


# ---------------------------------------------------------------------------------------------
# Gherkin text of one scenario.


def _table_lines(rows: Sequence[Sequence[str]], indent: str) -> list[str]:
    escaped = [[cell.replace("\\", "\\\\").replace("|", "\\|") for cell in row] for row in rows]
    widths = [max(len(row[index]) for row in escaped if index < len(row)) for index in range(max(map(len, escaped)))]
    return [indent + "| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |" for row in escaped]


def _step_lines(steps: Sequence[Step], indent: str) -> list[str]:
    lines: list[str] = []
    for step in steps:
        lines.append(f"{indent}{step.keyword} {step.text}")
        if step.table:
            lines += _table_lines(step.table, indent + "  ")
        if step.docstring is not None:
            lines.append(f'{indent}  """')
            lines += [f"{indent}  {line}" if line else "" for line in step.docstring.splitlines()]
            lines.append(f'{indent}  """')
    return lines


def scenario_gherkin(scenario: Scenario) -> str:
    """The scenario as Gherkin: its Background steps, its effective tags, its steps."""
    background = [step for step in scenario.steps if step.line < scenario.line]
    own = [step for step in scenario.steps if step.line >= scenario.line]
    lines: list[str] = []
    if background:
        lines.append("Background:")
        lines += _step_lines(background, "  ")
        lines.append("")
    if scenario.tags:
        lines.append(" ".join(f"@{tag}" for tag in scenario.tags))
    lines.append(f"Scenario: {scenario.name}")
    lines += _step_lines(own, "  ")
    return "\n".join(lines) + "\n"


def tag_badges(scenario: Scenario, known: set[str] | dict[str, Any], docname: str) -> nodes.paragraph:
    children: list[nodes.Node] = []
    for tag in scenario.tags:
        if RULE_ID.match(tag):
            children.append(badge(tag, "rule", rule_label(tag) if tag in known else None, docname))
        elif tag in SOURCE_IDS:
            children.append(badge(tag, "source"))
        elif CUSTOM_ID.match(tag):
            children.append(badge(f"{tag} (regional custom)", "source"))
        elif tag == "interpretation":
            children.append(badge(tag, "interpretation"))
        elif "=" in tag:
            children.append(badge(tag, "flag", f"flag-{tag.split('=', 1)[0]}", docname))
        else:
            children.append(badge(tag, "other"))
        children.append(nodes.Text(" "))
    return para(*children[:-1], classes=["guinote-tags"])


# ---------------------------------------------------------------------------------------------
# Directive base: source info, dependencies, bookkeeping.


class RulebookDirective(SphinxDirective):
    def finish(self, result: list[nodes.Node]) -> list[nodes.Node]:
        """Stamp source info on every generated node (for gettext) and remember the page."""
        for top in result:
            for node in top.findall(nodes.Element):
                if not node.source:
                    self.set_source_info(node)
        docs: set[str] = getattr(self.env, "guinote_docs", set())
        docs.add(self.env.docname)
        self.env.guinote_docs = docs  # type: ignore[attr-defined]
        return result

    def data(self) -> RulebookData:
        data = load_data(self.env)
        for path in data.data_files():
            self.env.note_dependency(str(path))
        if not data.errors_reported:  # once per build (per process), at the first page that reads the data
            data.errors_reported = True
            for error in data.errors:
                logger.warning("guinote: %s", error, location=self.get_location(), type="guinote", subtype="data")
        return data

    def note_engine_dependency(self) -> None:
        toml = _profiles_toml()
        if toml is not None:
            self.env.note_dependency(str(toml))


# ---------------------------------------------------------------------------------------------
# guinote-area


class AreaDirective(RulebookDirective):
    """Every rule of one area: statement, sources, agreement, flag, interpretation, scenarios."""

    required_arguments = 1
    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"no-scenarios": directives.flag}

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        area_id = self.arguments[0].strip()
        known_areas = [area for area, _ in AREAS]
        if area_id not in known_areas:
            logger.warning(
                "guinote-area: unknown area %r; areas are %s",
                area_id,
                ", ".join(known_areas),
                location=self.get_location(),
            )
        area = data.area(area_id)
        if area is None or not area.rules:
            return self.finish([note(text_para(f"The rule index has no rules for the area “{area_id}” yet."))])
        flags, _ = _engine_flags()
        result: list[nodes.Node] = [self.overview(area, data)]
        for rule in area.rules:
            result.append(self.rule_section(rule, data, flags))
        return self.finish(result)

    def overview(self, area: Area, data: RulebookData) -> nodes.Node:
        scenario_count = len({s.location for rule in area.rules for s in data.by_rule.get(rule.id, [])})
        feature = f"features/{area.feature}" if area.feature else "(no feature file named)"
        counts = f"{len(area.rules)} rules, {scenario_count} scenarios; feature file "
        return para(nodes.Text(counts), literal(feature), nodes.Text("."), classes=["guinote-area-overview"])

    def rule_section(self, rule: RuleEntry, data: RulebookData, flags: dict[str, Any]) -> nodes.section:
        docname = self.env.docname
        node = section(rule_label(rule.id), rule.id, self.state.document)
        node["classes"].append("guinote-rule")
        where = self.get_location()
        node += para(
            *linked_text(rule.statement, data.rules, docname, data.questions, where), classes=["guinote-statement"]
        )
        fields = nodes.field_list(classes=["guinote-rule-fields"])
        if rule.sources:
            items = []
            for source in rule.sources:
                children: list[nodes.Node] = [source_ref(source.id, docname)]
                if source.heading:
                    children += [nodes.Text(" — "), nodes.emphasis(source.heading, source.heading)]
                items.append(children)
            fields += field_item("Sources", bullets(items))
        agreement = AGREEMENT_TEXT.get(rule.agreement, "")
        fields += field_item(
            "Agreement", para(badge(rule.agreement, f"agreement-{rule.agreement}"), nodes.Text(f" {agreement}"))
        )
        if rule.flag:
            fields += field_item("Flag", *self.flag_body(rule, flags))
        if rule.interpretation:
            fields += field_item(
                "Interpretation", para(*linked_text(rule.interpretation, data.rules, docname, data.questions, where))
            )
        if rule.not_executable:
            fields += field_item(
                "Not executable", para(*linked_text(rule.not_executable, data.rules, docname, data.questions, where))
            )
        if rule.note:
            fields += field_item("Note", para(*linked_text(rule.note, data.rules, docname, data.questions, where)))
        node += fields
        if "no-scenarios" not in self.options:
            node += self.scenarios(rule, data)
        return node

    def flag_body(self, rule: RuleEntry, flags: dict[str, Any]) -> list[nodes.Node]:
        docname = self.env.docname
        assert rule.flag is not None
        spec = flags.get(rule.flag)
        if spec is None:
            logger.warning(
                "guinote: rule %s names flag %r, which reference_engine/profiles.toml does not define",
                rule.id,
                rule.flag,
                location=self.get_location(),
            )
            return [para(literal(rule.flag), nodes.Text(" (not defined in profiles.toml)"))]
        head = para(flag_ref(rule.flag, docname), nodes.Text(f": {spec.summary}"))
        items = []
        for value in spec.values.values():
            items.append(
                [
                    literal(value.name),
                    nodes.Text(f": {value.reading} ("),
                    *sources_inline(value.sources, docname),
                    nodes.Text(")"),
                ]
            )
        return [head, bullets(items, ["guinote-flag-values"])]

    def scenarios(self, rule: RuleEntry, data: RulebookData) -> list[nodes.Node]:
        found = data.by_rule.get(rule.id, [])
        heading = f"Scenarios ({len(found)})" if found else "Scenarios"
        result: list[nodes.Node] = [nodes.rubric(heading, heading, classes=["guinote-scenarios-heading"])]
        if not found:
            text = "None: see why above." if rule.not_executable else "No scenario is tagged with this rule yet."
            result.append(text_para(text, ["guinote-no-scenarios"]))
            return result
        for scenario in found:
            result.append(render_scenario(scenario, data, self.env.docname))
        return result


def render_scenario(scenario: Scenario, data: RulebookData, docname: str) -> scenario_block:
    location = f"{data.relative(scenario.path)}:{scenario.line}"
    block = scenario_block(feature=data.relative(scenario.path), line=scenario.line, scenario=scenario.name)
    block["classes"].append("guinote-scenario")
    block += para(
        nodes.strong(scenario.name, scenario.name),
        nodes.Text(" "),
        literal(location, ["guinote-scenario-location"]),
        classes=["guinote-scenario-title"],
    )
    if scenario.tags:
        block += tag_badges(scenario, data.rules, docname)
    block += gherkin_block(scenario_gherkin(scenario))
    return block


# ---------------------------------------------------------------------------------------------
# Flags and profiles.


def _profile_columns(profiles: dict[str, Any]) -> tuple[list[str], list[str]]:
    names = [name for name, spec in profiles.items() if not spec.overlay]
    overlays = [name for name, spec in profiles.items() if spec.overlay]
    return names, overlays


class FlagsMatrixDirective(RulebookDirective):
    """Every flag × every profile and overlay: the value and the sources behind it."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = _engine_flags()
        names, overlays = _profile_columns(profiles)
        headers = ["Flag", *names, *(f"+{name}" for name in overlays)]
        rows: list[list[Cell]] = []
        for flag_name, spec in flags.items():
            row: list[Cell] = [
                [
                    flag_ref(flag_name, docname),
                    nodes.Text(" "),
                    *linked_text(f"({', '.join(spec.rules)})", data.rules, docname),
                ]
            ]
            for profile in [*names, *overlays]:
                value = profiles[profile].flags.get(flag_name)
                if value is None:
                    row.append(text_para("—", ["guinote-inherited"]))
                    continue
                flag_value = spec.values.get(value)
                sources = flag_value.sources if flag_value is not None else ()
                cell = nodes.container(classes=["guinote-matrix-cell"])
                cell += para(literal(value))
                if sources:
                    cell += para(*sources_inline(sources, docname), classes=["guinote-sources"])
                row.append(cell)
            rows.append(row)
        matrix = table(headers, rows, ["guinote-flags-matrix"])
        legend = text_para(
            "Each cell: the flag's value under that profile, then the sources that read the rule that way. "
            "Overlay columns (+name) show only the flags the overlay changes; “—” keeps the profile's value.",
            ["guinote-legend"],
        )
        return self.finish([legend, matrix])


class FlagsDirective(RulebookDirective):
    """One section per flag: the disagreement, the rules, each value's reading and sources."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = _engine_flags()
        result: list[nodes.Node] = []
        for flag_name, spec in flags.items():
            node = section(f"flag-{flag_name}", [literal(flag_name)], self.state.document)
            node["classes"].append("guinote-flag")
            node += text_para(spec.summary)
            rules: list[nodes.Node] = []
            for index, rule_id in enumerate(spec.rules):
                if index:
                    rules.append(nodes.Text(", "))
                rules.extend(linked_text(rule_id, data.rules, docname))
            fields = nodes.field_list()
            where = self.get_location()
            disagreement = linked_text(spec.disagreement, data.rules, docname, data.questions, where)
            fields += field_item("Disagreement", para(*disagreement))
            fields += field_item("Rules", para(*rules))
            node += fields
            rows: list[list[Cell]] = []
            for value in spec.values.values():
                users = [name for name, profile in profiles.items() if profile.flags.get(flag_name) == value.name]
                user_nodes: list[nodes.Node] = []
                for index, name in enumerate(users):
                    if index:
                        user_nodes.append(nodes.Text(", "))
                    label = f"+{name}" if profiles[name].overlay else name
                    user_nodes.append(ref_to(f"profile-{name}", label, docname, warn=False))
                rows.append(
                    [literal(value.name), value.reading, sources_inline(value.sources, docname), user_nodes or "—"]
                )
            node += table(["Value", "Reading", "Sources", "Profiles"], rows, ["guinote-flag-values"])
            result.append(node)
        return self.finish(result)


class ProfilesDirective(RulebookDirective):
    """Profiles and overlays: summary, sources, and the flags each one sets."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        docname = self.env.docname
        flags, profiles = _engine_flags()
        result: list[nodes.Node] = []
        for name, spec in profiles.items():
            kind = "overlay" if spec.overlay else "profile"
            node = section(f"profile-{name}", [literal(name), nodes.Text(f" ({kind})")], self.state.document)
            node["classes"].append(f"guinote-{kind}")
            node += text_para(spec.summary)
            fields = nodes.field_list()
            fields += field_item("Sources", para(*sources_inline(spec.sources, docname)))
            example = f"lascuarenta+{name}" if spec.overlay else name
            fields += field_item("Profile string", para(literal(example)))
            node += fields
            rows: list[list[Cell]] = []
            for flag_name, value in spec.flags.items():
                flag_spec = flags.get(flag_name)
                reading = flag_spec.values[value].reading if flag_spec and value in flag_spec.values else ""
                rows.append([flag_ref(flag_name, docname), literal(value), reading])
            node += table(["Flag", "Value", "Reading"], rows, ["guinote-profile-flags"])
            result.append(node)
        return self.finish(result)


# ---------------------------------------------------------------------------------------------
# Open questions.


def citing_rules(code: str, data: RulebookData) -> list[str]:
    """The rules whose statement, interpretation, note or reason cites ``code``."""
    found = []
    for rule_id, rule in data.rules.items():
        texts = (rule.statement, rule.interpretation, rule.note, rule.not_executable)
        if any(code in RULE_ID_IN_TEXT.findall(text or "") for text in texts):
            found.append(rule_id)
    return found


def joined(items: Sequence[nodes.Node]) -> list[nodes.Node]:
    result: list[nodes.Node] = []
    for index, item in enumerate(items):
        if index:
            result.append(nodes.Text(", "))
        result.append(item)
    return result


class QuestionsDirective(RulebookDirective):
    """Every open question: code, title, kind, summary, the flags and rules concerned, and
    the rules and flags that cite it."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        where = self.get_location()
        if data.questions is None:
            return self.finish([note(text_para(f"The rule index has no {QUESTIONS_FILE} yet."))])
        flags, _ = _engine_flags()
        cited_by_flags: dict[str, list[str]] = {}
        for flag_name, spec in flags.items():
            for code in RULE_ID_IN_TEXT.findall(spec.disagreement):
                cited_by_flags.setdefault(code, []).append(flag_name)
        result: list[nodes.Node] = []
        counts = Counter(question.kind for question in data.questions.values())
        result.append(
            text_para(
                f"{len(data.questions)} questions: {counts['disagreement']} disagreements between sources "
                f"(B-nn) and {counts['gap']} gaps no source settles (C-nn).",
                ["guinote-legend"],
            )
        )
        for code in sorted(data.questions, key=lambda c: (c[0], int(c[2:]))):
            question = data.questions[code]
            node = section(question_label(code), [literal(code), nodes.Text(f" {question.title}")], self.state.document)
            node["classes"] += ["guinote-question", f"guinote-question-{question.kind}"]
            node += para(
                *linked_text(question.summary, data.rules, docname, data.questions, where),
                classes=["guinote-question-summary"],
            )
            fields = nodes.field_list(classes=["guinote-question-fields"])
            fields += field_item("Kind", para(badge(question.kind, f"question-{question.kind}")))
            if question.flags:
                flag_nodes: list[nodes.Node] = []
                for name in question.flags:
                    if name not in flags:
                        logger.warning(
                            "guinote: question %s names flag %r, which reference_engine/profiles.toml does not define",
                            code,
                            name,
                            location=where,
                        )
                        flag_nodes.append(literal(name))
                    else:
                        flag_nodes.append(flag_ref(name, docname))
                fields += field_item("Flag", para(*joined(flag_nodes)))
            if question.rules:
                rule_nodes: list[nodes.Node] = []
                for rule_id in question.rules:
                    if rule_id not in data.rules:
                        logger.warning("guinote: question %s names unknown rule %s", code, rule_id, location=where)
                        rule_nodes.append(literal(rule_id))
                    else:
                        rule_nodes.append(rule_ref(rule_id, docname))
                fields += field_item("Rules", para(*joined(rule_nodes)))
            citing = [rule_ref(rule_id, docname) for rule_id in citing_rules(code, data)]
            citing += [flag_ref(name, docname) for name in cited_by_flags.get(code, [])]
            if citing:
                fields += field_item("Cited by", para(*joined(citing)))
            node += fields
            result.append(node)
        return self.finish(result)


# ---------------------------------------------------------------------------------------------
# JSON Schemas.


def _ref_target(ref: str, current: str) -> tuple[str, str] | None:
    """``common.json#/$defs/id`` (or ``#/$defs/id`` inside ``current``) -> (file stem, definition)."""
    document, _, pointer = ref.partition("#")
    parts = pointer.strip("/").split("/")
    if len(parts) != 2 or parts[0] not in ("$defs", "definitions"):
        return None
    stem = Path(document).stem if document else current
    return stem, parts[1]


def _definition_label(stem: str, name: str) -> str:
    return f"schema-{stem}-{name}"


def _schema_type(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any" if schema is True else "—"
    if "$ref" in schema:
        return str(schema["$ref"]).rpartition("/")[2]
    if "const" in schema:
        return f"= {json.dumps(schema['const'], ensure_ascii=False)}"
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(item, ensure_ascii=False) for item in schema["enum"])
    for combinator in ("oneOf", "anyOf", "allOf"):
        if combinator in schema:
            parts = [_schema_type(part) for part in schema[combinator]]
            return f"{combinator}: " + " | ".join(parts)
    kind = schema.get("type", "any")
    text = " or ".join(kind) if isinstance(kind, list) else str(kind)
    if text == "array" and "items" in schema:
        text += f" of {_schema_type(schema['items'])}"
    return text


@dataclass
class PropertyInfo:
    schemas: list[Any] = field(default_factory=list)
    required: str = ""


def collect_properties(schema: dict[str, Any]) -> dict[str, PropertyInfo]:
    """The properties of an object schema, including those of its if/then/else and
    oneOf/anyOf/allOf branches; ``required`` is "yes" (always) or "in some cases"."""
    found: dict[str, PropertyInfo] = {}

    def walk(node: Any, top: bool) -> None:
        if not isinstance(node, dict):
            return
        for name, prop in (node.get("properties") or {}).items():
            found.setdefault(name, PropertyInfo()).schemas.append(prop)
        for name in node.get("required", []):
            info = found.setdefault(name, PropertyInfo())
            if top:
                info.required = "yes"
            elif not info.required:
                info.required = "in some cases"
        for key in ("then", "else"):
            walk(node.get(key), False)
        for key in ("oneOf", "anyOf"):
            for branch in node.get(key, []):
                walk(branch, False)
        for branch in node.get("allOf", []):
            walk(branch, top)

    walk(schema, True)
    return found


#: The protocol's commands in the order of a session; other schema files follow, by name.
SCHEMA_ORDER = ("hello", "start", "legal", "apply", "state", "observe", "end", "stop", "common")


def _schema_order(path: Path) -> tuple[int, str]:
    command = path.name.split(".")[0]
    position = SCHEMA_ORDER.index(command) if command in SCHEMA_ORDER else len(SCHEMA_ORDER)
    return position, path.name


class SchemasDirective(RulebookDirective):
    """Every JSON Schema of the wire protocol: title, description, properties, raw schema."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        folder = schemas_dir(self.env)
        files = sorted(folder.glob("*.json"), key=_schema_order) if folder.is_dir() else []
        if not files:
            return self.finish([note(text_para("No JSON Schema has been published yet (adapters/schemas/ is empty)."))])
        schemas: dict[str, tuple[Path, dict[str, Any]]] = {}
        for path in files:
            self.env.note_dependency(str(path))
            try:
                schema = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                logger.warning("guinote-schemas: %s: %s", path.name, error, location=self.get_location())
                continue
            if not isinstance(schema, dict):
                logger.warning("guinote-schemas: %s is not a JSON object", path.name, location=self.get_location())
                continue
            schemas[path.stem] = (path, schema)
        self.definitions = {
            (stem, name): definition
            for stem, (_, schema) in schemas.items()
            for name, definition in (schema.get("$defs") or schema.get("definitions") or {}).items()
            if isinstance(definition, dict)
        }
        return self.finish([self.schema_section(stem, path, schema) for stem, (path, schema) in schemas.items()])

    def schema_section(self, stem: str, path: Path, schema: dict[str, Any]) -> nodes.section:
        title = str(schema.get("title") or path.stem)
        node = section(f"schema-{stem}", title, self.state.document)
        node["classes"].append("guinote-schema")
        if schema.get("description"):
            node += text_para(str(schema["description"]))
        fields = nodes.field_list()
        fields += field_item("File", para(literal(f"adapters/schemas/{path.name}")))
        if schema.get("$id"):
            fields += field_item("$id", para(literal(str(schema["$id"]))))
        if "type" in schema:
            fields += field_item("Type", para(literal(_schema_type(schema))))
        if schema.get("additionalProperties") is False:
            fields += field_item(
                "Other members", para(nodes.Text("not allowed, except those matching a pattern below"))
            )
        node += fields
        node += self.properties(schema, stem, "Members")
        for name, definition in (schema.get("$defs") or schema.get("definitions") or {}).items():
            if not isinstance(definition, dict):
                continue
            heading = f"{name} ({path.name})"
            rubric = nodes.rubric(heading, heading, classes=["guinote-schema-definition"])
            label = _definition_label(stem, name)
            rubric["ids"].append(nodes.make_id(label))
            rubric["names"].append(label)
            self.state.document.note_explicit_target(rubric, rubric)
            node += rubric
            if definition.get("description"):
                node += text_para(str(definition["description"]))
            node += para(nodes.Text("Type: "), *self.type_nodes(definition, stem))
            node += self.properties(definition, stem, None)
        raw = details()
        raw += summary("", f"The schema {path.name}")
        raw += code_block(json.dumps(schema, indent=2, ensure_ascii=False), "json")
        node += raw
        return node

    def type_nodes(self, schema: Any, stem: str) -> list[nodes.Node]:
        text = _schema_type(schema)
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if ref is None and isinstance(schema, dict) and isinstance(schema.get("items"), dict):
            ref = schema["items"].get("$ref")
            if ref is not None:
                target = _ref_target(str(ref), stem)
                if target is not None:
                    label = _definition_label(*target)
                    return [
                        nodes.Text("array of "),
                        ref_to(label, target[1], self.env.docname, warn=False, classes=["guinote-code"]),
                    ]
        if ref is None:
            return [literal(text)]
        target = _ref_target(str(ref), stem)
        if target is None:
            return [literal(str(ref))]
        return [ref_to(_definition_label(*target), target[1], self.env.docname, warn=False, classes=["guinote-code"])]

    def description(self, schema: Any, stem: str) -> str:
        if not isinstance(schema, dict):
            return ""
        if schema.get("description"):
            return str(schema["description"])
        ref = schema.get("$ref") or (schema.get("items") or {}).get("$ref")
        target = _ref_target(str(ref), stem) if ref else None
        definition = self.definitions.get(target) if target else None
        return str(definition.get("description", "")) if definition else ""

    def properties(self, schema: dict[str, Any], stem: str, heading: str | None) -> list[nodes.Node]:
        props = collect_properties(schema)
        patterns = schema.get("patternProperties") or {}
        if not props and not patterns:
            return []
        rows: list[list[Cell]] = []
        for name, info in props.items():
            typed = [s for s in info.schemas if isinstance(s, dict) and set(s) - {"description", "const"}]
            consts = [s["const"] for s in info.schemas if isinstance(s, dict) and "const" in s]
            if typed:
                type_cell: Cell = self.type_nodes(typed[0], stem)
            elif consts:
                unique = list(dict.fromkeys(json.dumps(c, ensure_ascii=False) for c in consts))
                type_cell = literal(("= " if len(unique) == 1 else "one of ") + ", ".join(unique))
            else:
                type_cell = literal("any")
            description = next((self.description(s, stem) for s in info.schemas if self.description(s, stem)), "")
            rows.append([literal(name), type_cell, info.required, description])
        for pattern, prop in patterns.items():
            description = str(prop.get("description", "")) if isinstance(prop, dict) else ""
            rows.append(
                [[nodes.Text("names matching "), literal(pattern)], literal(_schema_type(prop)), "", description]
            )
        result: list[nodes.Node] = []
        if heading:
            result.append(nodes.rubric(heading, heading))
        result.append(table(["Member", "Type", "Required", "Description"], rows, ["guinote-schema-properties"]))
        return result


# ---------------------------------------------------------------------------------------------
# Conformance results and coverage.


def _status_badge(status: Status, text: str | None = None) -> nodes.inline:
    return badge(text or status.label, f"status-{status.value}")


class ResultsDirective(RulebookDirective):
    """A conformance run: engine, suite commit, summary, rule area × profile, the failures.

    The data comes from :func:`conformance.published.results_for_docs`: a results file (the
    ``:path:`` option, ``$GUINOTE_RESULTS`` or ``guinote_results``) or a run of the suite
    made now; a file made from other scenarios fails the build."""

    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"path": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        from conformance.published import results_for_docs

        data = self.data()
        path = results_path(self.env, self.options.get("path"))
        if path is not None and not path.exists():
            return self.finish(
                [note(text_para(f"No results file at {path}. Point GUINOTE_RESULTS at a results.json, or unset it."))]
            )
        try:
            report, source = results_for_docs(
                path, Path(self.env.doctreedir) / "guinote-results", features_dir(self.env)
            )
        except ResultsError as error:
            logger.warning("guinote-results: %s", error, location=self.get_location())
            return self.finish([note(text_para(f"The results could not be shown: {error}"), kind=nodes.warning)])
        self.env.note_dependency(str(source))
        out: list[nodes.Node] = [self.header(report, source), self.summary(report), self.by_area(report)]
        out.extend(self.problems(report, data))
        return self.finish(out)

    def header(self, report: Report, path: Path) -> nodes.field_list:
        fields = nodes.field_list(classes=["guinote-results-header"])
        for engine in report.engines:
            fields += field_item("Engine", para(nodes.Text(f"{engine.title} ({engine.language})")))
        fields += field_item(
            "Suite", para(nodes.Text(f"{report.suite.version} at commit "), literal(report.suite.commit))
        )
        fields += field_item("Run", para(nodes.Text(f"{report.started}, {report.duration_s:.1f} s")))
        fields += field_item("File", para(literal(path.name)))
        return fields

    def summary(self, report: Report) -> nodes.table:
        rows: list[list[Cell]] = [[_status_badge(status), str(count)] for status, count in report.summary.items()]
        rows.append(["total", str(len(report.results))])
        return table(["Status", "Scenario runs"], rows, ["guinote-results-summary"])

    def by_area(self, report: Report) -> nodes.Node:
        columns = report.columns()
        rows: list[list[Cell]] = []
        for area, row in report.by_area().items():
            cells: list[Cell] = [area]
            for column in columns:
                cell = row.get(column)
                if cell is None:
                    cells.append("—")
                    continue
                counts = cell.counts
                parts: list[nodes.Node] = [nodes.Text(f"{counts.get(Status.PASS, 0)}/{len(cell.results)} pass")]
                for status, count in counts.items():
                    if status is not Status.PASS:
                        parts += [nodes.Text(" "), _status_badge(status, f"{count} {status.label}")]
                cells.append(parts)
            rows.append(cells)
        if not rows:
            return text_para("The results file lists no scenario runs.")
        return table(["Rule area", *columns], rows, ["guinote-results-areas"])

    def problems(self, report: Report, data: RulebookData) -> list[nodes.Node]:
        docname = self.env.docname
        groups = report.failure_groups()
        heading = f"Failures ({len(groups)})"
        out: list[nodes.Node] = [nodes.rubric(heading, heading)]
        if not groups:
            out.append(text_para("No failure, error, timeout or unexpected pass."))
            return out
        for group in groups:
            entry = group.first
            block = nodes.container(classes=["guinote-failure"])
            rules: list[nodes.Node] = []
            for rule in entry.rules:
                rules += [rule_ref(rule, docname) if rule in data.rules else literal(rule), nodes.Text(" ")]
            block += para(
                _status_badge(entry.status),
                nodes.Text(" "),
                nodes.strong(entry.scenario, entry.scenario),
                nodes.Text(" "),
                literal(entry.location),
            )
            detail: list[nodes.Node] = [nodes.Text(f"profiles {', '.join(group.profiles)}")]
            if entry.flags:
                detail += [nodes.Text(", flags "), literal(" ".join(f"{k}={v}" for k, v in entry.flags.items()))]
            if rules:
                detail += [nodes.Text(", rules "), *rules]
            block += para(*detail)
            if entry.message:
                block += code_block(entry.message, "text")
            if entry.rerun:
                block += code_block(entry.rerun, "shell")
            out.append(block)
        return out


class InterpretationsDirective(RulebookDirective):
    """Every rule where the sources are silent and the project chose: the rule and the choice."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        data = self.data()
        docname = self.env.docname
        where = self.get_location()
        rows: list[list[Cell]] = []
        for area in data.areas:
            for rule in area.rules:
                if rule.agreement != "interpretation" and not rule.interpretation:
                    continue
                choice = rule.interpretation or rule.note or ""
                rows.append(
                    [
                        [rule_ref(rule.id, docname)],
                        [para(*linked_text(rule.statement, data.rules, docname, data.questions, where))],
                        [para(*linked_text(choice, data.rules, docname, data.questions, where))],
                    ]
                )
        if not rows:
            return self.finish([note(text_para("No rule of the index is an interpretation yet."))])
        legend = text_para(
            f"{len(rows)} rules where the project had to choose because the sources are silent or unclear. "
            "The reference engine marks each of these places in its code with the rule ID and the word "
            "'interpretation'.",
            ["guinote-legend"],
        )
        headers = ["Rule", "Statement", "What the project chose"]
        return self.finish([legend, table(headers, rows, ["guinote-interpretations"])])


class CoverageDirective(RulebookDirective):
    """Rules covered by scenarios, not executable, and still uncovered, per area."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        data = self.data()
        docname = self.env.docname
        rows: list[list[Cell]] = []
        totals = Counter[str]()
        uncovered: list[tuple[str, list[str]]] = []
        for area in data.areas:
            covered = [rule.id for rule in area.rules if data.by_rule.get(rule.id)]
            not_exec = [rule.id for rule in area.rules if rule.not_executable and not data.by_rule.get(rule.id)]
            missing = [rule.id for rule in area.rules if rule.id not in covered and rule.id not in not_exec]
            scenario_count = len({s.location for rule in area.rules for s in data.by_rule.get(rule.id, [])})
            counts = {
                "total": len(area.rules),
                "covered": len(covered),
                "not_exec": len(not_exec),
                "missing": len(missing),
                "scenarios": scenario_count,
            }
            totals.update(counts)
            rows.append(
                [
                    area.title,
                    str(counts["covered"]),
                    str(counts["not_exec"]),
                    str(counts["missing"]),
                    str(counts["total"]),
                    str(counts["scenarios"]),
                ]
            )
            if missing:
                uncovered.append((area.title, missing))
        out: list[nodes.Node] = []
        if not rows:
            return self.finish([note(text_para("The rule index is empty so far."))])
        rows.append(
            [
                nodes.strong("All areas", "All areas"),
                str(totals["covered"]),
                str(totals["not_exec"]),
                str(totals["missing"]),
                str(totals["total"]),
                str(totals["scenarios"]),
            ]
        )
        out.append(
            table(["Area", "Covered", "Not executable", "Uncovered", "Rules", "Scenarios"], rows, ["guinote-coverage"])
        )
        if uncovered:
            out.append(nodes.rubric("Rules without a scenario", "Rules without a scenario"))
            out.append(
                bullets(
                    [
                        [
                            nodes.Text(f"{title}: "),
                            *[n for rule in rules for n in (rule_ref(rule, docname), nodes.Text(" "))],
                        ]
                        for title, rules in uncovered
                    ]
                )
            )
        orphans: dict[str, list[Scenario]] = {}
        for scenario in data.scenarios:
            for rule in scenario.rules:
                if rule not in data.rules:
                    orphans.setdefault(rule, []).append(scenario)
        if orphans:
            heading = "Rule tags missing from the index"
            out.append(nodes.rubric(heading, heading))
            items = []
            for rule, scenarios in sorted(orphans.items()):
                places: dict[str, list[str]] = {}
                for scenario in scenarios:
                    places.setdefault(data.relative(scenario.path), []).append(str(scenario.line))
                where = "; ".join(f"{path} (lines {', '.join(lines)})" for path, lines in places.items())
                count = f"{len(scenarios)} scenario{'s' if len(scenarios) > 1 else ''}"
                items.append([literal(rule), nodes.Text(f": {count} in "), nodes.Text(where)])
            out.append(bullets(items, ["guinote-orphans"]))
        untagged = [s for s in data.scenarios if not s.rules]
        if untagged:
            out.append(nodes.rubric("Scenarios without a rule tag", "Scenarios without a rule tag"))
            out.append(
                bullets([[nodes.Text(f"{s.name} "), literal(f"{data.relative(s.path)}:{s.line}")] for s in untagged])
            )
        return self.finish(out)


# ---------------------------------------------------------------------------------------------
# The worked example: one hand played by the reference engine at build time.


@dataclass
class TrickRecord:
    number: int
    phase: str
    leader: int
    cards: dict[int, str] = field(default_factory=dict)
    winner: int | None = None
    points: int = 0
    after: list[str] = field(default_factory=list)


def play_example(profile: str, seed: int, dealer: int) -> dict[str, Any]:
    """Play one hand: take every exchange, tute and cante offered, otherwise the first legal action."""
    from reference_engine import Game, rules_for
    from reference_engine.actions import Cante, Exchange, Tute

    game = Game.from_seed(rules_for(profile), seed, dealer)
    start = {
        "hands": [sorted((card.code for card in hand), key=lambda code: (code[-1], code)) for hand in game.hands],
        "muestra": game.muestra.code if game.muestra else "",
        "trump": game.trump.spanish,
        "stock": len(game.stock),
        "dealer": game.dealer,
        "mano": game.mano,
        "players": game.players,
    }
    tricks: list[TrickRecord] = []
    current = TrickRecord(1, game.phase, game.leader)
    final: dict[str, Any] = {}

    def remark(text: str) -> None:
        if current.cards or not tricks:
            current.after.append(f"during the trick: {text}")
        else:
            tricks[-1].after.append(text)

    for _ in range(1000):
        if game.hand_result is not None:
            break
        actions = game.legal_actions()
        choice = next((a for a in actions if isinstance(a, Exchange | Tute | Cante)), actions[0])
        phase = game.phase
        for event in game.apply(choice):
            details = dict(event.details)
            if event.kind == "card_played":
                if not current.cards:
                    current.phase = phase
                current.cards[details["seat"]] = details["card"]
            elif event.kind == "trick_won":
                current.winner = details["seat"]
                current.points = details["points"]
                tricks.append(current)
                current = TrickRecord(len(tricks) + 1, game.phase, details["seat"])
            elif event.kind == "cards_drawn":
                draws = [f"seat {seat} {card}" for seat, card in details["draws"]]
                if game.phase == "arrastre":
                    draws[-1] += " (the muestra)"
                remark("draw: " + ", ".join(draws))
            elif event.kind == "arrastre_begins":
                remark("the stock is gone: the arrastre begins")
            elif event.kind == "cante":
                value = details["value"]
                name = "las cuarenta" if value == 40 else "las veinte"
                remark(f"seat {details['seat']} sings {name} in {_suit_name(details['suit'])} (+{value})")
            elif event.kind == "exchange":
                remark(f"seat {details['seat']} exchanges {details['gave']} for the muestra {details['took']}")
            elif event.kind == "tute":
                remark(f"seat {details['seat']} sings tute")
            elif event.kind == "ultimas":
                remark(f"side {details['side']} takes the diez de últimas (+{details['points']})")
            elif event.kind == "hand_over":
                final = details
    final["cante_points"] = list(game.cante_points)
    final["ultimas_side"] = game.ultimas_side
    return {"start": start, "tricks": tricks, "final": final, "profile": profile, "seed": seed}


def _suit_name(code: str) -> str:
    return {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}.get(code, code)


class ExampleDirective(RulebookDirective):
    """A full hand generated at build time by the reference engine (fixed profile and seed)."""

    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "profile": directives.unchanged,
        "seed": directives.nonnegative_int,
        "dealer": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        import reference_engine

        for module in sorted(Path(str(reference_engine.__file__)).parent.glob("*.py")):
            self.env.note_dependency(str(module))
        profile = str(self.options.get("profile", "lascuarenta"))
        seed = int(self.options.get("seed", 8))
        dealer = int(self.options.get("dealer", 0))
        try:
            played = play_example(profile, seed, dealer)
        except Exception as error:  # the engine is the project's; a failure is worth a warning
            logger.warning("guinote-example: the reference engine failed: %s", error, location=self.get_location())
            return self.finish([note(text_para(f"The example could not be generated: {error}"), kind=nodes.warning)])
        start = played["start"]
        players = start["players"]
        out: list[nodes.Node] = []
        fields = nodes.field_list(classes=["guinote-example-setup"])
        profile_link = ref_to(
            f"profile-{profile.split('+')[0]}", profile, self.env.docname, warn=False, classes=["guinote-code"]
        )
        fields += field_item("Profile", para(profile_link))
        fields += field_item("Seed", para(literal(str(seed))))
        fields += field_item(
            "Dealer", para(nodes.Text(f"seat {start['dealer']}; the mano (first to play) is seat {start['mano']}"))
        )
        fields += field_item(
            "Muestra",
            para(
                literal(start["muestra"]),
                nodes.Text(f": {start['trump']} are trumps; {start['stock']} cards stay in the stock above it"),
            ),
        )
        out.append(fields)
        seat_rows: list[list[Cell]] = []
        for seat in range(players):
            side = seat % 2 if players == 4 else seat
            seat_rows.append([f"seat {seat}", f"side {side}", [literal(" ".join(start["hands"][seat]))]])
        out.append(nodes.rubric("The deal", "The deal"))
        out.append(table(["Seat", "Side", "Cards dealt (by suit)"], seat_rows, ["guinote-example-deal"]))
        out.append(nodes.rubric("Trick by trick", "Trick by trick"))
        headers = ["#", "Phase", *(f"seat {seat}" for seat in range(players)), "Won by", "Points", "Then"]
        rows: list[list[Cell]] = []
        for trick in played["tricks"]:
            row: list[Cell] = [str(trick.number), trick.phase]
            for seat in range(players):
                code = trick.cards.get(seat, "")
                text = f"{code}*" if seat == trick.leader else code
                if seat == trick.winner:
                    row.append([nodes.strong("", "", literal(text))])
                else:
                    row.append([literal(text)] if text else "")
            row += [f"seat {trick.winner}", str(trick.points), "; ".join(trick.after) or ""]
            rows.append(row)
        out.append(table(headers, rows, ["guinote-example-tricks"]))
        out.append(text_para("* marks the card that led the trick; the winning card is in bold.", ["guinote-legend"]))
        out.append(nodes.rubric("The count", "The count"))
        final = played["final"]
        count_rows: list[list[Cell]] = []
        for side in range(2):
            ultimas = 10 if final.get("ultimas_side") == side else 0
            count_rows.append(
                [
                    f"side {side}",
                    str(final.get("card_points", [0, 0])[side]),
                    str(final.get("cante_points", [0, 0])[side]),
                    str(ultimas),
                    str(final.get("totals", [0, 0])[side]),
                ]
            )
        out.append(table(["Side", "Card points", "Cantes", "Últimas", "Total"], count_rows, ["guinote-example-count"]))
        outcome: list[nodes.Node]
        winner = final.get("winner")
        rule = str(final.get("rule", ""))
        reason = str(final.get("reason", ""))
        because = REASONS.get(reason, reason.replace("_", " "))
        if winner is None:
            outcome = [nodes.Text(f"Nobody wins the point yet ({because}): the next hand is played de vueltas. Rule ")]
        else:
            outcome = [nodes.Text(f"Side {winner} wins the point: {because}. Rule ")]
        outcome += [*linked_text(rule, data.rules, self.env.docname), nodes.Text(".")]
        out.append(para(*outcome, classes=["guinote-example-outcome"]))
        return self.finish(out)


# ---------------------------------------------------------------------------------------------
# API reference: one automodule per module of a package.


class AutomodulesDirective(SphinxDirective):
    """``.. guinote-automodules:: reference_engine``: an ``automodule`` section per module."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0].strip()
        package = import_module(name)
        modules = [name]
        if hasattr(package, "__path__"):
            modules += [
                f"{name}.{info.name}"
                for info in pkgutil.iter_modules(package.__path__)
                if not info.name.startswith("_")
            ]
        lines: list[str] = []
        for module in modules:
            lines += [module, "~" * len(module), "", f".. automodule:: {module}"]
            if module != name or not hasattr(package, "__path__"):
                lines += ["   :members:", "   :show-inheritance:", "   :ignore-module-all:"]
            lines.append("")
        return nested_parse_to_nodes(self.state, "\n".join(lines), source=self.get_source_info()[0])


# ---------------------------------------------------------------------------------------------
# Roles.


class RuleRole(SphinxRole):
    """``:rule:`ARR-01```: a link to the rule's section."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        rule_id = self.text.strip().upper()
        data = load_data(self.env)
        for path in data.data_files():
            self.env.note_dependency(str(path))
        if rule_id in data.rules:
            return [rule_ref(rule_id, self.env.docname, warn=True)], []
        area = area_of_rule(rule_id)
        if not RULE_ID.match(rule_id) or area is None or area in data.indexed_area_ids():
            logger.warning("guinote: unknown rule %s", rule_id, location=self.get_location())
        else:
            logger.info("guinote: rule %s: its area %s is not indexed yet", rule_id, area, location=self.get_location())
        return [literal(rule_id, ["guinote-rule-ref"])], []


class FlagRole(SphinxRole):
    """``:flag:`deal``` (or ``:flag:`deal=three_three```): a link to the flag's section."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text = self.text.strip()
        name = text.split("=", 1)[0]
        flags, _ = _engine_flags()
        if name not in flags:
            logger.warning("guinote: unknown flag %s", name, location=self.get_location())
            return [literal(text)], []
        value = text.split("=", 1)[1] if "=" in text else None
        if value is not None and value not in flags[name].values:
            logger.warning("guinote: flag %s has no value %s", name, value, location=self.get_location())
        return [flag_ref(name, self.env.docname, text, warn=True)], []


class QuestionRole(SphinxRole):
    """``:question:`B-17```: a link to the open question's section."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        code = self.text.strip().upper()
        data = load_data(self.env)
        for path in data.data_files():
            self.env.note_dependency(str(path))
        if data.questions is not None and code in data.questions:
            return [question_ref(code, self.env.docname, warn=True)], []
        if not QUESTION_ID.match(code):
            logger.warning("guinote: %s is not a question code (B-nn or C-nn)", code, location=self.get_location())
        else:
            warn_unknown_question(code, self.get_location())
        return [literal(code, ["guinote-question-ref"])], []


class SourceRole(SphinxRole):
    """``:source:`S004```: a link to the source's description."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        source = self.text.strip().upper()
        if source not in SOURCE_IDS:
            logger.warning("guinote: unknown source %s", source, location=self.get_location())
            return [nodes.Text(source)], []
        return [ref_to(f"source-{source.lower()}", source, self.env.docname, warn=True)], []


# ---------------------------------------------------------------------------------------------
# Environment bookkeeping: re-read the pages when a data file appears or disappears.


def _all_data_files(env: BuildEnvironment) -> tuple[tuple[str, int, int], ...]:
    data = RulebookData(repo_root(env), features_dir(env))
    results = results_path(env)
    files = [*data.data_files(), *sorted(schemas_dir(env).glob("*.json")), *([results] if results else [])]
    return _signature(files)


def _get_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    signature = _all_data_files(env)
    previous = getattr(env, "guinote_signature", None)
    env.guinote_signature = signature  # type: ignore[attr-defined]
    if previous is None or previous == signature:
        return []
    return sorted(set(getattr(env, "guinote_docs", set())) - removed)


def _builder_inited(app: Sphinx) -> None:
    """A new build reads the data afresh (and reports its errors again)."""
    _DATA_CACHE.clear()


def _purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "guinote_docs", set()).discard(docname)


def _merge_info(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    docs: set[str] = getattr(env, "guinote_docs", set())
    docs.update(set(getattr(other, "guinote_docs", set())) & docnames)
    env.guinote_docs = docs  # type: ignore[attr-defined]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("guinote_root", "", "env", str)
    app.add_config_value("guinote_features_dir", "", "env", str)
    app.add_config_value("guinote_schemas_dir", "", "env", str)
    app.add_config_value("guinote_results", "", "env", str)
    plain = (_visit_passthrough, _depart_passthrough)
    for node_class, html in (
        (details, (_visit_details_html, _depart_details_html)),
        (summary, (_visit_summary_html, _depart_summary_html)),
        (scenario_block, (_visit_scenario_html, _depart_div_html)),
    ):
        app.add_node(node_class, html=html, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_directive("guinote-area", AreaDirective)
    app.add_directive("guinote-flags-matrix", FlagsMatrixDirective)
    app.add_directive("guinote-flags", FlagsDirective)
    app.add_directive("guinote-profiles", ProfilesDirective)
    app.add_directive("guinote-questions", QuestionsDirective)
    app.add_directive("guinote-schemas", SchemasDirective)
    app.add_directive("guinote-results", ResultsDirective)
    app.add_directive("guinote-coverage", CoverageDirective)
    app.add_directive("guinote-interpretations", InterpretationsDirective)
    app.add_directive("guinote-example", ExampleDirective)
    app.add_directive("guinote-automodules", AutomodulesDirective)
    app.add_role("rule", RuleRole())
    app.add_role("flag", FlagRole())
    app.add_role("source", SourceRole())
    app.add_role("question", QuestionRole())
    app.connect("builder-inited", _builder_inited)
    app.connect("env-get-outdated", _get_outdated)
    app.connect("env-purge-doc", _purge_doc)
    app.connect("env-merge-info", _merge_info)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
