"""Every tox environment that runs pytest runs tests.

pyproject's ``addopts`` leave the opt-in markers out of a plain ``pytest``. An environment that
names its folder but not its marker then collects nothing (``tox -e hostile`` once exited 5 in CI
with "no tests ran") or silently leaves some of its tests out. Each environment's own command is
collected here, as tox would run it, and must select at least one test; when the command sets no
marker filter of its own, it must select every test of the paths it names.
"""

from __future__ import annotations

import configparser
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def pytest_commands() -> list[tuple[str, list[str]]]:
    """(environment, pytest's arguments) for every pytest command line of tox.ini."""
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    found = []
    for section in tox.sections():
        if not section.startswith("testenv"):
            continue
        for line in tox[section].get("commands", "").splitlines():
            words = shlex.split(line.replace("{posargs}", ""))
            if words[:1] == ["pytest"]:
                found.append((section.removeprefix("testenv:"), words[1:]))
    return found


def collection_arguments(arguments: list[str]) -> list[str]:
    """The command's selection, without its workers or reporting options."""
    kept: list[str] = []
    skip_next = False
    for word in arguments:
        if skip_next:
            skip_next = False
        elif word in ("-n", "--dist"):
            skip_next = True
        elif not word.startswith("-r"):
            kept.append(word)
    return kept


COMMANDS = pytest_commands()


def test_tox_ini_has_the_environments_ci_runs() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"testenv", "slow", "hostile", "cluster"} <= names


@pytest.mark.parametrize(("environment", "arguments"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_the_environment_selects_its_tests(environment: str, arguments: list[str]) -> None:
    selection = collection_arguments(arguments)
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", *selection],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    last = (collected.stdout.strip().splitlines() or [""])[-1]
    no_tests_collected = 5  # pytest's exit code when it selects nothing
    assert collected.returncode != no_tests_collected, f"tox -e {environment} selects no test: {last}"
    assert collected.returncode == 0, (
        f"tox -e {environment}: collection failed\n{collected.stdout[-2000:]}{collected.stderr[-2000:]}"
    )
    counted = re.match(r"(\d+)(?:/(\d+))? tests? collected(?: \((\d+) deselected\))?", last)
    assert counted, f"tox -e {environment} selects no test: {last}"
    selected = int(counted.group(1))
    assert selected > 0, f"tox -e {environment} selects no test: {last}"
    if "-m" not in selection:
        assert counted.group(3) is None, (
            f"tox -e {environment} names its tests but pyproject's marker filter leaves "
            f"{counted.group(3)} of them out: give the command its own -m ({last})"
        )
