"""The results file: a whole run's header and results, written once and read by every report.

The plugin builds a :class:`Report` while the scenarios run and dumps it; the CLI summary,
the HTML report, the JUnit file and the docs' results page only load and read it. The
file format is versioned (:data:`RESULTS_FORMAT`) and described by a JSON Schema shipped
with the package (``guinote_conformance/results/results.schema.json``). Each engine's profiles and
their flag values are written once, in the header; a result carries only the flags its
scenario sets itself.

In: the engines' entries, the suite's version, commit and scenarios digest, and the
:class:`~guinote_conformance.results.case.CaseResult` of every run. Out: :class:`Report` with its
readings (the summary, the matrix cells by area, rule and profile, the failure groups and those
blocked before their own rule by their root cause, the runs not played or not applicable by
reason) and its file (:meth:`Report.dump`, :meth:`Report.load`, checked by :func:`validate`).
Modelled on bowtie's ``_report.py`` (``Report``).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from guinote_conformance import __version__
from guinote_conformance.adapters.gcp.messages import PROTOCOL_VERSION
from guinote_conformance.base.untrusted import scrub
from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.results.case import CaseResult, area_of, area_order
from guinote_conformance.results.status import Status

#: The results file format; the number changes whenever a reader would misread a file (4: a
#: divergence is named by the rule that decides what differs, and a failure says what blocked it).
RESULTS_FORMAT = "guinote-conformance-results/4"
#: The formats this suite still reads: a file of format 3 has the same members, less ``blocked_by``,
#: which is derived from the others when the file is loaded.
READABLE_FORMATS = (RESULTS_FORMAT, "guinote-conformance-results/3")
#: The suite's version as the results file records it (its one owner: ``guinote_conformance.__version__``)
SUITE_VERSION = __version__


class ResultsError(ValueError):
    """A results file that cannot be read: the message names the file and what is wrong."""


@dataclass(frozen=True)
class EngineEntry:
    """An engine of the run: the spec it was loaded with, who it says it is, its profiles."""

    spec: str
    name: str
    version: str
    language: str
    profiles: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: the protocol version the engine was written for (0: not known, a file of an older suite)
    protocol: int = 0
    capabilities: tuple[str, ...] = ()
    #: what the suite filled in for its declaration (flags played at their default), said once
    notes: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.name} {self.version}".strip()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EngineEntry:
        return cls(
            str(data["spec"]), str(data["name"]), str(data["version"]), str(data["language"]),
            dict(data.get("profiles") or {}), int(data.get("protocol", 0)),
            tuple(data.get("capabilities") or ()), tuple(data.get("notes") or ()),
        )  # fmt: skip


@dataclass(frozen=True)
class SuiteInfo:
    version: str = SUITE_VERSION
    #: the git commit of the suite that ran ("unknown" outside a clone)
    commit: str = "unknown"
    #: digest of the scenarios that could run (see :func:`suite_digest`)
    scenarios_digest: str = ""
    scenarios: int = 0
    #: the protocol version the suite speaks (0: a file of an older suite, which did not say)
    protocol: int = PROTOCOL_VERSION

    @property
    def protocol_name(self) -> str:
        """The protocol as it is named everywhere (``GCP/2``), or ``GCP/?`` for a file that did not say."""
        return f"GCP/{self.protocol}" if self.protocol else "GCP/?"

    @property
    def title(self) -> str:
        """The suite and protocol versions in one phrase (``suite 0.1.0, protocol GCP/2``)."""
        return f"suite {self.version or '?'}, protocol {self.protocol_name}"


@dataclass(frozen=True)
class FailureGroup:
    """One failure, one block: a scenario failing the same way under several profiles."""

    key: str
    first: CaseResult
    members: tuple[CaseResult, ...]

    @property
    def profiles(self) -> list[str]:
        return [member.profile for member in self.members]

    @property
    def blocked_by(self) -> str | None:
        """The rule that kept this failure from reaching its own (:attr:`CaseResult.blocked_by`)."""
        return self.first.blocked_by


@dataclass(frozen=True)
class Cell:
    """The runs of one matrix cell (a rule or area × an engine's profile)."""

    results: tuple[CaseResult, ...] = ()

    @property
    def counts(self) -> dict[Status, int]:
        counts: dict[Status, int] = defaultdict(int)
        for result in self.results:
            counts[result.status] += 1
        return dict(sorted(counts.items(), key=lambda item: list(Status).index(item[0])))

    @property
    def worst(self) -> Status | None:
        return min((result.status for result in self.results), key=lambda status: status.severity, default=None)

    @property
    def label(self) -> str:
        return " ".join(f"{status.glyph}{count}" for status, count in self.counts.items())


@dataclass
class Report:
    """A whole run: the header (engines, suite, run) and every scenario run's result."""

    engines: list[EngineEntry] = field(default_factory=list)
    suite: SuiteInfo = field(default_factory=SuiteInfo)
    started: str = ""
    duration_s: float = 0.0
    results: list[CaseResult] = field(default_factory=list)

    # ------------------------------------------------------------------ reading

    @property
    def summary(self) -> dict[Status, int]:
        counts = {status: 0 for status in Status}
        for result in self.results:
            counts[result.status] += 1
        return counts

    @property
    def problems(self) -> list[CaseResult]:
        return [result for result in self.results if result.status.is_problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def engine(self, spec: str) -> EngineEntry:
        for entry in self.engines:
            if entry.spec == spec:
                return entry
        return EngineEntry(spec, spec, "", "")

    def flags_of(self, result: CaseResult) -> dict[str, str]:
        """Every flag value the result ran with: its profile's, then the scenario's own."""
        return {**self.engine(result.engine).profiles.get(result.profile, {}), **result.flags}

    def _label(self, entry: EngineEntry) -> str:
        """An engine's name in column headers; its spec when two engines share a name."""
        names = [e.name for e in self.engines]
        return entry.spec if names.count(entry.name) > 1 else entry.name

    def column(self, result: CaseResult) -> str:
        """The matrix column of a result: the profile, prefixed by the engine's name when several ran."""
        if len(self.engines) > 1:
            return f"{self._label(self.engine(result.engine))} · {result.profile}"
        return result.profile

    def engine_of_column(self, column: str) -> EngineEntry:
        for result in self.results:
            if self.column(result) == column:
                return self.engine(result.engine)
        return self.engines[0] if self.engines else EngineEntry("?", "?", "", "")

    def columns(self) -> list[str]:
        seen: dict[str, None] = {}
        for entry in self.engines:
            for profile in entry.profiles:
                name = f"{self._label(entry)} · {profile}" if len(self.engines) > 1 else profile
                seen[name] = None
        for result in self.results:
            seen.setdefault(self.column(result), None)
        used = {self.column(result) for result in self.results}
        return [name for name in seen if name in used]

    def by_area(self) -> dict[str, dict[str, Cell]]:
        """area -> column -> cell (a scenario counts once in each area it has a rule in)."""
        table: dict[str, dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
        for result in self.results:
            for area in result.areas:
                table[area][self.column(result)].append(result)
        return {
            area: {column: Cell(tuple(found)) for column, found in row.items()}
            for area, row in sorted(table.items(), key=lambda item: area_order(item[0]))
        }

    def by_rule(self) -> dict[str, dict[str, Cell]]:
        """rule -> column -> cell, rules in rulebook order."""
        table: dict[str, dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
        for result in self.results:
            for rule in result.rules:
                table[rule][self.column(result)].append(result)
        return {
            rule: {column: Cell(tuple(found)) for column, found in row.items()}
            for rule, row in sorted(table.items(), key=lambda item: (area_order(area_of(item[0])), item[0]))
        }

    def by_profile(self) -> dict[str, list[CaseResult]]:
        table: dict[str, list[CaseResult]] = defaultdict(list)
        for result in self.results:
            table[self.column(result)].append(result)
        return dict(table)

    @property
    def not_run(self) -> dict[str, list[CaseResult]]:
        """The runs not played, by reason, the most frequent reason first: one line each in every report."""
        return _by_reason((r.message, r) for r in self.results if r.status is Status.NOT_RUN)

    @property
    def not_applicable(self) -> dict[str, list[CaseResult]]:
        """The runs not applicable, by reason, the most frequent first (one line each, not one per run)."""
        return _by_reason((r.message, r) for r in self.results if r.status is Status.NOT_APPLICABLE)

    @property
    def not_checked(self) -> dict[str, list[CaseResult]]:
        """The passing runs with checks the protocol does not require of the engine, by why (a note
        is "line: what: why")."""
        return _by_reason((why, r) for r in self.results for why in {note.split(": ", 2)[-1] for note in r.unchecked})

    def failure_groups(self) -> list[FailureGroup]:
        """The problems, one group per scenario, engine and way of failing (profiles merged).

        Runs not played are not failures of anything: :attr:`not_run` gives them by reason."""
        groups: dict[str, list[CaseResult]] = {}
        for result in self.problems:
            if result.status is Status.NOT_RUN:
                continue
            divergence = result.divergence
            how = json.dumps(
                [
                    result.status,
                    result.message,
                    result.stage,
                    divergence.what if divergence else None,
                    divergence.rule if divergence else None,
                ],
                default=str,
            )
            key = f"{result.id}\x00{result.engine}\x00{how}"
            groups.setdefault(key, []).append(result)
        ordered = sorted(groups.items(), key=lambda item: (item[1][0].feature, item[1][0].line, item[0]))
        return [FailureGroup(f"f{index}", members[0], tuple(members)) for index, (_, members) in enumerate(ordered, 1)]

    def blocked(self, groups: list[FailureGroup] | None = None) -> dict[str, list[FailureGroup]]:
        """The failures blocked before their own rule, by the rule that blocked them (the root
        cause), the rule blocking most first: every report shows them collapsed under it, one
        line each, apart from the failures of their own rule."""
        found: dict[str, list[FailureGroup]] = {}
        for group in self.failure_groups() if groups is None else groups:
            if group.blocked_by:
                found.setdefault(group.blocked_by, []).append(group)
        return dict(sorted(found.items(), key=lambda item: (-len(item[1]), item[0])))

    # ------------------------------------------------------------------ writing and loading

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "engines": [asdict(entry) for entry in self.engines],
            "suite": asdict(self.suite),
            "run": {"started": self.started, "duration_s": self.duration_s},
            # statuses that occurred (a reader counts a missing status as 0)
            "summary": {status.value: count for status, count in self.summary.items() if count},
            "results": [
                result.to_json()
                for result in sorted(self.results, key=lambda r: (r.feature, r.line, r.engine, r.profile))
            ],
        }

    def dump(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(scrub(self.to_json()), indent=1, ensure_ascii=False)  # an engine's lone surrogates
        path.write_text(text + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any, where: str = "results") -> Report:
        validate(data, where)
        suite = data.get("suite") or {}
        run = data.get("run") or {}
        return cls(
            engines=[EngineEntry.from_json(entry) for entry in data["engines"]],
            suite=SuiteInfo(
                suite.get("version", ""),
                suite.get("commit", "unknown"),
                suite.get("scenarios_digest", ""),
                int(suite.get("scenarios", 0)),
                int(suite.get("protocol", 0)),
            ),
            started=run.get("started", ""),
            duration_s=float(run.get("duration_s", 0.0)),
            results=[CaseResult.from_json(entry) for entry in data["results"]],
        )

    @classmethod
    def load(cls, path: Path) -> Report:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ResultsError(f"{path}: cannot read the results file: {error.strerror or error}") from None
        except json.JSONDecodeError as error:
            raise ResultsError(f"{path}:{error.lineno}: not a results file (not JSON: {error.msg})") from None
        except UnicodeDecodeError:
            raise ResultsError(f"{path}: not a results file (not UTF-8 text)") from None
        return cls.from_json(data, str(path))


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the results file."""
    text = resources.files("guinote_conformance.results").joinpath("results.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def validate(data: Any, where: str = "results") -> None:
    """Raise :class:`ResultsError` naming the first place where ``data`` breaks the schema."""
    from jsonschema import Draft202012Validator

    if isinstance(data, dict) and data.get("format") not in READABLE_FORMATS:
        raise ResultsError(
            f"{where}: not a guinote-conformance results file ({RESULTS_FORMAT}; format {data.get('format')!r}); "
            "re-run the suite to write a results file in the current format"
        )
    errors = sorted(Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        place = "/".join(str(part) for part in first.absolute_path) or "(top level)"
        raise ResultsError(f"{where}: {place}: {first.message[:300]}")


def _by_reason(pairs: Iterable[tuple[str, CaseResult]]) -> dict[str, list[CaseResult]]:
    """Runs grouped by a reason, the most frequent reason first."""
    grouped: dict[str, list[CaseResult]] = {}
    for reason, result in pairs:
        grouped.setdefault(reason, []).append(result)
    return dict(sorted(grouped.items(), key=lambda item: -len(item[1])))


# ---------------------------------------------------------------------------------- the suite


def suite_digest(scenarios: Iterable[Scenario]) -> str:
    """A digest of scenarios (their id, line and steps): a results file whose digest differs
    from the current scenarios' was made from other scenarios."""
    hasher = hashlib.sha256()
    entries = sorted(
        (f"{s.path.stem}::{s.name}", s.line, [f"{step.keyword.strip()} {step.text}" for step in s.steps])
        for s in scenarios
    )
    for entry in entries:
        hasher.update(json.dumps(entry, ensure_ascii=False).encode())
    return hasher.hexdigest()[:16]


def suite_commit(root: Path) -> str:
    """The git commit of the suite at ``root`` (with ``-dirty`` for local changes), or ``unknown``."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12", "--match", "none"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() or "unknown"
