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
from sphinx.transforms import SphinxTransform

from guinote_conformance.catalogue.club import CLUB_START, CODE_CLOSE, CODE_OPEN, plain_words
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.directives.flags import profile_columns
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
        bases, _overlays = profile_columns(profiles)
        start = CLUB_START if CLUB_START in bases else bases[0]
        club = nodes.container(classes=["guinote-club"])
        words = {
            "name": _("Name of your club"),
            "default": _("our_club"),
            "print": _("Print our rules"),
            "download": _("Download the file for programmers"),
            "file": _("See the file"),
            "sheet": _("Our rules of Guiñote"),
            "based": _("Starting from the rules of"),
            "check": _("Check an engine against them: guinote-conformance run --profile-file"),
            "none": _("(choose a reading)"),
        }
        labels = {key: html.escape(str(text)) for key, text in words.items()}
        club += nodes.raw(
            "",
            '<div class="guinote-club-controls" hidden>'
            f'<label>{labels["name"]} <input class="guinote-club-name" value="{labels["default"]}" maxlength="60">'
            "</label></div>",
            format="html",
        )
        # the rules to start from: each profile, in words (the same paragraphs as on the profiles page)
        block = nodes.container(classes=["guinote-club-flag", "guinote-club-bases"])
        block += para(nodes.Text(str(_("Start from the rules of"))), classes=["guinote-club-question"])
        for name in bases:
            choice = nodes.container(classes=["guinote-club-value"])
            choice += marker("guinote-club-key", base=name, start="yes" if name == start else "")
            choice += self.data_para(profiles[name].summary, data, ("guinote-club-reading",))
            block += choice
        club += block
        for flag_name, spec in flags.items():
            block = nodes.container(classes=["guinote-club-flag"])
            when = " ".join(f"{other}={value}" for other, among in spec.matters_when.items() for value in among)
            block += marker("guinote-club-key", flag=flag_name, when=when)
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
            f'<details><summary>{labels["file"]}</summary><pre class="guinote-club-toml"></pre></details></div>'
            '<div class="guinote-club-sheet"'
            + "".join(f' data-{key}="{text}"' for key, text in labels.items())
            + "></div>",
            format="html",
        )
        return self.finish([club])


def _marked(node: nodes.Element) -> str:
    """The text of a paragraph with its code (literal) marked ⟦ ⟧."""
    parts = []
    for child in node.children:
        if isinstance(child, nodes.literal):
            parts.append(f"{CODE_OPEN}{child.astext()}{CODE_CLOSE}")
        elif isinstance(child, nodes.Element):
            parts.append(_marked(child))
        else:
            parts.append(child.astext())
    return "".join(parts)


class ClubPlainWords(SphinxTransform):
    """After translation (the Locale transform, priority 20): each question and reading of the club
    page in plain words; a reading whose full text says more (its grounds, with the sources) keeps
    it under "More detail"."""

    default_priority = 100

    def apply(self, **kwargs: object) -> None:
        for club in self.document.findall(nodes.container):
            if "guinote-club" not in club["classes"]:
                continue
            for paragraph in list(club.findall(nodes.paragraph)):
                classes = paragraph["classes"]
                if not {"guinote-club-question", "guinote-club-reading"} & set(classes):
                    continue
                plain = plain_words(_marked(paragraph))
                if plain == paragraph.astext():
                    continue
                short = nodes.paragraph(plain, plain, classes=list(classes))
                if "guinote-club-question" in classes:
                    paragraph.replace_self(short)
                    continue
                paragraph["classes"] = ["guinote-club-detail"]
                more = html.escape(str(_("More detail")))
                opened = nodes.raw("", f'<details class="guinote-club-more"><summary>{more}</summary>', format="html")
                paragraph.replace_self([short, opened, paragraph, nodes.raw("", "</details>", format="html")])


__all__ = ["ClubPlainWords", "ClubRulesDirective"]
