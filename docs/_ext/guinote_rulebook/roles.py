"""Roles: ``:rule:`ARR-01```, ``:flag:`deal``` (or ``:flag:`deal=three_three```),
``:question:`B-17```, ``:profile:`ludoteka``` and ``:source:`S004```. Each checks its target
against the project's data where it is read, and leaves the link to the domain."""

from __future__ import annotations

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from guinote_conformance.catalogue.rule_index import RULE_ID, SOURCE_IDS
from guinote_conformance.catalogue.rulebook import QUESTION_ID, area_of_rule
from guinote_rulebook import data as store
from guinote_rulebook.render import (
    flag_ref,
    literal,
    profile_ref,
    question_ref,
    rule_ref,
    std_ref,
    warn_unknown_question,
)

logger = logging.getLogger(__name__)


class DataRole(SphinxRole):
    def note_data(self) -> None:
        data = store.load_data(self.env)
        for path in data.data_files():
            self.env.note_dependency(str(path))


class RuleRole(DataRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        rule_id = self.text.strip().upper()
        self.note_data()
        data = store.load_data(self.env)
        if rule_id in data.rules:
            return [rule_ref(rule_id, self.env.docname, warn=True)], []
        area = area_of_rule(rule_id)
        if not RULE_ID.match(rule_id) or area is None or area in data.indexed_area_ids():
            logger.warning("guinote: unknown rule %s", rule_id, location=self.get_location())
        else:
            logger.info("guinote: rule %s: its area %s is not indexed yet", rule_id, area, location=self.get_location())
        return [literal(rule_id, ["guinote-rule-ref"])], []


class FlagRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text = self.text.strip()
        name = text.split("=", 1)[0]
        flags, _profiles = store.engine_specs()
        if name not in flags:
            logger.warning("guinote: unknown flag %s", name, location=self.get_location())
            return [literal(text)], []
        value = text.split("=", 1)[1] if "=" in text else None
        if value is not None and value not in flags[name].values:
            logger.warning("guinote: flag %s has no value %s", name, value, location=self.get_location())
        return [flag_ref(name, self.env.docname, text, warn=True)], []


class ProfileRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        name = self.text.strip()
        _flags, profiles = store.engine_specs()
        if name not in profiles:
            logger.warning("guinote: unknown profile %s", name, location=self.get_location())
            return [literal(name)], []
        return [profile_ref(name, self.env.docname, warn=True)], []


class QuestionRole(DataRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        code = self.text.strip().upper()
        self.note_data()
        data = store.load_data(self.env)
        if data.questions is not None and code in data.questions:
            return [question_ref(code, self.env.docname, warn=True)], []
        if not QUESTION_ID.match(code):
            logger.warning("guinote: %s is not a question code (B-nn or C-nn)", code, location=self.get_location())
        else:
            warn_unknown_question(code, self.get_location())
        return [literal(code, ["guinote-question-ref"])], []


class SourceRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        source = self.text.strip().upper()
        if source not in SOURCE_IDS:
            logger.warning("guinote: unknown source %s", source, location=self.get_location())
            return [nodes.Text(source)], []
        return [std_ref(f"source-{source.lower()}", source, self.env.docname, warn=True)], []
