"""The rulebook in a real browser (marked ``browser``: ``tox -e docs-browser`` runs them, with
playwright installed and Debian's ``chromium``): at 1280 and 390 px no page scrolls sideways and
no table or drawing hides part of itself; the worked hand steps back and forth; the search puts
a rule's own section first for its ID; nothing is fetched from outside the site.

GUINOTE_SCREENSHOTS=<folder> keeps a screenshot of every page measured, for a human to look at.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.docs.conftest import BuiltSite

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("GUINOTE_CHROMIUM", "/usr/bin/chromium")
WIDTHS = (1280, 390)
PAGES = (
    "index",
    "disagreements",
    "club",
    "profiles",
    "questions",
    "sources",
    "glossary",
    "rulebook/example",
    "rulebook/cantes",
    "rulebook/deck",
    "rulebook/deal",
    "guinote-rules",
)
#: every element the extension lays out, measured for hidden overflow
MEASURED = "table.guinote-table, figure.guinote-drawing, .guinote-stepper, .guinote-scenario-body"

OVERFLOW = """
(selector) => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push(`page ${document.documentElement.scrollWidth}px wide in ${width}px`);
  }
  for (const element of document.querySelectorAll(selector)) {
    if (element.closest("[hidden]")) continue;
    const box = element.getBoundingClientRect();
    const parent = element.parentElement.getBoundingClientRect();
    const name = element.tagName.toLowerCase() + "." + [...element.classList].join(".");
    if (element.scrollWidth > element.clientWidth + 1) {
      problems.push(`${name} hides ${element.scrollWidth - element.clientWidth}px`);
    }
    if (box.right > width + 1 || box.right > parent.right + 1) {
      problems.push(`${name} ends at ${Math.round(box.right)}px`);
    }
  }
  return problems;
}
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no browser at {CHROMIUM} (apt-get install -y chromium, or set GUINOTE_CHROMIUM)")
    try:
        playwright = importlib.import_module("playwright.sync_api")
    except ImportError:
        pytest.fail("playwright is missing: pip install playwright (tox -e docs-browser has it)")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield launched
        launched.close()


def open_page(browser: Any, site: BuiltSite, name: str, width: int) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    outside: list[str] = []

    def route(request: Any) -> None:
        if not request.request.url.startswith("file://"):
            outside.append(request.request.url)
            request.abort()
        else:
            request.continue_()

    page.on("pageerror", lambda error: outside.append(f"script error: {error}"))
    page.route("**/*", route)
    page.goto((site.html / f"{name}.html").as_uri())
    return page, outside


def screenshot(page: Any, label: str) -> None:
    folder = os.environ.get("GUINOTE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{label.replace('/', '_')}.png"), full_page=False)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("edition", ["en", "es"])
def test_no_page_overflows(browser: Any, site: BuiltSite, es_site: BuiltSite, edition: str, width: int) -> None:
    built = es_site if edition == "es" else site
    found = {}
    for name in PAGES:
        page, outside = open_page(browser, built, name, width)
        problems = page.evaluate(OVERFLOW, MEASURED)
        screenshot(page, f"{edition}-{width}-{name}")
        page.close()
        if problems or outside:
            found[name] = [*problems[:5], *(f"fetched {url}" for url in outside)]
    assert not found, found


@pytest.mark.parametrize("width", WIDTHS)
def test_the_worked_hand_steps_forward_and_back(browser: Any, site: BuiltSite, width: int) -> None:
    page, outside = open_page(browser, site, "rulebook/example", width)
    stepper = page.locator(".guinote-stepper")
    frames = stepper.locator(":scope > .guinote-frame")
    total = frames.count()
    assert total > 40
    assert stepper.locator("button").count() == 2, f"the step-through script did not run: {outside}"
    counter = stepper.locator("output")
    assert counter.inner_text() == f"1 / {total}"
    assert frames.nth(0).is_visible() and not frames.nth(1).is_visible()
    back, forward = stepper.locator("button").nth(0), stepper.locator("button").nth(1)
    assert back.is_disabled()
    forward.click()
    forward.click()
    assert counter.inner_text() == f"3 / {total}"
    assert frames.nth(2).is_visible() and not frames.nth(0).is_visible()
    back.click()
    assert counter.inner_text() == f"2 / {total}"
    stepper.focus()
    page.keyboard.press("End")  # not a key of the stepper: nothing changes
    page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"3 / {total}"
    screenshot(page, f"stepper-{width}")
    assert not outside


@pytest.mark.parametrize("edition", ["en", "es"])
def test_the_search_puts_the_rule_first_for_its_id(
    browser: Any, site: BuiltSite, es_site: BuiltSite, edition: str
) -> None:
    built = es_site if edition == "es" else site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((built.html / "search.html").as_uri() + "?q=CANTE-09")
    first = page.locator("#search-results li a").first
    first.wait_for(timeout=20000)
    assert first.get_attribute("href").endswith("rulebook/cantes.html#rule-cante-09")
    page.close()


#: the theme's own words a reader meets on every page, in the Spanish edition
THEME_ES = {
    "toc title": (".toc-title", "En esta página"),
    "back to top": (".back-to-top", "Volver arriba"),
    "next page": (".related-pages .next-page .context", "Siguiente"),
    "footer": (".bottom-of-page .left-details", "Hecho con"),
}
THEME_EN_WORDS = ("On this page", "Back to top", "Made with", "Skip to content", "Toggle", "Search", "Copyright")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_theme_speaks_spanish_in_the_spanish_edition(browser: Any, es_site: BuiltSite, width: int) -> None:
    page, outside = open_page(browser, es_site, "rulebook/cantes", width)
    assert page.locator(".sidebar-search").first.get_attribute("placeholder") == "Buscar"
    assert page.locator(".sidebar-search").first.get_attribute("aria-label") == "Buscar"
    for name, (selector, text) in THEME_ES.items():
        assert text in page.locator(selector).first.text_content(), name
    labels = page.evaluate(
        "() => [...document.querySelectorAll('[aria-label], [title], svg title')]"
        ".map(e => e.getAttribute('aria-label') || e.getAttribute('title') || e.textContent)"
    )
    visible = page.evaluate("() => document.body.innerText")
    for word in THEME_EN_WORDS:
        assert not [label for label in labels if label and word in label], word
        assert word not in visible, word
    screenshot(page, f"es-{width}-theme")
    page.close()
    # the search page, served over HTTP (a file:// page may not fetch the results' summaries)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(es_site.html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/search.html?q=arrastre")
        page.wait_for_function("() => document.querySelectorAll('#search-results li').length > 3", timeout=20000)
        # "Buscando" while it searches, then the heading of the results
        page.wait_for_function(
            "() => !document.querySelector('#search-results h2').textContent.startsWith('Buscando')", timeout=60000
        )
        heading = page.locator("#search-results h2").first.text_content() or ""
        first = page.locator("#search-results li").first.text_content() or ""
    finally:
        server.shutdown()
        server.server_close()
    assert heading.strip() == "Resultados de la búsqueda"
    assert "Glosario" in first, first  # the glossary's entry for the arrastre comes first
    screenshot(page, f"es-{width}-search")
    page.close()
    assert not outside, outside


@pytest.mark.parametrize("edition", ["en", "es"])
def test_a_club_chooses_its_rules_and_the_file_it_gets_checks_the_reference(
    browser: Any, site: BuiltSite, es_site: BuiltSite, edition: str, tmp_path: Path
) -> None:
    """Offline: start from ludoteka, choose one cante per trick, name the club; the sheet to print
    states the readings chosen, and the file for programmers plays ludoteka with that one change."""
    from guinote_conformance.engines.profile_file import read_profile_file
    from guinote_conformance.reference_engine.flags import flag_specs, profile_specs

    page, outside = open_page(browser, es_site if edition == "es" else site, "club", 390)
    page.locator(".guinote-club-value", has=page.locator('[data-base="ludoteka"]')).click()
    page.locator(".guinote-club-value", has=page.locator('[data-flag="cante_per_trick"][data-value="one"]')).click()
    page.fill(".guinote-club-name", "Peña El Cierzo")
    club = tmp_path / "club.toml"
    club.write_text(page.locator(".guinote-club-toml").text_content() or "", encoding="utf-8")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    sheet = page.locator("body > .guinote-club-sheet").inner_text()
    asked = ".guinote-club-flag:not([hidden]) .guinote-club-chosen .guinote-club-reading"
    chosen = page.locator(asked).all_inner_texts()
    unasked = page.locator(".guinote-club-flag[hidden] .guinote-club-question").all_inner_texts()
    # the 9 and 8 matter only with the 48-card deck: asked once the club plays it
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    page.locator(".guinote-club-value", has=page.locator('[data-flag="deck"][data-value="48"]')).click()
    asked_with_48 = page.locator('.guinote-club-flag:not([hidden]) [data-flag="rank_8_9"][data-when]').count()
    page.close()
    assert outside == []
    rules = read_profile_file(club)
    assert (rules.name, rules.base) == ("Pena_El_Cierzo", "ludoteka")
    assert rules.label(profile_specs()["ludoteka"].flags) == "ludoteka+cante_per_trick=one"
    assert "Peña El Cierzo" in sheet and "--profile-file" not in sheet
    # every flag is in the file; the sheet states the readings of the questions asked, in plain words
    assert set(rules.flags) == set(flag_specs())
    played = {**profile_specs()["ludoteka"].flags, "cante_per_trick": "one"}
    specs = flag_specs()
    not_asked = [
        f for f, spec in specs.items() if any(played[o] not in among for o, among in spec.matters_when.items())
    ]
    assert "rank_8_9" in not_asked and len(unasked) == len(not_asked)
    assert len(chosen) + len(unasked) == len(rules.flags) + 1
    assert all(reading.strip() in sheet for reading in chosen) and not any(q.strip() in sheet for q in unasked)
    assert not re.search(r"\bS00\d|\b[BC]-\d|\w+=\w+", "\n".join(chosen)), chosen
    assert asked_with_48 == 1
