"""The tally of a session: every scenario run it selected, once, with its result, and the results file.

Each test's result comes with its report (:mod:`guinote_conformance.run.verdict`); a test keeps the worst
of its reports. Under xdist each worker hands the controller its list of selected runs (in a file)
and the engines as its handshake read them; at the session's end every selected run is in the
results once: a run whose worker crashed as an error, a run never played as not run, with what
ended the session. The results file is written even when its header cannot be built.

In: the session's plan, the selected tests, the reports and their results, what ended the session.
Out: the session's :class:`~guinote_conformance.results.report.Report`, dumped to ``--guinote-results``; the
stale expectations; the notes of what went wrong at the end (printed, never a traceback that loses
the results); under plain pytest, the runs not played and the likely causes in the terminal summary.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.paths import REPO
from guinote_conformance.base.untrusted import bounded
from guinote_conformance.base.untrusted import shown as shown_text  # "shown" names a transcript here
from guinote_conformance.catalogue.features import FeatureError, Scenario, parse_feature
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import EngineEntry, Report, SuiteInfo, suite_commit, suite_digest
from guinote_conformance.results.status import Status
from guinote_conformance.run import expectations
from guinote_conformance.run.expectations import Expectation
from guinote_conformance.run.plan import SessionPlan
from guinote_conformance.run.selection import FAILED
from guinote_conformance.run.verdict import SHOWN


class Tally:
    """The results of a session's scenario runs, from the reports to the results file."""

    def __init__(self, config: pytest.Config, plan: SessionPlan) -> None:
        self.config = config
        self.plan = plan
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

    @property
    def results(self) -> list[CaseResult]:
        return list(self.by_node.values())

    def add(self, nodeid: str, result: CaseResult) -> None:
        """Record a test's result: one per test, the worst when its call and its teardown both report."""
        kept = self.by_node.get(nodeid)
        if kept is None or result.status.severity < kept.status.severity:
            self.by_node[nodeid] = result

    def note_planned(self, session: pytest.Session) -> None:
        """Note every selected scenario run; an xdist worker hands the list to the controller (in a file: a
        worker that crashes later has handed it already), with the engines as its handshake read them."""
        self.planned = {item.nodeid: case for item in session.items if (case := self.plan.case_of(item)) is not None}
        folder = getattr(self.config, "workerinput", {}).get("guinote_cases")
        if not folder:
            return
        engines = [asdict(self.plan.engine_entry(spec)) for spec in self.plan.infos]
        text = json.dumps({"engines": engines, "cases": {n: c.to_json() for n, c in self.planned.items()}})
        target = Path(folder) / f"{self.config.workerinput['workerid']}-{os.getpid()}.json"  # type: ignore[attr-defined]
        partial = target.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")  # ASCII: json.dumps escapes even a lone surrogate
        partial.replace(target)  # the controller never reads half a file

    def hand_out(self, node: Any) -> None:
        """(xdist controller) Where workers put their lists of runs, and when the budget started."""
        if self.cases_dir is None:
            self.cases_dir = tempfile.mkdtemp(prefix="guinote-cases-")
        node.workerinput["guinote_cases"] = self.cases_dir
        node.workerinput["guinote_started"] = self.plan.started

    def node_down(self, node: Any, error: object) -> None:
        """(xdist controller) A worker that went down, and why."""
        if error is not None:
            self.down.append(bounded(f"worker {node.gateway.id}: {error}", SHOWN))

    def interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        # xdist stops a session (maxfail, a worker's interrupt) by raising an interrupt that says why
        self.interrupted = bounded(str(excinfo.value) or "interrupted", SHOWN)

    def note_report(self, report: pytest.TestReport) -> None:
        """A test's report: its result, or why it has none."""
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
            self.unrecorded[report.nodeid] = bounded(why, SHOWN)

    def finish(self, session: pytest.Session) -> None:
        """The session's end: every selected run in the results, the stale expectations, the results file."""
        if hasattr(self.config, "workerinput"):
            for engine in self.plan.engines.values():  # a worker's own engines get `stop` too
                engine.close()
            return  # xdist workers: the controller writes the results
        if self.config.option.collectonly:  # nothing was asked to run: no run is missing, no results to write
            for engine in self.plan.engines.values():
                engine.close()
            return
        try:
            self.complete(session)
        except Exception as error:  # what ran is written all the same, below
            why = f"{type(error).__name__}: {bounded(str(error), SHOWN)}"
            self.notes.append(f"the list of selected runs could not be completed ({why}): the results hold only "
                              "the runs that reported")  # fmt: skip
        self.stale = expectations.stale(self.plan.expectations, [r.to_json() for r in self.results])
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
        for engine in self.plan.engines.values():
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
        maxfail = int(self.config.getoption("maxfail", 0) or 0)
        failed = sum(1 for result in self.by_node.values() if result.status in FAILED)
        if maxfail and failed >= maxfail and (self.interrupted or session.shouldfail or session.shouldstop):
            over = "; parallel workers each end the run they had started" if failed > maxfail else ""
            return (f"the run was stopped early, after {failed} failing scenario run{'' if failed == 1 else 's'} "
                    f"(--maxfail {maxfail}{over})")  # fmt: skip
        if self.interrupted:
            return f"the session was stopped before it ran: {self.interrupted}"
        if session.shouldfail or session.shouldstop:
            return f"the session was stopped before it ran: {session.shouldfail or session.shouldstop}"
        if self.down:
            many = f"{len(self.down)} worker processes" if len(self.down) > 1 else "a worker process"
            return f"the session ended before it ran: {many} crashed (last: {self.down[-1]})"
        return f"the session ended before it ran (pytest exit status {int(session.exitstatus)})"

    def summary(self, terminalreporter: Any) -> None:
        """Under plain pytest, stale expectations, runs not played and the likely causes after pytest's own
        failure list."""
        for entry in self.stale:
            terminalreporter.write_line(f"stale expectation {entry.where}: {stale_message(entry)}")
        for note in self.notes:
            terminalreporter.write_line(f"guinote-conformance: {note}")
        report = self.final
        if report is None or hasattr(self.config, "workerinput") or not report.problems:
            return
        from guinote_conformance.oracle.causes import likely_causes
        from guinote_conformance.report.formats import cause_lines, not_run_lines, rule_texts

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
                              f"{bounded(str(error), SHOWN)}); the results are written under a bare one")  # fmt: skip
            return Report(engines=self.engine_entries(), results=self.results)

    def engine_entries(self) -> list[EngineEntry]:
        """The engines of the run as their handshakes said (read here, or by the workers); never a new launch."""
        entries = []
        for spec in self.plan.specs:
            if spec in self.plan.infos:
                entries.append(self.plan.engine_entry(spec))
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
            started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.plan.started)),
            duration_s=round(time.time() - self.plan.started, 2),
            results=self.results,
        )

    def _parsed(self, path: Path) -> list[Scenario]:
        try:
            return list(parse_feature(path))
        except (FeatureError, OSError):
            return []  # the run reported the broken file already


def stale_message(entry: Expectation) -> str:
    return f"none of the scenario runs it covers failed ({entry.reason}): remove it from the expectations file"
