"""``guinote-conformance site``: built from real runs of the suite (the deck area, one profile) for
four engines: the reference, the minimal double (its own profile names) and two broken engines.

The matrix, the engine and rule pages carry the right verdicts; an engine is known by the name
and version it declares, so its history survives a move to another command line; its failures are
collapsed by root cause; its history over all its runs is a chart of one point per run; two runs
of one engine give their change; an engine's hostile name is escaped everywhere; results of
another suite or protocol version are refused, naming the files; bad input is one ``error:`` line
and exit code 2. Marked ``browser`` (``tox -e docs-browser``), the pages are laid out in headless
Chromium at 390 and 1280 px, the failures collapsed and the filters working
(GUINOTE_SCREENSHOTS=<folder> keeps a screenshot of each)."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.cli import app
from guinote_conformance.report.site import FAILING, MARKER, build, change_between, engine_key
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
#: the engines as the site knows them: the name and version each declares in its ``hello``
BROKEN_KEY = "broken-caballo_above_sota 0.1.0"
NO_ULTIMAS_KEY = "broken-no_diez_de_ultimas 0.1.0"


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
    keys = {key: engine_key(Report.load(path).engines[0]) for key, path in runs.files.items()}
    assert keys["broken"] == BROKEN_KEY and [page.key for page in site.engines] == list(keys.values())
    row = site.tables[0].rows["DECK-06"]
    assert row[BROKEN_KEY].worst is Status.FAIL and row[keys["reference"]].worst is Status.PASS
    assert row[keys["minimal"]].worst is Status.PASS

    index = _page(out, "index.html")
    assert "Profile ludoteka = resumen_ludoteka" in index and "as resumen_<wbr>ludoteka" in index
    assert "suite 0.1.0, protocol GCP/2" in index
    broken = site.engine(BROKEN_KEY)
    # named by what it declares, its file too: the command line is a detail of its page
    assert broken.slug == "broken-caballo_above_sota-0.1.0" and broken.spec == BROKEN
    # the broken cell links to the engine's section of the rule page
    assert f'class="s-fail"><a href="rules/DECK-06.html#{broken.anchor}">' in index
    assert f'href="engines/{broken.slug}.html#causes">DECK-06</a>' in index  # its likely cause, first
    assert "http://" not in index and "https://" not in index  # nothing fetched from elsewhere
    assert BROKEN not in index  # the command line is not the engine's name

    engine = _page(out, f"engines/{broken.slug}.html")
    assert engine.index('id="history"') < engine.index('id="areas"') < engine.index('id="causes"')
    assert f"<dt>command</dt><dd><code>{BROKEN}</code>" in engine
    assert "The Sota beats the Caballo of the suit led" in engine and "broke the rule under test" in engine
    assert "the engine's answer breaks" in engine and "guinote-conformance run --engine" in engine  # why, re-run
    # its shares by area: the deck area has the failure, every run is applicable
    deck = broken.areas["deck"]
    assert deck.failing > 0 and deck.passed + deck.failing + deck.not_applicable + deck.other == 100
    assert f'<tr><td>deck</td><td class="num">{deck.total}</td><td class="nowrap">{deck.text}</td>' in engine

    # the deck scenarios of 130 points in a hand go wrong at the missing diez de últimas first:
    # collapsed under SCORE-01, the root cause they count for, one line each
    no_ultimas = site.engine(NO_ULTIMAS_KEY)
    assert list(no_ultimas.blocked) == ["SCORE-01"] and no_ultimas.causes[0].rule == "SCORE-01"
    assert [block.cause.rule for block in no_ultimas.by_cause if block.cause] == ["SCORE-01"]
    assert sorted(g.key for b in no_ultimas.by_cause for g in b.groups) == sorted(g.key for g in no_ultimas.groups)
    page = _page(out, f"engines/{no_ultimas.slug}.html")
    assert "blocked by SCORE-01" in page
    _assert_collapsed(page, no_ultimas)

    rule = _page(out, "rules/DECK-06.html")
    assert f'id="{broken.anchor}"' in rule
    assert (
        "Broken by" in rule
        and f'href="../engines/{broken.slug}.html">broken-<wbr>caballo_<wbr>above_<wbr>sota 0.<wbr>1.<wbr>0</a>'
        " (under ludoteka)"
        in rule
    )
    assert f'href="../engines/{broken.slug}.html#f1"' in rule
    assert "No engine breaks it" in _page(out, "rules/DECK-01.html")

    # the matrix: a row per area before its rules, each engine's shares in it, every row filterable
    shares = site.tables[0].shares("deck", BROKEN_KEY)
    assert shares.failing > 0 and '<tr class="area-row" data-area="deck">' in index
    assert f"{shares.passed}% · {shares.failing}% · {shares.not_applicable}%" in index
    assert (
        '<tr data-area="deck" data-status="pass fail failing"><th class="rulecol" scope="row">'
        '<a class="rule" href="rules/DECK-06.html">' in index
    )
    assert '<form class="matrix-filter" data-table="p1-table" hidden>' in index  # shown by the script only


def _assert_collapsed(page: str, engine: Any) -> None:
    """Every failure of ``engine`` is on ``page`` once, inside a closed ``<details>`` of its cause and
    one of its rule: a page of a hundred failures opens as a few headings."""
    blocks = re.findall(r'<details class="cause" id="cause-\d+" data-filter-group>', page)
    assert len(blocks) == len(engine.by_cause) and " open" not in "".join(blocks)
    assert '<details class="rule" data-filter-group>' in page and "<details open" not in page
    failures, causes = page.index('id="causes"'), page.index('<details class="cause"')
    for group in engine.groups:
        at = page.index(f'id="{group.key}"')
        assert page.count(f'id="{group.key}"') == 1 and failures < causes < at
        tag = "p" if group.blocked_by else "details"
        assert page[:at].rstrip().endswith(f'<{tag} class="{"blocked" if group.blocked_by else "failure"}"'), group.key


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
    # its name names its page, its file, its history chart and the index's cells, all escaped
    engine = _page(out, f"engines/{build([hostile]).engines[0].slug}.html")
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt; \\x1b[31m1.0\\u202e</h1>" in engine
    assert [p.name for p in (out / "engines").iterdir()] == [f"{build([hostile]).engines[0].slug}.html"]
    assert "/" not in build([hostile]).engines[0].slug and "<" not in build([hostile]).engines[0].slug


def test_a_hostile_start_time_and_commit_are_escaped_in_the_history_chart(runs: Runs, tmp_path: Path) -> None:
    data = json.loads(runs.files["broken"].read_text(encoding="utf-8"))
    data["run"]["started"] = '2026"><script>alert(3)</script>'
    data["suite"]["commit"] = "</title><svg onload=alert(4)>"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    done, out = _site(tmp_path, hostile)
    assert done.exit_code == 0, done.output
    engine = _page(out, f"engines/{build([hostile]).engines[0].slug}.html")
    chart = engine[engine.index('<svg class="history"') : engine.index("</svg>")]
    assert "<script" not in chart and "onload=" not in chart.replace("onload=alert(4)&gt;", "")
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in chart and "&lt;/title&gt;&lt;svg onload=alert(4)&gt;" in chart


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
    assert done.exit_code == 0 and [p.name for p in (out / "engines").iterdir()] == ["guinote-reference-0.1.0.html"]
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


def test_every_failure_is_under_one_cause_and_errors_come_last(runs: Runs, tmp_path: Path) -> None:
    """by_root_cause places every failure group once: under the likeliest cause that explains it,
    and an error or timeout (no cause explains it: the engine did not answer wrongly) last."""
    data = json.loads(runs.files["no_ultimas"].read_text(encoding="utf-8"))
    failing = [r for r in data["results"] if r["status"] == "fail"]
    failing[0].update(status="error", message="EngineCrashed: gone")
    next(r for r in data["results"] if r["status"] == "pass").update(status="timeout", message="no answer in 5 s")
    changed = tmp_path / "errors.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    done, out = _site(tmp_path, changed)
    assert done.exit_code == 0, done.output
    (engine,) = build([changed]).engines
    *causes, last = engine.by_cause
    assert [block.cause.rule for block in causes if block.cause] == ["SCORE-01"] and last.cause is None
    assert sorted(g.first.status.value for g in last.groups) == ["error", "timeout"]
    keys = [group.key for block in engine.by_cause for group in block.groups]
    assert sorted(keys) == sorted(group.key for group in engine.groups) and len(set(keys)) == len(keys)
    page = _page(out, f"engines/{engine.slug}.html")
    assert "Errors, timeouts and unexpected passes <span" in page and "<pre>no answer in 5 s" in page
    _assert_collapsed(page, engine)


def _moved(path: Path, target: Path, spec: str, started: str, *, failing: Collection[str] = ()) -> Path:
    """The run of ``path`` made with another command line (the engine moved) at ``started``; the
    scenarios ``failing`` failed in it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["engines"][0]["spec"] = spec
    data["run"]["started"] = started
    for result in data["results"]:
        result["engine"] = spec
        if result["id"] in failing:
            result.update(status="fail", message="an older failure")
    target.write_text(json.dumps(data), encoding="utf-8")
    return target


def test_a_moved_engine_keeps_its_history_under_its_declared_name(runs: Runs, tmp_path: Path) -> None:
    """The same engine run from three places (a path in its command line changed each time) is one
    engine: one page named by its name and version, its history of three runs, the change between
    its last two; the commands only as a detail."""
    latest = Report.load(runs.files["broken"])
    passing = sorted(r.id for r in latest.results if r.status is Status.PASS)[:2]
    older = [
        _moved(runs.files["broken"], tmp_path / "a.json", "cmd:/opt/old/engine --fast", "2000-01-01T00:00:00Z",
               failing=set(passing)),
        _moved(runs.files["broken"], tmp_path / "b.json", "cmd:/home/me/engine", "2000-01-02T00:00:00Z",
               failing=set(passing[:1])),
    ]  # fmt: skip
    done, out = _site(tmp_path, runs.files["broken"], *older)
    assert done.exit_code == 0, done.output
    assert "1 engines, 3 runs" in done.output
    site = build([runs.files["broken"], *older])
    (engine,) = site.engines
    assert engine.key == BROKEN_KEY and [run.path for run in engine.runs] == [*older, runs.files["broken"]]
    assert engine.specs == ["cmd:/opt/old/engine --fast", "cmd:/home/me/engine", BROKEN]
    assert engine.change is not None and [c.id for c in engine.change.newly_passing] == passing[:1]
    assert [point.tally.failing for point in engine.history] == [
        latest.summary[Status.FAIL] + 2, latest.summary[Status.FAIL] + 1, latest.summary[Status.FAIL],
    ]  # fmt: skip
    assert [p.name for p in (out / "engines").iterdir()] == ["broken-caballo_above_sota-0.1.0.html"]
    page = _page(out, "engines/broken-caballo_above_sota-0.1.0.html")
    assert "History (3 runs)" in page and "cmd:/opt/old/engine --fast" in page and "cmd:/home/me/engine" in page
    assert "/opt/old" not in _page(out, "index.html")  # the index names engines, not commands


@pytest.mark.parametrize("count", [1, 2, 5])
def test_the_history_chart_has_one_point_per_run(runs: Runs, tmp_path: Path, count: int) -> None:
    files = [runs.files["broken"]] + [
        _moved(runs.files["broken"], tmp_path / f"run{n}.json", BROKEN, f"2001-01-{n:02d}T00:00:00Z")
        for n in range(1, count)
    ]
    done, out = _site(tmp_path, *files)
    assert done.exit_code == 0, done.output
    page = _page(out, "engines/broken-caballo_above_sota-0.1.0.html")
    chart = page[page.index('<svg class="history"') : page.index("</svg>", page.index('<svg class="history"'))]
    assert chart.count('<circle class="point"') == count and ("<polyline" in chart) == (count > 1)
    assert chart.count("<title>") == count and "2001-01-01T00:00:00Z" in chart if count > 1 else True
    # oldest left: the x of the points rises, each point red (the run failed)
    xs = [float(x) for x in re.findall(r'<circle class="point" cx="([\d.]+)"', chart)]
    assert xs == sorted(xs) and len(set(xs)) == count
    assert chart.count('fill="#c4391d"') == count
    index = _page(out, "index.html")
    spark = index[index.index('<svg class="history small"') :]
    assert spark[: spark.index("</svg>")].count('<circle class="point"') == count
    assert f"{count} run{'s' if count != 1 else ''}</span>" in index


def test_the_site_built_again_in_its_folder_keeps_the_history(runs: Runs, tmp_path: Path) -> None:
    """Built run by run into one folder (a CI job publishing its latest results), the site charts
    every run: history.json keeps each engine's points, a run given twice is one point, and an
    engine left out of a build keeps its history for the next."""
    out = tmp_path / "site"
    files = [
        _moved(runs.files["broken"], tmp_path / f"run{n}.json", f"cmd:/ci/{n}/engine", f"2001-01-0{n}T00:00:00Z")
        for n in range(1, 4)
    ]
    for file in files:
        done = CliRunner().invoke(app, ["site", str(file), "--out", str(out)])
        assert done.exit_code == 0, done.output
    done = CliRunner().invoke(app, ["site", str(files[-1]), "--out", str(out)])  # the latest again
    assert done.exit_code == 0, done.output
    page = _page(out, "engines/broken-caballo_above_sota-0.1.0.html")
    chart = page[page.index('<svg class="history"') : page.index("</svg>", page.index('<svg class="history"'))]
    assert chart.count('<circle class="point"') == 3 and "History (3 runs)" in page
    assert "2 runs more, kept from the sites built before" in page
    kept = json.loads((out / "history.json").read_text(encoding="utf-8"))
    assert [p["started"] for p in kept["engines"][BROKEN_KEY]] == [f"2001-01-0{n}T00:00:00Z" for n in range(1, 4)]
    # another engine alone: the broken one is not on the site, its history is kept for later
    done = CliRunner().invoke(app, ["site", str(runs.files["reference"]), "--out", str(out)])
    assert done.exit_code == 0 and not (out / "engines" / "broken-caballo_above_sota-0.1.0.html").exists()
    done = CliRunner().invoke(app, ["site", str(runs.files["broken"]), "--out", str(out)])
    assert done.exit_code == 0 and "History (4 runs)" in _page(out, "engines/broken-caballo_above_sota-0.1.0.html")


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{not json", "not a site history"),
        ('{"format": "guinote-site-history/0"}', "not a site history (guinote-site-history/1)"),
        (
            '{"format": "guinote-site-history/1", "suite": "suite 0.0.1, protocol GCP/1", "engines": {}}',
            "the history of suite 0.0.1, protocol GCP/1, not of suite 0.1.0, protocol GCP/2",
        ),
        (
            '{"format": "guinote-site-history/1", "suite": "suite 0.1.0, protocol GCP/2", '
            '"engines": {"x": [{"started": "<b>", "commit": "c", "passed": -1}]}}',
            "engines/x/0: a count is not a whole number of runs",
        ),
    ],
    ids=["not-json", "format", "other-suite", "bad-count"],
)
def test_a_bad_history_file_is_one_error_line_and_exit_2(runs: Runs, tmp_path: Path, content: str, said: str) -> None:
    done, out = _site(tmp_path, runs.files["reference"])
    assert done.exit_code == 0, done.output
    (out / "history.json").write_text(content, encoding="utf-8")
    done = CliRunner().invoke(app, ["site", str(runs.files["reference"]), "--out", str(out)])
    assert done.exit_code == ExitCode.USAGE, done.output
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {out / 'history.json'}: ") and said in lines[0], lines


def test_engines_declaring_the_same_name_in_one_run_are_told_apart(runs: Runs, tmp_path: Path) -> None:
    data = json.loads(runs.files["reference"].read_text(encoding="utf-8"))
    twin = {**data["engines"][0], "spec": "cmd:./reference-copy"}
    data["engines"].append(twin)
    data["results"] += [{**result, "engine": twin["spec"]} for result in data["results"]]
    both = tmp_path / "both.json"
    both.write_text(json.dumps(data), encoding="utf-8")
    site = build([both])
    key = engine_key(Report.load(runs.files["reference"]).engines[0])
    assert [page.key for page in site.engines] == [key, f"{key} (2)"]
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
    broken = build(list(runs.files.values())).engine(BROKEN_KEY)
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


@BROWSER
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("width", [390, 1280])
def test_failures_open_as_headings_and_filter_in_a_real_browser(
    runs: Runs, tmp_path: Path, browser: Any, width: int, script: bool
) -> None:
    """The engine page of a hundred failures is a few screens tall, its causes closed headings (with
    or without script); the script filters the failures and opens the blocks around a linked
    one; the matrix filters its rows by area and status."""
    done, out = _site(tmp_path, *runs.files.values())
    assert done.exit_code == 0, done.output
    site = build(list(runs.files.values()))
    engine = site.engine(NO_ULTIMAS_KEY)
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=script)
    page = context.new_page()
    page.goto((out / "engines" / f"{engine.slug}.html").as_uri())
    assert page.evaluate(OVERFLOW) == [], f"the engine page is wider than {width} px"
    closed = page.evaluate("[...document.querySelectorAll('details.cause')].map(d => [d.open, d.offsetHeight > 0])")
    assert closed == [[False, True]] * len(engine.by_cause)  # closed, but a visible heading each
    assert page.evaluate("document.querySelectorAll('[data-filter-item]').length") == len(engine.groups)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 4000, f"{len(engine.groups)} failures collapsed make {height} px at {width} px"
    assert page.is_visible("#failure-filter") is script  # the filter is shown only where it works
    if script:
        where = engine.groups[-1].first.location
        page.fill("#failure-filter input[name=q]", where)
        shown = page.evaluate("[...document.querySelectorAll('[data-filter-item]')].filter(e => !e.hidden).length")
        wanted = [g for g in engine.groups if g.first.location == where]
        assert shown == len(wanted) > 0 and page.evaluate("document.querySelector('details.cause').open")
        blocked = next(g for g in engine.groups if g.blocked_by)
        page.goto((out / "engines" / f"{engine.slug}.html").as_uri() + f"#{blocked.key}")
        assert page.is_visible(f"#{blocked.key}")  # its cause and rule opened around it
        page.goto((out / "index.html").as_uri())
        rows = "[...document.querySelectorAll('#p1-table tbody tr:not(.area-row)')]"
        every = page.evaluate(f"{rows}.length")
        page.select_option("form.matrix-filter select[name=status]", "failing")
        failing = page.evaluate(f"{rows}.filter(r => !r.hidden).map(r => r.querySelector('a.rule').textContent)")
        broken = {rule for rule, row in site.tables[0].rows.items() if any(c.worst in FAILING for c in row.values())}
        assert set(failing) == broken and 0 < len(failing) < every
        page.select_option("form.matrix-filter select[name=area]", "deck")
        deck = page.evaluate(f"{rows}.filter(r => !r.hidden).map(r => r.querySelector('a.rule').textContent)")
        assert deck and set(deck) == {rule for rule in broken if rule.startswith("DECK-")}
    context.close()
