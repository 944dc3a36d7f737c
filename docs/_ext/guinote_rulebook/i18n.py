"""The two editions: Spanish (the players' language) and English.

* In a translated build every message of the project's data and chapters must have its
  translation: a message with none (or only a fuzzy one) is a warning, so ``-W`` fails the
  build. A message that changes upstream (a rule statement edited in ``features/index``)
  shows up here as untranslated, on purpose.
* Every page carries a switch to the same page in the other edition; the editions are
  published side by side (``<out>/en/``, ``<out>/es/``), see :mod:`guinote_rulebook.editions`.
"""

from __future__ import annotations

import gettext
import re
from html import escape
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from guinote_conformance.catalogue.messages import nothing_to_translate

logger = logging.getLogger(__name__)

#: the editions, in the order of the switch: (code, name in its own language)
EDITIONS = (("es", "Español"), ("en", "English"))
SOURCE_LANGUAGE = "en"


class SharedMessages(SphinxTransform):
    """Before Sphinx's ``Locale`` transform: a page is translated from its own catalogue and from
    ``data.po``, the project's data translated once for every page that shows it (Sphinx's catalogues
    are one per page, and a flag's reading is shown on four). ``Locale`` merges a domain's translator
    with the fallbacks it adds; the shared one is put first, so it is read for every page."""

    default_priority = 19  # Locale is 20

    def apply(self, **kwargs: Any) -> None:
        from sphinx.locale import translators

        from guinote_rulebook.locale import SHARED, compiled

        language = self.config.language
        if not language or language == SOURCE_LANGUAGE or self.env.docname in self.config.guinote_untranslated_pages:
            return
        mo = compiled(self.env.doctreedir) / language / "LC_MESSAGES" / f"{SHARED}.mo"
        if not mo.exists():
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        with mo.open("rb") as handle:  # a new translator each time: Locale adds the page's as its fallback
            translators["general", domain] = gettext.GNUTranslations(handle)


class UntranslatedMessages(SphinxTransform):
    """After Sphinx's ``Locale`` transform: every translatable message left untranslated
    is a warning naming the page, the line and the message."""

    default_priority = 24  # after Locale (20), before the translation progress (25)

    def apply(self, **kwargs: Any) -> None:
        language = self.config.language
        if not language or language == SOURCE_LANGUAGE:
            return
        if self.env.docname in self.config.guinote_untranslated_pages:
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        # read the compiled catalogues directly: sphinx.locale.init would register them for the
        # whole process, and a later build in another language would inherit them
        from guinote_rulebook.locale import SHARED, compiled

        known: dict[Any, Any] = {}
        for folder in self.config.locale_dirs:
            found = gettext.translation(
                domain, str(Path(self.env.srcdir) / folder), languages=[language], fallback=True
            )
            known.update(getattr(found, "_catalog", {}))
        shared = compiled(self.env.doctreedir) / language / "LC_MESSAGES" / f"{SHARED}.mo"
        if shared.exists():
            with shared.open("rb") as handle:
                known.update(getattr(gettext.GNUTranslations(handle), "_catalog", {}))
        for node, message in extract_messages(self.document):
            if node.get("translated") is not False:
                continue
            if known.get(message) or nothing_to_translate(message):
                continue  # translated as itself (a name, a code), or nothing but roles (":question:`B-44`")
            logger.warning(
                "guinote: untranslated message (%s) in %s: %r; run `tox -e docs-i18n` and translate it",
                language,
                domain,
                message[:120],
                location=node,
                type="guinote",
                subtype="i18n",
            )


class IdsInTranslatedTitles(SphinxTransform):
    """A translated title of a rule or a question (``CANTE-01 Un jugador...``) gets its ID
    marked up again, as in the source language."""

    default_priority = 26

    def apply(self, **kwargs: Any) -> None:
        from guinote_rulebook.domain import domain_of

        domain = domain_of(self.env)
        for section in self.document.findall(nodes.section):
            classes = set(section["classes"])
            if not classes & {"guinote-rule", "guinote-question"} or not section.children:
                continue
            title = section.children[0]
            if not isinstance(title, nodes.title):
                continue
            code, _, rest = title.astext().partition(" ")
            if not code or not rest:
                continue
            # the index of rules and the links' tooltips show the title in the reader's language
            domain.retitle(self.env.docname, section["ids"], rest)
            if any("guinote-id" in child.get("classes", []) for child in title.findall(nodes.inline)):
                continue
            title.children = []
            title += nodes.inline(code, code, classes=["guinote-id"])
            title += nodes.Text(" " + rest)


class SeatNamesInTitles(SphinxTransform):
    """A scenario's title names its players as at its table, as its steps do («el jugador 1» ->
    «el segundo»), in either edition: after Sphinx's ``Locale`` transform has translated it, and
    before :class:`TranslatedScenarioNames` passes the title on to the drawing and the search."""

    default_priority = 26

    def apply(self, **kwargs: Any) -> None:
        from guinote_conformance.catalogue.player_steps import seats_named
        from guinote_conformance.catalogue.table_words import Seating
        from guinote_rulebook.nodes import scenario_block

        language = "es" if self.config.language == "es" else "en"
        for block in self.document.findall(scenario_block):
            if "seating" not in block:
                continue
            seating = Seating(*block["seating"])
            for child in block.children:
                if not (isinstance(child, nodes.Element) and "guinote-scenario-title" in child.get("classes", [])):
                    continue
                for text in list(child.findall(nodes.Text)):
                    if isinstance(text.parent, nodes.literal):
                        continue
                    named = seats_named(str(text), language, seating)
                    if named != str(text):
                        text.parent.replace(text, nodes.Text(named))


class TranslatedScenarioNames(SphinxTransform):
    """The drawing of a scenario's table is labelled with the scenario's name: in a
    translated build, with its translated name (the title above it, once Sphinx's ``Locale``
    transform has translated it), so the text alternative is in the reader's language. The
    scenario's entry in the search and the links' tooltips take the same name."""

    default_priority = 27

    def apply(self, **kwargs: Any) -> None:
        from guinote_rulebook.domain import domain_of
        from guinote_rulebook.nodes import drawing, scenario_block

        language = self.config.language
        if not language or language == SOURCE_LANGUAGE:
            return
        for block in self.document.findall(scenario_block):
            original = str(block.get("scenario", ""))
            titles = [
                child
                for child in block.children
                if isinstance(child, nodes.Element) and "guinote-scenario-title" in child.get("classes", [])
            ]
            if not original or not titles:
                continue
            translated = titles[0].astext()
            if translated == original:
                continue
            domain_of(self.env).retitle(self.env.docname, list(block["ids"]), translated)
            for figure in block.findall(drawing):
                figure["alt"] = str(figure["alt"]).replace(original, translated)
                figure["svg"] = str(figure["svg"]).replace(escape(original), escape(translated))


class OneLanguagePage(SphinxTransform):
    """A page in one language only (``guinote_untranslated_pages``), in the other edition: its title
    is in the reader's language, saying the page's (the sidebar and the links name it so before the
    reader follows them), and a note under it says the page is in that language only."""

    default_priority = 28  # after Locale (20): the page's messages are as they will be shown

    def apply(self, **kwargs: Any) -> None:
        from guinote_rulebook.locale import _

        edition = self.config.language or SOURCE_LANGUAGE
        written = self.config.guinote_untranslated_pages.get(self.env.docname)
        section = next(iter(self.document.findall(nodes.section)), None)
        if written is None or written == edition or section is None or not section.children:
            return
        title = section.children[0]
        if not isinstance(title, nodes.title):
            return
        language, note = _page_languages()[written]
        titles = one_language_titles()
        text = title.astext()
        if written == SOURCE_LANGUAGE:  # (the edition translates its English pages' titles; a Spanish title stays)
            if text not in titles:
                logger.warning("guinote: the page in English only has no Spanish title: %r; add it to "
                               "one_language_titles (guinote_rulebook/i18n.py) and translate it", text,
                               location=title, type="guinote", subtype="i18n")  # fmt: skip
            else:
                text = str(titles[text])
        said = str(_("{title} (in {language})")).format(title=text, language=language)
        title.clear()
        title += nodes.Text(said)
        section.insert(1, nodes.note("", nodes.paragraph("", str(note)), classes=["guinote-one-language"]))
        for child in section.children[2:]:  # the page's own text: lang="en" for a screen reader's voice
            if isinstance(child, nodes.Element):
                child["classes"].append(f"language-{written}")


def one_language_titles() -> dict[str, str]:
    """The titles of the pages in English only, for the Spanish edition's sidebar and links."""
    from guinote_rulebook.locale import _

    return {
        "API reference": _("API reference"),
        "Engine kits": _("Engine kits"),
        "The suite in your engine's CI": _("The suite in your engine's CI"),
        "Badges and a results site": _("Badges and a results site"),
    }


def _page_languages() -> dict[str, tuple[str, str]]:
    """Each language a page may be written in: its name, and the note of a page written in it only."""
    from guinote_rulebook.locale import _

    return {
        "en": (str(_("English")), str(_("This page is in English only, for now."))),
        "es": (
            str(_("Spanish")),
            str(_("This page is written in Spanish, for the translators of the Spanish edition.")),
        ),
    }


def switch_html(app: Sphinx, pagename: str) -> str:
    """The language switch for ``pagename``: links to the same page in each edition."""
    depth = pagename.count("/") + 1
    up = "../" * depth
    current = app.config.language or SOURCE_LANGUAGE
    links = []
    for code, name in EDITIONS:
        if code == current:
            links.append(f'<strong lang="{code}" aria-current="true">{escape(name)}</strong>')
        else:
            href = f"{up}{code}/{pagename}.html"
            links.append(f'<a lang="{code}" hreflang="{code}" href="{escape(href)}">{escape(name)}</a>')
    return '<nav class="guinote-languages" aria-label="Language / Idioma">' + " · ".join(links) + "</nav>"


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.Node) -> None:
    if app.builder.format != "html" or not app.config.guinote_editions:
        return
    context["theme_announcement"] = switch_html(app, pagename)


def config_inited(app: Sphinx, config: Any) -> None:
    title = config.guinote_html_titles.get(config.language)
    if title:
        config.html_title = title
    copyright = config.guinote_copyrights.get(config.language)
    if copyright:
        config.copyright = copyright


def theme_labels() -> list[tuple[str, str]]:
    """The theme's labels its templates write without gettext (Furo's ``page.html`` and
    ``partials/icons.html``), as ``(fragment, translated fragment)``. The theme's other phrases
    go through Sphinx's gettext (``docs/locale/<lang>/LC_MESSAGES/sphinx.po``)."""
    from guinote_rulebook.locale import _

    labels = {
        "Toggle site navigation sidebar": _("Toggle site navigation sidebar"),
        "Toggle table of contents sidebar": _("Toggle table of contents sidebar"),
        "Toggle Light / Dark / Auto color theme": _("Toggle Light / Dark / Auto color theme"),
    }
    titles = {
        "Contents": _("Contents"),
        "Menu": _("Menu"),
        "Expand": _("Expand"),
        "Light mode": _("Light mode"),
        "Dark mode": _("Dark mode"),
        "Auto light/dark, in light mode": _("Auto light/dark, in light mode"),
        "Auto light/dark, in dark mode": _("Auto light/dark, in dark mode"),
    }
    pairs = [(f'aria-label="{english}"', f'aria-label="{escape(str(words))}"') for english, words in labels.items()]
    pairs += [
        (f"<title>{english}</title>", f"<title>{escape(str(words))}</title>") for english, words in titles.items()
    ]
    return pairs


#: Furo's footer credit, "@pradyunsg's Furo", an English possessive outside gettext
FURO_CREDIT = re.compile(
    r'(<a class="muted-link" href="https://pradyunsg.me">@pradyunsg</a>)\s*'
    r"'s\s*"
    r'(<a href="https://github.com/pradyunsg/furo">Furo</a>)'
)


def translate_theme(app: Sphinx, exception: BaseException | None) -> None:
    """After a translated HTML build: the theme's hard-coded labels in the edition's language."""
    language = app.config.language
    if exception is not None or app.builder.format != "html" or not language or language == SOURCE_LANGUAGE:
        return
    from guinote_rulebook.locale import _

    pairs = theme_labels()
    credit = str(_("{furo} by {author}"))
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = text
        for english, translated in pairs:
            new = new.replace(english, translated)
        new = FURO_CREDIT.sub(lambda match: credit.format(furo=match.group(2), author=match.group(1)), new)
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app: Sphinx) -> None:
    app.add_config_value("guinote_untranslated_pages", {}, "env", dict)
    app.add_config_value("guinote_html_titles", {}, "html", dict)
    app.add_config_value("guinote_copyrights", {}, "html", dict)
    app.connect("build-finished", translate_theme)
    app.connect("config-inited", config_inited)
    app.add_config_value("guinote_editions", True, "html", bool)
    app.add_transform(SharedMessages)
    app.add_transform(UntranslatedMessages)
    app.add_transform(IdsInTranslatedTitles)
    app.add_transform(SeatNamesInTitles)
    app.add_transform(TranslatedScenarioNames)
    app.add_transform(OneLanguagePage)
    app.connect("html-page-context", page_context)
