"""Which scenarios a run plays: ``--scenario FILE:LINE`` or a name glob, ``--rule ID``, ``--area NAME``.

In: the catalogue's scenarios and the filters given. Out: the scenarios kept, or an input error
that names the filter that selects nothing.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path

from conformance.base.exit_codes import InputError
from conformance.catalogue.features import Scenario
from conformance.catalogue.rule_index import AREAS, default_root, load_rules
from conformance.run.expectations import scenario_id


@dataclass(frozen=True)
class Selection:
    """Which scenarios run: ``--scenario FILE:LINE`` or a name glob, ``--rule ID``, ``--area NAME``.

    A scenario runs when it matches every kind of filter given (any value of each kind).
    """

    scenarios: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.scenarios or self.rules or self.areas)

    def selected(self, scenario: Scenario) -> bool:
        if self.rules and not set(self.rules) & set(scenario.rules):
            return False
        if self.areas and not any(_in_area(scenario, area) for area in self.areas):
            return False
        return not self.scenarios or any(_matches(scenario, wanted) for wanted in self.scenarios)

    def check(self, scenarios: list[Scenario]) -> None:
        """A rule or area that does not exist, or filters that select nothing: an input error."""
        rules = load_rules()
        for rule in self.rules:
            if rule not in rules:
                raise InputError(f"--rule {rule}: no such rule (guinote-conformance rules lists them)")
        areas = [area for area, _ in AREAS]
        for area in self.areas:
            if area not in areas:
                raise InputError(f"--area {area}: no such area; areas: {', '.join(areas)}")
        if scenarios and not any(self.selected(s) for s in scenarios):
            wanted = [f"--{kind} {value}" for kind, values in (("rule", self.rules), ("area", self.areas),
                      ("scenario", self.scenarios)) for value in values]  # fmt: skip
            raise InputError(f"no scenario matches {' '.join(wanted)}")


def _matches(scenario: Scenario, wanted: str) -> bool:
    path, _, line = wanted.rpartition(":")
    # FILE relative to the working directory, or to the suite's folder ("features/deck.feature:12")
    if (
        line.isdigit()
        and path
        and int(line) == scenario.line
        and scenario.path.resolve() in (Path(path).resolve(), (default_root().parent / path).resolve())
    ):
        return True
    return fnmatch.fnmatchcase(scenario.name, wanted) or fnmatch.fnmatchcase(scenario_id(scenario), wanted)


def _in_area(scenario: Scenario, area: str) -> bool:
    prefixes = dict(AREAS).get(area, ())
    return scenario.path.stem == area or any(rule.split("-")[0] in prefixes for rule in scenario.rules)
