"""The verdict on one report of a scenario test: pytest's report of a run becomes its result.

A test reports its setup, its call and its teardown; each report that says something about the run
becomes a :class:`~guinote_conformance.results.case.CaseResult` attached to the report (the controller of
xdist collects it, :mod:`guinote_conformance.run.tally`). The status is read from the report and the
exception (:meth:`Verdict.classify`: the not-applicable and not-run reasons are data on the item,
set by :mod:`guinote_conformance.run.fixtures`); the expectations file turns a known failure into an xfail
and a pass it expected to fail into an xpass; a failure keeps its evidence (:meth:`Verdict.detail`):
the check's expected and got, the steps, the transcript, the engine's stderr, and where it first
parted from the reference engine (:func:`guinote_conformance.oracle.transcript.find_divergence`).

In: a test item, pytest's call and report, the session's plan. Out: the result, as JSON in the
report's ``user_properties`` (``guinote``); the circuit breaker's count of the run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from guinote_conformance.adapters.interface import EngineError, UnknownField
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.wire.failures import EngineTimeout
from guinote_conformance.base.untrusted import bounded, scrub, scrub_report
from guinote_conformance.catalogue.features import Step
from guinote_conformance.engines.recording import RecordingEngine, Transcript
from guinote_conformance.engines.symmetry import Symmetry
from guinote_conformance.oracle.transcript import find_divergence
from guinote_conformance.results.case import CaseResult, StepLine
from guinote_conformance.results.status import Stage, Status
from guinote_conformance.run.applicability import other_table
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.expectations import scenario_id
from guinote_conformance.run.plan import SessionPlan, relative
from guinote_conformance.run.scenario_setup import FeatureInputError

#: The class the driver raises when the engine parts from the realised prefix that leads to
#: a scenario's position (matched by name: the driver may not define it yet).
PREFIX_DIVERGENCE = "PrefixDivergence"
#: "what: expected X, got Y", as the driver's checks word a mismatch.
EXPECTED_GOT = re.compile(r"(?P<what>[^:\n]+): expected (?P<expected>.+?), got (?P<got>.+?)\s*$", re.DOTALL)
#: Characters of a crash or an unrecorded report's text kept in a result's message.
SHOWN = 500


class Verdict:
    """Turns the reports of a session's scenario tests into results."""

    def __init__(self, config: pytest.Config, plan: SessionPlan) -> None:
        self.plan = plan
        self.trace: bool = bool(config.getoption("guinote_trace"))

    def record(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """The result of one report of a test, attached to it; a harness bug recorded as the run's error."""
        scrub_report(report)  # an engine's lone surrogate in a failure would kill an xdist worker
        if report.when == "teardown" and report.passed:
            # the transcript and the driver are done with: pytest keeps its items to the end
            for name in ("_guinote_transcript", "_guinote_run"):
                item.__dict__.pop(name, None)
        try:
            self.make_result(item, call, report)
        except Exception as error:  # a harness bug must not lose the run (nor stop the session): say so
            case = self.plan.case_of(item) if report.when != "teardown" or report.failed else None
            if case is not None:
                text = bounded(f"the harness failed to record this run: {type(error).__name__}: {error}", SHOWN)
                report.outcome = "failed"
                failed = replace(case, status=Status.ERROR, message=text)
                report.user_properties.append(("guinote", scrub(failed.to_json())))

    def make_result(self, item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
        """The result of one report of a scenario run, attached to the report (the controller collects it)."""
        try:
            scenario = self.plan.item_scenario(item)
        except FeatureInputError as bad_feature:
            case = self.plan.case_of(item)
            if case is not None and report.failed:  # the setup error: the catalogue cannot read the feature
                bad = replace(case, status=Status.ERROR, message=f"bad scenario: {bad_feature}")
                report.user_properties.append(("guinote", bad.to_json()))  # the suite's own text, no engine's
            return
        callspec = getattr(item, "callspec", None)
        if scenario is None or callspec is None:
            return
        spec, profile, symmetry = callspec.params["guinote_case"]
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
        expected = next((e for e in self.plan.expectations if e.covers(scenario, profile)), None)
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
        if failed and symmetry:
            message = f"under the symmetry {symmetry} ({Symmetry.parse(symmetry).describe()}): {message}"
        if failed and run is not None and not message.startswith(str(run.location.path)):
            message = f"{run.location}: {message}"
        if report.when != "teardown":
            self.plan.count_run(spec, error, status, message)
        result = CaseResult(
            id=scenario_id(scenario),
            scenario=scenario.name,
            feature=str(relative(scenario.path)),
            line=scenario.line,
            rules=tuple(scenario.rules),
            engine=spec,
            profile=profile,
            status=status,
            flags=scenario.flags_under(getattr(item, "_guinote_flags", {})),  # @flag=a|b: the value it ran with
            message=message,
            rerun=self.plan.rerun_command(scenario, spec, profile, symmetry),
            symmetry=symmetry,
            duration_s=round(report.duration, 4),
            expectation=expected.where if expected is not None else "",
            unchecked=tuple(run.unchecked) if run is not None and status is Status.PASS else (),
        )
        steps = self.plan.steps_as_run(item, scenario)
        result = self.detail(result, steps, run, getattr(item, "_guinote_transcript", None), call)
        report.user_properties.append(("guinote", scrub(result.to_json())))  # execnet sends only UTF-8 text

    def detail(
        self,
        result: CaseResult,
        steps: tuple[Step, ...],
        run: ScenarioRun | None,
        transcript: Transcript | None,
        call: pytest.CallInfo[None],
    ) -> CaseResult:
        """A failure's evidence: steps, expected and got, transcript, stderr, the first divergence."""
        if result.status is Status.NOT_RUN:
            return result  # nothing was played: no evidence
        problem = result.status.is_problem or result.status is Status.XFAIL
        calls = transcript.calls if transcript is not None else []
        profile_flags = self.plan.engine(result.engine)[1].profiles.get(result.profile, {})
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
            divergence = find_divergence(calls, Obligations.of(self.plan.engine(result.engine)[1]))
        engine = run.engine if run is not None else None
        stderr = engine.stderr_tail(20) if isinstance(engine, RecordingEngine) else []
        return replace(
            result,
            what=match.group("what").strip() if match else None,
            expected=match.group("expected") if match else None,
            got=match.group("got") if match else None,
            stage=stage,
            failed_line=run.location.line if run is not None else None,
            steps=tuple(StepLine(step.keyword.strip(), step.text, step.line) for step in steps),
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


def _without_profile_flags(entry: dict[str, Any], profile: str, flags: Mapping[str, str]) -> dict[str, Any]:
    """A ``start`` call keeps only the flags its profile does not set: the profile's values are
    in the report's header, once (the engine was sent all of them)."""
    args = entry.get("args")
    if entry.get("call") != "start" or not isinstance(args, dict) or not isinstance(args.get("flags"), dict):
        return entry
    own = {name: value for name, value in args["flags"].items() if flags.get(name) != value}
    return {**entry, "args": {**args, "flags": own, "profile": profile}}
