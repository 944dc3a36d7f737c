"""``guinote-profiles``: the profiles and overlays, each shown as its differences from a
baseline profile (the first one), with every flag one click away."""

from __future__ import annotations

from docutils import nodes

from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _, word
from guinote_rulebook.nodes import details, summary
from guinote_rulebook.render import (
    Cell,
    code_value,
    field_item,
    flag_ref,
    flag_value,
    literal,
    para,
    profile_ref,
    rubric,
    section,
    snake_words,
    sources_inline,
    table,
    text_para,
)


class ProfilesDirective(RulebookDirective):
    """The baseline profile in full, then every other profile and overlay by what it changes."""

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = engine_specs()
        baseline_name = next(name for name, spec in profiles.items() if not spec.overlay)
        baseline = profiles[baseline_name]
        result: list[nodes.Node] = [
            para(
                nodes.Text(_("Every profile is shown by what it changes from the baseline profile ")),
                profile_ref(baseline_name, docname),
                nodes.Text(_(", listed in full first.")),
                classes=["guinote-legend"],
            )
        ]
        for order, (name, spec) in enumerate(profiles.items()):
            kind = "overlay" if spec.overlay else "profile"
            anchor = self.domain.note_object("profile", name, docname, spec.summary, order=order)
            title = self.plain_title(literal(name, ["guinote-id"]), nodes.Text(f" ({word(kind)})"))
            node = section(anchor, title, self.state.document)
            node["classes"].append(f"guinote-{kind}")
            node += self.data_para(spec.summary, data)
            fields = nodes.field_list()
            fields += field_item(_("Sources"), para(*sources_inline(spec.sources, docname)))
            example = f"{baseline_name}+{name}" if spec.overlay else name
            fields += field_item(_("Profile string"), para(literal(example)))
            node += fields
            every = [(flag, value) for flag, value in spec.flags.items()]
            if name == baseline_name or spec.overlay:
                shown = every
            else:
                shown = [(flag, value) for flag, value in every if baseline.flags.get(flag) != value]
            if name == baseline_name:
                heading = _("Every flag of the baseline")
            elif spec.overlay:
                heading = _("What the overlay changes, on top of any profile")
            else:
                heading = _("Differences from {baseline} ({count} of {total} flags)").format(
                    baseline=baseline_name, count=len(shown), total=len(every)
                )
            node += rubric(heading)
            if shown:
                node += self.flags_table(
                    shown, flags, baseline.flags if name != baseline_name and not spec.overlay else None
                )
            else:
                node += text_para(_("No difference: every flag has the baseline's value."))
            if name != baseline_name and not spec.overlay:
                full = details()
                full += summary("", _("All {total} flags of {name}").format(total=len(every), name=name))
                full += self.flags_table(every, flags, None)
                node += full
            result.append(node)
        return self.finish(result)

    def flags_table(
        self, rows_in: list[tuple[str, str]], flags: dict[str, object], baseline: dict[str, str] | None
    ) -> nodes.Node:
        data = self.data()
        docname = self.env.docname
        rows: list[list[Cell]] = []
        for flag_name, value in rows_in:
            flag_spec = flags.get(flag_name)
            values = getattr(flag_spec, "values", {})
            reading = values[value].reading if value in values else ""
            row: list[Cell] = [flag_ref(flag_name, docname, snake_words(flag_name))]
            if baseline is not None:
                before = baseline.get(flag_name, "—")
                row.append(flag_value(flag_name, before, wrap=True) if before in values else code_value(before))
            row += [flag_value(flag_name, value, wrap=True, read_beside=bool(reading))]
            row += [self.data_para(reading, data) if reading else ""]
            rows.append(row)
        headers = [_("Flag"), *([_("Baseline")] if baseline is not None else []), _("Value"), _("Reading")]
        return table(headers, rows, ["guinote-profile-flags"])
