"""``guinote-flags-matrix`` (every flag × every profile) and ``guinote-flags`` (a section per
flag: the disagreement, the rules, each value's reading, sources and profiles)."""

from __future__ import annotations

from typing import Any

from docutils import nodes

from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _
from guinote_rulebook.render import (
    Cell,
    flag_ref,
    flag_value,
    joined,
    literal,
    para,
    profile_ref,
    rule_ref,
    section,
    snake_words,
    sources_inline,
    table,
    text_para,
)


def profile_columns(profiles: dict[str, Any]) -> tuple[list[str], list[str]]:
    names = [name for name, spec in profiles.items() if not spec.overlay]
    overlays = [name for name, spec in profiles.items() if spec.overlay]
    return names, overlays


class FlagsMatrixDirective(RulebookDirective):
    """Every flag × every profile and overlay: the value and the sources behind it."""

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = engine_specs()
        names, overlays = profile_columns(profiles)
        headers = [_("Flag"), *names, *(f"+{name}" for name in overlays)]
        rows: list[list[Cell]] = []
        for flag_name, spec in flags.items():
            rules = [rule_ref(rule, docname) for rule in spec.rules if rule in data.rules]
            first: list[nodes.Node] = [flag_ref(flag_name, docname, snake_words(flag_name))]
            if rules:
                first += [nodes.Text(" ("), *joined(rules), nodes.Text(")")]
            row: list[Cell] = [first]
            for profile in [*names, *overlays]:
                column = f"+{profile}" if profile in overlays else profile
                cell = nodes.container(classes=["guinote-matrix-cell"])
                # shown only where the matrix is stacked (narrow screens), in place of the header
                label = nodes.inline("", column, classes=["guinote-cell-label"])
                value = profiles[profile].flags.get(flag_name)
                if value is None:
                    cell += para(label, nodes.Text("—"), classes=["guinote-inherited"])
                    row.append(cell)
                    continue
                known = spec.values.get(value)
                sources = known.sources if known is not None else ()
                cell += para(label, flag_value(flag_name, value, wrap=True))
                if sources:
                    cell += para(*sources_inline(sources, docname), classes=["guinote-sources"])
                row.append(cell)
            rows.append(row)
        matrix = table(headers, rows, ["guinote-flags-matrix"])
        wrapper = nodes.container(classes=["guinote-scroll"])
        wrapper += matrix
        legend = text_para(
            _(
                "Each cell: the flag's value under that profile, then the sources that read the rule that way. "
                "Overlay columns (+name) show only the flags the overlay changes; “—” keeps the profile's value."
            ),
            ["guinote-legend"],
        )
        return self.finish([legend, wrapper])


class FlagsDirective(RulebookDirective):
    """One section per flag: the disagreement, the rules, each value's reading and sources."""

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = engine_specs()
        result: list[nodes.Node] = []
        for order, (flag_name, spec) in enumerate(flags.items()):
            anchor = self.domain.note_object("flag", flag_name, docname, snake_words(flag_name), order=order)
            # the words of a flag's name are English: a translated edition titles it by its code
            words = [nodes.Text(snake_words(flag_name) + " ")] if (self.config.language or "en") == "en" else []
            title = self.plain_title(*words, literal(flag_name, ["guinote-id"]))
            node = section(anchor, title, self.state.document)
            node["classes"].append("guinote-flag")
            node += self.data_para(spec.summary, data)
            fields = nodes.field_list()
            fields += self.field(_("Disagreement"), self.data_para(spec.disagreement, data))
            rules = [rule_ref(rule, docname) if rule in data.rules else literal(rule) for rule in spec.rules]
            fields += self.field(_("Rules"), para(*joined(rules)))
            node += fields
            rows: list[list[Cell]] = []
            for value in spec.values.values():
                users = [name for name, profile in profiles.items() if profile.flags.get(flag_name) == value.name]
                links = [profile_ref(name, docname, f"+{name}" if profiles[name].overlay else name) for name in users]
                rows.append(
                    [
                        flag_value(flag_name, value.name, read_beside=True),
                        self.data_para(value.reading, data),
                        sources_inline(value.sources, docname),
                        joined(links) or "—",
                    ]
                )
            node += table([_("Value"), _("Reading"), _("Sources"), _("Profiles")], rows, ["guinote-flag-values"])
            result.append(node)
        return self.finish(result)

    def field(self, name: str, body: nodes.Node) -> nodes.field:
        from guinote_rulebook.render import field_item

        return field_item(name, body)
