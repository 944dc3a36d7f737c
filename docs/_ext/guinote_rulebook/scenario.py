"""One scenario as the rulebook shows it: its name, where it is, its tags, a drawing of the
table its ``Given`` steps set up, its steps as players say them (seats as at the table, cards by
their names, no code: :mod:`guinote_conformance.catalogue.player_steps`), and, one click away for
engine authors, its Gherkin text in the edition's language: as written in the English edition,
and in the Spanish edition as the Spanish feature files that ``guinote-conformance run --language es``
runs have it (generated from the English ones by :mod:`guinote_conformance.catalogue.spanish`, on
the same lines)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from guinote_conformance.catalogue.features import FeatureError, Scenario, Step, parse_feature
from guinote_conformance.catalogue.player_steps import NoPlayersPhrasing, players_steps, seating_of, seats_named
from guinote_conformance.catalogue.rule_index import CUSTOM_ID, RULE_ID, SOURCE_IDS
from guinote_conformance.catalogue.rulebook import RulebookData, scenario_picture
from guinote_conformance.catalogue.spanish import GIVEN_AGREEMENT, KEYWORDS, LOCALE, STEP_KEYWORDS, spanish_features
from guinote_rulebook import svg
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import details, drawing, scenario_block, summary
from guinote_rulebook.render import badge, flag_ref, gherkin_block, literal, para, rule_ref, source_ref, std_ref

logger = logging.getLogger(__name__)
#: a rule ID inside a players' step (``(regla ARR-01)``)
RULE_ID_IN_TEXT = re.compile(r"\b([A-Z]+-\d+)\b")

#: where a feature file can be read: the project's repository (``guinote_repository_url``)
#: or, with no repository configured, nothing (the location is shown as text)


def _table_lines(rows: Sequence[Sequence[str]], indent: str) -> list[str]:
    escaped = [[cell.replace("\\", "\\\\").replace("|", "\\|") for cell in row] for row in rows]
    widths = [max(len(row[index]) for row in escaped if index < len(row)) for index in range(max(map(len, escaped)))]
    return [indent + "| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |" for row in escaped]


def _step_lines(steps: Sequence[Step], indent: str) -> list[str]:
    lines: list[str] = []
    for step in steps:
        lines.append(f"{indent}{step.keyword} {step.text}")
        if step.table:
            lines += _table_lines(step.table, indent + "  ")
        if step.docstring is not None:
            lines.append(f'{indent}  """')
            lines += [f"{indent}  {line}" if line else "" for line in step.docstring.splitlines()]
            lines.append(f'{indent}  """')
    return lines


def scenario_gherkin(scenario: Scenario, language: str = "en") -> str:
    """The scenario as Gherkin: its Background steps, its effective tags, its steps (``scenario`` is
    already in ``language``: only the keywords of the blocks are written here)."""
    background = [step for step in scenario.steps if step.line < scenario.line]
    own = [step for step in scenario.steps if step.line >= scenario.line]
    keywords = KEYWORDS if language == "es" else {keyword: keyword for keyword in KEYWORDS}
    lines: list[str] = []
    if background:
        lines.append(f"{keywords['Background']}:")
        lines += _step_lines(background, "  ")
        lines.append("")
    if scenario.tags:
        lines.append(" ".join(f"@{tag}" for tag in scenario.tags))
    lines.append(f"{keywords['Scenario']}: {scenario.name}")
    lines += _step_lines(own, "  ")
    return "\n".join(lines) + "\n"


def tag_badges(scenario: Scenario, data: RulebookData, docname: str) -> nodes.paragraph:
    children: list[nodes.Node] = []
    for tag in scenario.tags:
        if RULE_ID.match(tag):
            link = rule_ref(tag, docname) if tag in data.rules else None
            children.append(badge(tag, "rule", link))
        elif tag in SOURCE_IDS or CUSTOM_ID.match(tag):
            children.append(badge(tag, "source", source_ref(tag, docname)))
        elif tag == "interpretation":
            children.append(badge(tag, "interpretation", std_ref("interpretations", tag, docname)))
        elif "=" in tag:
            children.append(badge(tag, "flag", flag_ref(tag.split("=", 1)[0], docname, tag)))
        else:
            children.append(badge(tag, "other"))
        children.append(nodes.Text(" "))
    return para(*children[:-1], classes=["guinote-tags"])


def scenario_key(relative: str, line: int) -> str:
    """The domain name of a scenario: ``features/arrastre.feature:10``."""
    return f"{relative}:{line}"


def location_node(relative: str, line: int, repository: str) -> nodes.Node:
    """``features/x.feature:12``, linked to that line on the project's repository if known."""
    text = f"{relative}:{line}"
    if not repository:
        return literal(text, ["guinote-scenario-location"])
    url = f"{repository.rstrip('/')}/{relative}#L{line}"
    reference = nodes.reference("", "", refuri=url, classes=["guinote-scenario-location"])
    reference += nodes.literal(text, text)
    return reference


def _phrasebook() -> list[object]:
    import guinote_conformance.run.steps  # noqa: F401  (every step declared: the phrasebook is full)
    from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

    return list(PHRASEBOOK)


def _with_rule_links(text: str, docname: str, data: RulebookData) -> list[nodes.Node]:
    """``text`` with each rule ID it names as a link to the rule (a rule is never shown bare)."""
    out: list[nodes.Node] = []
    for index, part in enumerate(RULE_ID_IN_TEXT.split(text)):
        if index % 2 and part in data.rules:
            out.append(rule_ref(part, docname))
        elif part:
            out.append(nodes.Text(part))
    return out


def players_view(scenario: Scenario, data: RulebookData, docname: str, language: str) -> nodes.container:
    """The scenario's steps as players say them, with how the seats are named."""
    view = nodes.container(classes=["guinote-players"])
    view += para(nodes.Text(seating_of(scenario).convention(language)), classes=["guinote-seating"])
    steps = nodes.bullet_list(classes=["guinote-player-steps"])
    for step in players_steps(scenario, _phrasebook(), language):  # type: ignore[arg-type]
        keyword = step.keyword
        if language == "es":
            keyword = STEP_KEYWORDS.get(keyword, keyword)
            if keyword == "Dado":
                keyword = GIVEN_AGREEMENT.get(step.text.split(" ", 1)[0], keyword)
        item = nodes.list_item(classes=["guinote-player-step"] + (["guinote-background"] if step.background else []))
        item += para(nodes.strong(keyword, keyword), nodes.Text(" "), *_with_rule_links(step.text, docname, data))
        if step.rows:
            rows = nodes.bullet_list(classes=["guinote-player-rows"])
            for row in step.rows:
                entry = nodes.list_item()
                entry += para(nodes.Text(row))
                rows += entry
            item += rows
        steps += item
    view += steps
    return view


@cache
def _spanish_scenarios(features: Path, locale: Path) -> dict[tuple[str, int], Scenario]:
    """The Spanish scenarios of a ``features/`` folder by (file name, line): the English ones' lines."""
    import guinote_conformance.run.steps  # noqa: F401  (every step declared: the phrasebook is full)
    from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

    folder = spanish_features(PHRASEBOOK, root=features, locale=locale)
    return {(path.name, s.line): s for path in sorted(folder.glob("*.feature")) for s in parse_feature(path)}


def in_language(scenario: Scenario, language: str, locale: Path | None = None) -> Scenario:
    """The scenario as the edition in ``language`` shows it (the English one in any other language).

    ``locale``: the build's Spanish catalogues (``docs/locale/es/LC_MESSAGES``), where the titles are.
    A scenario the generator cannot translate is a warning (an error under ``-W``), shown in English."""
    if language != "es":
        return scenario
    try:
        return _spanish_scenarios(scenario.path.parent, locale or LOCALE)[(scenario.path.name, scenario.line)]
    except (FeatureError, KeyError) as error:
        logger.warning("guinote: the scenario %s:%s has no Spanish Gherkin: %s", scenario.path.name, scenario.line,
                       error, type="guinote", subtype="i18n")  # fmt: skip
        return scenario


def render_scenario(
    scenario: Scenario,
    data: RulebookData,
    docname: str,
    repository: str,
    name: nodes.Node,
    language: str = "en",
    locale: Path | None = None,
) -> scenario_block:
    relative = data.relative(scenario.path)
    block = scenario_block(feature=relative, line=scenario.line, scenario=scenario.name)
    block["classes"].append("guinote-scenario")
    seating = seating_of(scenario)
    block["seating"] = (seating.players, seating.dealer, seating.leader)  # the title's seats: SeatNamesInTitles
    # the flag values it is played under: the HTML players' view says them (guinote_rulebook.players)
    block["house_rules"] = [tuple(tag.split("=", 1)) for tag in scenario.tags if "=" in tag]
    block += name
    body = nodes.container(classes=["guinote-scenario-body"])
    picture = scenario_picture(scenario)
    shown = in_language(scenario, language, locale)
    alt = _("The table at the start of the scenario “{name}”").format(name=seats_named(shown.name, language, seating))
    seat_names = {seat: seating.seat(seat, language) for seat in range(seating.players)}
    figure = drawing(svg=svg.table_svg(picture, alt, seat_names), alt=alt)
    body += figure
    words = nodes.container(classes=["guinote-scenario-words"])
    engine: nodes.Element = details(classes=["guinote-engine"])
    engine += summary("", _("The steps as the engine runs them (Gherkin, with codes and tags)"))
    try:
        words += players_view(scenario, data, docname, language)
    except NoPlayersPhrasing as error:
        # a step of a project's own (not the suite's) is shown as written; the suite's own steps all
        # have their players' phrasing (tests/harness/test_player_phrasing.py), so a gap is a warning
        if not error.unknown:
            logger.warning("guinote: %s", error, type="guinote", subtype="i18n")
        engine = nodes.container(classes=["guinote-engine"])
    # for engine authors, one click away: where the scenario is, its tags, the Gherkin that runs
    engine += para(location_node(relative, scenario.line, repository), classes=["guinote-scenario-where"])
    if scenario.tags:
        engine += tag_badges(scenario, data, docname)
    engine += gherkin_block(scenario_gherkin(shown, language))
    words += engine
    body += words
    block += body
    return block
