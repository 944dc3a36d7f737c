"""The rulebook extension on invented data: every directive and role renders what it reads."""

from __future__ import annotations

import re

from tests.docs.conftest import BuiltSite


def test_the_test_project_builds_without_warnings(test_site: BuiltSite) -> None:
    assert test_site.status == 0, f"sphinx-build failed:\n{test_site.warnings}\n{test_site.output[-3000:]}"
    assert test_site.warnings.strip() == ""


def test_rules_get_sections_anchors_and_fields(test_site: BuiltSite) -> None:
    page = test_site.page("index")
    for rule in ("arr-01", "arr-06", "arr-09"):
        assert f'id="rule-{rule}"' in page
    assert "Test data: in the arrastre a player holding the suit led plays that suit." in page
    assert "Heading B" in page  # the source heading
    assert "Test data: the project&#x27;s reading." in page or "Test data: the project’s reading." in page
    assert "Test data: it is about table talk." in page  # not executable
    assert "Test data note." in page
    # ARR-06's flag with every value's reading and sources
    section = page.split('id="rule-arr-06"')[1].split('id="rule-arr-09"')[0]
    assert "#flag-partner-winning-exempts" in section
    assert "Literal S004 renuncio b)" in section
    # the statement of ARR-06 links the rule ID it mentions
    statement = section.split("guinote-statement")[1].split("</p>")[0]
    assert 'href="#rule-arr-01"' in statement


def test_scenarios_render_with_location_tags_and_steps(test_site: BuiltSite) -> None:
    blocks = [
        element.attrs
        for element in test_site.elements()
        if element.page == "index" and "guinote-scenario" in element.attrs.get("class", "").split()
    ]
    rendered = [(b["data-feature"], b["data-line"], b["data-name"]) for b in blocks]
    assert rendered == [
        ("features/arrastre.feature", "10", "A player with the suit led follows it"),  # under ARR-01
        ("features/arrastre.feature", "19", "The partner is winning and the player must still beat"),  # ARR-01
        ("features/arrastre.feature", "19", "The partner is winning and the player must still beat"),  # ARR-06
    ]
    page = test_site.page("index")
    assert "features/arrastre.feature:10" in page
    assert "guinote-badge-flag" in page and "partner_winning_exempts=no" in page
    assert "highlight-gherkin" in page
    text = re.sub(r"<[^>]+>", "", page)
    assert "| 0    | Ao Sc 2o |" in text  # the data table, aligned
    assert "Background:" in text and "Given a test table of four players" in text
    assert "trick: Ao 2c" in text  # the docstring


def test_roles_link_to_rules_flags_and_sources(test_site: BuiltSite) -> None:
    intro = test_site.page("index").split('id="the-rules"')[0]
    assert 'href="#rule-arr-01"' in intro
    assert 'href="other.html#flag-partner-winning-exempts"' in intro
    assert "S004" in intro  # no sources page here: the role renders the ID as text


def test_an_area_without_rules_is_a_note(test_site: BuiltSite) -> None:
    page = test_site.page("arrastre")
    assert 'id="rule-cante-01"' in page
    assert "The rule index has no rules for the area" in page


def test_schemas_results_and_coverage(test_site: BuiltSite) -> None:
    page = test_site.page("other")
    # schema: title, description, properties and the raw schema
    assert 'id="schema-action"' in page and "Test action" in page and "Who does it." in page
    assert "<details" in page and "example.invalid/test/action.json" in page
    # results: summary, area x profile table, the failure with message and rerun command
    assert "guinote-results-areas" in page
    assert "TESTMSG expected refusal MUST_OVERTAKE" in page
    # the failure's location links to the scenario as the rulebook renders it
    assert 'href="index.html#scenario-features-arrastre-feature-19"' in page
    assert "-k" in page and "partner is winning" in page
    assert "No results file at /nonexistent/results.json" in page
    # coverage: ARR-09 is not executable, CANTE-01 uncovered, ARR-77 tagged but not indexed
    coverage = page.split("guinote-coverage")[1]
    assert "ARR-77" in coverage and "CANTE-01" in coverage
    # the worked example played under another profile
    assert "guinote-example-tricks" in page
