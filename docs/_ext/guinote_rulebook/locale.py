"""The extension's own phrases (headings, legends, captions) and their Spanish catalogue.

Phrases the extension writes go through ``_`` (catalogue ``guinote_rulebook``); the project's
data (rule statements, scenario names...) goes through Sphinx's own gettext, page by page.
The catalogue is compiled at build time from ``docs/locale/<lang>/LC_MESSAGES/guinote_rulebook.po``
(no ``.mo`` is committed).
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import get_translation

CATALOG = "guinote_rulebook"
_ = get_translation(CATALOG)


def compile_catalogue(app: Sphinx) -> None:
    """Compile the extension's ``.po`` files into the doctree folder and register them."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = Path(app.srcdir) / "locale"
    target = Path(app.doctreedir) / "guinote-locale"
    for po in sorted(source.glob(f"*/LC_MESSAGES/{CATALOG}.po")):
        language = po.parent.parent.name
        mo = target / language / "LC_MESSAGES" / f"{CATALOG}.mo"
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
