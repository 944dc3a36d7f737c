"""The stored realisations of the scenarios' positions, one JSON file per feature.

``features/realisations/<feature>.json`` maps each scenario that starts from a position to the
realisations found for it (:mod:`guinote_conformance.run.realise`), or to the reason it can only be run by
loading the position. A scenario runs under several flag sets (one per profile, with its own
tags on top): each stored realisation says under which profiles it was checked, and the driver
uses the first one that reaches the position under the run's flags on the reference, so any
engine's flag set is served without a lookup table.

The files are derived data: ``guinote-conformance realise`` writes them, the suite's self-checks
fail when one no longer reaches its position, and nothing edits them by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from guinote_conformance.run.position import Flags, Position, Realisation, Replay, Unreachable, check, replay

FORMAT = "guinote-realisations/1"
FOLDER = "realisations"


class RealisationFileError(ValueError):
    """A realisations file that cannot be read (the message names the file)."""


@dataclass
class Entry:
    """What is stored for one scenario."""

    realisations: list[Realisation] = field(default_factory=list)
    profiles: list[list[str]] = field(default_factory=list)  # where each realisation was checked
    positions_only: str = ""  # why no realisation exists, if none does

    def to_json(self) -> dict[str, Any]:
        if self.positions_only:
            return {"positions_only": self.positions_only}
        return {
            "realisations": [
                {"checked_under": profiles, **r.to_json()}
                for r, profiles in zip(self.realisations, self.profiles, strict=True)
            ]
        }


def path_for(feature: Path) -> Path:
    return feature.parent / FOLDER / f"{feature.stem}.json"


@cache
def _load(path: Path) -> dict[str, Entry]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise RealisationFileError(f"{path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RealisationFileError(f"{path}: not a {FORMAT} file; regenerate it with: guinote-conformance realise")
    entries: dict[str, Entry] = {}
    for name, raw in data.get("scenarios", {}).items():
        try:
            if "positions_only" in raw:
                entries[name] = Entry(positions_only=str(raw["positions_only"]))
                continue
            stored = raw["realisations"]
            entries[name] = Entry(
                [Realisation.from_json(r) for r in stored], [list(r.get("checked_under", [])) for r in stored]
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RealisationFileError(f"{path}: scenario {name!r}: {error}") from None
    return entries


def load(feature: Path) -> dict[str, Entry]:
    """The entries stored for the scenarios of ``feature`` (empty when there is no file)."""
    return _load(path_for(feature).resolve())


def save(feature: Path, entries: dict[str, Entry]) -> Path:
    path = path_for(feature)
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "format": FORMAT,
        "feature": feature.name,
        "note": "derived data: regenerate with `guinote-conformance realise`, never edit by hand",
        "scenarios": {name: entries[name].to_json() for name in sorted(entries)},
    }
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    _load.cache_clear()
    return path


class NoRealisation(Exception):
    """The scenario has no realisation that reaches its position under these flags."""


#: Why a scenario is not applicable when the reference no longer reaches its position by its stored
#: plays: a stale realisation (a scenario or a rule changed) for the suite's authors, and, when the
#: reference itself is the engine mutated (tests/mutation), a rule whose outcome the mutant changed.
UNREACHED = "no stored realisation reaches the position under these flags"


def find(feature: Path, scenario: str, position: Position, flags: Flags) -> tuple[Realisation, Replay]:
    """The stored realisation of ``scenario`` that reaches ``position`` under ``flags`` on the reference,
    with the reference's replay of it (its events are what the engine under test must match)."""
    entry = load(feature).get(scenario)
    if entry is None:
        raise NoRealisation("no realisation is stored for this scenario; run: guinote-conformance realise")
    if entry.positions_only:
        raise NoRealisation(f"its position cannot be reached by play ({entry.positions_only})")
    reasons = []
    for realisation in entry.realisations:
        why = check(realisation, position, flags)
        if why is None:
            return realisation, replay(realisation, flags)
        reasons.append(why)
    raise NoRealisation(UNREACHED + (f" ({reasons[0]})" if reasons else "") + "; run: guinote-conformance realise")


# ------------------------------------------------------------------------------ regenerating


@dataclass
class Run:
    """One run of a position scenario seen by ``guinote-conformance realise``."""

    feature: Path
    scenario: str
    line: int
    profile: str
    flags: dict[str, str]
    position: dict[str, Any]
    realisation: Realisation | None
    unreachable: str
    seconds: float


def read_runs(folder: Path) -> list[Run]:
    """The runs recorded by the plugin's ``--guinote-realise-record`` in ``folder`` (a flag the record
    does not name, one declared since, takes its default)."""
    from guinote_conformance.reference_engine.flags import flag_specs

    defaults = {name: spec.default for name, spec in flag_specs().items()}
    runs = []
    for path in sorted(folder.glob("found-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            found = raw.get("realisation")
            runs.append(
                Run(
                    Path(raw["feature"]),
                    raw["scenario"],
                    int(raw["line"]),
                    raw["profile"],
                    {**defaults, **raw["flags"]},
                    dict(raw["position"]),
                    Realisation.from_json(found) if found else None,
                    str(raw.get("unreachable", "")),
                    float(raw.get("seconds", 0.0)),
                )
            )
    return runs


@dataclass
class Outcome:
    """What ``merge`` did: the files written and the scenarios left without a realisation."""

    written: list[Path] = field(default_factory=list)
    scenarios: int = 0
    realised: int = 0
    unrealised: list[tuple[str, str]] = field(default_factory=list)  # (feature:line, why)
    partial: list[tuple[str, list[str]]] = field(default_factory=list)  # (feature:line, profiles left out)
    search_seconds: float = 0.0


def merge(runs: list[Run], *, replace: bool) -> Outcome:
    """Store, for each scenario, the fewest realisations that together reach its position under every
    profile it ran under (``replace``: drop the scenarios of each feature that were not run)."""
    outcome = Outcome(search_seconds=round(sum(run.seconds for run in runs), 1))
    by_feature: dict[Path, dict[str, list[Run]]] = {}
    for run in runs:
        by_feature.setdefault(run.feature, {}).setdefault(run.scenario, []).append(run)
    for feature, scenarios in sorted(by_feature.items()):
        entries = {} if replace else dict(load(feature))
        for name, group in sorted(scenarios.items()):
            outcome.scenarios += 1
            candidates: list[Realisation] = []
            for run in group:
                if run.realisation is not None and run.realisation not in candidates:
                    candidates.append(run.realisation)
            reaches = [
                {run.profile for run in group if check(candidate, run.position, run.flags) is None}
                for candidate in candidates
            ]
            chosen: list[Realisation] = []
            profiles: list[list[str]] = []
            left = {run.profile for run in group}
            while left:
                best = max(range(len(candidates)), key=lambda i: len(reaches[i] & left), default=None)
                if best is None or not reaches[best] & left:
                    break
                chosen.append(candidates[best])
                profiles.append(sorted(reaches[best]))
                left -= reaches[best]
            where = f"{feature.name}:{group[0].line}"
            if not chosen:
                why = next((run.unreachable for run in group if run.unreachable), "no realisation was found")
                outcome.unrealised.append((where, why))
                entries[name] = Entry(positions_only=f"no legal play reaching it was found: {why}")
                continue
            outcome.realised += 1
            if left:
                outcome.partial.append((where, sorted(left)))
            entries[name] = Entry(chosen, profiles)
        outcome.written.append(save(feature, entries))
    return outcome


# ------------------------------------------------------------------------------ coverage

#: The ``Given`` steps that start a scenario from a mid-hand position.
POSITION_STEP = "a hand in the "


@dataclass(frozen=True)
class Coverage:
    """How many position scenarios any engine can run (realised) and which only a position loader can."""

    positions: int
    realised: int
    positions_only: tuple[tuple[str, str, str], ...]  # (feature:line, scenario, why)
    missing: tuple[tuple[str, str], ...]  # (feature:line, scenario): no entry at all (regenerate)


def coverage(scenarios: list[Any]) -> Coverage:
    """The realisation coverage of ``scenarios`` (catalogue entries,
    :class:`guinote_conformance.catalogue.features.Scenario`)."""
    positions, realised = 0, 0
    only: list[tuple[str, str, str]] = []
    missing: list[tuple[str, str]] = []
    for scenario in scenarios:
        if not any(step.text.startswith(POSITION_STEP) for step in scenario.steps):
            continue
        positions += 1
        where = f"{scenario.path.name}:{scenario.line}"
        entry = load(scenario.path).get(scenario.name)
        if entry is None:
            missing.append((where, scenario.name))
        elif entry.positions_only:
            only.append((where, scenario.name, entry.positions_only))
        else:
            realised += 1
    return Coverage(positions, realised, tuple(only), tuple(missing))


__all__ = [
    "Coverage",
    "Entry",
    "NoRealisation",
    "Outcome",
    "RealisationFileError",
    "Run",
    "Unreachable",
    "coverage",
    "find",
    "load",
    "merge",
    "path_for",
    "read_runs",
    "save",
]
