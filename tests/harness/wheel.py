"""The suite as an engine author has it: the wheel built from this checkout, unpacked into a
folder of its own (its code and data only, the dependencies this environment's), run from an
unrelated folder. A broken engine's module comes from the checkout, after the wheel's packages on
the path, so that nothing of the checkout's package is taken."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]


def build_wheel(folder: Path) -> Path:
    """The wheel of this checkout, built into ``folder`` (offline: this environment's setuptools)."""
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(folder)]
    # setuptools builds in the checkout's build/ folder: two test workers building at once would
    # trip over each other's files, so one builds at a time
    lock = Path(tempfile.gettempdir()) / f"guinote-wheel-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}.lock"
    with FileLock(lock, timeout=600):
        done = subprocess.run([*build, str(ROOT)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = folder.glob("*.whl")
    return wheel


def unpack_wheel(folder: Path) -> Path:
    """The wheel of this checkout, built into ``folder`` and unpacked into ``folder/site-packages``."""
    packages = folder / "site-packages"
    zipfile.ZipFile(build_wheel(folder)).extractall(packages)
    return packages


def wheel_suite(
    packages: Path, cwd: Path, *args: str, rulebook: str | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """``guinote-conformance ARGS`` from the unpacked wheel, in ``cwd``."""
    env = {**os.environ, "PYTHONPATH": f"{packages}{os.pathsep}{ROOT}"}
    env.pop("GUINOTE_RULEBOOK_URL", None)
    if rulebook is not None:
        env["GUINOTE_RULEBOOK_URL"] = rulebook
    command = [sys.executable, "-m", "guinote_conformance", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
