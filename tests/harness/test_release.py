"""The release recipe and the published rulebook's build say what the project does.

The release workflow (``.github/workflows/release.yml``) cannot run here, nor Read the Docs: what
is checked is that each builds and publishes what the rest of the project relies on. The
version's one place is read the way the build reads it; the tag a release is made from must
name it; the rulebook is built with the same command as ``tox -e docs``, at the address the
reports link to.
"""

from __future__ import annotations

import ast
import configparser
import tomllib
from pathlib import Path
from typing import Any

import yaml

from guinote_conformance import __version__
from guinote_conformance.base.paths import RULEBOOK_HOME, SOURCE_HOME, published_rulebook

ROOT = Path(__file__).resolve().parents[2]


def load_yaml(path: Path) -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def test_the_version_has_one_place_and_the_build_reads_it_there() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "guinote_conformance.__version__"}
    # setuptools reads the attribute without importing the package: it must be a plain literal
    tree = ast.parse((ROOT / "guinote_conformance" / "__init__.py").read_text(encoding="utf-8"))
    [literal] = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", "") for target in node.targets] == ["__version__"]
        and isinstance(node.value, ast.Constant)
    ]
    assert literal == __version__
    assert project["project"]["urls"]["Documentation"] == RULEBOOK_HOME
    assert project["project"]["urls"]["Source"] == SOURCE_HOME


def test_a_release_is_built_checked_and_published_from_its_tag() -> None:
    workflow = load_yaml(ROOT / ".github" / "workflows" / "release.yml")
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key ``on`` as True
    assert on == {"push": {"tags": ["v*"]}}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    commands = "\n".join(step.get("run", "") for step in build["steps"])
    assert "python -m build" in commands and "twine check --strict dist/*" in commands
    # the tag names the version built: the wheel's file name carries guinote_conformance.__version__
    assert 'test -f "dist/guinote_conformance-${GITHUB_REF_NAME#v}-py3-none-any.whl"' in commands
    assert "guinote-conformance run --engine reference" in commands
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert [step["uses"] for step in publish["steps"]][-1].startswith("pypa/gh-action-pypi-publish@")
    assert not any("password" in str(step.get("with", {})) for step in publish["steps"]), "trusted publishing: no token"


def test_read_the_docs_builds_both_editions_as_tox_does() -> None:
    config = load_yaml(ROOT / ".readthedocs.yaml")
    assert config["version"] == 2
    [build] = config["build"]["jobs"]["build"]["html"]
    assert build == 'python docs/build_editions.py "$READTHEDOCS_OUTPUT/html"'
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    assert "python docs/build_editions.py" in tox["testenv:docs"]["commands"]
    assert any(".[docs]" in line for line in config["build"]["jobs"]["install"])


def test_the_published_rulebook_of_a_version_is_where_its_reports_link() -> None:
    from guinote_conformance.report.formats import DEFAULT_RULEBOOK, rulebook_url

    assert published_rulebook(__version__) == f"{RULEBOOK_HOME}/v{__version__}/en" == DEFAULT_RULEBOOK
    assert (
        rulebook_url("DECK-01", "https://example.org/book/")
        == "https://example.org/book/rulebook/deck.html#rule-deck-01"
    )
