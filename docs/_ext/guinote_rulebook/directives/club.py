"""``guinote-club-rules``: a club chooses its reading of each disagreement and gets its own rules.

One block per flag: the question in plain words and each reading with its sources, as on the
disagreements page (the same translatable paragraphs). The page's script
(``static/guinote-club.js``) turns each reading into a choice, starts from the profile the club
picks, and gives back a printable sheet of the rules chosen and the profile file that
``guinote-conformance run --profile-file`` checks an engine against. Everything is in the built
page: it works offline. The data the script needs rides on empty ``span`` markers (raw HTML), so
the text around them is translated like any other page's."""

from __future__ import annotations

import html

from docutils import nodes

from conformance.engines.profile_file import DEFAULT_BASE
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.locale import _
from guinote_rulebook.render import para, sources_inline


def marker(css: str, **data: str) -> nodes.raw:
    """An empty ``span`` of class ``css`` carrying ``data-*`` attributes for the script."""
    attributes = "".join(f' data-{name}="{html.escape(value, quote=True)}"' for name, value in data.items())
    return nodes.raw("", f'<span class="{css}"{attributes}></span>', format="html")


class ClubRulesDirective(RulebookDirective):
    """Every flag with its readings, to choose from; the controls and the sheet the script fills."""

    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        flags, profiles = engine_specs()
        bases = [name for name, spec in profiles.items() if not spec.overlay]
        club = nodes.container(classes=["guinote-club"])
        words = {
            "start": _("Start from the rules of"),
            "name": _("Name of your rules (letters, digits, _ and -)"),
            "print": _("Print our rules"),
            "download": _("Download the profile file"),
            "sheet": _("Our rules of Guiñote"),
            "based": _("Based on the profile"),
            "check": _("Check an engine against them: guinote-conformance run --profile-file"),
            "none": _("(choose a reading)"),
        }
        options = "".join(
            f'<option value="{html.escape(name)}"{" selected" if name == DEFAULT_BASE else ""}>{html.escape(name)}'
            "</option>"
            for name in bases
        )
        labels = {key: html.escape(str(text)) for key, text in words.items()}
        club += nodes.raw(
            "",
            '<div class="guinote-club-controls" hidden>'
            f'<label>{labels["start"]} <select class="guinote-club-base">{options}</select></label> '
            f'<label>{labels["name"]} <input class="guinote-club-name" value="our_club" maxlength="40"></label>'
            "</div>",
            format="html",
        )
        for flag_name, spec in flags.items():
            block = nodes.container(classes=["guinote-club-flag"])
            block += marker("guinote-club-key", flag=flag_name)
            block += self.data_para(spec.summary, data, ("guinote-club-question",))
            for value in spec.values.values():
                users = [name for name in bases if profiles[name].flags.get(flag_name) == value.name]
                choice = nodes.container(classes=["guinote-club-value"])
                choice += marker("guinote-club-key", flag=flag_name, value=value.name, profiles=" ".join(users))
                choice += self.data_para(value.reading, data, ("guinote-club-reading",))
                choice += para(*sources_inline(value.sources, docname), classes=["guinote-sources"])
                block += choice
            club += block
        club += nodes.raw(
            "",
            '<div class="guinote-club-actions" hidden>'
            f'<button type="button" class="guinote-club-print">{labels["print"]}</button> '
            f'<button type="button" class="guinote-club-download">{labels["download"]}</button>'
            '<pre class="guinote-club-toml"></pre></div>'
            '<div class="guinote-club-sheet"'
            + "".join(f' data-{key}="{text}"' for key, text in labels.items())
            + "></div>",
            format="html",
        )
        return self.finish([club])


__all__ = ["ClubRulesDirective"]
