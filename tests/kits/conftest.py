"""Fixtures of the kit tests: each kit is built in a scratch copy, then checked by validate and smoke.

A kit whose toolchain is not installed is skipped with the reason (the tool that is missing and
how to install it), never passed: ``pytest -rs`` lists those reasons.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from guinote_conformance.adapters import harness_check

ROOT = Path(__file__).resolve().parent.parent.parent
KITS = ROOT / "kits"

pytestmark = pytest.mark.timeout(600)


def toolchain(*tools: str, install: str) -> None:
    """Skip the test, with the reason, when one of ``tools`` is not on PATH."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"toolchain missing: {', '.join(missing)} not on PATH (install: {install})")


def built_copy(kit: str, into: Path) -> Path:
    """A scratch copy of ``kits/<kit>`` (the source tree stays clean of build output)."""
    target = into / kit
    shutil.copytree(KITS / kit, target, ignore=shutil.ignore_patterns("node_modules", "target", "out", "dist"))
    return target


def build(argv: Sequence[str], cwd: Path, timeout: float = 300.0, env: Mapping[str, str] | None = None) -> None:
    """Run one build command; a failure shows the command and its output.

    ``env``, when given, is added to the environment of the build (a toolchain's cache kept in
    the test's scratch directory, say).
    """
    environment = None if env is None else {**os.environ, **env}
    done = subprocess.run(
        list(argv), cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=environment
    )
    assert done.returncode == 0, f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"


def assert_accepted(argv: Sequence[str], cwd: Path) -> None:
    """validate and smoke both report no error for the engine ``argv`` run in ``cwd``."""
    for check in (harness_check.validate, harness_check.smoke):
        findings = check(list(argv), cwd=str(cwd), timeout=10.0, startup_timeout=20.0)
        problems = [str(finding) for finding in findings if finding.severity == "error"]
        assert not problems, f"{check.__name__} of {' '.join(argv)}:\n" + "\n".join(problems)
        assert any(finding.check == "summary" for finding in findings), f"{check.__name__} did not finish"
