"""The package carries the whole suite: the wheel ships every file of features/ and the steps, and a
user's own pytest project runs the scenarios through the plugin.

(``tox -e wheel`` installs the built wheel in a fresh environment and runs the whole suite from
an unrelated folder; these tests check the pieces quickly.)
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conformance.catalogue.features import load_scenarios
from conformance.catalogue.rule_index import default_root

REPO = Path(__file__).resolve().parents[2]


def test_the_packaged_features_are_the_repository_features() -> None:
    assert default_root() == (REPO / "features").resolve()
    assert (default_root() / "index" / "deck.toml").is_file()


def test_the_wheel_ships_every_file_of_features_and_the_step_definitions(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), "."],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    features = REPO / "features"
    files = [path.relative_to(features).as_posix() for path in features.rglob("*") if path.is_file()]
    expected = {f"conformance/features/{name}" for name in files}
    assert expected and not expected - names, sorted(expected - names)
    assert {"conformance/suite.py", "conformance/run/steps/__init__.py", "conformance/run/steps/common.py"} <= names
    assert "reference_engine/profiles.toml" in names and "adapters/schemas/common.json" in names
    # the Spanish titles of the Spanish feature files (run --language es), and nothing compiled
    locale = "conformance/locale/es/LC_MESSAGES"
    assert {f"{locale}/features.po", f"{locale}/rulebook/arrastre.po"} <= names
    assert not [name for name in names if name.endswith(".mo")]


USER_CONFTEST = 'pytest_plugins = ["conformance.plugin"]\n'
USER_TESTS = "from conformance.suite import *  # noqa: F403\n"


def test_a_user_project_runs_the_scenarios_through_the_plugin(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(USER_CONFTEST)
    pytester.makepyfile(test_guinote=USER_TESTS)
    outcome = pytester.runpytest("-p", "no:cacheprovider", "--rule", "DECK-05", "--profile", "ludoteka")
    expected = len([s for s in load_scenarios() if "DECK-05" in s.rules])
    outcome.assert_outcomes(passed=expected)


def test_a_user_project_gets_the_plugin_usage_errors(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(USER_CONFTEST)
    pytester.makepyfile(test_guinote=USER_TESTS)
    outcome = pytester.runpytest("-p", "no:cacheprovider", "--area", "poker")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    outcome.stderr.fnmatch_lines(["*--area poker: no such area*"])
