"""Checking the written scenarios: each must fail on the engine and pass on the reference.

In: the feature text ``compare`` wrote (:mod:`guinote_conformance.fuzz.scenario`), the engine spec and the
profiles to run it under. Out: a :class:`ScenarioCheck` per scenario, how it ran on each
(:func:`check_scenarios`), or a RuntimeError with pytest's last word when the check could not run.

The rule: the scenarios run through the suite's own pytest plugin, on the engine under its profile
and on the reference under a profile of its own (:func:`reference_profile`: the engine's profile
names are its own business), each in its own process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.base.paths import REPO
from guinote_conformance.base.untrusted import bounded
from guinote_conformance.oracle.divergence import Config


@dataclass(frozen=True)
class ScenarioCheck:
    """How a written scenario ran: on the engine (it should fail) and on the reference (pass)."""

    title: str
    engine_status: str
    reference_status: str
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.engine_status == "fail" and self.reference_status == "pass"


def check_scenarios(
    feature: str,
    engine_spec: str,
    profile: str,
    reference_profile: str | None = None,
    *,
    timeout: float = 600.0,
    start_timeout: float | None = None,
    runner: Callable[..., Any] = subprocess.run,
) -> dict[str, ScenarioCheck]:
    """Run the scenarios of ``feature`` (Gherkin text) through the suite's pytest plugin, on the
    engine under its ``profile`` and on the reference under ``reference_profile`` (a profile of
    the reference's own: the engine's names are its own business), each in its own process; their
    outcome by scenario name. A check that cannot run raises RuntimeError with pytest's last word."""
    results: dict[str, dict[str, tuple[str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="guinote-found-") as folder:
        path = Path(folder) / "found.feature"
        path.write_text(feature, encoding="utf-8")
        test = Path(folder) / "test_found.py"
        test.write_text(_TEST_MODULE.format(feature=str(path)), encoding="utf-8")
        (Path(folder) / "conftest.py").write_text(_CONFTEST, encoding="utf-8")
        # a configuration of its own: installed from the wheel, the project's pyproject.toml is not there
        (Path(folder) / "pytest.ini").write_text(_CONFIG, encoding="utf-8")
        runs = (("engine", engine_spec, profile), ("reference", "reference", reference_profile or profile))
        for who, spec, under in runs:
            out = Path(folder) / f"{who}.json"
            # from the user's folder, as the engine was named there (cmd:./guinote-engine, a relative
            # PYTHONPATH); -P: that folder's own modules do not shadow pytest's or the suite's
            argv = [
                sys.executable, "-P", "-m", "pytest", str(test), "-p", "no:cacheprovider", "-q", "-n", "0",
                "--rootdir", folder, "-c", str(Path(folder) / "pytest.ini"),
                "--engine", spec, "--profile", under, "--guinote-results", str(out),
            ]  # fmt: skip
            if start_timeout is not None and who == "engine":  # the engine's own start (compare --start-timeout)
                argv += ["--engine-start-timeout", repr(start_timeout)]
            # (no empty entry: it would stand for the current folder)
            paths = [str(REPO), *(entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry)]
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
            try:
                done = runner(argv, cwd=os.getcwd(), capture_output=True, text=True, timeout=timeout, check=False,
                              env=env)  # fmt: skip
            except subprocess.TimeoutExpired:
                raise RuntimeError(
                    f"the check on the {who} ({spec}, profile {under}) took over {timeout:g} s"
                ) from None
            if not out.exists():
                said = last_word(f"{done.stdout}\n{done.stderr}")
                raise RuntimeError(f"the check on the {who} ({spec}, profile {under}) did not run: {said}")
            try:
                for result in json.loads(out.read_text(encoding="utf-8"))["results"]:
                    results.setdefault(result["scenario"], {})[who] = (result["status"], result.get("message", ""))
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                raise RuntimeError(
                    f"the check on the {who} ({spec}, profile {under}) wrote no results it can read: "
                    f"{type(error).__name__}: {error}"
                ) from None
    checks = {}
    for name, outcome in results.items():
        engine_status, message = outcome.get("engine", ("missing", ""))
        checks[name] = ScenarioCheck(name, engine_status, outcome.get("reference", ("missing", ""))[0], message)
    return checks


def last_word(output: str) -> str:
    """pytest's own last word on a session that did not run: its error line (``E   ...`` or
    ``ERROR ...``), never its traceback."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line[1:].strip() if line.startswith("E ") else line for line in lines if line.startswith(("E ", "ERROR"))]
    return bounded((errors or lines or ["(no output)"])[-1], 300)


def reference_profile(config: Config, reference: EngineInfo) -> str:
    """The reference's profile a scenario of ``config`` is checked under on the reference: its
    base name if the reference has it, else the reference profile closest to its flags (the
    scenario is tagged with every flag that changes how the reference plays it)."""
    base = config.profile or config.label
    if base in reference.profiles:
        return base

    def agreement(name: str) -> int:
        return sum(reference.profiles[name].get(flag) == value for flag, value in config.flags.items())

    return max(reference.profiles, key=agreement)


_TEST_MODULE = '''"""The scenarios written by guinote-conformance compare (a temporary module)."""
import pytest
from pytest_bdd import scenarios

pytestmark = pytest.mark.usefixtures("guinote_case")
scenarios({feature!r})
'''
# The suite's plugin, and nothing of the checkout's configuration (a wheel has none).
_CONFIG = """[pytest]
addopts = -p guinote_conformance.plugin --strict-markers
"""
# The suite's step definitions, wherever this version of the project keeps them.
_CONFTEST = """import importlib

for _name in ("guinote_conformance.run.steps", "tests.conformance.conftest"):
    try:
        _module = importlib.import_module(_name)
    except ImportError:
        continue
    globals().update({k: v for k, v in vars(_module).items() if k.startswith("pytestbdd_")})
    break
"""


__all__ = [
    "ScenarioCheck",
    "check_scenarios",
]
