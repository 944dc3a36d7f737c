"""The package carries the whole suite: the wheel ships every file of features/ and the steps, and a
user's own pytest project runs the scenarios through the plugin.

(``tox -e wheel`` installs the built wheel in a fresh environment and runs the whole suite from
an unrelated folder; these tests check the pieces quickly.)
"""

from __future__ import annotations

import email.parser
import zipfile
from pathlib import Path

import pytest

from guinote_conformance import __version__
from guinote_conformance.base.paths import RULEBOOK_HOME, SOURCE_HOME
from guinote_conformance.catalogue.features import load_scenarios
from guinote_conformance.catalogue.rule_index import default_root
from tests.harness.wheel import build_wheel, unpack_wheel, wheel_suite

REPO = Path(__file__).resolve().parents[2]


def test_the_packaged_features_are_the_repository_features() -> None:
    assert default_root() == (REPO / "features").resolve()
    assert (default_root() / "index" / "deck.toml").is_file()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_ships_every_file_of_features_and_the_step_definitions(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    features = REPO / "features"
    files = [path.relative_to(features).as_posix() for path in features.rglob("*") if path.is_file()]
    expected = {f"guinote_conformance/features/{name}" for name in files}
    assert expected and not expected - names, sorted(expected - names)
    assert {
        "guinote_conformance/suite.py",
        "guinote_conformance/run/steps/__init__.py",
        "guinote_conformance/run/steps/common.py",
    } <= names
    assert {
        "guinote_conformance/reference_engine/profiles.toml",
        "guinote_conformance/adapters/schemas/common.json",
    } <= names
    # the Spanish titles of the Spanish feature files (run --language es), and nothing compiled
    locale = "guinote_conformance/locale/es/LC_MESSAGES"
    assert {f"{locale}/features.po", f"{locale}/rulebook/arrastre.po"} <= names
    assert not [name for name in names if name.endswith(".mo")]


def test_the_wheel_installs_one_top_level_package_of_the_projects_own_name(wheel: Path) -> None:
    """Generic names (``adapters``, ``conformance``...) would shadow, or be shadowed by, an engine
    author's modules of the same name: everything lives under ``guinote_conformance``."""
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {
        "guinote_conformance",
        f"guinote_conformance-{__version__}.dist-info",
    }
    top_level = zipfile.ZipFile(wheel).read(f"guinote_conformance-{__version__}.dist-info/top_level.txt").decode()
    assert top_level.split() == ["guinote_conformance"]


def test_the_wheels_metadata_is_what_an_index_shows(wheel: Path) -> None:
    """The version from its one place, the licence as an SPDX expression, and the project's homes as
    :mod:`guinote_conformance.base.paths` declares them (the links of the reports go there)."""
    text = zipfile.ZipFile(wheel).read(f"guinote_conformance-{__version__}.dist-info/METADATA").decode()
    metadata = email.parser.HeaderParser().parsestr(text)
    assert metadata["Version"] == __version__ and metadata["License-Expression"] == "MIT"
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL") or [])
    assert urls["Documentation"] == RULEBOOK_HOME and urls["Source"] == SOURCE_HOME
    assert all(url.startswith(SOURCE_HOME) for name, url in urls.items() if name != "Documentation")
    assert "Topic :: Games/Entertainment" in (metadata.get_all("Classifier") or [])
    assert metadata["Description-Content-Type"] == "text/markdown" and "Quickstart" in metadata.get_payload()


USER_CONFTEST = 'pytest_plugins = ["guinote_conformance.plugin"]\n'
USER_TESTS = "from guinote_conformance.suite import *  # noqa: F403\n"


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


@pytest.mark.slow
def test_compare_from_the_wheel_writes_scenarios_that_run_features_runs_again(tmp_path: Path) -> None:
    """An engine author's loop, from the wheel in an unrelated folder: compare finds the broken
    engine's divergences and checks its scenarios (with no pyproject.toml of the project's at
    hand), and ``run --features`` plays the written file again: failing on the engine, passing on
    the reference."""
    packages = unpack_wheel(tmp_path / "wheel")
    work = tmp_path / "work"
    work.mkdir()
    broken = "serve:tests.broken_engines.engines:caballo_above_sota"
    found = wheel_suite(packages, work, "compare", "--engine", broken, "--profile", "lascuarenta", "--hands", "20",
                        "--depth", "hand", "--report-dir", "compare")  # fmt: skip
    assert found.returncode == 1, found.stdout[-3000:] + found.stderr[-3000:]
    assert "did not run" not in found.stdout and "Config file" not in found.stdout, found.stdout[-3000:]
    assert "scenario reproduced" in found.stdout
    feature = work / "compare" / "divergences.feature"
    on_engine = wheel_suite(packages, work, "run", "--engine", broken, "--features", str(feature), "--jobs", "1",
                            "--report-dir", "engine")  # fmt: skip
    assert on_engine.returncode == 1, on_engine.stdout[-3000:] + on_engine.stderr[-3000:]
    on_reference = wheel_suite(packages, work, "run", "--engine", "reference", "--features", str(feature),
                               "--jobs", "1", "--report-dir", "reference")  # fmt: skip
    assert on_reference.returncode == 0, on_reference.stdout[-3000:] + on_reference.stderr[-3000:]
