"""``guinote-style-terms`` and ``guinote-style-banned``: the Spanish edition's style data
(``docs/locale/es/style.toml``), shown on the translators' page as it is checked. The page
is written in Spanish and stays so in both editions (``guinote_untranslated_pages``)."""

from __future__ import annotations

from typing import Any

from docutils import nodes

from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import STYLE, style
from guinote_rulebook.render import Cell, literal, table


def _entries(key: str) -> list[dict[str, Any]]:
    entries = style().get(key, [])
    return [entry for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []


class StyleTermsDirective(RulebookDirective):
    """The terms translators must use: the English of the sources, the word of the table."""

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(STYLE))
        rows = [[str(entry["en"]), str(entry["es"])] for entry in _entries("term")]
        return self.finish([table(["En inglés", "En la mesa (obligatorio)"], rows, classes=["guinote-style-terms"])])


class StyleBannedDirective(RulebookDirective):
    """The renderings the machine check refuses, with the reason and what to write."""

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(STYLE))
        rows: list[list[Cell]] = [
            [literal(str(entry["id"])), f"«{entry['example']}»", str(entry["reason"]), str(entry["use"])]
            for entry in _entries("banned")
        ]
        return self.finish(
            [table(["Regla", "No escriba", "Por qué", "Escriba"], rows, classes=["guinote-style-banned"])]
        )
