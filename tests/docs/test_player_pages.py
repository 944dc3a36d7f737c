"""The rulebook as players read it: in the players' words, the engine's a click away.

On every page of the rulebook, a scenario shows its steps as a player says them (seats as at the
table, cards by their names) and keeps the Gherkin that runs, with its codes, JSON and tags,
inside a ``<details class="guinote-engine">`` block. Outside that block a Spanish player meets no
code, flag value, seat number, bare rule ID or English word (:mod:`player_pages`), and an English
one no code or seat number. The same holds for the whole of a Spanish player page (the rulebook's
chapters, the glossary, the disagreements, profiles, questions, club and sources pages, the index
of rules): its rules, their readings, its tables and headings, outside what is folded away for
engine authors. A scenario played under a flag's value says which, in plain words, in both
editions. The pages are the built editions (``built_docs``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.docs.conftest import BuiltSite
from tests.docs.player_pages import MAIN, offences

DOCS = Path(__file__).resolve().parents[2] / "docs"
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

from guinote_rulebook.players import PLAYER_PAGES as PLAYERS  # noqa: E402


def _rulebook(site: BuiltSite) -> dict[str, str]:
    pages = {name: html for name, html in site.pages().items() if name.startswith("rulebook/")}
    assert len(pages) > 10, sorted(site.pages())[:20]
    return pages


def test_a_spanish_scenario_holds_no_code_seat_number_or_english_word_outside_the_engine_view(
    es_site: BuiltSite,
) -> None:
    problems = [
        f"{name}: {offence}"
        for name, html in _rulebook(es_site).items()
        for offence in offences(html, within="guinote-scenario")
    ]
    assert not problems, f"{len(problems)} pieces of text a player cannot read:\n" + "\n".join(problems[:40])


#: the pages a club player reads besides the rulebook's chapters (the rest are for engine authors):
#: those the extension says in plain words, and the index of rules, whose titles it gives alike
PLAYER_PAGES = (*sorted(PLAYERS), "guinote-rules")


def test_a_spanish_player_page_holds_no_code_flag_value_or_english_word_outside_the_engine_view(
    es_site: BuiltSite,
) -> None:
    pages = {name: html for name, html in es_site.pages().items() if name.startswith("rulebook/")}
    pages |= {name: es_site.page(name) for name in PLAYER_PAGES}
    assert len(pages) > 15
    problems = [f"{name}: {offence}" for name, html in pages.items() for offence in offences(html, within=MAIN)]
    assert not problems, f"{len(problems)} pieces of text a player cannot read:\n" + "\n".join(problems[:40])


def test_a_scenario_played_under_a_flag_value_says_the_house_rule_in_plain_words(
    site: BuiltSite, es_site: BuiltSite
) -> None:
    for edition, words in (
        (es_site, "Se juega con la opción: tras una misma baza ganada pueden hacerse varios cantes"),
        (site, "Played with the house rule: several cantes may follow the same won trick"),
    ):
        page = edition.page("rulebook/cantes")
        views = re.findall(r'<div class="guinote-players[^"]*">(.*?)<ul', page, re.S)
        assert any(words in view for view in views), words
        # the flag's code stays in the engine authors' view, never in the players'
        assert not any("cante_per_trick" in view for view in views)


def test_an_english_scenario_names_no_seat_by_number_and_shows_no_code_outside_the_engine_view(site: BuiltSite) -> None:
    problems = [
        f"{name}: {offence}"
        for name, html in _rulebook(site).items()
        for offence in offences(html, within="guinote-scenario", english=False)
    ]
    assert not problems, f"{len(problems)} pieces of text:\n" + "\n".join(problems[:40])


def test_every_scenario_keeps_the_engine_phrasing_one_click_away(es_site: BuiltSite) -> None:
    page = es_site.page("rulebook/arrastre")
    scenarios = page.count('class="guinote-scenario ') + page.count('class="guinote-scenario"')
    assert scenarios > 20
    assert page.count('class="guinote-players') == scenarios
    # a scenario's engine view (a flag value's code, also folded away for engine authors, is not one)
    blocks = re.split(r'<details class="(?![^"]*guinote-engine-code)[^"]*guinote-engine[^"]*">', page)[1:]
    assert len(blocks) == scenarios
    engine = [block.split("</details>", 1)[0] for block in blocks]
    assert all("<summary>Los pasos como los ejecuta el programa" in block for block in engine)
    assert all("highlight-" in block and "features/" in block for block in engine)
    assert "MUST_FOLLOW_SUIT" in engine[1] and "jugador 1" in engine[1]
    assert re.search(r"Entonces</strong> el segundo puede jugar solo el 4 de oros y el 2 de oros", page)
