"""The extension's own phrases (headings, legends, captions) and their Spanish catalogue.

Phrases the extension writes go through ``_`` (catalogue ``guinote_rulebook``); the project's
data (rule statements, scenario names...) goes through Sphinx's own gettext, page by page.
The catalogue is compiled at build time from ``docs/locale/<lang>/LC_MESSAGES/guinote_rulebook.po``
(no ``.mo`` is committed).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import get_translation

CATALOG = "guinote_rulebook"
#: the project's data translated once for every page that shows it (a flag's readings, a question,
#: a custom, a rule, a scenario's title): ``data.po``, read with each page's own catalogue
#: (:class:`guinote_rulebook.i18n.SharedMessages`) and by ``run --language es`` (the titles)
SHARED = "data"
_ = get_translation(CATALOG)


def compiled(doctreedir: str | Path) -> Path:
    """Where the build compiles the extension's catalogues (``<lang>/LC_MESSAGES/*.mo``)."""
    return Path(doctreedir) / "guinote-locale"


def compile_catalogue(app: Sphinx) -> None:
    """Compile the extension's ``.po`` files (its phrases, and the shared data catalogue) into the
    doctree folder and register the first."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = Path(app.srcdir) / "locale"
    target = compiled(app.doctreedir)
    found = [*source.glob(f"*/LC_MESSAGES/{CATALOG}.po"), *source.glob(f"*/LC_MESSAGES/{SHARED}.po")]
    for po in sorted(found):
        language = po.parent.parent.name
        mo = target / language / "LC_MESSAGES" / f"{po.stem}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        with mo.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
    app.add_message_catalog(CATALOG, str(target))


def word(key: str) -> str:
    """A code of the project's vocabulary (a phase, an agreement, a kind) in the reader's
    language; an unknown code stays as it is."""
    words = {
        "free": _("free phase"),
        "arrastre": _("arrastre"),
        "profile": _("profile"),
        "overlay": _("overlay"),
        "disagreement": _("disagreement"),
        "gap": _("gap"),
        "yes": _("yes"),
        "single": _("single source"),
        "disagree": _("disagree"),
        "derived": _("derived"),
        "interpretation": _("interpretation"),
    }
    return str(words.get(key, key))


#: the Spanish edition's style data: the terms translators must use, the banned renderings,
#: the gender of each card name (``docs/locale/es/style.toml``, also read by the style check)
STYLE = Path(__file__).resolve().parents[2] / "locale" / "es" / "style.toml"


@cache
def style() -> dict[str, object]:
    with STYLE.open("rb") as handle:
        return tomllib.load(handle)


def feminine_cards() -> frozenset[str]:
    cards = style().get("cards", {})
    return frozenset(cards.get("feminine", [])) if isinstance(cards, dict) else frozenset()


def card_phrase(name: str) -> str:
    """A card's name with its article, as a sentence needs it: ``the Sota de copas`` in the
    English edition, ``la Sota de copas`` / ``el Rey de oros`` in the Spanish one. The article
    is the catalogue's; which one a card takes is the style data's (the templates never write
    an article before a card)."""
    rank = name.split(" ", 1)[0]
    if rank in feminine_cards():
        article = _("the|before a feminine card name (la Sota)")
    else:
        article = _("the|before a masculine card name (el Rey, el As)")
    return f"{str(article).split('|', 1)[0]} {name}"
