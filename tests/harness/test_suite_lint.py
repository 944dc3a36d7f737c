"""The suite checks itself: every rule is covered or explained, every tag means something,
every step has a definition, and no scenario name hides another."""

from __future__ import annotations

from collections import Counter

import pytest
from pytest_bdd.steps import step_function_context_registry

import guinote_conformance.run.steps  # noqa: F401  (registers the step definitions)
from guinote_conformance.catalogue.features import (
    FeatureError,
    Scenario,
    feature_files,
    load_scenarios,
    parse_feature,
    scenarios_by_rule,
)
from guinote_conformance.catalogue.rule_index import AREAS, RuleEntry, load_areas, load_rules
from guinote_conformance.reference_engine.flags import flag_specs


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return load_scenarios()


@pytest.fixture(scope="module")
def rules() -> dict[str, RuleEntry]:
    return load_rules()


def test_the_suite_has_scenarios_and_rules(scenarios: list[Scenario], rules: dict[str, RuleEntry]) -> None:
    assert len(scenarios) > 0
    assert len(rules) > 0


def test_every_rule_has_a_scenario_or_a_reason(scenarios: list[Scenario], rules: dict[str, RuleEntry]) -> None:
    covered = scenarios_by_rule(scenarios)
    uncovered = [rule.id for rule in rules.values() if rule.id not in covered and not rule.not_executable]
    assert not uncovered, f"rules with no scenario and no not_executable reason: {uncovered}"


def test_not_executable_rules_have_no_scenarios(scenarios: list[Scenario], rules: dict[str, RuleEntry]) -> None:
    covered = scenarios_by_rule(scenarios)
    contradictory = [rule.id for rule in rules.values() if rule.not_executable and rule.id in covered]
    assert not contradictory, f"rules marked not executable but covered by scenarios: {contradictory}"


def test_every_scenario_names_known_rules(scenarios: list[Scenario], rules: dict[str, RuleEntry]) -> None:
    unknown = [f"{s.location} @{rule}" for s in scenarios for rule in s.rules if rule not in rules]
    assert not unknown, f"scenarios tagged with rules missing from features/index: {unknown}"
    untagged = [s.location for s in scenarios if not s.rules]
    assert not untagged, f"scenarios without a rule ID tag: {untagged}"


def test_every_scenario_cites_a_source_or_is_an_interpretation(scenarios: list[Scenario]) -> None:
    missing = [s.location for s in scenarios if not s.sources and not s.interpretation]
    assert not missing, f"scenarios with no @Sxxx source tag and no @interpretation: {missing}"


def test_every_tag_in_features_is_valid() -> None:
    """Every tag of every feature file is a rule ID, a source, @interpretation or a flag value that
    profiles.toml declares: each file read on its own, so that every faulty file is listed, and each
    flag tag checked here again against the declaration (not only by the catalogue's own check)."""
    specs = flag_specs()
    problems = []
    for path in feature_files():
        try:
            found = parse_feature(path)
        except FeatureError as error:
            problems.append(str(error))
            continue
        for scenario in found:
            for name, value in scenario.tagged_values():
                if name not in specs:
                    problems.append(f"{scenario.location}: unknown flag {name}")
                elif value not in specs[name].values:
                    problems.append(
                        f"{scenario.location}: unknown value {name}={value}; valid: {', '.join(specs[name].values)}"
                    )
    assert feature_files(), "no feature file found"
    assert not problems, "\n".join(problems)


def test_index_flags_are_known(rules: dict[str, RuleEntry]) -> None:
    specs = flag_specs()
    unknown = [f"{rule.id}: {rule.flag}" for rule in rules.values() if rule.flag and rule.flag not in specs]
    assert not unknown, f"rule index entries naming unknown flags: {unknown}"


def test_scenario_names_are_unique_across_the_suite(scenarios: list[Scenario]) -> None:
    # pytest-bdd keeps only one of two scenarios with the same name, silently.
    counts = Counter(s.name for s in scenarios)
    repeated = {name: [s.location for s in scenarios if s.name == name] for name, n in counts.items() if n > 1}
    assert not repeated, f"repeated scenario names: {repeated}"


def _step_types(scenario: Scenario) -> list[tuple[str, str, int]]:
    current = "given"
    typed = []
    for step in scenario.steps:
        keyword = step.keyword.lower()
        if keyword in ("given", "when", "then"):
            current = keyword
        typed.append((current, step.text, step.line))
    return typed


def test_every_step_has_a_definition(scenarios: list[Scenario]) -> None:
    contexts = list(step_function_context_registry.values())
    missing = []
    for scenario in scenarios:
        for kind, text, line in _step_types(scenario):
            if not any(c.type in (kind, None) and c.parser.is_matching(text) for c in contexts):
                missing.append(f"{scenario.path}:{line}: {kind} {text}")
    assert not missing, "steps with no definition:\n" + "\n".join(missing)


def test_areas_are_known_and_rule_prefixes_match(rules: dict[str, RuleEntry]) -> None:
    prefixes = dict(AREAS)
    problems = []
    for area in load_areas():
        if area.id not in prefixes:
            problems.append(f"unknown area {area.id}")
            continue
        for rule in area.rules:
            if rule.id.split("-")[0] not in prefixes[area.id]:
                problems.append(f"{rule.id} is filed under area {area.id}")
    assert not problems, problems


def test_disagreements_have_one_scenario_per_reading(scenarios: list[Scenario], rules: dict[str, RuleEntry]) -> None:
    """Every value of a flag that a rule names is pinned down by a scenario of those rules."""
    specs = flag_specs()
    by_rule = scenarios_by_rule(scenarios)
    tagged: dict[str, set[str]] = {}
    for rule in rules.values():
        if rule.flag and rule.flag in specs:
            values = tagged.setdefault(rule.flag, set())
            values.update(value for s in by_rule.get(rule.id, []) for value in s.choices(rule.flag))
    problems = [
        f"flag {flag}: no scenario tagged with {', '.join(sorted(set(specs[flag].values) - values))}"
        for flag, values in sorted(tagged.items())
        if set(specs[flag].values) - values
    ]
    assert not problems, "\n".join(problems)
