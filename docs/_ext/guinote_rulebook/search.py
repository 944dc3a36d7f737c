"""The search of each edition: what a reader finds, in the reader's language.

Sphinx indexes the words and titles of every page and the domains' objects
(``searchindex.js``); the search page scores the objects above the words. Here:

* The pages made from code (``guinote_unsearched_pages``: the API reference) stay out of the
  index of a translated edition, the players' edition: neither their words, nor their titles,
  nor their Python objects (a search for «renuncio» found the module ``guinote_conformance.reference_engine.renuncio``
  second). In the English edition, the engine authors', their Python objects are kept but rank
  after the rulebook's own (:data:`PYTHON_PRIORITY`).
* Sphinx escapes each object's name for HTML when it writes the index, and its search page
  escapes the name again when it shows it, so an apostrophe read ``&#x27;``: the names are
  written back unescaped, and the page's single escaping shows them as written.

How the rulebook's objects are named in each language is the domain's
(:meth:`guinote_rulebook.domain.RulebookDomain.get_objects`).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.search import js_index

from guinote_rulebook.i18n import SOURCE_LANGUAGE

#: the priority of a Python object in the English edition's index: the lowest that Sphinx's
#: search page still lists (it adds -5 to the score, where a rule gets +15)
PYTHON_PRIORITY = 2
#: the file Sphinx's HTML builder writes the index to
INDEX_FILE = "searchindex.js"


def translated(app: Sphinx) -> bool:
    return (app.config.language or SOURCE_LANGUAGE) != SOURCE_LANGUAGE


def leave_out_pages(app: Sphinx, env: BuildEnvironment) -> None:
    """In a translated edition, mark the pages made from code ``nosearch``: Sphinx then indexes
    neither their words nor their titles."""
    if not translated(app):
        return
    for docname in app.config.guinote_unsearched_pages:
        if docname in env.all_docs:
            env.metadata.setdefault(docname, {})["nosearch"] = ""


def tidy_index(index: dict[str, Any], unsearched: set[str], *, translated: bool) -> dict[str, Any]:
    """``index`` (a loaded ``searchindex.js``) with its object names unescaped; the objects of
    the ``unsearched`` pages dropped in a translated edition, and the Python objects lowered
    to :data:`PYTHON_PRIORITY` in the English one."""
    docnames: list[str] = list(index["docnames"])
    left_out = {number for number, docname in enumerate(docnames) if docname in unsearched}
    python = {int(number) for number, name in index["objtypes"].items() if str(name).startswith("py:")}
    objects: dict[str, list[list[Any]]] = {}
    for prefix, entries in index["objects"].items():
        for document, kind, priority, anchor, name in entries:
            if translated and document in left_out:
                continue
            if not translated and kind in python:
                priority = max(priority, PYTHON_PRIORITY)
            entry = [document, kind, priority, anchor, html.unescape(name)]
            objects.setdefault(html.unescape(prefix), []).append(entry)
    return {**index, "objects": objects}


def tidy_written_index(app: Sphinx, exception: BaseException | None) -> None:
    """After an HTML build: rewrite the search index as :func:`tidy_index` says."""
    if exception is not None or app.builder.format != "html":
        return
    path = Path(app.outdir) / INDEX_FILE
    if not path.exists():
        return
    index = js_index.loads(path.read_text(encoding="utf-8"))
    tidied = tidy_index(index, set(app.config.guinote_unsearched_pages), translated=translated(app))
    path.write_text(js_index.dumps(tidied), encoding="utf-8")


def setup(app: Sphinx) -> None:
    # pages made from code, for engine authors: out of a translated edition's search
    app.add_config_value("guinote_unsearched_pages", [], "env", list)
    app.connect("env-updated", leave_out_pages)
    app.connect("build-finished", tidy_written_index)
