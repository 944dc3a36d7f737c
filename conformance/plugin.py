"""The pytest plugin that runs the scenarios against engines under every profile: the hub of its hooks.

Each scenario becomes one test per (engine, profile) pair. Under a profile a scenario runs with the
profile's flags, overridden by the scenario's own ``@flag=value`` tags. A scenario the engine cannot
run (a flag value or capability it does not declare) is reported as *not applicable* with the
reason, never as passed. Each run becomes a :class:`~conformance.results.case.CaseResult`; the
session's :class:`~conformance.results.report.Report` is the JSON file the reports are built from.

This module only wires pytest to the stage that does the work (:mod:`conformance.run`): the options
(:mod:`~conformance.run.options`), the session's plugin object (:mod:`~conformance.run.session`,
whose hooks hand their work to :mod:`~conformance.run.plan`, :mod:`~conformance.run.realiser`,
:mod:`~conformance.run.verdict` and :mod:`~conformance.run.tally`), the fixtures of a scenario test
(:mod:`~conformance.run.fixtures`) and the step definitions (:mod:`conformance.run.steps`), which
the plugin ships: every session that loads it knows them.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from conformance.run import compat, fixtures, language, options
from conformance.run.fixtures import _guinote_scenario, guinote_case, guinote_run
from conformance.run.session import GuinotePlugin

pytest_plugins = ["conformance.run.steps"]

__all__ = ["_guinote_scenario", "guinote_case", "guinote_run"]


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    compat.install_step_lookup()
    language.configure(config)  # before collection: the suite's module reads the folder when imported
    config.pluginmanager.register(GuinotePlugin(config), "guinote-conformance")


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, object, object]:
    return (yield from fixtures.scenario_call(pyfuncitem))
