"""Build the rulebook once per test session (per xdist worker) with warnings as errors."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PROJECT = Path(__file__).resolve().parent / "project"


@dataclass(frozen=True)
class Element:
    tag: str
    attrs: dict[str, str]
    page: str


class ElementCollector(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.elements: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {name: value or "" for name, value in attrs}, self.page))


@dataclass(frozen=True)
class BuiltSite:
    status: int
    html: Path
    warnings: str
    output: str

    def page(self, name: str) -> str:
        return (self.html / f"{name}.html").read_text(encoding="utf-8")

    def pages(self) -> dict[str, str]:
        return {
            path.relative_to(self.html).with_suffix("").as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(self.html.rglob("*.html"))
            if not path.relative_to(self.html).parts[0].startswith("_")
        }

    def elements(self) -> list[Element]:
        found: list[Element] = []
        for name, text in self.pages().items():
            collector = ElementCollector(name)
            collector.feed(text)
            found.extend(collector.elements)
        return found


def require(*modules: str) -> None:
    """Skip (with the reason) where the docs extras are not installed."""
    for module in modules:
        pytest.importorskip(module, reason=f"{module} is missing: install the docs extras (pip install -e '.[docs]')")


def build(source: Path, out: Path, env: dict[str, str | None], language: str = "en") -> BuiltSite:
    """Run sphinx-build -E -W in process; ``env`` sets (or, with None, unsets) variables meanwhile."""
    import sphinx.locale
    from sphinx.cmd.build import build_main

    # Sphinx keeps the catalogues it loads for the whole process: a build in another
    # language earlier in the session would otherwise leak its translations into this one
    sphinx.locale.translators.clear()

    saved = {name: os.environ.get(name) for name in env}
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    warnings = out / "warnings.txt"
    captured = io.StringIO()
    try:
        with redirect_stdout(captured), redirect_stderr(captured):
            status = build_main(
                [
                    "-E",
                    "-W",
                    "--keep-going",
                    "-q",
                    "-w",
                    str(warnings),
                    "-b",
                    "html",
                    "-D",
                    f"language={language}",
                    "-d",
                    str(out / "doctrees"),
                    str(source),
                    str(out / "html"),
                ]
            )
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    text = warnings.read_text(encoding="utf-8") if warnings.exists() else ""
    return BuiltSite(status, out / "html", text, captured.getvalue())


#: The rulebook as ``docs/build_editions.py`` built it (``tox -e docs`` sets it): the tests of the
#: two editions check that build instead of building the rulebook again.
BUILT = "GUINOTE_BUILT_DOCS"
#: The fixtures that build the project's rulebook: a test that uses one is marked ``built_docs``.
BUILT_FIXTURES = frozenset({"site", "es_site"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BUILT_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.built_docs)


def built_edition(language: str) -> BuiltSite | None:
    """An edition that ``docs/build_editions.py`` built into ``$GUINOTE_BUILT_DOCS`` (None when unset)."""
    folder = os.environ.get(BUILT)
    if not folder:
        return None
    html = Path(folder) / language
    if not (html / "index.html").exists():
        pytest.fail(f"{BUILT}={folder}: no {language} edition there (run docs/build_editions.py {folder})")
    warnings = Path(folder) / f"warnings-{language}.txt"
    text = warnings.read_text(encoding="utf-8") if warnings.exists() else ""
    return BuiltSite(1 if text.strip() else 0, html, text, "")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The project's rulebook (docs/), built from the repository's own data."""
    require("sphinx", "furo", "myst_parser", "sphinx_copybutton")
    yield built_edition("en") or build(DOCS, tmp_path_factory.mktemp("rulebook"), {"GUINOTE_RESULTS": None})


@pytest.fixture(scope="session")
def es_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The Spanish edition of the rulebook (docs/locale/es)."""
    require("sphinx", "furo", "myst_parser", "sphinx_copybutton")
    built = built_edition("es")
    yield built or build(DOCS, tmp_path_factory.mktemp("rulebook-es"), {"GUINOTE_RESULTS": None}, language="es")


@pytest.fixture(scope="session")
def test_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    """The extension on the invented data of tests/docs/data (rules, scenarios, schema, results)."""
    require("sphinx")
    yield build(PROJECT, tmp_path_factory.mktemp("extension"), {"GUINOTE_RESULTS": None})
