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
import re

from docutils import nodes
from sphinx.transforms import SphinxTransform

from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective
from guinote_rulebook.directives.flags import profile_columns
from guinote_rulebook.locale import _
from guinote_rulebook.render import para, sources_inline


def marker(css: str, **data: str) -> nodes.raw:
    """An empty ``span`` of class ``css`` carrying ``data-*`` attributes for the script."""
    attributes = "".join(f' data-{name}="{html.escape(value, quote=True)}"' for name, value in data.items())
    return nodes.raw("", f'<span class="{css}"{attributes}></span>', format="html")


#: The rules a club starts from, checked first: the traditional rulebook's, played at a table.
CLUB_START = "tradicional"


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


#: What a player need not read on this page, in any language: a source or question code, or the
#: project's word for a reading no source states (the sources beside each choice say both).
_CITED = re.compile(r"\bS00\d|\b[BC]-\d|\binterpret|\u27e6")
#: A flag's own value in code (``renuncio_handling=lose_point``), with the word that brings it in.
_FLAG_VALUE = re.compile(r"\s*(?:\b(?:under|with|con|bajo|si)\s+)?\u27e6[^\u27e7]*\u27e7")
_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")


def plain_words(text: str) -> str:
    """A reading or a question as a club reads it: its citations, question codes and flag values
    left out (they stay one click away, in the full text). ``text`` marks code with ⟦ ⟧.

    A reading made of a choice and its grounds, ``choice: grounds`` with the sources in the
    grounds, keeps the choice; ``grounds: choice``, with the sources before the colon, keeps the
    choice after it."""
    text = _PARENTHESIS.sub(lambda match: "" if _CITED.search(match.group(1)) else match.group(0), text)
    text = _FLAG_VALUE.sub("", text)
    if ": " in text:
        before, after = text.split(": ", 1)
        if _CITED.search(after) and not _CITED.search(before):
            text = before.rstrip(".") + "."
        elif _CITED.search(before) and not _CITED.search(after):
            text = after[:1].upper() + after[1:]
    text = re.sub(r"\s+([.,;:)])", r"\1", text.replace("\u27e6", "").replace("\u27e7", ""))
    return re.sub(r"\s{2,}", " ", text).strip()


def _marked(node: nodes.Element) -> str:
    """The text of a paragraph with its code (literal) marked ⟦ ⟧."""
    parts = []
    for child in node.children:
        if isinstance(child, nodes.literal):
            parts.append(f"\u27e6{child.astext()}\u27e7")
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


__all__ = ["ClubPlainWords", "ClubRulesDirective", "plain_words"]
