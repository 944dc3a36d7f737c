"""The base of the extension's directives: data access, dependencies and translatable text."""

from __future__ import annotations

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from guinote_conformance.catalogue.messages import rest_escape
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_rulebook import data as store
from guinote_rulebook.domain import RulebookDomain, domain_of
from guinote_rulebook.render import linked_rest

logger = logging.getLogger(__name__)


class RulebookDirective(SphinxDirective):
    has_content = False

    @property
    def domain(self) -> RulebookDomain:
        return domain_of(self.env)

    def finish(self, result: list[nodes.Node]) -> list[nodes.Node]:
        """Stamp source info on every generated node (gettext needs it to extract a message)."""
        for top in result:
            for node in top.findall(nodes.Element):
                if not node.source:
                    self.set_source_info(node)
        return result

    def data(self) -> RulebookData:
        data = store.load_data(self.env)
        for path in data.data_files():
            self.env.note_dependency(str(path))
        # a file added to features/ changes the folder: the page is read again
        self.env.note_dependency(str(data.features / "index"))
        if store.first_report(data):
            for error in data.errors:
                logger.warning("guinote: %s", error, location=self.get_location(), type="guinote", subtype="data")
        return data

    def web(self) -> bool:
        """Whether this build is an HTML one (the web editions), not the printed book's."""
        return getattr(self.env, "guinote_format", "html") == "html"

    def note_engine_dependency(self) -> None:
        for path in store.engine_files():
            self.env.note_dependency(str(path))

    def rest_nodes(self, rest: str) -> list[nodes.Node]:
        children, messages = self.state.inline_text(rest, self.lineno)
        return [*children, *messages]

    def data_para(self, text: str, data: RulebookData, classes: tuple[str, ...] = ()) -> nodes.paragraph:
        """A translatable paragraph of the project's data, its codes linked."""
        rest = linked_rest(text, data, self.get_location())
        node = nodes.paragraph(rest, "", *self.rest_nodes(rest), classes=list(classes))
        return node

    def data_title(self, prefix: str, text: str) -> nodes.title:
        """A translatable section title ``prefix text`` (the prefix, an ID, stays as it is in
        every language; the translation repeats it)."""
        rest = f"{prefix} {rest_escape(text)}".strip()
        title = nodes.title(rest, "")
        if prefix:
            title += nodes.inline(prefix, prefix, classes=["guinote-id"])
            title += nodes.Text(" ")
        title += nodes.Text(text)
        return title

    def plain_title(self, *children: nodes.Node) -> nodes.title:
        title = nodes.title("", "", *children)
        title["translatable"] = False
        return title
