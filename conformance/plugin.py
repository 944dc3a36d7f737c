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
import tomllib
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adapters.interface import Engine, EngineError, EngineInfo
from conformance.catalogue import FeatureError, Scenario, parse_feature
from conformance.driver import FeatureInputError, Location, NotApplicable, ScenarioRun
from conformance.engines import load_engine

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
    group.addoption(
        "--override",
        action="append",
        default=None,
        metavar="FLAG=VALUE",
        help="play every scenario not tagged with FLAG with this value instead of the profile's (repeatable)",
    )
    group.addoption("--expectations", default=None, help="TOML file of known failures of the engine under test")
    group.addoption("--guinote-results", default=None, help="write the results as JSON to this path")
    group.addoption(
        "--engine-timeout", type=float, default=10.0, help="seconds an engine may take to answer one request"
    )


@dataclass(frozen=True)
class Expectation:
    scenario: str
    profile: str
    rule: str
    reason: str

    def matches(self, scenario: Scenario, scenario_id: str, profile: str) -> bool:
        if self.profile and not fnmatch.fnmatchcase(profile, self.profile):
            return False
        if self.rule and self.rule not in scenario.rules:
            return False
        return not self.scenario or fnmatch.fnmatchcase(scenario_id, self.scenario)


def load_expectations(path: str | None) -> list[Expectation]:
    if not path:
        return []
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise pytest.UsageError(f"expectations file {path}: {error}") from None
    entries = []
    for number, raw in enumerate(data.get("expect", []), start=1):
        if not raw.get("reason"):
            raise pytest.UsageError(f"expectations file {path}: entry {number} needs a reason")
        if not (raw.get("scenario") or raw.get("rule")):
            raise pytest.UsageError(f"expectations file {path}: entry {number} needs a scenario glob or a rule ID")
        entries.append(Expectation(raw.get("scenario", ""), raw.get("profile", ""), raw.get("rule", ""), raw["reason"]))
    return entries


def parse_overrides(items: list[str]) -> dict[str, str]:
    """``--override FLAG=VALUE`` options as a mapping (a malformed one is a usage error)."""
    overrides: dict[str, str] = {}
    for item in items:
        flag, sep, value = item.partition("=")
        if not sep or not flag or not value:
            raise pytest.UsageError(f"--override {item!r}: write FLAG=VALUE, e.g. --override cante_order=free")
        overrides[flag] = value
    return overrides


def relative(path: Path) -> Path:
    """``path`` relative to the working directory when it is inside it (shorter reports)."""
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


def scenario_id(scenario: Scenario) -> str:
    return f"{scenario.path.stem}::{scenario.name}"


class GuinotePlugin:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.specs: list[str] = config.getoption("engine") or ["reference"]
        self.profile_filter: list[str] | None = config.getoption("profile")
        self.scenario_filter: list[str] | None = config.getoption("scenario")
        self.timeout: float = config.getoption("engine_timeout")
        self.expectations = load_expectations(config.getoption("expectations"))
        self.overrides = parse_overrides(config.getoption("override") or [])
        self.engines: dict[str, Engine] = {}
        self.infos: dict[str, EngineInfo] = {}
        self._scenarios: dict[str, dict[str, Scenario]] = {}
        self.results: list[dict[str, Any]] = []
        self.started = time.time()

    # -------------------------------------------------------------- engines and scenarios

    def engine(self, spec: str) -> tuple[Engine, EngineInfo]:
        if spec not in self.engines:
            try:
                engine = load_engine(spec, timeout=self.timeout)
                self.infos[spec] = engine.info()
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
                unknown = [p for p in self.profile_filter if p not in info.profiles]
                if unknown:
                    raise pytest.UsageError(
                        f"engine {spec!r} has no profile {unknown[0]!r}; its profiles: {', '.join(profiles)}"
                    )
                profiles = [p for p in profiles if p in self.profile_filter]
            pairs += [(spec, profile) for profile in profiles]
        return pairs

    def selected(self, scenario: Scenario) -> bool:
        if not self.scenario_filter:
            return True
        for wanted in self.scenario_filter:
            path, _, line = wanted.rpartition(":")
            if (
                line.isdigit()
                and path
                and Path(path).resolve() == scenario.path.resolve()
                and int(line) == scenario.line
            ):
                return True
            if fnmatch.fnmatchcase(scenario.name, wanted) or fnmatch.fnmatchcase(scenario_id(scenario), wanted):
                return True
        return False

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
        if not self.scenario_filter:
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
        expected = next((e for e in self.expectations if e.matches(scenario, scenario_id(scenario), profile)), None)
        if expected is not None and report.when == "call":
            if status in ("fail", "error", "timeout"):
                status, message = "xfail", f"expected failure ({expected.reason}): {message}"
                report.outcome = "skipped"
                report.wasxfail = expected.reason
            elif status == "pass":
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
            kind = "timeout" if getattr(error, "kind", "") == "timeout" else "error"
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

    @pytest.hookimpl(tryfirst=True)
    def pytest_bdd_apply_tag(self, tag: str, function: object) -> bool:
        return True  # rule IDs, sources and flags are read from the catalogue, not turned into markers

    def pytest_bdd_before_step(
        self, request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any, step_func: Any
    ) -> None:
        run: ScenarioRun | None = getattr(request.node, "_guinote_run", None)
        if run is not None:
            run.location = Location(run.location.path, step.line_number)


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
    # --override (flag sensitivity, conformance.sensitivity): the scenario's own tags still win
    flags = {**info.profiles[profile], **plugin.overrides, **scenario.flags}
    request.node._guinote_flags = flags
    unsupported = [f"{name}={value}" for name, value in scenario.flags.items() if value not in info.flags.get(name, ())]
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
