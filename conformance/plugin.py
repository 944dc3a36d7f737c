"""The pytest plugin that runs the scenarios against engines under every profile.

Each scenario becomes one test per (engine, profile) pair. Under a profile a scenario runs
with the profile's flags, overridden by the scenario's own ``@flag=value`` tags. A scenario
the engine cannot run (a flag value or capability it does not declare) is reported as
*not applicable* with the reason, never as passed. Results go to a JSON file that the
reports (JUnit, HTML matrix, docs) are built from.
"""

from __future__ import annotations

import fnmatch
import json
import shlex
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adapters.interface import Engine, EngineError, EngineInfo, UnknownField
from adapters.subprocess_adapter import EngineTimeout
from conformance import expectations
from conformance.catalogue import FeatureError, Scenario, parse_feature
from conformance.driver import FeatureInputError, Location, NotApplicable, ScenarioRun
from conformance.engines import load_engine, profile_flags
from conformance.exit_codes import CheckError, InputError
from conformance.expectations import Expectation, scenario_id
from conformance.rule_index import AREAS, default_root, load_rules

#: The plugin ships its own step definitions: every session that loads the plugin knows them.
pytest_plugins = ["conformance.steps"]

NOT_APPLICABLE = "not applicable: "
RESULTS_FORMAT = "guinote-conformance-results/1"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("guinote", "Guiñote conformance")
    group.addoption(
        "--engine",
        action="append",
        default=None,
        help="engine to check (reference, py:module:factory, cmd:<command>); repeatable",
    )
    group.addoption(
        "--profile", action="append", default=None, help="run only these profiles of the engine; repeatable"
    )
    group.addoption(
        "--scenario",
        action="append",
        default=None,
        help="run only the scenario at FILE:LINE (or a name glob); repeatable",
    )
    group.addoption("--rule", action="append", default=None, help="run only the scenarios of this rule ID; repeatable")
    group.addoption("--area", action="append", default=None, help="run only this rule area (e.g. cantes); repeatable")
    group.addoption("--expectations", default=None, help="TOML file of known failures of the engine under test")
    group.addoption("--guinote-results", default=None, help="write the results as JSON to this path")
    group.addoption(
        "--engine-timeout", type=float, default=10.0, help="seconds an engine may take to answer one request"
    )


def load_expectations(path: str | None) -> list[Expectation]:
    """The validated entries of the expectations file (none without one); mistakes are usage errors."""
    if not path:
        return []
    try:
        return expectations.load_expectations(Path(path))
    except CheckError as error:
        raise pytest.UsageError(str(error)) from None


def relative(path: Path) -> Path:
    """``path`` relative to the working directory when it is inside it (shorter reports)."""
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


@dataclass(frozen=True)
class Selection:
    """Which scenarios run: ``--scenario FILE:LINE`` or a name glob, ``--rule ID``, ``--area NAME``.

    A scenario runs when it matches every kind of filter given (any value of each kind).
    """

    scenarios: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.scenarios or self.rules or self.areas)

    def selected(self, scenario: Scenario) -> bool:
        if self.rules and not set(self.rules) & set(scenario.rules):
            return False
        if self.areas and not any(_in_area(scenario, area) for area in self.areas):
            return False
        return not self.scenarios or any(_matches(scenario, wanted) for wanted in self.scenarios)

    def check(self, scenarios: list[Scenario]) -> None:
        """A rule or area that does not exist, or filters that select nothing: an input error."""
        rules = load_rules()
        for rule in self.rules:
            if rule not in rules:
                raise InputError(f"--rule {rule}: no such rule (guinote-conformance rules lists them)")
        areas = [area for area, _ in AREAS]
        for area in self.areas:
            if area not in areas:
                raise InputError(f"--area {area}: no such area; areas: {', '.join(areas)}")
        if scenarios and not any(self.selected(s) for s in scenarios):
            wanted = [f"--{kind} {value}" for kind, values in (("rule", self.rules), ("area", self.areas),
                      ("scenario", self.scenarios)) for value in values]  # fmt: skip
            raise InputError(f"no scenario matches {' '.join(wanted)}")


def _matches(scenario: Scenario, wanted: str) -> bool:
    path, _, line = wanted.rpartition(":")
    # FILE relative to the working directory, or to the suite's folder ("features/deck.feature:12")
    if (
        line.isdigit()
        and path
        and int(line) == scenario.line
        and scenario.path.resolve() in (Path(path).resolve(), (default_root().parent / path).resolve())
    ):
        return True
    return fnmatch.fnmatchcase(scenario.name, wanted) or fnmatch.fnmatchcase(scenario_id(scenario), wanted)


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
        self.expectations = load_expectations(config.getoption("expectations"))
        self.engines: dict[str, Engine] = {}
        self.infos: dict[str, EngineInfo] = {}
        self._scenarios: dict[str, dict[str, Scenario]] = {}
        self.results: list[dict[str, Any]] = []
        self.stale: list[Expectation] = []
        self.started = time.time()

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

    def rerun_command(self, scenario: Scenario, spec: str, profile: str) -> str:
        location = f"{relative(scenario.path)}:{scenario.line}"
        return shlex.join(
            ["guinote-conformance", "run", "--engine", spec, "--profile", profile, "--scenario", location]
        )

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
        try:
            scenario = self.item_scenario(item)
        except FeatureInputError:
            return  # the setup error already names the file and line
        callspec = getattr(item, "callspec", None)
        if scenario is None or callspec is None:
            return
        spec, profile = callspec.params["guinote_case"]
        if report.when == "setup" and report.passed:
            return
        if report.when == "teardown" and report.passed:
            return
        status, message = self.classify(report, call)
        error = call.excinfo.value if call.excinfo is not None else None
        if "+" in profile and isinstance(error, FeatureInputError | UnknownField):
            # a scenario written for the profile's table (four seats, forty cards) does not fit an overlay's
            # (a seat or card it names is not at the overlay's table)
            status, message = "not_applicable", f"the scenario does not fit the overlay of {profile}: {error}"
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {NOT_APPLICABLE}{message}")
        expected = next((e for e in self.expectations if e.covers(scenario, profile)), None)
        if expected is not None and report.when == "call":
            if expected.absorbs(status):
                status, message = "xfail", f"expected failure ({expected.reason}): {message}"
                report.outcome = "skipped"
                report.wasxfail = expected.reason
            elif status == "pass" and expected.single:
                status, message = (
                    "xpass",
                    f"expected to fail ({expected.reason}) but passed: remove it from the expectations file",
                )
                report.outcome = "failed"
                report.longrepr = message
        run = getattr(item, "_guinote_run", None)
        if status in ("fail", "error") and run is not None and not message.startswith(str(run.location.path)):
            message = f"{run.location}: {message}"
        flags = dict(getattr(item, "_guinote_flags", {}))
        report.user_properties.append(
            (
                "guinote",
                {
                    "id": scenario_id(scenario),
                    "scenario": scenario.name,
                    "feature": str(relative(scenario.path)),
                    "line": scenario.line,
                    "rules": list(scenario.rules),
                    "engine": spec,
                    "profile": profile,
                    "flags": flags or dict(scenario.flags),
                    "status": status,
                    "message": message,
                    "rerun": self.rerun_command(scenario, spec, profile),
                    "duration_s": round(report.duration, 4),
                    **({"expectation": expected.where} if expected is not None else {}),
                },
            )
        )

    def classify(self, report: pytest.TestReport, call: pytest.CallInfo[None]) -> tuple[str, str]:
        if report.skipped:
            text = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            text = text.removeprefix("Skipped: ")
            if text.startswith(NOT_APPLICABLE):
                return "not_applicable", text.removeprefix(NOT_APPLICABLE)
            return "error", f"skipped without a not-applicable reason: {text}"
        if report.passed:
            return "pass", ""
        error = call.excinfo.value if call.excinfo is not None else None
        if isinstance(error, EngineError):
            kind = "timeout" if isinstance(error, EngineTimeout) else "error"
            return kind, f"engine failure: {error}"
        if isinstance(error, FeatureInputError):
            return "error", f"bad scenario: {error}"
        if isinstance(error, AssertionError):
            return "fail", str(error).split("\nassert ")[0]
        if error is not None:
            return "error", f"{type(error).__name__}: {error}"
        return "fail", str(report.longrepr)[-2000:]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == "guinote":
                assert isinstance(value, dict)
                self.results.append(dict(value))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            return  # xdist workers: the controller writes the results
        self.stale = expectations.stale(self.expectations, self.results)
        if self.stale:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        path = self.config.getoption("guinote_results")
        if path and self.results:
            write_results(
                Path(path),
                self.results,
                [self.engine(spec)[1] for spec in self.specs],  # under xdist only the workers met the engines
                time.time() - self.started,
            )
        for engine in self.engines.values():
            engine.close()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for entry in self.stale:
            terminalreporter.write_line(f"stale expectation {entry.where}: {stale_message(entry)}")

    @pytest.hookimpl(tryfirst=True)
    def pytest_bdd_apply_tag(self, tag: str, function: object) -> bool:
        return True  # rule IDs, sources and flags are read from the catalogue, not turned into markers

    def pytest_bdd_before_step(
        self, request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any, step_func: Any
    ) -> None:
        run: ScenarioRun | None = getattr(request.node, "_guinote_run", None)
        if run is not None:
            run.location = Location(run.location.path, step.line_number)


def stale_message(entry: Expectation) -> str:
    return f"none of the scenario runs it covers failed ({entry.reason}): remove it from the expectations file"


def _in_area(scenario: Scenario, area: str) -> bool:
    prefixes = dict(AREAS).get(area, ())
    return scenario.path.stem == area or any(rule.split("-")[0] in prefixes for rule in scenario.rules)


def _template_of(item: pytest.Item) -> Any:
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    function = getattr(item, "function", None)
    if function is None:
        return None
    return scenario_wrapper_template_registry.get(function)


def write_results(path: Path, results: list[dict[str, Any]], infos: list[EngineInfo], duration: float) -> None:
    summary: dict[str, int] = {}
    for result in results:
        summary[result["status"]] = summary.get(result["status"], 0) + 1
    first = infos[0] if infos else None
    document = {
        "format": RESULTS_FORMAT,
        "engine": {"name": first.name, "version": first.version, "language": first.language} if first else {},
        "engines": [{"name": i.name, "version": i.version, "language": i.language} for i in infos],
        "suite": {"version": "0.1.0"},
        "run": {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "duration_s": round(duration, 2)},
        "summary": summary,
        "results": sorted(results, key=lambda r: (r["feature"], r["line"], r["engine"], r["profile"])),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(GuinotePlugin(config), "guinote-conformance")


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
    spec, profile = request.getfixturevalue("guinote_case")
    scenario = plugin.item_scenario(request.node)
    if scenario is None:
        return
    engine, info = plugin.engine(spec)
    flags = {**plugin.profile_flags(info, profile), **scenario.flags}
    request.node._guinote_flags = flags
    # the scenario's own flags, and an overlay's: an engine's profile is its own business
    base = info.profiles.get(profile.split("+")[0], {})
    needed = {**{k: v for k, v in flags.items() if base.get(k) != v}, **scenario.flags}
    unsupported = [f"{name}={value}" for name, value in needed.items() if value not in info.flags.get(name, ())]
    if unsupported:
        pytest.skip(f"{NOT_APPLICABLE}engine {info.name} does not support {', '.join(unsupported)}")
    run = ScenarioRun(
        engine=engine,
        info=info,
        profile=profile,
        flags=flags,
        location=Location(str(relative(scenario.path)), scenario.line),
    )
    request.node._guinote_run = run


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, object, object]:
    """Steps raise NotApplicable when a capability is missing: report it as not applicable."""
    try:
        return (yield)
    except NotApplicable as reason:
        pytest.skip(f"{NOT_APPLICABLE}{reason}")


@pytest.fixture
def guinote_case(request: pytest.FixtureRequest) -> tuple[str, str]:
    """The (engine, profile) pair a scenario test runs under (parametrized by the plugin)."""
    case: tuple[str, str] = request.param
    return case
