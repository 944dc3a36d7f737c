"""The pytest plugin that runs the scenarios against engines under every profile.

Each scenario becomes one test per (engine, profile) pair. Under a profile a scenario runs
with the profile's flags, overridden by the scenario's own ``@flag=value`` tags. A scenario
the engine cannot run (a flag value or capability it does not declare) is reported as
*not applicable* with the reason, never as passed. Each run becomes a
:class:`~conformance.results.case.CaseResult`; the session's :class:`~conformance.results.report.Report`
is the JSON file that the reports (terminal summary, JUnit, HTML, docs) are built from.

Every engine is wrapped in a :class:`~conformance.engines.recording.RecordingEngine`: a failure keeps
the transcript of its scenario and where it first parted from the reference engine
(:func:`conformance.oracle.causes.find_divergence`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import tempfile
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from adapters.interface import Engine, EngineError, EngineInfo, UnknownField
from adapters.obligations import Obligations
from adapters.subprocess_adapter import ENGINE_DOWN, EngineTimeout
from adapters.versions import compatibility_of
from conformance.base.exit_codes import CheckError
from conformance.base.paths import REPO
from conformance.base.untrusted import bounded, file_part, scrub, scrub_report
from conformance.base.untrusted import shown as shown_text  # "shown" names a transcript here
from conformance.catalogue.features import FeatureError, Scenario, parse_feature
from conformance.catalogue.rule_index import RULE_ID
from conformance.engines.recording import RecordingEngine, Transcript
from conformance.engines.specs import load_engine, profile_flags
from conformance.oracle.causes import find_divergence
from conformance.results.case import CaseResult, StepLine
from conformance.results.report import EngineEntry, Report, SuiteInfo, suite_commit, suite_digest
from conformance.results.status import Stage, Status
from conformance.run import expectations, realisations
from conformance.run.applicability import other_table
from conformance.run.driver import ScenarioRun
from conformance.run.expectations import Expectation, scenario_id
from conformance.run.options import load_expectations, parse_overrides
from conformance.run.position import Realisation, Replay, Unreachable, replay
from conformance.run.realise import search
from conformance.run.scenario_setup import FeatureInputError, Location, ScenarioSetup
from conformance.run.selection import Selection

#: The class the driver raises when the engine parts from the realised prefix that leads to
#: a scenario's position (matched by name: the driver may not define it yet).
PREFIX_DIVERGENCE = "PrefixDivergence"
#: "what: expected X, got Y", as the driver's checks word a mismatch.
EXPECTED_GOT = re.compile(r"(?P<what>[^:\n]+): expected (?P<expected>.+?), got (?P<got>.+?)\s*$", re.DOTALL)
#: Characters of a crash or an unrecorded report's text kept in a result's message.
_SHOWN = 500


def relative(path: Path) -> Path:
    """``path`` relative to the working directory when it is inside it (shorter reports)."""
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


class GuinotePlugin:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.specs: list[str] = config.getoption("engine") or ["reference"]
        self.profile_filter: list[str] | None = config.getoption("profile")
        self.selection = Selection(
            tuple(config.getoption("scenario") or ()), tuple(config.getoption("rule") or ()),
            tuple(config.getoption("area") or ()),
        )  # fmt: skip
        self.timeout: float = config.getoption("engine_timeout")
        self.max_failures: int = config.getoption("max_engine_failures")
        self.budget: float | None = config.getoption("budget")
        #: per engine spec: (runs in a row that ended with the engine process down, the last one's message)
        self.streaks: dict[str, tuple[int, str]] = {}
        self.expectations = load_expectations(config.getoption("expectations"))
        self.overrides = parse_overrides(config.getoption("override") or [])
        self.engines: dict[str, Engine] = {}
        self.infos: dict[str, EngineInfo] = {}
        self._scenarios: dict[str, dict[str, Scenario]] = {}
        self.trace: bool = bool(config.getoption("guinote_trace"))
        #: every selected scenario run, by pytest node id, as a not-run skeleton (filled when it reports)
        self.planned: dict[str, CaseResult] = {}
        #: the results, one per node id (:meth:`add` keeps the worst of a test's reports)
        self.by_node: dict[str, CaseResult] = {}
        #: failed reports that carried no result (a crashed xdist worker...): node id -> what pytest said
        self.unrecorded: dict[str, str] = {}
        #: the engines' entries as the workers read them (the controller never launches an engine)
        self.entries: dict[str, EngineEntry] = {}
        self.stale: list[Expectation] = []
        #: what went wrong at the end of the session itself (printed, never a traceback that loses the results)
        self.notes: list[str] = []
        self.down: list[str] = []
        self.interrupted: str | None = None
        self.final: Report | None = None
        self.cases_dir: str | None = None
        # a worker's budget runs from the controller's start (a replaced worker starts late)
        self.started: float = getattr(config, "workerinput", {}).get("guinote_started", time.time())
        self.position_setup: str = config.getoption("position_setup")
        record: str | None = config.getoption("guinote_realise_record")
        self.record_dir = Path(record) if record else None
        self.search_seconds = float(os.environ.get("GUINOTE_REALISE_SECONDS", "20"))

    @property
    def results(self) -> list[CaseResult]:
        return list(self.by_node.values())

    def add(self, nodeid: str, result: CaseResult) -> None:
        """Record a test's result: one per test, the worst when its call and its teardown both report."""
        kept = self.by_node.get(nodeid)
        if kept is None or result.status.severity < kept.status.severity:
            self.by_node[nodeid] = result

    # -------------------------------------------------------------- engines and scenarios

    def engine(self, spec: str) -> tuple[Engine, EngineInfo]:
        if spec not in self.engines:
            try:
                engine = load_engine(spec, timeout=self.timeout)
                self.infos[spec] = engine.info()
            except CheckError as error:
                raise pytest.UsageError(str(error)) from None
            except Exception as error:  # a broken engine must not crash collection silently
                raise pytest.UsageError(f"engine {spec!r} could not start: {error}") from None
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
        spec, profile = callspec.params["guinote_case"]
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
                status=Status.NOT_RUN, rerun=self._rerun(path, line, spec, profile),
            )  # fmt: skip
        if scenario is None:
            return None
        return CaseResult(
            id=scenario_id(scenario), scenario=scenario.name, feature=str(relative(scenario.path)),
            line=scenario.line, rules=tuple(scenario.rules), engine=spec, profile=profile, status=Status.NOT_RUN,
            flags=dict(scenario.flags), rerun=self.rerun_command(scenario, spec, profile),
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

    def rerun_command(self, scenario: Scenario, spec: str, profile: str) -> str:
        """The command that re-runs one scenario run, into its own report folder, with the trace."""
        return self._rerun(scenario.path, scenario.line, spec, profile)

    @staticmethod
    def _rerun(path: Path, line: int, spec: str, profile: str) -> str:
        location = f"{relative(path)}:{line}"
        folder = f"reports/rerun-{path.stem}-{line}-{file_part(profile)}"  # the engine's name
        return shlex.join(
            [
                *("guinote-conformance", "run", "--engine", spec, "--profile", profile, "--scenario", location),
                *("--jobs", "1", "--trace", "--report-dir", folder),
            ]
        )

    # -------------------------------------------------------------- realisations

    def realisation(self, run: ScenarioSetup) -> tuple[Realisation, Replay]:
        """The stored realisation of the run's position; in record mode, a new one when none fits."""
        assert run.feature is not None and run.position is not None
        if self.record_dir is None:
            return realisations.find(run.feature, run.scenario, run.position, run.flags)
        record: dict[str, Any] = {
            "feature": str(run.feature),
            "scenario": run.scenario,
            "line": run.location.line,
            "profile": run.profile,
            "flags": run.flags,
            "position": run.position,
        }
        try:
            found, replayed = realisations.find(run.feature, run.scenario, run.position, run.flags)
            self._record(record | {"realisation": found.to_json(), "source": "stored", "seconds": 0.0})
            return found, replayed
        except realisations.NoRealisation:
            pass
        started = time.perf_counter()
        try:
            found = search(run.position, run.flags, seed=_seed(run.scenario, run.profile), seconds=self.search_seconds)
        except Unreachable as error:
            seconds = round(time.perf_counter() - started, 3)
            self._record(record | {"unreachable": str(error), "source": "search", "seconds": seconds})
            raise AssertionError(f"{run.setup_line}: no legal play reaching this position was found: {error}") from None
        seconds = round(time.perf_counter() - started, 3)
        self._record(record | {"realisation": found.to_json(), "source": "search", "seconds": seconds})
        return found, replay(found, run.flags)

    def _record(self, record: dict[str, Any]) -> None:
        assert self.record_dir is not None
        self.record_dir.mkdir(parents=True, exist_ok=True)
        worker = getattr(self.config, "workerinput", {}).get("workerid", "main")
        with (self.record_dir / f"found-{worker}.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")

    # -------------------------------------------------------------- pytest hooks

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "guinote_case" in metafunc.fixturenames:
            pairs = self.cases()
            ids = [profile if len(self.specs) == 1 else f"{spec}-{profile}" for spec, profile in pairs]
            metafunc.parametrize("guinote_case", pairs, ids=ids, scope="function")

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
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
            self.selection.check(list(known.values()))
        except CheckError as error:
            raise pytest.UsageError(str(error)) from None
        if not self.selection:
            return
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            try:
                scenario = self.item_scenario(item)
            except FeatureInputError:
                scenario = None  # keep it: running it reports the error
            (keep if scenario is None or self.selected(scenario) else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Note every selected scenario run; an xdist worker hands the list to the controller (in a file: a
        worker that crashes later has handed it already), with the engines as its handshake read them."""
        self.planned = {item.nodeid: case for item in session.items if (case := self.case_of(item)) is not None}
        folder = getattr(self.config, "workerinput", {}).get("guinote_cases")
        if not folder:
            return
        engines = [asdict(self.engine_entry(spec)) for spec in self.infos]
        text = json.dumps({"engines": engines, "cases": {n: c.to_json() for n, c in self.planned.items()}})
        target = Path(folder) / f"{self.config.workerinput['workerid']}-{os.getpid()}.json"  # type: ignore[attr-defined]
        partial = target.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")  # ASCII: json.dumps escapes even a lone surrogate
        partial.replace(target)  # the controller never reads half a file

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """(xdist controller) Where workers put their lists of runs, and when the budget started."""
        if self.cases_dir is None:
            self.cases_dir = tempfile.mkdtemp(prefix="guinote-cases-")
        node.workerinput["guinote_cases"] = self.cases_dir
        node.workerinput["guinote_started"] = self.started

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        if error is not None:
            self.down.append(bounded(f"worker {node.gateway.id}: {error}", _SHOWN))

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        # xdist stops a session (maxfail, a worker's interrupt) by raising an interrupt that says why
        self.interrupted = bounded(str(excinfo.value) or "interrupted", _SHOWN)

    def item_scenario(self, item: pytest.Item) -> Scenario | None:
        """The catalogue entry of a scenario test; a malformed feature file raises FeatureInputError."""
        template = _template_of(item)
        if template is None:
            return None
        try:
            return self.scenario(template.feature.filename, template.name)
        except FeatureError as error:
            raise FeatureInputError(str(error)) from None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        scrub_report(report)  # an engine's lone surrogate in a failure would kill an xdist worker
        if report.when == "teardown" and report.passed:
            # the transcript and the driver are done with: pytest keeps its items to the end
            for name in ("_guinote_transcript", "_guinote_run"):
                item.__dict__.pop(name, None)
        try:
            self.make_result(item, call, report)
        except Exception as error:  # a harness bug must not lose the run (nor stop the session): say so
            case = self.case_of(item) if report.when != "teardown" or report.failed else None
            if case is not None:
                text = bounded(f"the harness failed to record this run: {type(error).__name__}: {error}", _SHOWN)
                report.outcome = "failed"
                failed = replace(case, status=Status.ERROR, message=text)
                report.user_properties.append(("guinote", scrub(failed.to_json())))

    def make_result(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """The result of one report of a scenario run, attached to the report (the controller collects it)."""
        try:
            scenario = self.item_scenario(item)
        except FeatureInputError as bad_feature:
            case = self.case_of(item)
            if case is not None and report.failed:  # the setup error: the catalogue cannot read the feature
                bad = replace(case, status=Status.ERROR, message=f"bad scenario: {bad_feature}")
                report.user_properties.append(("guinote", bad.to_json()))  # the suite's own text, no engine's
            return
        callspec = getattr(item, "callspec", None)
        if scenario is None or callspec is None:
            return
        spec, profile = callspec.params["guinote_case"]
        if report.when == "setup" and report.passed:
            return
        if report.when == "teardown" and report.passed:
            return
        status, message = self.classify(item, report, call)
        error = call.excinfo.value if call.excinfo is not None else None
        table = other_table(getattr(item, "_guinote_flags", {}))
        if table and isinstance(error, FeatureInputError | UnknownField):
            # a scenario written for the usual table (four seats, forty cards) does not fit another one, an
            # overlay's or the engine's own profile's (a seat or card it names is not at that table)
            message = f"the scenario does not fit the table of {profile} ({table}): {error}"
            status = Status.NOT_APPLICABLE
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: not applicable: {message}")
        expected = next((e for e in self.expectations if e.covers(scenario, profile)), None)
        if expected is not None and report.when == "call":
            if expected.absorbs(status):
                status, message = Status.XFAIL, f"expected failure ({expected.reason}): {message}"
                report.outcome = "skipped"
                report.wasxfail = expected.reason
            elif status is Status.PASS and expected.single:
                status, message = (
                    Status.XPASS,
                    f"expected to fail ({expected.reason}) but passed: remove it from the expectations file",
                )
                report.outcome = "failed"
                report.longrepr = message
        run: ScenarioRun | None = getattr(item, "_guinote_run", None)
        failed = status in (Status.FAIL, Status.ERROR, Status.TIMEOUT)
        if failed and run is not None and not message.startswith(str(run.location.path)):
            message = f"{run.location}: {message}"
        if report.when != "teardown":
            self.count_run(spec, error, status, message)
        result = CaseResult(
            id=scenario_id(scenario),
            scenario=scenario.name,
            feature=str(relative(scenario.path)),
            line=scenario.line,
            rules=tuple(scenario.rules),
            engine=spec,
            profile=profile,
            status=status,
            flags=dict(scenario.flags),
            message=message,
            rerun=self.rerun_command(scenario, spec, profile),
            duration_s=round(report.duration, 4),
            expectation=expected.where if expected is not None else "",
            unchecked=tuple(run.unchecked) if run is not None and status is Status.PASS else (),
        )
        result = self.detail(result, scenario, run, getattr(item, "_guinote_transcript", None), call)
        report.user_properties.append(("guinote", scrub(result.to_json())))  # execnet sends only UTF-8 text

    def detail(
        self,
        result: CaseResult,
        scenario: Scenario,
        run: ScenarioRun | None,
        transcript: Transcript | None,
        call: pytest.CallInfo[None],
    ) -> CaseResult:
        """A failure's evidence: steps, expected and got, transcript, stderr, the first divergence."""
        if result.status is Status.NOT_RUN:
            return result  # nothing was played: no evidence
        problem = result.status.is_problem or result.status is Status.XFAIL
        calls = transcript.calls if transcript is not None else []
        profile_flags = self.engine(result.engine)[1].profiles.get(result.profile, {})
        shown = transcript.bounded(whole=self.trace) if transcript is not None else []
        shown = [_without_profile_flags(entry, result.profile, profile_flags) for entry in shown]
        if not problem:
            return replace(result, transcript=tuple(shown)) if self.trace else result
        match = EXPECTED_GOT.search(result.message.split("\n")[0])
        error = call.excinfo.value if call.excinfo is not None else None
        names = {cls.__name__ for cls in type(error).__mro__} if error is not None else set()
        stage = None
        if result.status in (Status.FAIL, Status.XFAIL, Status.XPASS):
            stage = Stage.REACHING_POSITION if PREFIX_DIVERGENCE in names else Stage.RULE_UNDER_TEST
        divergence = None
        if result.status is not Status.XPASS and result.engine != "reference" and calls:
            divergence = find_divergence(calls, Obligations.of(self.engine(result.engine)[1]))
        engine = run.engine if run is not None else None
        stderr = engine.stderr_tail(20) if isinstance(engine, RecordingEngine) else []
        return replace(
            result,
            what=match.group("what").strip() if match else None,
            expected=match.group("expected") if match else None,
            got=match.group("got") if match else None,
            stage=stage,
            failed_line=run.location.line if run is not None else None,
            steps=tuple(StepLine(step.keyword.strip(), step.text, step.line) for step in scenario.steps),
            transcript=tuple(shown),
            stderr=tuple(stderr),
            divergence=divergence,
        )

    def classify(self, item: pytest.Item, report: pytest.TestReport, call: pytest.CallInfo[None]) -> tuple[Status, str]:
        if report.skipped:
            reason: str | None = getattr(item, "_guinote_not_applicable", None)
            if reason is not None:
                return Status.NOT_APPLICABLE, reason
            reason = getattr(item, "_guinote_not_run", None)
            if reason is not None:
                return Status.NOT_RUN, reason
            text = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            return Status.ERROR, f"skipped without a not-applicable reason: {text.removeprefix('Skipped: ')}"
        if report.passed:
            return Status.PASS, ""
        error = call.excinfo.value if call.excinfo is not None else None
        if isinstance(error, EngineError):
            kind = Status.TIMEOUT if isinstance(error, EngineTimeout) else Status.ERROR
            return kind, f"engine failure: {error}"
        if isinstance(error, FeatureInputError):
            return Status.ERROR, f"bad scenario: {error}"
        if isinstance(error, AssertionError):
            return Status.FAIL, str(error).split("\nassert ")[0]
        if error is not None:
            return Status.ERROR, f"{type(error).__name__}: {error}"
        return Status.FAIL, str(report.longrepr)[-2000:]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        recorded = False
        for name, value in report.user_properties:
            if name == "guinote":
                assert isinstance(value, dict)
                self.add(report.nodeid, CaseResult.from_json(value))
                recorded = True
        if not recorded and report.failed and report.nodeid not in self.unrecorded:
            # no result came with it: xdist's report for the test a worker died in (when "???"), or worse
            text = report.longreprtext.strip().splitlines() or [""]
            if str(report.when) == "???":  # xdist's own value, outside pytest's type
                why = f"the worker process running it crashed (the engine or the harness ended it): {text[-1]}"
            else:
                why = f"no result was recorded for it (pytest reports {report.when}: {report.outcome}): {text[-1]}"
            self.unrecorded[report.nodeid] = bounded(why, _SHOWN)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            for engine in self.engines.values():  # a worker's own engines get `stop` too
                engine.close()
            return  # xdist workers: the controller writes the results
        try:
            self.complete(session)
        except Exception as error:  # what ran is written all the same, below
            why = f"{type(error).__name__}: {bounded(str(error), _SHOWN)}"
            self.notes.append(f"the list of selected runs could not be completed ({why}): the results hold only "
                              "the runs that reported")  # fmt: skip
        self.stale = expectations.stale(self.expectations, [r.to_json() for r in self.results])
        if self.stale or any(r.status is Status.NOT_RUN for r in self.results):
            session.exitstatus = max(session.exitstatus, pytest.ExitCode.TESTS_FAILED)
        self.final = self.safe_report()
        path = self.config.getoption("guinote_results")
        if path and self.results:
            try:
                self.final.dump(Path(path))
            except (OSError, ValueError) as error:
                self.notes.append(f"the results could not be written to {path}: {error}")
                session.exitstatus = max(session.exitstatus, pytest.ExitCode.TESTS_FAILED)
        for engine in self.engines.values():
            engine.close()

    def complete(self, session: pytest.Session) -> None:
        """Every selected run in the results once: the crashed ones as errors, the others not run, with why."""
        if self.cases_dir is not None:  # xdist: the workers' lists, read once every worker is down
            try:
                for listed in sorted(Path(self.cases_dir).glob("*.json")):
                    data = json.loads(listed.read_text(encoding="utf-8"))
                    for entry in data["engines"]:
                        self.entries.setdefault(entry["spec"], EngineEntry.from_json(entry))
                    for nodeid, case in data["cases"].items():
                        self.planned.setdefault(nodeid, CaseResult.from_json(case))
            finally:
                shutil.rmtree(self.cases_dir, ignore_errors=True)
        for nodeid, why in self.unrecorded.items():
            if nodeid in self.planned and nodeid not in self.by_node:  # (a test of the user's own is not a run)
                self.add(nodeid, replace(self.planned[nodeid], status=Status.ERROR, message=why))
        if len(self.by_node) < len(self.planned):
            reason = self.early_end(session)
            for nodeid, case in self.planned.items():
                if nodeid not in self.by_node:
                    self.add(nodeid, replace(case, message=reason))

    def early_end(self, session: pytest.Session) -> str:
        """Why runs selected never reported: what ended the session."""
        if self.interrupted:
            return f"the session was stopped before it ran: {self.interrupted}"
        if session.shouldfail or session.shouldstop:
            return f"the session was stopped before it ran: {session.shouldfail or session.shouldstop}"
        if self.down:
            many = f"{len(self.down)} worker processes" if len(self.down) > 1 else "a worker process"
            return f"the session ended before it ran: {many} crashed (last: {self.down[-1]})"
        return f"the session ended before it ran (pytest exit status {int(session.exitstatus)})"

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Under plain pytest, stale expectations, runs not played and the likely causes after pytest's own
        failure list."""
        for entry in self.stale:
            terminalreporter.write_line(f"stale expectation {entry.where}: {stale_message(entry)}")
        for note in self.notes:
            terminalreporter.write_line(f"guinote-conformance: {note}")
        report = self.final
        if report is None or hasattr(self.config, "workerinput") or not report.problems:
            return
        from conformance.oracle.causes import likely_causes
        from conformance.report.formats import cause_lines, not_run_lines, rule_texts

        for line in not_run_lines(report):
            terminalreporter.write_line(shown_text(line))
        if report.failure_groups():
            terminalreporter.section("Guiñote conformance: likely causes")
            for line in cause_lines(likely_causes(report), rule_texts()):
                terminalreporter.write_line(shown_text(line))  # the engine's codes and values are in the evidence

    def safe_report(self) -> Report:
        """:meth:`report`, or the results under a bare header when the header cannot be built (and a note)."""
        try:
            return self.report()
        except Exception as error:
            self.notes.append(f"the results' header could not be built ({type(error).__name__}: "
                              f"{bounded(str(error), _SHOWN)}); the results are written under a bare one")  # fmt: skip
            return Report(engines=self.engine_entries(), results=self.results)

    def engine_entries(self) -> list[EngineEntry]:
        """The engines of the run as their handshakes said (read here, or by the workers); never a new launch."""
        entries = []
        for spec in self.specs:
            if spec in self.infos:
                entries.append(self.engine_entry(spec))
            else:  # no worker got as far as its handshake: the spec is all there is
                entries.append(self.entries.get(spec, EngineEntry(spec, spec, "", "")))
        return entries

    def report(self) -> Report:
        """The session's results, under the engines' entries (the controller of xdist has them from the workers)."""
        features = sorted({result.feature for result in self.results})
        scenarios = [s for feature in features for s in self._parsed(Path(feature))]
        return Report(
            engines=self.engine_entries(),
            suite=SuiteInfo(
                commit=suite_commit(REPO), scenarios_digest=suite_digest(scenarios), scenarios=len(scenarios)
            ),
            started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.started)),
            duration_s=round(time.time() - self.started, 2),
            results=self.results,
        )

    def _parsed(self, path: Path) -> list[Scenario]:
        try:
            return list(parse_feature(path))
        except (FeatureError, OSError):
            return []  # the run reported the broken file already

    @pytest.hookimpl(tryfirst=True)
    def pytest_bdd_apply_tag(self, tag: str, function: object) -> bool:
        return True  # rule IDs, sources and flags are read from the catalogue, not turned into markers

    def pytest_bdd_before_step(
        self, request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any, step_func: Any
    ) -> None:
        run: ScenarioRun | None = getattr(request.node, "_guinote_run", None)
        if run is not None:
            run.location = Location(run.location.path, step.line_number)
            if step.type == "then":
                run.then_lines.append(step.line_number)
        transcript: Transcript | None = getattr(request.node, "_guinote_transcript", None)
        if transcript is not None:
            transcript.step = step.line_number


def _seed(scenario: str, profile: str) -> int:
    """A reproducible search seed per scenario and profile."""
    return int.from_bytes(hashlib.sha256(f"{scenario}|{profile}".encode()).digest()[:4], "big")


def stale_message(entry: Expectation) -> str:
    return f"none of the scenario runs it covers failed ({entry.reason}): remove it from the expectations file"


def _template_of(item: pytest.Item) -> Any:
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    function = getattr(item, "function", None)
    if function is None:
        return None
    return scenario_wrapper_template_registry.get(function)


def _template_facts(item: pytest.Item) -> tuple[Path, str, int, frozenset[str]] | None:
    """A scenario test's feature file, scenario name, line and tags as pytest-bdd parsed them."""
    template = _template_of(item)
    if template is None:
        return None
    return Path(template.feature.filename), template.name, template.line_number, frozenset(template.tags)


def _without_profile_flags(entry: dict[str, Any], profile: str, flags: Mapping[str, str]) -> dict[str, Any]:
    """A ``start`` call keeps only the flags its profile does not set: the profile's values are
    in the report's header, once (the engine was sent all of them)."""
    args = entry.get("args")
    if entry.get("call") != "start" or not isinstance(args, dict) or not isinstance(args.get("flags"), dict):
        return entry
    own = {name: value for name, value in args["flags"].items() if flags.get(name) != value}
    return {**entry, "args": {**args, "flags": own, "profile": profile}}


def engine_entry(spec: str, info: EngineInfo, notes: Sequence[str] = ()) -> EngineEntry:
    """The results' header entry of an engine: who it says it is, what it declares, what the
    suite filled in for it (``notes``: :attr:`adapters.versions.Compatibility.notes`)."""
    return EngineEntry(
        spec, info.name, info.version, info.language, {name: dict(flags) for name, flags in info.profiles.items()},
        info.protocol, tuple(sorted(info.capabilities)), tuple(notes),
    )  # fmt: skip
