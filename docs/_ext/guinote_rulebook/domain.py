"""The ``guinote`` domain: rules, flags, profiles and open questions as Sphinx objects.

Directives declare the objects they render (:func:`note_object`); roles make
``pending_xref`` nodes that the domain resolves, so every reference is checked, every rule
is indexed by area (the domain index ``guinote-rules``) and the search ranks a rule's own
section first for its ID. The shape follows ``sphinx/ext/todo.py``: the data lives in
``env.domaindata`` and is cleared per document and merged after parallel reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from typing import Any, NamedTuple

from docutils import nodes
from docutils.nodes import Element
from sphinx import addnodes
from sphinx.addnodes import pending_xref
from sphinx.builders import Builder
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

from guinote_rulebook.locale import _
from guinote_rulebook.players import plain_text

DOMAIN = "guinote"
OBJECT_TYPES = ("rule", "flag", "profile", "question", "area", "scenario")
#: search priority of each type (0 ranks first: a rule's section comes before any page)
PRIORITY = {"rule": 0, "question": 0, "flag": 1, "profile": 1, "area": 1, "scenario": 2}


class RulebookObject(NamedTuple):
    docname: str
    anchor: str
    title: str
    #: the group of the object in the index (the area of a rule) and its position
    group: str
    order: int


def anchor_of(kind: str, name: str) -> str:
    """The HTML id of an object's section: ``rule-arr-01``, ``flag-partner-winning-exempts``."""
    return nodes.make_id(f"{kind}-{name}")


class RuleIndex(Index):
    """Every rule with its title, grouped by area in rulebook order."""

    name = "rules"
    localname = _("Index of rules")
    shortname = "rules"

    def generate(self, docnames: Iterable[str] | None = None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        domain = self.domain
        assert isinstance(domain, RulebookDomain)
        wanted = set(docnames) if docnames is not None else None
        groups: dict[str, list[tuple[int, IndexEntry]]] = {}
        order: dict[str, int] = {}
        for (kind, name), item in domain.objects.items():
            if kind != "rule" or (wanted is not None and item.docname not in wanted):
                continue
            # the group is the area's chapter, titled in the reader's language
            chapter = self.domain.env.titles.get(item.docname)
            group = chapter.astext() if chapter is not None else item.group
            order.setdefault(group, item.order // 1000)
            number = item.order % 1000
            entry = IndexEntry(name, 0, item.docname, item.anchor, "", "", self._players_title(item.title))
            groups.setdefault(group, []).append((number, entry))
        content = [
            (group, [entry for _, entry in sorted(entries, key=lambda pair: (pair[0], pair[1].name))])
            for group, entries in sorted(groups.items(), key=lambda pair: order[pair[0]])
        ]
        return content, False

    def _players_title(self, title: str) -> str:
        """A rule's title as its page shows it: in the Spanish web edition, a title's flag value
        is left out (the rule's flag field says it) and its codes are said in words, as on the
        rule's own page (:func:`players.plain_text`); the book and the English edition keep it."""
        env = self.domain.env
        if env.config.language != "es" or getattr(env, "guinote_format", "html") != "html":
            return title
        return plain_text(title, title=True)


#: set on a reference to an area that shows the area's chapter title, not its ID (the results page)
CHAPTER_TITLE = "guinote_chapter_title"
#: the kinds whose titles a translated build gives in its own language (i18n.IdsInTranslatedTitles,
#: i18n.TranslatedScenarioNames)
RETITLED = ("rule", "question", "scenario")


class RulebookDomain(Domain):
    name = DOMAIN
    label = "Guiñote rulebook"
    object_types = {kind: ObjType(kind, kind) for kind in OBJECT_TYPES}  # noqa: RUF012
    indices = [RuleIndex]  # noqa: RUF012
    initial_data = {"objects": {}}  # noqa: RUF012
    data_version = 1

    @property
    def objects(self) -> dict[tuple[str, str], RulebookObject]:
        return self.data.setdefault("objects", {})  # type: ignore[no-any-return]

    def note_object(self, kind: str, name: str, docname: str, title: str, group: str = "", order: int = 0) -> str:
        """Declare an object rendered on ``docname``; returns its anchor."""
        anchor = anchor_of(kind, name)
        self.objects[kind, name] = RulebookObject(docname, anchor, title, group, order)
        return anchor

    def retitle(self, docname: str, anchors: list[str], title: str) -> None:
        """Give the object whose section is one of ``anchors`` its (translated) title."""
        for key, item in self.objects.items():
            if item.docname == docname and item.anchor in anchors:
                self.objects[key] = item._replace(title=title)

    def clear_doc(self, docname: str) -> None:
        for key, item in list(self.objects.items()):
            if item.docname == docname:
                del self.objects[key]

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, item in otherdata.get("objects", {}).items():
            if item.docname in docnames:
                self.objects[key] = item

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        item = self.objects.get((typ, target))
        if item is None:
            return None
        tooltip = f"{target}: {item.title}" if item.title else target
        if typ not in RETITLED and (env.config.language or "en") != "en":
            tooltip = target  # the title is the source language's: a tooltip never mixes the two
        chapter = env.titles.get(item.docname) if typ == "area" and node.get(CHAPTER_TITLE) else None
        if chapter is not None:  # an area said by its chapter's title, in the edition's language
            contnode = nodes.inline(chapter.astext(), chapter.astext())
        return make_refnode(builder, fromdocname, item.docname, item.anchor, contnode, tooltip)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        found = []
        for kind in OBJECT_TYPES:
            ref = self.resolve_xref(env, fromdocname, builder, kind, target, node, contnode)
            if ref is not None:
                found.append((f"{DOMAIN}:{kind}", ref))
        return found

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for (kind, name), item in self.objects.items():
            yield name, self.display_name(kind, name, item), kind, item.docname, item.anchor, PRIORITY[kind]

    def display_name(self, kind: str, name: str, item: RulebookObject) -> str:
        """How the search lists an object, in the edition's language: a scenario by its title
        alone (its key is a file and a line), an area by its chapter's title; where a title
        exists only in English (a flag's words, a profile's summary), a translated edition lists
        the name alone."""
        if kind == "scenario":
            return item.title or name
        title = item.title
        if (self.env.config.language or "en") != "en" and kind not in RETITLED:
            chapter = self.env.titles.get(item.docname) if kind == "area" else None
            title = chapter.astext() if chapter is not None else ""
        return f"{name} {title}" if title else name

    def get_type_name(self, type: ObjType, primary: bool = False) -> str:
        return {
            "rule": _("rule"),
            "flag": _("flag"),
            "profile": _("profile"),
            "question": _("open question"),
            "area": _("rule area"),
            "scenario": _("scenario"),
        }.get(type.lname, type.lname)


def domain_of(env: BuildEnvironment) -> RulebookDomain:
    domain = env.get_domain(DOMAIN)
    assert isinstance(domain, RulebookDomain)
    return domain


def xref(kind: str, target: str, content: nodes.Node, docname: str, *, warn: bool) -> pending_xref:
    """A reference to a domain object; unresolved, it stays ``content`` (with a warning only
    if ``warn``)."""
    node = addnodes.pending_xref(
        "", content, refdomain=DOMAIN, reftype=kind, reftarget=target, refwarn=warn, refdoc=docname
    )
    return node
