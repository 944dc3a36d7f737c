"""The CI recipes of docs/checking/ci.md run: their own commands, as the CI would run them.

The GitHub workflow's ``run`` steps and the GitLab job's script are read from the YAML files the
page includes, and run in order with ``bash -e`` (as both CIs do) in a scratch folder, with
``ENGINE`` set to a test engine: the gate opens for a broken engine whose failures are all known,
and closes for a new failure and for a known failure that is fixed (the two recipes run the same
commands, so the GitHub one is run and the GitLab one compared with it). The install step is not run
there (it fetches the release's tag): its pin must be this version of the suite, and it is run on
its own against this checkout's wheel (marked slow).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from packaging.requirements import Requirement

from guinote_conformance.base.paths import SOURCE_HOME
from guinote_conformance.results.report import SUITE_VERSION
from tests.harness.wheel import build_wheel

ROOT = Path(__file__).resolve().parent.parent.parent
RECIPES = ROOT / "docs" / "checking" / "ci"
INSTALL = 'python -m pip install "$GUINOTE_CONFORMANCE"'
#: served in its own process: a broken engine patches the reference engine's modules where it runs
BROKEN = "serve:tests.broken_engines.engines:caballo_above_sota"

pytestmark = pytest.mark.timeout(300)


@dataclass(frozen=True)
class Step:
    command: str
    always: bool  # runs after a failed step too (``if: always()``, GitLab's after_script)


@dataclass(frozen=True)
class Recipe:
    env: Mapping[str, str]
    steps: Sequence[Step]


def github() -> Recipe:
    workflow: dict[str, Any] = yaml.safe_load((RECIPES / "github-actions.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["conformance"]
    steps = [Step(step["run"], step.get("if") == "always()") for step in job["steps"] if "run" in step]
    return Recipe(job["env"], steps)


def gitlab() -> Recipe:
    job: dict[str, Any] = yaml.safe_load((RECIPES / "gitlab-ci.yml").read_text(encoding="utf-8"))["guinote-conformance"]
    steps = [Step(line, False) for line in job["script"]] + [Step(line, True) for line in job.get("after_script", [])]
    return Recipe(job["variables"], steps)


RECIPE_READERS = {"github": github, "gitlab": gitlab}


def run_job(recipe: Recipe, engine: str, folder: Path) -> list[tuple[str, int]]:
    """Each step's command and exit status, in order, as the CI runs them; the install step left out."""
    env = {**os.environ, **recipe.env, "ENGINE": engine, "PYTHONPATH": str(ROOT)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    ran: list[tuple[str, int]] = []
    failed = False
    for step in recipe.steps:
        if step.command.strip() == INSTALL or (failed and not step.always):
            continue
        done = subprocess.run(["bash", "-e", "-c", step.command], cwd=folder, env=env, capture_output=True, check=False)
        ran.append((step.command, done.returncode))
        failed = failed or done.returncode != 0
    return ran


@pytest.mark.parametrize("ci", sorted(RECIPE_READERS))
def test_the_recipe_installs_this_release_and_gates_on_the_run(ci: str) -> None:
    recipe = RECIPE_READERS[ci]()
    commands = [step.command.strip() for step in recipe.steps]
    pinned = Requirement(recipe.env["GUINOTE_CONFORMANCE"])  # a requirement pip takes
    assert pinned.name == "guinote-conformance" and pinned.url == f"git+{SOURCE_HOME}@v{SUITE_VERSION}"
    assert commands[0] == INSTALL
    assert any(command.startswith("guinote-conformance validate") for command in commands)
    gate = [command for command in commands if command.startswith("guinote-conformance run")]
    assert len(gate) == 1 and "--expectations known.toml" in gate[0] and "--report-dir reports" in gate[0]


def test_both_recipes_run_the_same_commands_with_the_same_settings() -> None:
    """So that running one of them (below) vouches for the other."""
    ours, theirs = github(), gitlab()
    assert [step.command.strip() for step in ours.steps] == [step.command.strip() for step in theirs.steps]
    assert dict(ours.env) == dict(theirs.env)


@pytest.mark.slow
def test_the_gate_opens_on_known_failures_and_closes_on_a_new_one_or_a_fixed_one(tmp_path: Path) -> None:
    recipe = github()
    # the author's first day: record today's failures as known
    first = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", BROKEN, "--report-dir", "first"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert first.returncode == 1, first.stdout + first.stderr
    recorded = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "expectations", "first/results.json", "--out", "known.toml"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    assert "known failures of" in recorded.stdout

    ran = run_job(recipe, BROKEN, tmp_path)
    assert all(status == 0 for _, status in ran), ran  # only known failures: the job passes
    junit = ElementTree.parse(tmp_path / "reports" / "junit.xml").getroot()
    cases = junit.findall(".//testcase")
    assert len(cases) > 1000
    assert not [case for case in cases if case.find("failure") is not None or case.find("error") is not None]
    badge = ElementTree.parse(tmp_path / "reports" / "badge.svg").getroot()
    assert "passing" in "".join(badge.itertext())

    for engine, why in (
        ("serve:tests.broken_engines.engines:no_diez_de_ultimas", "a new failure"),
        ("reference", "known failures that now pass (xpass)"),
    ):
        ran = run_job(recipe, engine, tmp_path)
        statuses = {command.split()[1]: status for command, status in ran}
        assert statuses["run"] == 1, f"{why}: the gate must close ({ran})"
        assert statuses["validate"] == 0
        failing = ElementTree.parse(tmp_path / "reports" / "junit.xml").getroot().findall(".//testcase/failure")
        assert failing, f"{why}: the JUnit file names the failing runs"


@pytest.mark.slow
@pytest.mark.parametrize("ci", sorted(RECIPE_READERS))
def test_the_recipes_install_step_installs_the_suites_wheel(ci: str, tmp_path: Path) -> None:
    """The install step as the CI runs it, with ``GUINOTE_CONFORMANCE`` naming this checkout's
    wheel, in a fresh virtual environment (its dependencies from the package index): afterwards
    ``guinote-conformance`` is on the path and says this version."""
    recipe = RECIPE_READERS[ci]()
    [install] = [step.command for step in recipe.steps if step.command.strip() == INSTALL]
    wheel = build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {
        **os.environ,
        **recipe.env,
        "GUINOTE_CONFORMANCE": str(wheel),
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
    }
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        ["bash", "-e", "-c", install], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    version = subprocess.run(
        ["guinote-conformance", "--version"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert version.stdout.startswith(f"guinote-conformance {SUITE_VERSION} "), version.stdout + version.stderr
