"""Every state check of the feature files checks what a rule of its scenario decides.

A step 'Then the state field "F" is V' passes on the engine that makes the same free choices as
the reference and fails on another that is just as right, unless a rule of the scenario decides
F (issue 34). ``tests/harness/field_owners.toml`` declares which rules own each state field; a
check of a field that none of its scenario's rules owns fails here, unless it is justified there
with the rule that decides it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.catalogue.features import Scenario, load_scenarios
from guinote_conformance.catalogue.rule_index import load_rules

TABLE = Path(__file__).with_name("field_owners.toml")
#: the Then steps that compare a state field with a value, and the field each reads
#: (guinote_conformance/run/steps: state_field in outcomes.py, holds and stock_count in common.py)
STATE_CHECKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r'^the state field "(?P<name>[\w.]+)" is (?P<value>.+)$'), "{name}"),
    (re.compile(r"^seat (?P<seat>\d+) holds (?P<cards>.+)$"), "hand.{seat}"),
    (re.compile(r"^(?P<count>\d+) cards? (?:is|are) left to draw$"), "stock_count"),
)


def field_pattern(name: str) -> str:
    """``hand_size.2`` -> ``hand_size.<seat>``, ``score.1`` -> ``score.<side>``: the table's key."""
    head, dot, index = name.rpartition(".")
    if not dot or not index.isdigit():
        return name
    per_side = {"tricks_won", "won_cards", "last_trick_won", "total", "score", "card_points", "cante_points"}
    return f"{head}.<side>" if head in per_side or head.startswith("match.") else f"{head}.<seat>"


@pytest.fixture(scope="module")
def table() -> dict[str, Any]:
    with TABLE.open("rb") as handle:
        return tomllib.load(handle)


def state_checks(scenarios: list[Scenario]) -> list[tuple[Scenario, str, str]]:
    """Each generic state check: its scenario, its ``file:line`` and the field it reads."""
    found = []
    for scenario in scenarios:
        then = False
        for step in scenario.steps:
            then = step.keyword.strip() == "Then" or (then and step.keyword.strip() in ("And", "But"))
            for pattern, field in STATE_CHECKS:
                match = pattern.match(step.text)
                if match and then:
                    found.append(
                        (scenario, f"features/{scenario.path.name}:{step.line}", field.format(**match.groupdict()))
                    )
    return found


def unowned_checks(scenarios: list[Scenario], table: dict[str, Any]) -> list[str]:
    """The state checks whose field no rule of their scenario owns and that are not justified."""
    owners: dict[str, list[str]] = table["owners"]
    justified = {(entry["at"], entry["field"]) for entry in table.get("justified", [])}
    problems = []
    for scenario, at, name in state_checks(scenarios):
        if (at, name) in justified:
            continue
        rules = owners.get(field_pattern(name))
        if rules is None:
            problems.append(f"{at}: the field {name} has no owner in {TABLE.name}")
        elif not set(rules) & set(scenario.rules):
            problems.append(
                f"{at}: the state field {name} is decided by none of the scenario's rules "
                f"({', '.join(scenario.rules)}); its owners are {', '.join(rules)}"
            )
    return problems


def test_every_state_check_is_decided_by_a_rule_of_its_scenario(table: dict[str, Any]) -> None:
    problems = unowned_checks(load_scenarios(), table)
    assert not problems, "state checks that no rule of the scenario decides:\n" + "\n".join(problems)


def test_the_table_names_known_rules_and_live_justifications(table: dict[str, Any]) -> None:
    rules = load_rules()
    unknown = sorted({rule for owners in table["owners"].values() for rule in owners if rule not in rules})
    unknown += [entry["decided_by"] for entry in table.get("justified", []) if entry["decided_by"] not in rules]
    assert not unknown, f"{TABLE.name} names rules missing from features/index: {unknown}"
    checks = {(at, name) for _, at, name in state_checks(load_scenarios())}
    stale = [entry["at"] for entry in table.get("justified", []) if (entry["at"], entry["field"]) not in checks]
    assert not stale, f"{TABLE.name} justifies checks that are no longer in the feature files: {stale}"


def test_an_unowned_check_is_found(table: dict[str, Any], tmp_path: Path) -> None:
    """The issue's own example: a claim scenario checking how many cards a seat holds."""
    feature = tmp_path / "claim.feature"
    feature.write_text(
        "Feature: claims\n"
        "  @VUELTAS-06 @S000\n"
        "  Scenario: A claim ends the hand\n"
        "    Given a deal by seat 0:\n"
        "      | seat 0 | Ao |\n"
        '    Then the state field "tricks_played" is 1\n'
        '    And the state field "hand_size.0" is 5\n',
        encoding="utf-8",
    )
    problems = unowned_checks(load_scenarios(tmp_path), table)
    assert len(problems) == 2  # tricks_played: VUELTAS-06 does not own it either
    assert any("claim.feature:7: the state field hand_size.0" in problem for problem in problems)


def test_the_rule_compare_names_for_a_field_is_one_of_its_owners(table: dict[str, Any]) -> None:
    """The two tables answer two questions, and must not contradict each other: this one, which
    rules may decide a field (so a scenario of theirs may check it); guinote_conformance/oracle/owners.py,
    the one rule a divergence in it is named by (with the action that moved it, ``after``)."""
    from guinote_conformance.oracle.owners import OWNERS

    owners: dict[str, list[str]] = table["owners"]
    contradictions = []
    for subject, owner in OWNERS.items():
        kind, _, name = subject.partition(" ")
        if kind != "state":
            continue
        rules = owners.get(name) or owners.get(f"{name}.<seat>") or owners.get(f"{name}.<side>")
        if rules is None:
            continue  # a field the scenarios never check
        named = {owner.rule, *owner.after.values()} - set(rules)
        if named:
            contradictions.append(f"{name}: owners.py names {', '.join(sorted(named))}, {TABLE.name} has {rules}")
    assert not contradictions, "\n".join(contradictions)
