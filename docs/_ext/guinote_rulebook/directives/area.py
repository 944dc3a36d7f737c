"""``.. guinote-area:: cantes``: every rule of one area, each a section titled with its ID and
title: statement, sources, agreement, flag, interpretation, and its scenarios drawn."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from guinote_conformance.catalogue.messages import rest_escape
from guinote_conformance.catalogue.rule_index import AREAS, CUSTOM_ID, Area, RuleEntry
from guinote_conformance.catalogue.rulebook import RulebookData
from guinote_conformance.catalogue.spanish import read_po
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _, word
from guinote_rulebook.render import (
    badge,
    bullets,
    field_item,
    flag_ref,
    flag_value,
    literal,
    note,
    para,
    rubric,
    section,
    source_ref,
    sources_inline,
    text_para,
)
from guinote_rulebook.scenario import location_node, render_scenario, scenario_key

#: the catalogue of the sources' headings (their notes in brackets) in each translated edition
SOURCE_HEADINGS = "source_headings.po"


@cache
def headings_catalogue(path: Path) -> dict[str, str]:
    return read_po(path) if path.exists() else {}


AGREEMENT = {
    "yes": _("the sources that cover it agree"),
    "single": _("stated by one source only"),
    "disagree": _("the sources disagree: each reading is a value of the flag"),
    "derived": _("follows from other rules; no source states it in so many words"),
    "interpretation": _("no source settles it; this is the project's reading"),
}


class AreaDirective(RulebookDirective):
    """Every rule of one area: statement, sources, agreement, flag, interpretation, scenarios."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {"no-scenarios": directives.flag}

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        area_id = self.arguments[0].strip()
        known = [area for area, _prefixes in AREAS]
        if area_id not in known:
            logger.warning(
                "guinote-area: unknown area %r; areas are %s", area_id, ", ".join(known), location=self.get_location()
            )
        area = data.area(area_id)
        position = known.index(area_id) if area_id in known else len(known)
        self.domain.note_object("area", area_id, self.env.docname, area.title if area else area_id, order=position)
        if area is None or not area.rules:
            text = _("The rule index has no rules for the area “{area}” yet.").format(area=area_id)
            return self.finish([note(text_para(text))])
        flags, _profiles = engine_specs()
        result: list[nodes.Node] = [self.overview(area, data)]
        for number, rule in enumerate(area.rules):
            result.append(self.rule_section(rule, data, flags, area, position * 1000 + number))
        return self.finish(result)

    def overview(self, area: Area, data: RulebookData) -> nodes.Node:
        text = _("{rules} rules, {scenarios} scenarios; feature file ").format(
            rules=len(area.rules), scenarios=data.scenario_count(area)
        )
        children: list[nodes.Node] = [nodes.Text(text)]
        if area.feature:
            children.append(location_node(f"features/{area.feature}", 1, self.config.guinote_repository_url))
        else:
            children.append(nodes.Text(_("(none named)")))
        children.append(nodes.Text(". "))
        children.append(self.index_link(_("All rules, by area")))
        return para(*children, classes=["guinote-area-overview"])

    def index_link(self, text: str) -> nodes.Node:
        from guinote_rulebook.render import std_ref

        return std_ref("guinote-rules", text, self.env.docname)

    def rule_section(
        self, rule: RuleEntry, data: RulebookData, flags: dict[str, Any], area: Area, order: int
    ) -> nodes.section:
        docname = self.env.docname
        title = data.title(rule.id)
        anchor = self.domain.note_object("rule", rule.id, docname, title, group=area.title, order=order)
        node = section(anchor, self.data_title(rule.id, title), self.state.document)
        node["classes"].append("guinote-rule")
        node += self.data_para(rule.statement, data, ("guinote-statement",))
        fields = nodes.field_list(classes=["guinote-rule-fields"])
        if rule.sources:
            items = []
            for source in rule.sources:
                children: list[nodes.Node] = [source_ref(source.id, docname)]
                if source.heading:  # the source's own heading, in its own language
                    heading = self.source_heading(source.heading, source.id)
                    children += [nodes.Text(" — "), nodes.emphasis(heading, heading)]
                items.append(children)
            fields += field_item(_("Sources"), bullets(items))
        agreement = str(AGREEMENT.get(rule.agreement, rule.agreement))
        fields += field_item(
            _("Agreement"),
            para(badge(word(rule.agreement), f"agreement-{rule.agreement}"), nodes.Text(f" {agreement}")),
        )
        if rule.flag:
            fields += field_item(_("Flag"), *self.flag_body(rule, flags))
        where = self.get_location()
        for label, text in (
            (_("Interpretation"), rule.interpretation),
            (_("Not executable"), rule.not_executable),
            (_("Note"), rule.note),
        ):
            if text:
                fields += field_item(label, self.data_para(text, data))
        del where
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
            return [para(literal(rule.flag), nodes.Text(" " + _("(not defined in profiles.toml)")))]
        data = self.data()
        head = nodes.container(classes=["guinote-flag-head"])
        head += para(flag_ref(rule.flag, docname))
        head += self.data_para(spec.summary, data)
        items = []
        for value in spec.values.values():
            items.append(
                [
                    flag_value(rule.flag, value.name, read_beside=True),
                    nodes.Text(" ("),
                    *sources_inline(value.sources, docname),
                    nodes.Text(")"),
                ]
            )
        readings = nodes.bullet_list(classes=["guinote-flag-values"])
        for value, item in zip(spec.values.values(), items, strict=True):
            entry = nodes.list_item()
            entry += para(*item)
            entry += self.data_para(value.reading, data)
            readings += entry
        return [head, readings]

    def source_heading(self, heading: str, source: str = "") -> str:
        """A source's heading as the reader's edition gives it: the source's words as they are,
        the index's notes in brackets in the reader's language (``source_headings.po``, which
        needs an entry only for a document's heading with a note). A custom's heading is where
        it is played, a proper name: shown as written in both editions."""
        language = self.config.language or "en"
        if language == "en" or "(" not in heading or CUSTOM_ID.match(source):
            return heading  # the source's own words (or a place), in its own language: nothing to translate
        catalogue = self.catalogues(language) / SOURCE_HEADINGS
        translated = headings_catalogue(catalogue).get(heading)
        if translated is None:
            logger.warning(
                f"the source heading {heading!r} has no translation in {catalogue}", location=self.get_location()
            )
            return heading
        return translated

    def catalogues(self, language: str) -> Path:
        """The build's catalogues of ``language``."""
        folders: list[str] = list(self.config.locale_dirs or ["locale"])
        return Path(self.env.srcdir) / folders[0] / language / "LC_MESSAGES"

    def spanish_catalogues(self) -> Path:
        """The build's Spanish catalogues: the titles of the Spanish scenarios."""
        return self.catalogues("es")

    def scenarios(self, rule: RuleEntry, data: RulebookData) -> list[nodes.Node]:
        found = data.by_rule.get(rule.id, [])
        heading = _("Scenarios ({count})").format(count=len(found)) if found else _("Scenarios")
        result: list[nodes.Node] = [rubric(heading, ["guinote-scenarios-heading"])]
        if not found:
            text = _("None: see why above.") if rule.not_executable else _("No scenario is tagged with this rule yet.")
            result.append(text_para(text, ["guinote-no-scenarios"]))
            return result
        for scenario in found:
            name = nodes.paragraph(rest_escape(scenario.name), "", classes=["guinote-scenario-title"])
            name += nodes.strong(scenario.name, scenario.name)
            block = render_scenario(
                scenario, data, self.env.docname, self.config.guinote_repository_url, name,
                self.config.language or "en", self.spanish_catalogues(),
            )  # fmt: skip
            # the first rendering of a scenario is its target: failures on the results page link to it
            key = scenario_key(data.relative(scenario.path), scenario.line)
            if ("scenario", key) not in self.domain.objects:
                anchor = self.domain.note_object("scenario", key, self.env.docname, scenario.name)
                block["ids"].append(anchor)
            result.append(block)
        return result
