"""The expectations file: an engine's known failures, validated with file:line for every mistake.

A TOML file of ``[[expect]]`` entries::

    [[expect]]
    rule = "ARR-06"                 # every scenario of the rule ...
    scenario = "arrastre::*partner*" # ... or a glob on "<feature stem>::<scenario name>" (or both)
    profile = "ludoteka"            # optional: a glob on the profile name
    status = "fail"                 # optional: fail | error | timeout (default: any of them)
    reason = "partner exemption not done yet (issue 12)"

How entries behave in a run:

* a run an entry covers that ends with a status it expects is reported ``xfail``;
* an entry that names ONE scenario and passes is ``xpass``: a failure of the run (remove it);
* an entry covering several scenarios (a rule, a glob) may pass in part: those runs are plain
  ``pass``; the entry is *stale* when none of the runs it covered failed, which fails the run too.

Mistakes are input errors (exit 2) naming ``file:line``: a key that is not one of :data:`KEYS`
(a misspelt key would silently widen the entry), a value that is not a string, an unknown rule
ID or status, a missing reason, and a scenario, rule or profile pattern that matches nothing.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from conformance.catalogue import Scenario
from conformance.exit_codes import InputError
from conformance.rule_index import load_rules

KEYS = ("scenario", "rule", "profile", "status", "reason")
#: The statuses an entry may expect (the bad statuses a known failure can have).
EXPECTED_STATUSES = ("fail", "error", "timeout")
_HEADER = re.compile(r"^\s*\[\[\s*expect\s*\]\]")


class ExpectationsError(InputError):
    """A mistake in the expectations file (the message starts with file:line)."""


def scenario_id(scenario: Scenario) -> str:
    """What a ``scenario`` glob is matched against: ``<feature file stem>::<scenario name>``."""
    return f"{scenario.path.stem}::{scenario.name}"


@dataclass(frozen=True)
class Expectation:
    where: str
    reason: str
    scenario: str = ""
    rule: str = ""
    profile: str = ""
    status: str = ""
    #: it covers exactly one scenario of the suite: passing means it must go (xpass)
    single: bool = False
    #: file:line of its scenario (or rule) pattern and of its profile pattern
    pattern_where: str = ""
    profile_where: str = ""

    def covers(self, scenario: Scenario, profile: str) -> bool:
        if self.profile and not fnmatch.fnmatchcase(profile, self.profile):
            return False
        if self.rule and self.rule not in scenario.rules:
            return False
        return not self.scenario or fnmatch.fnmatchcase(scenario_id(scenario), self.scenario)

    def covers_scenario(self, scenario: Scenario) -> bool:
        if self.rule and self.rule not in scenario.rules:
            return False
        return not self.scenario or fnmatch.fnmatchcase(scenario_id(scenario), self.scenario)

    def absorbs(self, status: str) -> bool:
        """Whether a run ending with ``status`` is the known failure."""
        return status == self.status if self.status else status in EXPECTED_STATUSES


def _key_lines(text: str) -> list[dict[str, int]]:
    """For each ``[[expect]]`` header in order: the line of the header (key ``""``) and of each key.

    tomllib gives no positions, and the file is small: a line scan finds them.
    """
    entries: list[dict[str, int]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _HEADER.match(line):
            entries.append({"": number})
            inside = True
        elif line.lstrip().startswith("["):
            inside = False  # another table: the keys below it are not the entry's
        elif inside and (match := re.match(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')\s*=", line)):
            entries[-1].setdefault(match.group(1).strip("\"'"), number)
    return entries


def load_expectations(path: Path) -> list[Expectation]:
    """Read and validate the file (:func:`check_coverage` checks the entries against the scenarios)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ExpectationsError(f"expectations file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ExpectationsError(f"expectations file {path}: not UTF-8 text ({error.reason})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExpectationsError(f"{path}: not valid TOML: {error}") from None
    unknown_tables = sorted(set(data) - {"expect"})
    if unknown_tables:
        raise ExpectationsError(f"{path}: unknown key {unknown_tables[0]!r}; entries are [[expect]] tables")
    raw_entries = data.get("expect", [])
    if not isinstance(raw_entries, list):
        raise ExpectationsError(f"{path}: 'expect' must be an array of tables: write each entry as [[expect]]")
    positions = _key_lines(text)
    rules = load_rules()
    found = []
    for number, raw in enumerate(raw_entries):
        keys = positions[number] if len(positions) == len(raw_entries) else {}

        def where(key: str = "", keys: Mapping[str, int] = keys, number: int = number) -> str:
            line = keys.get(key) or keys.get("")
            return f"{path}:{line}" if line else f"{path} (entry {number + 1})"

        found.append(_entry(raw, where, rules))
    return found


def _entry(raw: Any, where: Callable[..., str], rules: Collection[str]) -> Expectation:
    if not isinstance(raw, dict):
        raise ExpectationsError(f"{where()}: an entry is a table of {', '.join(KEYS)}")
    for key, value in raw.items():
        if key not in KEYS:
            raise ExpectationsError(f"{where(key)}: unknown key {key!r}; the keys are {', '.join(KEYS)}")
        if not isinstance(value, str):
            raise ExpectationsError(f"{where(key)}: {key} must be a string, not {type(value).__name__} {value!r}")
    if not raw.get("reason", "").strip():
        raise ExpectationsError(f"{where()}: the entry needs a reason")
    if not (raw.get("scenario") or raw.get("rule")):
        raise ExpectationsError(f"{where()}: the entry needs a scenario glob or a rule ID")
    rule = raw.get("rule", "")
    if rule and rule not in rules:
        raise ExpectationsError(f"{where('rule')}: unknown rule {rule!r} (guinote-conformance rules lists them)")
    status = raw.get("status", "")
    if status and status not in EXPECTED_STATUSES:
        raise ExpectationsError(
            f"{where('status')}: unknown status {status!r}; an expected failure is {', '.join(EXPECTED_STATUSES)}"
        )
    return Expectation(
        where=where(), reason=raw["reason"], scenario=raw.get("scenario", ""), rule=rule,
        profile=raw.get("profile", ""), status=status, profile_where=where("profile"),
        pattern_where=where("scenario" if raw.get("scenario") else "rule"),
    )  # fmt: skip


def check_coverage(entries: Sequence[Expectation], scenarios: Sequence[Scenario]) -> list[Expectation]:
    """Each entry must cover a scenario of ``scenarios``; mark the entries that cover exactly one."""
    checked = []
    for entry in entries:
        covered = [s for s in scenarios if entry.covers_scenario(s)]
        if not covered:
            what = " and ".join(f"{key} {value!r}" for key, value in (("rule", entry.rule),
                                ("scenario", entry.scenario)) if value)  # fmt: skip
            raise ExpectationsError(f"{entry.pattern_where or entry.where}: {what} matches no scenario of the suite")
        checked.append(replace(entry, single=len(covered) == 1))
    return checked


def check_profiles(expectations: Iterable[Expectation], profiles: Collection[str]) -> None:
    """Every ``profile`` pattern must match one of the profiles the run can use."""
    for entry in expectations:
        if entry.profile and not any(fnmatch.fnmatchcase(name, entry.profile) for name in profiles):
            raise ExpectationsError(
                f"{entry.profile_where or entry.where}: profile {entry.profile!r} matches none of the "
                f"engine's profiles ({', '.join(profiles)})"
            )


def stale(expectations: Iterable[Expectation], results: Iterable[Mapping[str, Any]]) -> list[Expectation]:
    """Entries that covered runs of this run (``expectation`` member of a result) but absorbed no failure."""
    used: dict[str, bool] = {}
    for result in results:
        where = result.get("expectation")
        if where:
            used[where] = used.get(where, False) or result.get("status") == "xfail"
    return [entry for entry in expectations if entry.where in used and not used[entry.where]]


__all__ = [
    "EXPECTED_STATUSES",
    "KEYS",
    "Expectation",
    "ExpectationsError",
    "check_coverage",
    "check_profiles",
    "load_expectations",
    "scenario_id",
    "stale",
]
