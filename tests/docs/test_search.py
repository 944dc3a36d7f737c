"""The search of the built editions (``searchindex.js``): the Spanish edition finds the rulebook
under its Spanish titles, no name carries an HTML entity, and the pages made from code do not
crowd a player's search (docs/_ext/guinote_rulebook/search.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.docs.conftest import BuiltSite

ENTITY = re.compile(r"&(#x?[0-9a-fA-F]+|[a-z]+);")
#: Sphinx 9's searchtools.js: the scores of an object hit (Scorer.objNameMatch,
#: Scorer.objPartialMatch, Scorer.objPrio and its default)
NAME_MATCH, PARTIAL_MATCH = 11, 6
PRIORITY_SCORE = {0: 15, 1: 5, 2: -5}


def search_index(site: BuiltSite) -> dict[str, Any]:
    from sphinx.search import js_index

    index: dict[str, Any] = js_index.loads((site.html / "searchindex.js").read_text(encoding="utf-8"))
    return index


def objects(index: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    """Every object as the search page shows it: (name, type, page, priority)."""
    found = []
    for prefix, entries in index["objects"].items():
        for document, kind, priority, _anchor, name in entries:
            full = f"{prefix}.{name}" if prefix else name
            found.append((full, index["objtypes"][str(kind)], index["docnames"][document], priority))
    return found


def object_hits(index: dict[str, Any], word: str) -> list[tuple[int, str, str]]:
    """The objects a one-word search finds, best first, scored as searchtools.js scores them:
    (score, type, name)."""
    hits = []
    for name, kind, _page, priority in objects(index):
        lower = name.lower()
        if word not in lower:
            continue
        last = lower.split(".")[-1]
        score = NAME_MATCH if word in (lower, last) else PARTIAL_MATCH if word in last else 0
        hits.append((score + PRIORITY_SCORE.get(priority, 0), kind, name))
    return sorted(hits, key=lambda hit: (-hit[0], hit[2]))


def scenario_names(index: dict[str, Any]) -> set[str]:
    return {name for name, kind, _page, _priority in objects(index) if kind == "guinote:scenario"}


@pytest.mark.parametrize("edition", ["es", "en"])
def test_no_name_in_the_index_carries_an_html_entity(edition: str, site: BuiltSite, es_site: BuiltSite) -> None:
    """The search page escapes what it shows: an escaped name showed as «opponent&#x27;s»."""
    index = search_index(es_site if edition == "es" else site)
    names = [name for name, *_ in objects(index)] + list(index["titles"]) + list(index["alltitles"])
    assert any("'" in name for name in names)  # the apostrophes are there, as written
    assert not [name for name in names if ENTITY.search(name)]


def test_the_spanish_edition_lists_the_scenarios_under_their_spanish_titles(
    site: BuiltSite, es_site: BuiltSite
) -> None:
    spanish, english = scenario_names(search_index(es_site)), scenario_names(search_index(site))
    assert len(spanish) > 300 and len(english) == len(spanish)
    assert not spanish & english, sorted(spanish & english)[:5]
    whole_hand = "En una mano jugada entera desde el reparto están en juego 120 tantos de cartas y los diez de la "
    whole_hand += "última baza"
    assert whole_hand in spanish
    assert not [name for name in spanish | english if ".feature:" in name]  # a title, not a file and line
    # the rules and the open questions under their Spanish titles, the areas under their chapters'
    names = {name for name, *_ in objects(search_index(es_site))}
    assert "RENUNCIO-02 No asistir al palo de salida en el arrastre pudiendo es renuncio" in names
    assert "C-30 ¿Qué es 'el vale'?" in names
    assert "seven El siete de triunfo" in names


def test_the_players_edition_leaves_the_pages_made_from_code_out_of_its_search(es_site: BuiltSite) -> None:
    index = search_index(es_site)
    api = index["docnames"].index("reference/api")
    assert not [name for name, kind, *_ in objects(index) if kind.startswith("py:")]
    assert index["titles"][api] == ""
    documents = [docs if isinstance(docs, list) else [docs] for docs in index["terms"].values()]
    assert not [docs for docs in documents if api in docs]
    # the kind of each hit, in Spanish (the search page shows it beside the hit)
    kinds = {kind: label for domain, kind, label in index["objnames"].values() if domain == "guinote"}
    assert kinds["scenario"] == "escenario" and kinds["flag"] == "opción", kinds
    # «renuncio» finds the rulebook first: the rules and open questions that name it
    hits = object_hits(index, "renuncio")
    assert len(hits) > 5 and {kind for _score, kind, _name in hits[:5]} <= {"guinote:rule", "guinote:question"}


def test_the_english_edition_ranks_the_python_objects_after_the_rulebook(site: BuiltSite) -> None:
    index = search_index(site)
    python = [(name, priority) for name, kind, _page, priority in objects(index) if kind.startswith("py:")]
    assert python and all(priority == 2 for _name, priority in python)  # the API is still searchable
    hits = object_hits(index, "renuncio")
    kinds = [kind for _score, kind, _name in hits]
    assert "py:module" in kinds and kinds.index("py:module") > kinds.index("guinote:rule")
    assert [kind for kind in kinds if kind.startswith("guinote:")][:10] == kinds[:10]
