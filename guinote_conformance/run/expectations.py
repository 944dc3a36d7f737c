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

:func:`record` writes such a file from a results file: every failing run of an engine as an
entry that names one scenario, so that the gate of a CI job stays honest while the engine
catches up (a new failure fails the job; a fixed one is ``xpass`` and asks for its entry to go).
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.base.toml_entries import Entry, read_entries
from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.results.status import Status

KEYS = ("scenario", "rule", "profile", "status", "reason")
#: The statuses an entry may expect (the bad statuses a known failure can have).
EXPECTED_STATUSES = ("fail", "error", "timeout")


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


def load_expectations(path: Path) -> list[Expectation]:
    """Read and validate the file (:func:`check_coverage` checks the entries against the scenarios)."""
    rules = load_rules()
    entries = read_entries(path, "expect", KEYS, what="expectations file", error=ExpectationsError)
    return [_expectation(entry, rules) for entry in entries]


def _expectation(entry: Entry, rules: Collection[str]) -> Expectation:
    if not (entry.get("scenario") or entry.get("rule")):
        raise ExpectationsError(f"{entry.where()}: the entry needs a scenario glob or a rule ID")
    rule = entry.get("rule")
    if rule and rule not in rules:
        raise ExpectationsError(f"{entry.where('rule')}: unknown rule {rule!r} (guinote-conformance rules lists them)")
    status = entry.get("status")
    if status and status not in EXPECTED_STATUSES:
        raise ExpectationsError(
            f"{entry.where('status')}: unknown status {status!r}; an expected failure is {', '.join(EXPECTED_STATUSES)}"
        )
    return Expectation(
        where=entry.where(), reason=entry.get("reason"), scenario=entry.get("scenario"), rule=rule,
        profile=entry.get("profile"), status=status, profile_where=entry.where("profile"),
        pattern_where=entry.where("scenario" if entry.get("scenario") else "rule"),
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
    """Entries that covered runs of this run (``expectation`` member of a result) but absorbed no failure.

    A run not played might have failed: an entry that covers one is not called stale."""
    used: dict[str, bool] = {}
    for result in results:
        where = result.get("expectation")
        if where:
            used[where] = used.get(where, False) or result.get("status") in (Status.XFAIL, Status.NOT_RUN)
    return [entry for entry in expectations if entry.where in used and not used[entry.where]]


def glob_literal(text: str) -> str:
    """``text`` as a glob that matches only itself (``[``, ``*`` and ``?`` are glob syntax)."""
    return re.sub(r"([\[\]*?])", r"[\1]", text)


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly (JSON's escapes are TOML's, DEL aside)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def record(results: Iterable[Mapping[str, Any]], *, engine: str, source: str) -> tuple[str, int]:
    """An expectations file listing every failing run of ``engine`` in ``results`` (result dicts of
    a results file, as :meth:`guinote_conformance.results.case.CaseResult.to_json` writes them), and its entry count.

    One entry per scenario and status: without ``profile`` when the scenario failed so under every
    profile it was played under, else one per profile. A run already ``xfail`` is still a failure and
    is kept; ``source`` (the results file, its date) goes into each ``reason``."""
    played: dict[str, set[str]] = {}
    failing: dict[tuple[str, str], list[str]] = {}
    messages: dict[tuple[str, str], str] = {}
    for result in results:
        if result.get("engine") != engine or result.get("status") in (Status.NOT_APPLICABLE, Status.NOT_RUN):
            continue
        key = str(result["id"])
        played.setdefault(key, set()).add(str(result["profile"]))
        status = str(result["status"])
        if status == Status.XFAIL:  # the known failure of an earlier file: which status, the message says
            status = ""
        elif status not in EXPECTED_STATUSES:
            continue
        failing.setdefault((key, status), []).append(str(result["profile"]))
        first = (str(result.get("message") or "").strip().splitlines() or [""])[0]
        messages.setdefault((key, status), first[:160])
    lines = [
        f"# Known failures of {engine}, recorded by guinote-conformance expectations from {source}.",
        "# Each entry names one scenario: when it passes, the run reports xpass and the entry must go.",
        "",
    ]
    count = 0
    for (key, status), profiles in sorted(failing.items()):
        scopes = [""] if set(profiles) == played[key] else sorted(profiles)
        for profile in scopes:
            count += 1
            lines.append("[[expect]]")
            lines.append(f"scenario = {toml_string(glob_literal(key))}")
            if profile:
                lines.append(f"profile = {toml_string(glob_literal(profile))}")
            if status:
                lines.append(f"status = {toml_string(status)}")
            said = messages[(key, status)]
            lines.append(f"reason = {toml_string(f'known from {source}' + (f': {said}' if said else ''))}")
            lines.append("")
    return "\n".join(lines), count


__all__ = [
    "EXPECTED_STATUSES",
    "KEYS",
    "Expectation",
    "ExpectationsError",
    "check_coverage",
    "check_profiles",
    "glob_literal",
    "load_expectations",
    "record",
    "scenario_id",
    "stale",
    "toml_string",
]
