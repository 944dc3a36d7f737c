"""The plan of a session: the engines, the scenarios and the runs it is to play, and whether to play one now.

Each scenario becomes one test per (engine, profile) pair: the pairs are the engines' profiles, or
those of ``--profile`` (:meth:`SessionPlan.parametrize`), and the tests of scenarios left out by
``--scenario``, ``--rule`` and ``--area`` are deselected (:meth:`SessionPlan.select`). A run is not
played at all once the ``--budget`` is spent or the engine's circuit breaker has tripped (its
process hung, died or would not start ``--max-engine-failures`` times in a row).

In: the plugin's options and pytest's items. Out: the engines, opened once per process, and their
handshakes; each test's scenario (the catalogue's entry) and its run as a not-run
:class:`~guinote_conformance.results.case.CaseResult` with the command that reruns it; the expectations
file checked against the scenarios; why a run is not to be played.
"""

from __future__ import annotations

import functools
import shlex
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from guinote_conformance.adapters.interface import Engine, EngineInfo
from guinote_conformance.adapters.versions import compatibility_of
from guinote_conformance.adapters.wire.failures import ENGINE_DOWN
from guinote_conformance.base.exit_codes import CheckError
from guinote_conformance.base.untrusted import bounded, file_part
from guinote_conformance.catalogue.features import FeatureError, Scenario, Step, parse_feature
from guinote_conformance.catalogue.rule_index import RULE_ID, RuleEntry, load_rules
from guinote_conformance.engines.specs import load_engine, overlays, profile_flags, start_hint
from guinote_conformance.engines.symmetry import IDENTITY, asymmetric_reason, chosen, sampled_runs
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import EngineEntry
from guinote_conformance.results.status import Status
from guinote_conformance.run import expectations
from guinote_conformance.run.applicability import flag_reason, overlay_reason
from guinote_conformance.run.compat import template_of, undefined_steps
from guinote_conformance.run.expectations import scenario_id
from guinote_conformance.run.language import english_source
from guinote_conformance.run.options import load_expectations, parse_overrides
from guinote_conformance.run.scenario_setup import FeatureInputError
from guinote_conformance.run.selection import RunKey, Selection, failed_runs, run_key


def relative(path: Path) -> Path:
    """``path`` relative to the working directory when it is inside it (shorter reports)."""
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


class SessionPlan:
    """What the session is to play, and with what (one per plugin object)."""

    def __init__(self, config: pytest.Config) -> None:
        self.specs: list[str] = config.getoption("engine") or ["reference"]
        self.profile_filter: list[str] | None = config.getoption("profile")
        self.selection = Selection(
            tuple(config.getoption("scenario") or ()), tuple(config.getoption("rule") or ()),
            tuple(config.getoption("area") or ()),
        )  # fmt: skip
        self.timeout: float = config.getoption("engine_timeout")
        self.start_timeout: float = config.getoption("engine_start_timeout")
        self.max_failures: int = config.getoption("max_engine_failures")
        self.budget: float | None = config.getoption("budget")
        #: per engine spec: (runs in a row that ended with the engine process down, the last one's message)
        self.streaks: dict[str, tuple[int, str]] = {}
        self.expectations = load_expectations(config.getoption("expectations"))
        last = config.getoption("guinote_last_failed")
        #: ``--lf``: only these runs (None: every run selected)
        self.only: frozenset[RunKey] | None = _failed_runs(Path(last)) if last else None
        self.overrides = parse_overrides(config.getoption("override") or [])
        self.engines: dict[str, Engine] = {}
        self.infos: dict[str, EngineInfo] = {}
        self._scenarios: dict[str, dict[str, Scenario]] = {}
        self._lines: dict[str, dict[int, Scenario]] = {}
        # a worker's budget runs from the controller's start (a replaced worker starts late)
        self.started: float = getattr(config, "workerinput", {}).get("guinote_started", time.time())
        self.position_setup: str = config.getoption("position_setup")
        self.language: str = config.getoption("language") or "en"
        self.symmetries: str = config.getoption("symmetries") or "sample"
        own = config.getoption("guinote_features")
        #: ``run --features``: the author's own feature files the session plays (None: the suite's)
        self.features: Path | None = Path(own) if own else None

    def engine(self, spec: str) -> tuple[Engine, EngineInfo]:
        if spec not in self.engines:
            try:
                engine = load_engine(spec, timeout=self.timeout, start_timeout=self.start_timeout)
                self.infos[spec] = engine.info()
            except CheckError as error:
                raise pytest.UsageError(str(error)) from None
            except Exception as error:  # a broken engine must not crash collection silently
                hint = start_hint(error, self.start_timeout, "--engine-start-timeout")
                raise pytest.UsageError(f"engine {spec!r} could not start: {error}{hint}") from None
            self.engines[spec] = engine
        return self.engines[spec], self.infos[spec]

    def engine_entry(self, spec: str) -> EngineEntry:
        """The header entry of an engine this process opened."""
        return engine_entry(spec, self.infos[spec], compatibility_of(self.engines[spec]).notes)

    def scenario(self, path: str, name: str) -> Scenario:
        """The catalogue entry of a scenario (its rules, sources and flags), parsed once per file."""
        key = str(Path(path).resolve())
        if key not in self._scenarios:
            self._scenarios[key] = {s.name: s for s in parse_feature(Path(path))}
        return self._scenarios[key][name]

    def scenario_at(self, path: Path, line: int) -> Scenario:
        """The scenario of a feature file at ``line`` (a Spanish file's scenario is on the English one's line)."""
        key = str(path.resolve())
        if key not in self._lines:
            self._lines[key] = {s.line: s for s in parse_feature(path)}
        try:
            return self._lines[key][line]
        except KeyError:
            raise FeatureError(f"{path}:{line}: no scenario on this line (the Spanish file was generated from "
                               "another version of it)") from None  # fmt: skip

    def steps_as_run(self, item: pytest.Item, scenario: Scenario) -> tuple[Step, ...]:
        """The steps of a scenario test in the language it ran in (a Spanish run's are the Spanish text)."""
        template = template_of(item)
        if template is None or english_source(Path(template.feature.filename)) is None:
            return scenario.steps
        try:
            return self.scenario_at(Path(template.feature.filename), template.line_number).steps
        except FeatureError:
            return scenario.steps

    def cases(self) -> list[tuple[str, str]]:
        pairs = []
        for spec in self.specs:
            _, info = self.engine(spec)
            profiles = list(info.profiles)
            if self.profile_filter:
                for label in self.profile_filter:
                    self.profile_flags(info, label)  # an unknown profile or overlay is a usage error
                profiles = list(dict.fromkeys(self.profile_filter))
            pairs += [(spec, profile) for profile in profiles]
        return pairs

    def profile_flags(self, info: EngineInfo, label: str) -> dict[str, str]:
        """The flags of a profile label (``NAME`` or ``NAME+OVERLAY``)."""
        try:
            return profile_flags(info, label)
        except CheckError as error:
            raise pytest.UsageError(str(error)) from None

    def selected(self, scenario: Scenario) -> bool:
        return self.selection.selected(scenario)

    def case_of(self, item: pytest.Item) -> CaseResult | None:
        """The scenario run a test is, as a not-run result (None for a test that is not a scenario run).

        A feature the catalogue cannot read still names its scenario: pytest-bdd parsed it."""
        callspec = getattr(item, "callspec", None)
        if callspec is None or "guinote_case" not in callspec.params:
            return None
        spec, profile, symmetry = callspec.params["guinote_case"]
        try:
            scenario = self.item_scenario(item)
        except FeatureInputError:
            facts = _template_facts(item)
            if facts is None:
                return None
            path, name, line, tags = facts
            return CaseResult(
                id=f"{path.stem}::{name}", scenario=name, feature=str(relative(path)), line=line,
                rules=tuple(sorted(tag for tag in tags if RULE_ID.match(tag))), engine=spec, profile=profile,
                status=Status.NOT_RUN, rerun=self._rerun(path, line, spec, profile, symmetry), symmetry=symmetry,
            )  # fmt: skip
        if scenario is None:
            return None
        return CaseResult(
            id=scenario_id(scenario), scenario=scenario.name, feature=str(relative(scenario.path)),
            line=scenario.line, rules=tuple(scenario.rules), engine=spec, profile=profile, status=Status.NOT_RUN,
            flags=dict(scenario.flags), rerun=self.rerun_command(scenario, spec, profile, symmetry),
            symmetry=symmetry,
        )  # fmt: skip

    def not_run_reason(self, spec: str) -> str | None:
        """Why a scenario of ``spec`` is not to be played at all now (None: play it)."""
        if self.budget is not None and time.time() - self.started > self.budget:
            return f"the run's budget of {self.budget:g} s was spent before it started (--budget)"
        failures, last = self.streaks.get(spec, (0, ""))
        if self.max_failures and failures >= self.max_failures:
            return f"the engine timed out or crashed {failures} times in a row; last: {last}"
        return None

    def count_run(self, spec: str, error: BaseException | None, status: Status, message: str) -> None:
        """The circuit breaker's count: runs in a row whose engine process hung, died or would not start."""
        if isinstance(error, ENGINE_DOWN):
            failures, _ = self.streaks.get(spec, (0, ""))
            self.streaks[spec] = (failures + 1, bounded(message.split("\n")[0], 300))
        elif status not in (Status.NOT_APPLICABLE, Status.NOT_RUN):
            self.streaks.pop(spec, None)  # the engine answered: the streak is broken

    def rerun_command(self, scenario: Scenario, spec: str, profile: str, symmetry: str = "") -> str:
        """The command that re-runs one scenario run (under its symmetry, if any), into its own
        report folder, with the trace."""
        return self._rerun(scenario.path, scenario.line, spec, profile, symmetry)

    def _rerun(self, path: Path, line: int, spec: str, profile: str, symmetry: str = "") -> str:
        location = f"{relative(path)}:{line}"
        folder = f"reports/rerun-{path.stem}-{line}-{file_part(profile)}"  # the engine's name
        folder += f"-{file_part(symmetry)}" if symmetry else ""
        return shlex.join(
            [
                *("guinote-conformance", "run", "--engine", spec, "--profile", profile, "--scenario", location),
                *(("--symmetries", symmetry) if symmetry else ()),
                *(("--features", str(relative(self.features))) if self.features is not None else ()),
                *("--jobs", "1", "--trace", "--report-dir", folder),
                *(("--language", self.language) if self.language != "en" else ()),
            ]
        )

    def item_scenario(self, item: pytest.Item | pytest.Metafunc) -> Scenario | None:
        """The catalogue entry of a scenario test; a malformed feature file raises FeatureInputError."""
        template = template_of(item)
        if template is None:
            return None
        try:
            english = english_source(Path(template.feature.filename))
            if english is not None:  # a Spanish run: the English scenario on the same line
                return self.scenario_at(english, template.line_number)
            return self.scenario(template.feature.filename, template.name)
        except FeatureError as error:
            raise FeatureInputError(str(error)) from None

    def parametrize(self, metafunc: pytest.Metafunc) -> None:
        """A scenario test once per (engine, profile) pair, and per symmetry of ``--symmetries``
        (:meth:`symmetry_runs`): the parameter is (engine, profile, symmetry name or ``""``). A
        scenario the catalogue cannot read (an unknown tag, a flag or value profiles.toml does not
        declare) is a collection error naming file:line, so that the session stops (exit 2) rather
        than running it under every profile as not applicable; so is a step no step definition
        parses (rather than an error of every run, blamed on the engine)."""
        try:
            self.item_scenario(metafunc)
        except FeatureInputError as error:
            raise pytest.Collector.CollectError(str(error)) from None
        undefined = undefined_steps(metafunc)
        if undefined:  # the suite's mistake (or a feature's), never the engine's: the session stops (exit 2)
            where = template_of(metafunc).feature.filename
            raise pytest.Collector.CollectError("; ".join(
                f"{where}:{step.line_number}: undefined step: {step.keyword} {step.name} (no step definition of the "
                "suite's vocabulary parses it)" for step in undefined
            ))  # fmt: skip
        if "guinote_case" in metafunc.fixturenames:
            runs = self.symmetry_runs(metafunc, self.cases())
            ids = [
                (profile if len(self.specs) == 1 else f"{spec}-{profile}") + (f"@{symmetry}" if symmetry else "")
                for spec, profile, symmetry in runs
            ]
            metafunc.parametrize("guinote_case", runs, ids=ids, scope="function")

    def symmetry_runs(self, metafunc: pytest.Metafunc, pairs: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
        """The runs of a scenario: each (engine, profile) pair as written, and under ``--symmetries``:
        ``sample`` adds one run, under a symmetry and a pair drawn from a hash of the scenario's ID
        (among the pairs it can play); ``all`` or names play each pair under each symmetry (the whole
        group of its table for ``all``). A scenario declared asymmetric runs as written only."""
        try:
            scenario = self.item_scenario(metafunc)
        except FeatureInputError:
            scenario = None
        written = [(spec, profile, "") for spec, profile in pairs]
        if scenario is None or self.symmetries == "none" or asymmetric_reason(scenario, self.rules) is not None:
            return written
        tables = [(pair, self._players(pair, scenario)) for pair in pairs]
        if self.symmetries == "sample":
            playable = [(pair, players) for pair, players in tables if players is not None]
            found = sampled_runs(scenario_id(scenario), [players for _, players in playable])
            if found is None:
                return written
            index, symmetry = found
            (spec, profile), _ = playable[index]
            return [*written, (spec, profile, symmetry.name)]
        runs: list[tuple[str, str, str]] = []
        for (spec, profile), players in tables:
            for symmetry in chosen(self.symmetries, players or 4) or [IDENTITY]:
                if players is None and not symmetry.identity:
                    continue  # not applicable under this pair: once, as written, says so
                runs.append((spec, profile, "" if symmetry.identity else symmetry.name))
        return runs

    @functools.cached_property
    def rules(self) -> dict[str, RuleEntry]:
        """The rule index (a rule may declare itself asymmetric), read once."""
        return load_rules()

    def _players(self, pair: tuple[str, str], scenario: Scenario) -> int | None:
        """The number of players ``scenario`` is played by under ``pair``; ``None`` if it is not applicable there."""
        spec, profile = pair
        _, info = self.engine(spec)
        if overlay_reason(profile, scenario, overlays()) is not None:
            return None
        played = {**self.profile_flags(info, profile), **self.overrides}
        flags = {**played, **scenario.flags_under(played)}
        if flag_reason(info, profile, flags, scenario) is not None:
            return None
        players = str(flags.get("players", "4"))
        return int(players) if players.isdigit() else None

    def select(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """The expectations and the selection checked against the scenarios collected; the tests of
        the scenarios not selected deselected."""
        known: dict[str, Scenario] = {}
        for item in items:
            try:
                scenario = self.item_scenario(item)
            except FeatureInputError:
                continue
            if scenario is not None:
                known[scenario.location] = scenario
        try:
            self.expectations = expectations.check_coverage(self.expectations, list(known.values()))
        except CheckError as error:
            raise pytest.UsageError(str(error)) from None
        try:
            self.selection.check(list(known.values()), own=self.features)
        except CheckError as error:
            raise pytest.UsageError(str(error)) from None
        if not self.selection and self.only is None:
            return
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            try:
                scenario = self.item_scenario(item)
            except FeatureInputError:
                scenario = None  # keep it: running it reports the error
            (keep if scenario is None or (self.selected(scenario) and self._last_failed(item)) else drop).append(item)
        if self.only is not None and not keep:
            raise pytest.UsageError(f"--lf: none of the {len(self.only)} runs that failed last time is among this "
                                    "run's (its engines, profiles and filters)")  # fmt: skip
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def _last_failed(self, item: pytest.Item) -> bool:
        """Whether ``item`` is to run under ``--lf`` (every item without it)."""
        if self.only is None:
            return True
        case = self.case_of(item)
        return case is not None and run_key(case) in self.only


def _failed_runs(path: Path) -> frozenset[RunKey]:
    """The runs that failed in the results file of ``--guinote-last-failed`` (a bad file: a usage error)."""
    try:
        return failed_runs(path)
    except CheckError as error:
        raise pytest.UsageError(str(error)) from None


def _template_facts(item: pytest.Item) -> tuple[Path, str, int, frozenset[str]] | None:
    """A scenario test's feature file, scenario name, line and tags as pytest-bdd parsed them."""
    template = template_of(item)
    if template is None:
        return None
    return Path(template.feature.filename), template.name, template.line_number, frozenset(template.tags)


def engine_entry(spec: str, info: EngineInfo, notes: Sequence[str] = ()) -> EngineEntry:
    """The results' header entry of an engine: who it says it is, what it declares, what the
    suite filled in for it (``notes``: :attr:`guinote_conformance.adapters.versions.Compatibility.notes`)."""
    return EngineEntry(
        spec, info.name, info.version, info.language, {name: dict(flags) for name, flags in info.profiles.items()},
        info.protocol, tuple(sorted(info.capabilities)), tuple(notes),
    )  # fmt: skip
