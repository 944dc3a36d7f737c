"""Which scenarios a run plays: ``--scenario FILE:LINE`` or a name glob, ``--rule ID``, ``--area NAME``,
and the runs that failed last time (``--lf``).

In: the catalogue's scenarios and the filters given; for ``--lf``, the results file of the last run.
Out: the scenarios kept, the failed runs (:func:`failed_runs`), or an input error that names the
filter that selects nothing (a missing file, a broken one and a file that is not the suite's are
each said as such: :func:`check_location`).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.catalogue.features import FeatureError, Scenario, parse_feature
from guinote_conformance.catalogue.rule_index import AREAS, default_root, load_rules
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import Report, ResultsError
from guinote_conformance.results.status import Status
from guinote_conformance.run.expectations import scenario_id

#: The statuses ``--lf`` re-runs: the runs that failed (a run never played did not fail; a known
#: failure is not a failure of the run).
FAILED = (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.XPASS)
#: A scenario run as ``--lf`` names it: (scenario ID, engine spec, profile, symmetry).
RunKey = tuple[str, str, str, str]


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

    def check(self, scenarios: list[Scenario], own: Path | None = None) -> None:
        """A rule or area that does not exist, or filters that select nothing: an input error
        (``own``: the scenarios are those of ``--features own``, not the suite's)."""
        rules = load_rules()
        for rule in self.rules:
            if rule not in rules:
                raise InputError(f"--rule {rule}: no such rule (guinote-conformance rules lists them)")
        areas = [area for area, _ in AREAS]
        for area in self.areas:
            if area not in areas:
                raise InputError(f"--area {area}: no such area; areas: {', '.join(areas)}")
        for location in self.scenarios:
            check_location(location, scenarios, own)
        if scenarios and not any(self.selected(s) for s in scenarios):
            wanted = [f"--{kind} {value}" for kind, values in (("rule", self.rules), ("area", self.areas),
                      ("scenario", self.scenarios)) for value in values]  # fmt: skip
            among = f" of --features {own}" if own is not None else ""
            raise InputError(f"no scenario{among} matches {' '.join(wanted)}")


def check_location(wanted: str, scenarios: list[Scenario], own: Path | None = None) -> None:
    """A ``--scenario FILE:LINE`` that cannot select: an input error that says why, each case its own
    way: no such file, a file that does not parse (its ``file:line``), a file that is not one of the
    suite's (with ``own``: not one of ``--features own``), a line where no scenario starts. A name
    glob is not checked here."""
    path, _, line = wanted.rpartition(":")
    if not (line.isdigit() and path):
        return  # a name glob ("deck::*" has no line number)
    candidates = _candidates(path)
    found = next((candidate for candidate in candidates if candidate.is_file()), None)
    if found is None:
        if not path.endswith(".feature") and not any(candidate.exists() for candidate in candidates):
            return  # not a file name at all: a name glob with a colon and digits
        raise InputError(f"--scenario {wanted}: no such file {path} (relative to the working directory, or "
                         f"to the suite: features/deck.feature:12)")  # fmt: skip
    try:
        parsed = parse_feature(found)
    except FeatureError as error:
        raise InputError(f"--scenario {wanted}: the file does not parse: {error}") from None
    suite = {scenario.path.resolve() for scenario in scenarios}
    if found.resolve() not in suite and own is not None:
        raise InputError(f"--scenario {wanted}: {path} is not one of the files of --features {own}; --scenario "
                         "selects among them")  # fmt: skip
    if found.resolve() not in suite:
        raise InputError(f"--scenario {wanted}: {path} is not one of the suite's feature files; --scenario "
                         f"selects among the suite's scenarios ({len(parsed)} in this file; --features runs "
                         "your own)")  # fmt: skip
    starts = sorted(scenario.line for scenario in scenarios if scenario.path.resolve() == found.resolve())
    if int(line) not in starts:
        nearest = min(starts, key=lambda start: abs(start - int(line)), default=None)
        where = f"; the nearest starts at line {nearest}" if nearest is not None else ""
        raise InputError(f"--scenario {wanted}: no scenario starts at line {line} of {path}{where}")


def _candidates(path: str) -> tuple[Path, Path]:
    """FILE relative to the working directory, or to the suite's folder ("features/deck.feature")."""
    return Path(path), default_root().parent / path


def own_scenarios(path: Path) -> list[Scenario]:
    """The scenarios of ``--features PATH``, an author's own feature files (a folder of them, or one
    file) written in the suite's steps; an input error naming what is wrong and where: no such file
    or folder, no feature file in the folder, a file that does not parse (its ``file:line``), a rule
    tag the rule index does not know (its ``file:line``), no scenario at all. (A step no definition
    parses is found as the session collects it: an error at its ``file:line`` too.)"""
    option = f"--features {path}"
    if path.is_dir():
        files = sorted(path.glob("*.feature"))
        if not files:
            raise InputError(f"{option}: no .feature file in this folder")
    elif path.is_file():
        if path.suffix != ".feature":
            raise InputError(f"{option}: not a .feature file (give one, or a folder of them)")
        files = [path]
    else:
        raise InputError(f"{option}: no such file or folder")
    rules = load_rules()
    found: list[Scenario] = []
    for file in files:
        try:
            parsed = parse_feature(file)
        except FeatureError as error:
            raise InputError(f"{option}: the file does not parse: {error}") from None
        for scenario in parsed:
            unknown = [rule for rule in scenario.rules if rule not in rules]
            if unknown:
                raise InputError(f"{option}: {scenario.location}: no such rule {unknown[0]} (its tags name rules of "
                                 "the suite: guinote-conformance rules lists them)")  # fmt: skip
        found += parsed
    if not found:
        raise InputError(f"{option}: no scenario in {'it' if path.is_file() else 'its feature files'}")
    return found


def failed_runs(path: Path) -> frozenset[RunKey]:
    """The runs that failed in the results file at ``path`` (``--lf``); a file that cannot be read
    is an input error naming it."""
    try:
        report = Report.load(path)
    except ResultsError as error:
        raise InputError(f"--lf: {error}") from None
    return frozenset(run_key(result) for result in report.results if result.status in FAILED)


def run_key(result: CaseResult) -> RunKey:
    return (result.id, result.engine, result.profile, result.symmetry)


def _matches(scenario: Scenario, wanted: str) -> bool:
    path, _, line = wanted.rpartition(":")
    if (
        line.isdigit()
        and path
        and int(line) == scenario.line
        and scenario.path.resolve() in {candidate.resolve() for candidate in _candidates(path)}
    ):
        return True
    return fnmatch.fnmatchcase(scenario.name, wanted) or fnmatch.fnmatchcase(scenario_id(scenario), wanted)


def _in_area(scenario: Scenario, area: str) -> bool:
    prefixes = dict(AREAS).get(area, ())
    return scenario.path.stem == area or any(rule.split("-")[0] in prefixes for rule in scenario.rules)
