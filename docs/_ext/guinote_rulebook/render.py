"""Node helpers shared by the directives: paragraphs, tables, badges and links.

Text that comes from the project's data (a rule statement, a scenario name) is turned into
reStructuredText first (:func:`linked_rest`), with the rule IDs and question codes it cites as
roles, and parsed: the paragraph keeps that text as its source, so Sphinx's gettext extracts
it and a translation is parsed the same way, links included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from docutils import nodes
from pygments.lexers import get_lexer_by_name
from pygments.token import Error as ErrorToken
from sphinx import addnodes
from sphinx.util import logging

from guinote_conformance.catalogue.messages import linked_text
from guinote_conformance.catalogue.rule_index import CUSTOM_ID, SOURCE_IDS
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_rulebook.domain import DOMAIN

logger = logging.getLogger(__name__)


def warn_unknown_question(code: str, location: Any) -> None:
    logger.warning(
        "guinote: %s is cited but has no entry in features/index/questions.toml",
        code,
        location=location,
        type="guinote",
        subtype="question",
    )


def linked_rest(text: str, data: RulebookData, location: Any = None) -> str:
    """``text`` as reST where every indexed rule ID is a ``:rule:`` role and, when the
    project has questions, every ``B-nn``/``C-nn`` code a ``:question:`` role (a code with no
    question is a warning at ``location``): :func:`~guinote_conformance.catalogue.rulebook.linked_text`."""
    return linked_text(text, data.rules, data.questions, lambda code: warn_unknown_question(code, location))


def text_para(text: str, classes: Sequence[str] = (), *, translatable: bool = False) -> nodes.paragraph:
    """A paragraph of plain text; ``translatable`` for the project's data (the extension's
    own phrases are already translated by ``_``)."""
    node = nodes.paragraph(text if translatable else "", text, classes=list(classes))
    if not translatable:
        node["translatable"] = False
    return node


def para(*children: nodes.Node, classes: Sequence[str] = ()) -> nodes.paragraph:
    node = nodes.paragraph(classes=list(classes))
    node.extend(children)
    node["translatable"] = False
    return node


def literal(text: str, classes: Sequence[str] = ()) -> nodes.literal:
    return nodes.literal(text, text, classes=list(classes))


def xref(kind: str, target: str, text: str, docname: str, *, warn: bool, classes: Sequence[str] = ()) -> nodes.Node:
    """A reference to an object of the domain showing ``text`` (as code), inside an inline
    with ``classes``. Unresolved, it stays plain text, with a warning only if ``warn``."""
    node = addnodes.pending_xref(
        "",
        nodes.literal(text, text) if classes else nodes.inline(text, text),
        refdomain=DOMAIN,
        reftype=kind,
        reftarget=target,
        refexplicit=True,
        refwarn=warn,
        refdoc=docname,
    )
    if not classes:
        return node
    wrapper = nodes.inline(classes=list(classes))
    wrapper += node
    return wrapper


def std_ref(label: str, text: str, docname: str, *, warn: bool = False) -> nodes.Node:
    return addnodes.pending_xref(
        "",
        nodes.inline(text, text),
        refdomain="std",
        reftype="ref",
        reftarget=label,
        refexplicit=True,
        refwarn=warn,
        refdoc=docname,
    )


def rule_ref(rule_id: str, docname: str, *, warn: bool = False) -> nodes.Node:
    return xref("rule", rule_id, rule_id, docname, warn=warn, classes=["guinote-code", "guinote-rule-ref"])


def flag_ref(name: str, docname: str, text: str | None = None, *, warn: bool = False) -> nodes.Node:
    return xref("flag", name, text or name, docname, warn=warn, classes=["guinote-code", "guinote-flag-ref"])


def question_ref(code: str, docname: str, *, warn: bool = False) -> nodes.Node:
    return xref("question", code, code, docname, warn=warn, classes=["guinote-code", "guinote-question-ref"])


def profile_ref(name: str, docname: str, text: str | None = None, *, warn: bool = False) -> nodes.Node:
    return xref("profile", name, text or name, docname, warn=warn, classes=["guinote-code", "guinote-profile-ref"])


def area_ref(area_id: str, text: str, docname: str) -> nodes.Node:
    return xref("area", area_id, text, docname, warn=False)


def source_ref(source_id: str, docname: str) -> nodes.Node:
    from guinote_rulebook.locale import _, word

    if CUSTOM_ID.match(source_id):  # a regional custom is labelled as one, never as a document
        label = _("regional custom")  # outside the f-string: pybabel extracts no call inside one
        return std_ref("regional-customs", f"{source_id} ({label})", docname)
    if source_id not in SOURCE_IDS:  # "interpretation": the project's reading, in the reader's language
        shown = word(source_id)
        return nodes.emphasis(shown, shown)
    return std_ref(f"source-{source_id.lower()}", source_id, docname)


def badge(text: str, kind: str, link: nodes.Node | None = None) -> nodes.inline:
    """A badge; with ``link`` (a reference node), the badge's text is that link."""
    node = nodes.inline(classes=["guinote-badge", f"guinote-badge-{kind}"])
    node += link if link is not None else nodes.Text(text)
    return node


def joined(items: Sequence[nodes.Node], separator: str = ", ") -> list[nodes.Node]:
    result: list[nodes.Node] = []
    for index, item in enumerate(items):
        if index:
            result.append(nodes.Text(separator))
        result.append(item)
    return result


def sources_inline(sources: Iterable[str], docname: str) -> list[nodes.Node]:
    return joined([source_ref(source, docname) for source in sources])


def field_item(name: str, *body: nodes.Node) -> nodes.field:
    item = nodes.field()
    name_node = nodes.field_name("", name)
    name_node["translatable"] = False  # already in the reader's language
    item += name_node
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


def rubric(text: str, classes: Sequence[str] = ()) -> nodes.rubric:
    """A rubric of the extension's own words (already in the reader's language)."""
    node = nodes.rubric("", text, classes=list(classes))
    node["translatable"] = False
    return node


def note(*children: nodes.Node, kind: type[nodes.Element] = nodes.note) -> nodes.Element:
    node = kind()
    node.extend(children)
    return node


def section(anchor: str, title: nodes.title, document: nodes.document) -> nodes.section:
    node = nodes.section(ids=[anchor], names=[anchor])
    node += title
    document.note_explicit_target(node, node)
    return node


def code_block(text: str, language: str) -> nodes.literal_block:
    node = nodes.literal_block(text, text, language=language)
    node["translatable"] = False
    return node


@cache
def _lexes_cleanly(language: str, text: str) -> bool:
    lexer = get_lexer_by_name(language)
    return not any(str(token).startswith(str(ErrorToken)) for token, _ in lexer.get_tokens(text))


def gherkin_block(text: str) -> nodes.literal_block:
    """A ``gherkin`` code block, or plain text if Pygments would stumble on it (no warning)."""
    return code_block(text, "gherkin" if _lexes_cleanly("gherkin", text) else "text")


def code_value(text: str) -> nodes.literal:
    """A snake_case value as code that may wrap after its underscores (in narrow columns)."""
    return literal(text.replace("_", "_\u200b"))


def flag_value(flag: str, value: str, *, wrap: bool = False, read_beside: bool = False) -> nodes.literal:
    """A flag's value as code, marked with its flag: the Spanish player pages say its reading
    instead, the code one click away (:mod:`guinote_rulebook.players`); ``read_beside``: the
    reading is already shown next to it, so only the code remains, for engine authors."""
    node = code_value(value) if wrap else literal(value)
    node["classes"].append("guinote-flag-value")
    node["flag"], node["value"], node["read_beside"] = flag, value, read_beside
    return node


def snake_words(name: str) -> str:
    """A flag or profile name for reading: ``partner_winning_exempts`` -> ``partner winning exempts``."""
    return name.replace("_", " ")
