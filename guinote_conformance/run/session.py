"""The pytest plugin object that runs the scenarios against engines under every profile: its hooks.

Each scenario becomes one test per (engine, profile) pair. Under a profile a scenario runs
with the profile's flags, overridden by the scenario's own ``@flag=value`` tags. A scenario
the engine cannot run (a flag value or capability it does not declare) is reported as
*not applicable* with the reason, never as passed. Each run becomes a
:class:`~guinote_conformance.results.case.CaseResult`; the session's :class:`~guinote_conformance.results.report.Report`
is the JSON file that the reports (terminal summary, JUnit, HTML, docs) are built from.

Every engine is wrapped in a :class:`~guinote_conformance.engines.recording.RecordingEngine`: a failure keeps
the transcript of its scenario and where it first parted from the reference engine
(:func:`guinote_conformance.oracle.transcript.find_divergence`).

In: pytest's hooks (:mod:`guinote_conformance.plugin` registers the object). Out: nothing of its own: each
hook hands its work to the collaborator that owns it: the plan of the runs
(:mod:`~guinote_conformance.run.plan`), the realisations of their positions (:mod:`~guinote_conformance.run.realiser`),
the verdict on each report (:mod:`~guinote_conformance.run.verdict`) and the tally of the results
(:mod:`~guinote_conformance.run.tally`).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from guinote_conformance.engines.recording import Transcript
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.plan import SessionPlan
from guinote_conformance.run.realiser import SessionRealiser
from guinote_conformance.run.scenario_setup import Location
from guinote_conformance.run.tally import Tally
from guinote_conformance.run.verdict import Verdict


class GuinotePlugin:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.plan = SessionPlan(config)
        self.realiser = SessionRealiser(config)
        self.verdict = Verdict(config, self.plan)
        self.tally = Tally(config, self.plan)

    # -------------------------------------------------------------- pytest hooks

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        self.plan.parametrize(metafunc)

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        self.plan.select(config, items)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.tally.note_planned(session)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        self.tally.hand_out(node)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        self.tally.node_down(node, error)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        self.tally.interrupt(excinfo)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        self.verdict.record(item, call, outcome.get_result())

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.tally.note_report(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.tally.finish(session)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        self.tally.summary(terminalreporter)

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
