"""``.. guinote-engine-authors::``: a passage of a player page written for engine authors (the
protocol's seat numbers, its card codes). The web edition folds it away under *For engine
authors* (a ``<details class="guinote-engine">``, like a scenario's Gherkin), so a player page
reads in the players' words; the printed book shows it as it is."""

from __future__ import annotations

from docutils import nodes

from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import details, summary


class EngineAuthorsDirective(RulebookDirective):
    """The directive's content, folded away for engine authors in HTML."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        body = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, body)
        if not self.web():
            return list(body.children)
        block = details(classes=["guinote-engine", "guinote-engine-authors"])
        block += summary("", _("For engine authors"))
        block.extend(body.children)
        return [block]
