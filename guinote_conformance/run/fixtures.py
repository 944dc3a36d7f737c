"""The fixtures and the call hook of a scenario test: the driver is prepared before any step runs.

Applicability is decided here, before the engine is called: a scenario about the other table of
an overlay, or needing a flag value the engine does not declare, is *not applicable* with the
reason; a spent budget or a tripped circuit breaker makes it *not run*. The statuses are data
on the item (read by :mod:`guinote_conformance.run.verdict`), never the text of a skip.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import NoReturn

import pytest

from guinote_conformance.engines.recording import RecordingEngine, Transcript
from guinote_conformance.engines.specs import overlays
from guinote_conformance.engines.symmetry import SymmetricEngine, Symmetry
from guinote_conformance.results.status import NotApplicable
from guinote_conformance.run.applicability import flag_reason, overlay_reason
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.plan import relative
from guinote_conformance.run.scenario_setup import Location
from guinote_conformance.run.session import GuinotePlugin


def _plugin(config: pytest.Config) -> GuinotePlugin:
    plugin = config.pluginmanager.get_plugin("guinote-conformance")
    assert isinstance(plugin, GuinotePlugin)
    return plugin


@pytest.fixture
def guinote_run(request: pytest.FixtureRequest) -> ScenarioRun:
    """The driver of the current scenario (used by the step definitions)."""
    run: ScenarioRun | None = getattr(request.node, "_guinote_run", None)
    if run is None:
        raise RuntimeError("guinote_run is only available inside a conformance scenario")
    return run


@pytest.fixture(autouse=True)
def _guinote_scenario(request: pytest.FixtureRequest) -> None:
    """Prepare the driver for a scenario test; decide applicability before any step runs."""
    if "guinote_case" not in request.fixturenames:
        return
    plugin = _plugin(request.config)
    spec, profile, symmetry_name = request.getfixturevalue("guinote_case")
    scenario = plugin.plan.item_scenario(request.node)
    if scenario is None:
        return
    engine, info = plugin.plan.engine(spec)
    # A scenario tagged with a table flag an overlay changes (players=4 under mano_a_mano) is about
    # the other table: under that overlay it would only be the base profile's run again, or wrong.
    why = overlay_reason(profile, scenario, overlays())
    if why is not None:
        not_applicable(request.node, why)
    # --override (flag sensitivity, guinote_conformance.catalogue.sensitivity): the scenario's own tags still win
    played = {**plugin.plan.profile_flags(info, profile), **plugin.plan.overrides}
    flags = {**played, **scenario.flags_under(played)}  # @flag=a|b: the played value where the tag lists it
    request.node._guinote_flags = flags
    why = flag_reason(info, profile, flags, scenario)
    if why is not None:
        not_applicable(request.node, why)
    reason = plugin.plan.not_run_reason(spec)
    if reason is not None:  # the circuit breaker tripped or the budget is spent: no engine call at all
        not_run(request.node, reason)
    if symmetry_name:  # the scenario played in a rotated and relabelled world (guinote_conformance.engines.symmetry)
        symmetry = Symmetry.parse(symmetry_name)
        players = int(flags.get("players", "4"))
        if symmetry.rotation >= players:
            not_applicable(request.node, f"the symmetry {symmetry_name} rotates by {symmetry.rotation} seats; "
                           f"the table has {players}")  # fmt: skip
        engine = SymmetricEngine(engine, symmetry)
    transcript = Transcript(step=scenario.line)
    request.node._guinote_transcript = transcript
    run = ScenarioRun(
        engine=RecordingEngine(engine, transcript),
        info=info,
        profile=profile,
        flags=flags,
        location=Location(str(relative(scenario.path)), scenario.line),
        scenario=scenario.name,
        feature=scenario.path,
        position_setup=plugin.plan.position_setup,
        realiser=plugin.realiser.realisation,
        rules=tuple(scenario.rules),
    )
    request.node._guinote_run = run
    request.addfinalizer(run.end_game)  # the engine is told when the scenario's game is done with


def scenario_call(pyfuncitem: pytest.Function) -> Generator[None, object, object]:
    """Steps raise NotApplicable when a capability is missing: report it as not applicable; so is
    a scenario that ran but could check nothing the protocol requires of the engine."""
    try:
        result = yield
    except NotApplicable as reason:
        not_applicable(pyfuncitem, str(reason))
    run: ScenarioRun | None = getattr(pyfuncitem, "_guinote_run", None)
    why = run.nothing_checked() if run is not None else None
    if why is not None:
        not_applicable(pyfuncitem, why)
    return result


def not_applicable(item: pytest.Item, reason: str) -> NoReturn:
    """Skip the test and record the reason on the item: the status is data, not skip text."""
    item._guinote_not_applicable = reason  # type: ignore[attr-defined]
    pytest.skip(f"not applicable: {reason}")


def not_run(item: pytest.Item, reason: str) -> NoReturn:
    """Skip the test as not run (a problem of the run: the session's exit status says so) with the reason."""
    item._guinote_not_run = reason  # type: ignore[attr-defined]
    pytest.skip(f"not run: {reason}")


@pytest.fixture
def guinote_case(request: pytest.FixtureRequest) -> tuple[str, str, str]:
    """The engine, profile and symmetry (``""``: none) a scenario test runs under (parametrized by the plugin)."""
    case: tuple[str, str, str] = request.param
    return case
