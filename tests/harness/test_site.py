"""``guinote-conformance site``: built from real runs of the suite (the deck area, one profile) for
four engines: the reference, the minimal double (its own profile names) and two broken engines.

The matrix, the engine and rule pages carry the right verdicts; two runs of one engine give their
change; an engine's hostile name is escaped everywhere; results of another suite or protocol
version are refused, naming the files; bad input is one ``error:`` line and exit code 2. Marked
``browser`` (``tox -e docs-browser``), the pages are laid out in headless Chromium at 390
and 1280 px (GUINOTE_SCREENSHOTS=<folder> keeps a screenshot of each)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.cli import app
from guinote_conformance.report.site import MARKER, build, change_between
from guinote_conformance.results.report import RESULTS_FORMAT, Report
from guinote_conformance.results.status import Status

REPO = Path(__file__).resolve().parents[2]
BROKEN = "serve:tests.broken_engines.engines:caballo_above_sota"
MINIMAL = "py:tests.independent.minimal_engine:make"
#: the scenario the broken engine fails (DECK-06: the Sota ranks above the Caballo)
BROKEN_SCENARIO = "deck::The Sota beats the Caballo of the suit led"
ENGINES = {
    "reference": ("reference", "ludoteka"),
    "broken": (BROKEN, "ludoteka"),
    "minimal": (MINIMAL, "resumen_ludoteka"),
    # a fourth engine, as the site is meant to show many: broken elsewhere (the diez de últimas)
    "no_ultimas": ("serve:tests.broken_engines.engines:no_diez_de_ultimas", "ludoteka"),
}
HOSTILE = "<script>alert(1)</script>"


@dataclass(frozen=True)
class Runs:
    folder: Path
    files: dict[str, Path]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """One real run per engine of the deck area under one profile (about two seconds, in parallel)."""
    folder = tmp_path_factory.mktemp("site-runs")
    started = {}
    for key, (spec, profile) in ENGINES.items():
        argv = [
            sys.executable,
            "-m",
            "guinote_conformance",
            "run",
            "--engine",
            spec,
            "--area",
            "deck",
            "--profile",
            profile,
        ]
        argv += ["--jobs", "1", "--report-dir", str(folder / key)]
        started[key] = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for key, process in started.items():
        output, _ = process.communicate(timeout=240)
        assert (folder / key / "results.json").exists(), output[-2000:]
    return Runs(folder, {key: folder / key / "results.json" for key in ENGINES})


def _site(tmp_path: Path, *files: Path, name: str = "site") -> tuple[Any, Path]:
    out = tmp_path / name
    done = CliRunner().invoke(app, ["site", *map(str, files), "--out", str(out)])
    return done, out


def _page(folder: Path, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8")


def _earlier(path: Path, target: Path, *, passing: str, failing: str) -> Path:
    """The run of ``path`` as it might have been a day before: ``passing`` passed, ``failing`` failed."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["run"]["started"] = "2000-01-01T00:00:00Z"
    for result in data["results"]:
        if result["id"] == passing:
            result.update(status="pass", message="")
        elif result["id"] == failing:
            result.update(status="fail", message="an older failure")
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


# ---------------------------------------------------------------------------------- the pages


def test_the_matrix_engine_and_rule_pages_carry_the_verdicts(runs: Runs, tmp_path: Path) -> None:
    done, out = _site(tmp_path, *runs.files.values())
    assert done.exit_code == 0, done.output
    assert "4 engines, 4 runs" in done.output and "suite 0.1.0, protocol GCP/2" in done.output
    assert (out / "style.css").exists() and (out / MARKER).exists()
    site = build(list(runs.files.values()))
    # the minimal double's resumen_ludoteka plays ludoteka's flags: one matrix for the four engines
    assert [table.title for table in site.tables] == ["ludoteka = resumen_ludoteka"]
    row = site.tables[0].rows["DECK-06"]
    assert row[BROKEN].worst is Status.FAIL and row["reference"].worst is Status.PASS
    assert row[MINIMAL].worst is Status.PASS

    index = _page(out, "index.html")
    assert "Profile ludoteka = resumen_ludoteka" in index and "as resumen_<wbr>ludoteka" in index
    assert "suite 0.1.0, protocol GCP/2" in index
    broken = site.engine(BROKEN)
    # the broken cell links to the engine's section of the rule page
    assert f'class="s-fail"><a href="rules/DECK-06.html#{broken.anchor}">' in index
    assert f'href="engines/{broken.slug}.html#causes">DECK-06</a>' in index  # its likely cause, first
    assert "http://" not in index and "https://" not in index  # nothing fetched from elsewhere

    engine = _page(out, f"engines/{broken.slug}.html")
    assert engine.index('id="causes"') < engine.index('id="failures"')
    assert "The Sota beats the Caballo of the suit led" in engine and "broke the rule under test" in engine
    assert "the engine's answer breaks" in engine and "guinote-conformance run --engine" in engine  # why, re-run

    # the deck scenarios of 130 points in a hand go wrong at the missing diez de últimas first:
    # one line each under SCORE-01, the root cause they count for
    no_ultimas = site.engine(ENGINES["no_ultimas"][0])
    assert list(no_ultimas.blocked) == ["SCORE-01"] and no_ultimas.causes[0].rule == "SCORE-01"
    page = _page(out, f"engines/{no_ultimas.slug}.html")
    assert 'id="blocked-SCORE-01"' in page and "blocked by SCORE-01" in page
    assert page.count('<article class="failure" id=') == len(no_ultimas.groups) - len(no_ultimas.blocked["SCORE-01"])
    assert all(f'<li id="{group.key}">' in page for group in no_ultimas.blocked["SCORE-01"])

    rule = _page(out, "rules/DECK-06.html")
    assert f'id="{broken.anchor}"' in rule
    assert (
        "Broken by" in rule
        and f'href="../engines/{broken.slug}.html">broken-<wbr>caballo_<wbr>above_<wbr>sota</a> (under ludoteka)'
        in rule
    )
    assert f'href="../engines/{broken.slug}.html#f1"' in rule
    assert "No engine breaks it" in _page(out, "rules/DECK-01.html")


def test_two_runs_of_an_engine_give_the_change_between_them(runs: Runs, tmp_path: Path) -> None:
    latest = Report.load(runs.files["broken"])
    other = next(r.id for r in latest.results if r.status is Status.PASS)
    earlier = _earlier(runs.files["broken"], tmp_path / "earlier.json", passing=BROKEN_SCENARIO, failing=other)
    done, out = _site(tmp_path, runs.files["broken"], earlier)  # given in either order: the start times decide
    assert done.exit_code == 0, done.output
    site = build([runs.files["broken"], earlier])
    change = site.engines[0].change
    assert change is not None and change.after.path == runs.files["broken"]
    assert [(c.id, c.before, c.after) for c in change.newly_failing] == [(BROKEN_SCENARIO, Status.PASS, Status.FAIL)]
    assert [(c.id, c.before, c.after) for c in change.newly_passing] == [(other, Status.FAIL, Status.PASS)]
    assert change.other == []
    page = _page(out, f"engines/{site.engines[0].slug}.html")
    assert "1 newly failing</strong>, <strong>1 newly passing" in page and 'id="newly-failing"' in page
    assert "1 newly failing" in _page(out, "index.html")
    # the same run twice changes nothing
    same = change_between(site.engines[0].runs[-1], site.engines[0].runs[-1])
    assert (same.newly_failing, same.newly_passing, same.other) == ([], [], [])


def test_a_hostile_engine_name_is_escaped_on_every_page(runs: Runs, tmp_path: Path) -> None:
    data = json.loads(runs.files["broken"].read_text(encoding="utf-8"))
    data["engines"][0].update(name=HOSTILE, version="\x1b[31m1.0\u202e")
    for result in data["results"]:
        result["message"] = result["message"] and f"{result['message']} <img src=x onerror=alert(2)>"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    done, out = _site(tmp_path, hostile)
    assert done.exit_code == 0, done.output
    pages = [path.read_text(encoding="utf-8") for path in out.rglob("*.html")]
    assert len(pages) > 3
    for page in pages:
        assert HOSTILE not in page and "<img src=x" not in page and "\x1b" not in page and "\u202e" not in page
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in page for page in pages)
    assert any("\\x1b[31m1.0\\u202e" in page for page in pages)  # a control character shown as its escape


def test_results_of_other_suite_or_protocol_versions_are_refused_naming_the_files(runs: Runs, tmp_path: Path) -> None:
    for member, value, said in (("version", "0.0.9", "suite 0.0.9, protocol GCP/2"), ("protocol", 1, "GCP/1")):
        data = json.loads(runs.files["reference"].read_text(encoding="utf-8"))
        data["suite"][member] = value
        older = tmp_path / f"older-{member}.json"
        older.write_text(json.dumps(data), encoding="utf-8")
        done, out = _site(tmp_path, runs.files["broken"], older, name=f"site-{member}")
        assert done.exit_code == ExitCode.USAGE
        line = done.output.replace("\n", "")
        assert line.startswith("error: results of different suite or protocol versions are not mixed")
        assert f"suite 0.1.0, protocol GCP/2: {runs.files['broken']}" in line and f"{said}: {older}" in line
        assert "Traceback" not in done.output and not out.exists()


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read the results file"),
        ("{not json", "not a results file (not JSON"),
        (
            '{"format": "guinote-conformance-results/2", "engines": []}',
            f"not a guinote-conformance results file ({RESULTS_FORMAT}",
        ),
        (json.dumps({"format": RESULTS_FORMAT}), "(top level)"),
        ("[1, 2]", "(top level)"),
    ],
    ids=["missing", "not-json", "older-format", "incomplete", "not-an-object"],
)
def test_a_bad_results_file_is_one_error_line_and_exit_2(tmp_path: Path, content: str | None, said: str) -> None:
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for command in (["site", str(path), "--out", str(tmp_path / "out")], ["badge", str(path)]):
        done = CliRunner().invoke(app, command)
        assert done.exit_code == ExitCode.USAGE, done.output
        lines = done.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}") and said in lines[0], done.output
        assert "Traceback" not in done.output


def test_the_site_is_built_in_its_own_folder_only(runs: Runs, tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    done = CliRunner().invoke(app, ["site", str(runs.files["reference"]), "--out", str(foreign)])
    assert done.exit_code == ExitCode.USAGE and "holds other files" in done.output
    assert (foreign / "notes.txt").exists()
    done, out = _site(tmp_path, runs.files["broken"])
    assert done.exit_code == 0
    done, out = _site(tmp_path, runs.files["reference"])  # built again: the broken engine's page is gone
    assert done.exit_code == 0 and [p.name for p in (out / "engines").iterdir()] == ["reference.html"]
    twice = CliRunner().invoke(app, ["site", str(runs.files["reference"]), str(runs.files["reference"])])
    assert twice.exit_code == ExitCode.USAGE and "given twice" in twice.output


def test_the_package_ships_the_site_templates() -> None:
    from importlib import resources

    folder = resources.files("guinote_conformance.report").joinpath("templates/site")
    assert {"base.html.j2", "index.html.j2", "engine.html.j2", "rule.html.j2", "style.css"} <= {
        entry.name for entry in folder.iterdir()
    }
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"templates/**/*"' in text


def test_engines_sharing_a_name_are_told_apart_by_their_spec(runs: Runs, tmp_path: Path) -> None:
    data = json.loads(runs.files["reference"].read_text(encoding="utf-8"))
    data["engines"][0]["spec"] = "cmd:./reference-copy"
    for result in data["results"]:
        result["engine"] = "cmd:./reference-copy"
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(data), encoding="utf-8")
    site = build([runs.files["reference"], copy])
    assert sorted(page.label for page in site.engines) == ["cmd:./reference-copy", "reference"]
    assert len({page.slug for page in site.engines}) == 2


# ---------------------------------------------------------------------------------- in a browser

BROWSER = pytest.mark.browser
CHROMIUM = os.environ.get("GUINOTE_CHROMIUM", "/usr/bin/chromium")
#: the page scrolls sideways, or an element ends past the screen outside a scrolling container
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth, over = [];
  if (document.documentElement.scrollWidth > width + 1) over.push(`page ${document.documentElement.scrollWidth}px`);
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1 && !el.closest(".scroll")) over.push(el.tagName + "." + el.className);
  }
  return over.slice(0, 5);
}"""
#: the matrix: its container scrolls, the rule column stays in view and each cell is readable
MATRIX = """() => {
  const box = document.querySelector(".scroll.matrix"), table = box.querySelector("table");
  const cell = table.querySelector("tbody td"), rule = table.querySelector("tbody th");
  box.scrollLeft = 10000;
  return {inside: box.getBoundingClientRect().right <= document.documentElement.clientWidth + 1,
          ruleLeft: rule.getBoundingClientRect().left - box.getBoundingClientRect().left,
          cellFont: parseFloat(getComputedStyle(cell).fontSize), cellWidth: cell.getBoundingClientRect().width};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no browser at {CHROMIUM} (apt-get install -y chromium, or set GUINOTE_CHROMIUM)")
    try:
        playwright = importlib.import_module("playwright.sync_api")
    except ImportError:
        pytest.fail("playwright is missing: pip install playwright (tox -e docs-browser has it)")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


def _only_files(outside: list[str]) -> Any:
    """A route handler that lets ``file://`` through and records (and aborts) anything else."""

    def route(request: Any) -> None:
        if request.request.url.startswith("file://"):
            request.continue_()
        else:
            outside.append(request.request.url)
            request.abort()

    return route


@BROWSER
@pytest.mark.parametrize("width", [390, 1280])
def test_the_site_fits_the_screen_in_a_real_browser(runs: Runs, tmp_path: Path, browser: Any, width: int) -> None:
    done, out = _site(tmp_path, *runs.files.values())
    assert done.exit_code == 0, done.output
    broken = build(list(runs.files.values())).engine(BROKEN)
    shots = os.environ.get("GUINOTE_SCREENSHOTS")
    for name in ("index.html", f"engines/{broken.slug}.html", "rules/DECK-06.html"):
        page = browser.new_page(viewport={"width": width, "height": 900})
        outside: list[str] = []
        page.route("**/*", _only_files(outside))
        page.goto((out / name).as_uri())
        assert page.evaluate(OVERFLOW) == [], f"{name} is wider than {width} px"
        assert outside == [], f"{name} fetched {outside}"
        if name == "index.html":
            matrix = page.evaluate(MATRIX)
            assert matrix["inside"] and matrix["cellFont"] >= 12 and matrix["cellWidth"] >= 40, matrix
            assert matrix["ruleLeft"] >= -1, "the rule column stays in view when the matrix scrolls"
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            label = f"site-{width}-{name.split('/')[0].removesuffix('.html')}"
            page.screenshot(path=str(Path(shots) / f"{label}.png"), full_page=False)
            if name == "index.html":
                page.locator("details.profile").first.screenshot(path=str(Path(shots) / f"{label}-matrix.png"))
        page.close()
