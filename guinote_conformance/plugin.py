"""The pytest plugin that runs the scenarios against engines under every profile: the hub of its hooks.

Each scenario becomes one test per (engine, profile) pair. Under a profile a scenario runs with the
profile's flags, overridden by the scenario's own ``@flag=value`` tags. A scenario the engine cannot
run (a flag value or capability it does not declare) is reported as *not applicable* with the
reason, never as passed. Each run becomes a :class:`~guinote_conformance.results.case.CaseResult`; the
session's :class:`~guinote_conformance.results.report.Report` is the JSON file the reports are built from.

This module only wires pytest to the stage that does the work (:mod:`guinote_conformance.run`): the options
(:mod:`~guinote_conformance.run.options`), the session's plugin object (:mod:`~guinote_conformance.run.session`,
whose hooks hand their work to :mod:`~guinote_conformance.run.plan`, :mod:`~guinote_conformance.run.realiser`,
:mod:`~guinote_conformance.run.verdict` and :mod:`~guinote_conformance.run.tally`), the fixtures of a scenario test
(:mod:`~guinote_conformance.run.fixtures`) and the step definitions (:mod:`guinote_conformance.run.steps`), which
the plugin ships: every session that loads it knows them.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from guinote_conformance.run import compat, fixtures, language, options
from guinote_conformance.run.fixtures import _guinote_scenario, guinote_case, guinote_run
from guinote_conformance.run.session import GuinotePlugin

pytest_plugins = ["guinote_conformance.run.steps"]

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
