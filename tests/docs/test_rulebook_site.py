"""The published rulebook: it builds with -W and shows every rule, scenario, flag and profile."""

from __future__ import annotations

import html
import re

from guinote_conformance.catalogue.features import load_scenarios, scenarios_by_rule
from guinote_conformance.catalogue.rule_index import AREAS, load_rules
from guinote_conformance.catalogue.rulebook import load_rulebook, worked_hand
from guinote_conformance.reference_engine.flags import flag_specs, profile_specs
from guinote_conformance.results.report import suite_commit
from tests.docs.conftest import ROOT, BuiltSite

AREA_IDS = {area for area, _ in AREAS}
#: Sphinx curls straight quotes (smartquotes)
PLAIN_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def test_the_site_builds_without_warnings(site: BuiltSite) -> None:
    assert site.status == 0, f"sphinx-build failed:\n{site.warnings}\n{site.output[-3000:]}"
    assert site.warnings.strip() == ""


def test_every_area_has_its_chapter(site: BuiltSite) -> None:
    pages = site.pages()
    indexed = {rule.area for rule in load_rules().values()}
    missing = sorted(area for area in AREA_IDS | indexed if f"rulebook/{area}" not in pages)
    assert not missing, f"areas without a chapter docs/rulebook/<area>.rst: {missing}"


def test_every_rule_is_shown_with_its_anchor_and_title(site: BuiltSite) -> None:
    data = load_rulebook(ROOT / "features")
    pages = site.pages()
    missing = []
    for rule in data.rules.values():
        page = pages.get(f"rulebook/{rule.area}", "")
        anchor = f'id="rule-{rule.id.lower()}"'
        pattern = anchor + r'>\s*<h\d><span class="guinote-id">' + re.escape(rule.id) + "</span> ([^<]*)<"
        heading = re.search(pattern, page)
        shown = html.unescape(heading.group(1)).translate(PLAIN_QUOTES) if heading else ""
        if shown != data.title(rule.id):
            missing.append(rule.id)
    assert not missing, f"rules without their section, anchor and title: {missing}"
    # every rule has a real title, not the fallback cut from its statement
    assert all(rule_id in data.titles for rule_id in data.rules), sorted(set(data.rules) - set(data.titles))


def test_rendered_scenarios_exist_in_the_features(site: BuiltSite) -> None:
    scenarios = load_scenarios()
    known = {(s.path.resolve().relative_to(ROOT).as_posix(), s.line, s.name) for s in scenarios}
    rendered = {
        (element.attrs["data-feature"], int(element.attrs["data-line"]), element.attrs["data-name"])
        for element in site.elements()
        if "guinote-scenario" in element.attrs.get("class", "").split() and "data-feature" in element.attrs
    }
    assert rendered <= known, f"rendered scenarios not in the features: {sorted(rendered - known)[:5]}"
    indexed = set(load_rules())
    expected = {
        (s.path.resolve().relative_to(ROOT).as_posix(), s.line, s.name)
        for rule, found in scenarios_by_rule(scenarios).items()
        if rule in indexed
        for s in found
    }
    assert expected <= rendered, f"scenarios of indexed rules not rendered: {sorted(expected - rendered)[:5]}"


def test_the_flags_matrix_shows_every_flag_and_profile(site: BuiltSite) -> None:
    page = site.page("disagreements")
    match = re.search(r'<table class="[^"]*guinote-flags-matrix.*?</table>', page, re.S)
    assert match is not None
    matrix = match.group(0)
    headers = re.findall(r"<th[^>]*>\s*<p>(.*?)</p>", matrix, re.S)
    specs = profile_specs()
    expected_headers = ["Flag"] + [f"+{name}" if spec.overlay else name for name, spec in specs.items()]
    assert headers == expected_headers
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", matrix.split("<tbody>")[1], re.S)
    flags = flag_specs()
    assert len(rows) == len(flags)
    for row, name in zip(rows, flags, strict=True):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        assert f"#flag-{name.replace('_', '-')}" in cells[0], name
        for cell, spec in zip(cells[1:], specs.values(), strict=True):
            value = spec.flags.get(name)
            if value is None:
                assert "—" in cell
            else:
                # values may wrap after their underscores (a zero-width space)
                assert f'<span class="pre">{value}</span>' in cell.replace("\u200b", ""), (name, spec.name)
                for source in flags[name].values[value].sources:
                    assert source in cell, (name, spec.name, source)


def test_every_flag_and_profile_has_a_section(site: BuiltSite) -> None:
    disagreements = site.page("disagreements")
    profiles = site.page("profiles")
    assert all(f'id="flag-{name.replace("_", "-")}"' in disagreements for name in flag_specs())
    assert all(f'id="profile-{name.replace("_", "-")}"' in profiles for name in profile_specs())


def test_the_worked_example_is_a_full_hand(site: BuiltSite) -> None:
    page = site.page("rulebook/example")
    match = re.search(r'<table class="[^"]*guinote-example-tricks.*?</table>', page, re.S)
    assert match is not None
    rows = [row for row in re.findall(r"<tr[^>]*>", match.group(0)) if "guinote-trick-" not in row]
    assert len(rows) == 1 + 10  # a header and the ten tricks of a four-player hand
    hand = worked_hand("lascuarenta", 8)
    assert len(re.findall(r'class="guinote-frame[ "]', page)) == len(hand.frames)  # a frame per action
    assert "wins the point" in page or "de vueltas" in page


def test_the_results_page_shows_a_run_made_at_build_time(site: BuiltSite) -> None:
    page = site.page("checking/results")
    assert "guinote-results-areas" in page
    assert not (ROOT / "docs" / "_static" / "results").exists(), "no results snapshot is committed"
    assert "guinote-reference" in page  # the build ran the suite against the reference engine
    assert suite_commit(ROOT).removesuffix("-dirty") in page  # the suite's commit
    runs = 4 * len(load_scenarios())
    total = re.search(r"<td><p>total</p></td>\s*<td><p>(\d+)</p></td>", page)
    assert total is not None, "the results page has no total"
    # every current scenario as written under the four profiles, and (the default --symmetries sample)
    # at most one run more each, under a symmetry of the game drawn from its ID
    assert runs < int(total.group(1)) <= runs + len(load_scenarios()), f"every current scenario ran: {total.group(1)}"


def test_the_index_of_rules_lists_every_rule_with_its_title_by_chapter(site: BuiltSite) -> None:
    data = load_rulebook(ROOT / "features")
    page = html.unescape(site.page("guinote-rules"))
    missing = []
    for rule in data.rules.values():
        link = f'href="rulebook/{rule.area}.html#rule-{rule.id.lower()}"'
        if link not in page or data.title(rule.id) not in page:
            missing.append(rule.id)
    assert not missing, missing[:10]
    # grouped under the chapters' titles, in rulebook order
    positions = [page.index(title) for title in ("Cards and the deck", "The arrastre", "Cantes: las veinte and")]
    assert positions == sorted(positions)


def test_the_club_page_offers_every_reading_with_the_profiles_that_play_it(site: BuiltSite) -> None:
    page = site.page("club")
    markers = re.findall(
        r'<span class="guinote-club-key" data-flag="([^"]+)" data-value="([^"]+)" data-profiles="([^"]*)">', page
    )
    flags, profiles = flag_specs(), {n: s for n, s in profile_specs().items() if not s.overlay}
    assert [(flag, value) for flag, value, _ in markers] == [(f, v) for f, spec in flags.items() for v in spec.values]
    for flag, value, users in markers:
        assert users.split() == [name for name, spec in profiles.items() if spec.flags.get(flag) == value]
    bases = re.findall(r'<span class="guinote-club-key" data-base="([^"]+)" data-start="(yes|)">', page)
    assert bases == [(name, "yes" if name == "tradicional" else "") for name in profiles]  # (a table's rules first)
