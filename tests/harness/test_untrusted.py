"""Nothing an engine sends can execute, restyle or crash anything (:mod:`guinote_conformance.base.untrusted`).

Every payload kind (live HTML, rich markup, ANSI escapes, NUL and other controls, a lone
surrogate, bidi overrides) in every place an engine writes (its name and version, a profile
name, a rejection's message and code, a state value, its stderr) through every output: the
terminal, ``index.html``, ``junit.xml``, ``results.json`` and the file names built from it. The
model-level tests put every payload everywhere at once; the runs check the same end to end with
the hostile engines ``tests/protocol/hostile/payload.py`` (over the wire) and
``tests/harness/payload_engine.py`` (in process), on two scenarios.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape
from rich.console import Console
from typer.testing import CliRunner

from guinote_conformance import cli
from guinote_conformance.adapters.checked import ShapeCheckedEngine, ShapeError
from guinote_conformance.base.untrusted import FILE_PART_MAX, file_part, markup, one_line, scrub, shown
from guinote_conformance.cli import results as cli_results
from guinote_conformance.fuzz.scenario import feature_text
from guinote_conformance.report.folder import LOCK_NAME
from guinote_conformance.report.formats import render_html, summary_lines, write_junit
from guinote_conformance.results.case import CaseResult, Divergence, StepLine
from guinote_conformance.results.report import EngineEntry, Report, SuiteInfo
from guinote_conformance.results.status import Stage, Status
from tests.harness.payload_engine import PayloadEngine
from tests.protocol.conftest import deck_setup
from tests.protocol.hostile.payload import PAYLOADS

REPO = Path(__file__).resolve().parents[2]
PAYLOAD = REPO / "tests" / "protocol" / "hostile" / "payload.py"
#: Two scenarios: one reads the state field ``turn`` (the value place), one checks a rejection's
#: code (the message place); every failure shows the stderr tail.
SCENARIOS = ("--scenario", "features/deck.feature:21", "--scenario", "features/regional_decks.feature:262")
#: What must never reach a terminal, a report or an XML file raw.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: What a visible escape of each payload looks like (a sample of each).
VISIBLE = {
    "html": "alert(1)",
    "markup": "[/bold][red]x[/red]",
    "ansi": "\\x1b[2J",
    "nul": "a\\x00b\\x1bc",
    "surrogate": "\\udcff",
    "bidi": "\\u202etxt.exe",
}
SAFE_FILE = re.compile(r"^[A-Za-z0-9_+-][A-Za-z0-9._+-]*$")


# ------------------------------------------------------------------------------ the policy


def test_shown_makes_controls_surrogates_and_bidi_visible_and_keeps_unicode() -> None:
    assert shown("a\x1b[31mb\x00c\x7f\x85\r") == "a\\x1b[31mb\\x00c\\x7f\\x85\\x0d"
    assert shown("\udcff\u202e\u2066\u2069\ufffe") == "\\udcff\\u202e\\u2066\\u2069\\ufffe"
    assert shown("Guiñote · ç € 🂡\n\tok") == "Guiñote · ç € 🂡\n\tok"
    assert shown(42) == "42"
    assert one_line("a\nb\tc") == "a\\x0ab\\x09c"
    assert markup("[/bold]\x1b") == "\\[/bold]\\x1b"


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_shown_text_has_nothing_raw_and_markup_prints_as_written(kind: str) -> None:
    text = "x" + PAYLOADS[kind]
    assert not RAW.search(shown(text)) and not RAW.search(one_line(text))
    out = io.StringIO()
    Console(file=out, width=500, emoji=False, color_system=None).print(f"[red]{markup(text)}[/red]")
    assert out.getvalue().rstrip("\n") == shown(text)


def test_scrub_leaves_text_that_utf8_and_execnet_can_carry() -> None:
    value = {"a\udcff": ["t\udcff", ("x", 1, None)], "ok": "ñ"}
    scrubbed = scrub(value)
    assert scrubbed == {"a\\udcff": ["t\\udcff", ["x", 1, None]], "ok": "ñ"}
    json.dumps(scrubbed, ensure_ascii=False).encode("utf-8")  # no UnicodeEncodeError
    assert scrub("plain") == "plain" and scrub(3) == 3


@given(st.text())
def test_file_part_is_always_one_safe_component(text: str) -> None:
    part = file_part(text)
    assert SAFE_FILE.match(part) and part not in (".", "..") and len(part) <= FILE_PART_MAX
    assert "/" not in part and "\\" not in part


def test_file_part_keeps_plain_names_and_keeps_different_names_apart() -> None:
    assert file_part("lascuarenta+mano_a_mano") == "lascuarenta+mano_a_mano"
    assert file_part("tradición").startswith("tradicion-")
    assert file_part("a/b") != file_part("a_b") == "a_b"
    assert file_part("..").startswith("_") or file_part("..")[0].isalnum()
    assert file_part("") and file_part("CON").startswith("_CON")
    assert file_part("../../etc/passwd") != file_part("..\\..\\etc\\passwd")


# ------------------------------------------------------------------------------ the reports


def _hostile_report(payload: str) -> Report:
    """Every place of a results file holding ``payload``."""
    profile = "lascuarenta" + payload
    result = CaseResult(
        id="deck::The As beats the Tres",
        scenario="The As beats the Tres",
        feature="features/deck.feature",
        line=21,
        rules=("DECK-05",),
        engine="cmd:./hostile" + payload,
        profile=profile,
        status=Status.FAIL,
        message=f"features/deck.feature:27: turn: expected 0, got t{payload}; refused as C{payload}: m{payload}",
        rerun=shlex.join(["guinote-conformance", "run", "--profile", profile]),
        what="turn" + payload,
        expected="0",
        got="t" + payload,
        stage=Stage.RULE_UNDER_TEST,
        failed_line=27,
        steps=(StepLine("Then", "seat 0 is to play", 27),),
        transcript=({"call": "state", "step": 27, "args": "turn", "answer": "t" + payload},),
        stderr=("log " + payload,),
        divergence=Divergence(27, "state turn" + payload, "a different value" + payload, "0", "t" + payload, "PLAY-02"),
    )
    errored = replace(result, id="deck::Other", scenario="Other", line=30, status=Status.ERROR)
    return Report(
        engines=[
            EngineEntry(
                "cmd:./hostile" + payload,
                "eng" + payload,
                "1" + payload,
                "py" + payload,
                {profile: {"f": "v" + payload}},
            )
        ],
        suite=SuiteInfo(commit="abc123", scenarios_digest="0" * 16, scenarios=2),
        started="2026-01-01T00:00:00Z",
        duration_s=1.0,
        results=[result, errored],
    )


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_every_report_shows_every_payload_escaped(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = _hostile_report(PAYLOADS[kind])
    html = render_html(report)
    assert not RAW.search(html), RAW.findall(html)
    assert "<script" not in html.replace("<script>\n(function", "") and "<img" not in html
    assert "[/bold]" not in html or "[/bold][red]x[/red]" in html  # markup is plain text in HTML
    assert html.count(VISIBLE[kind].replace("<", "&lt;").replace("'", "&#39;")) >= 5

    junit = write_junit(report, tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert not RAW.search(junit.replace("\r", ""))
    tree = ET.parse(tmp_path / "junit.xml")  # well-formed XML 1.0
    names = " ".join(str(node.get("name")) for node in tree.iter())
    assert shown("eng" + PAYLOADS[kind]) in names  # the engine's name, visible, not dropped

    report.dump(tmp_path / "results.json")  # never a UnicodeEncodeError
    loaded = Report.load(tmp_path / "results.json")
    assert loaded.engines[0].name == scrub("eng" + PAYLOADS[kind])

    out = io.StringIO()
    monkeypatch.setattr(cli_results, "console", Console(file=out, width=400, emoji=False))
    cli_results.print_summary(loaded, trace=True)  # a markup payload in a profile name used to crash rich
    terminal = out.getvalue()
    assert not RAW.search(terminal), RAW.findall(terminal)
    assert shown("lascuarenta" + PAYLOADS[kind]) in terminal
    assert "\x1b" not in "\n".join(shown(line) for line in summary_lines(loaded, trace=True))


class _Tags(HTMLParser):
    """Every start tag of a page, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


@pytest.mark.parametrize("kind", ["html", "markup"])
def test_engine_text_adds_no_element_and_no_attribute_to_the_html(kind: str) -> None:
    plain, hostile = _Tags(), _Tags()
    plain.feed(render_html(_hostile_report("")))
    hostile.feed(render_html(_hostile_report(PAYLOADS[kind])))
    assert [tag for tag, _ in hostile.tags] == [tag for tag, _ in plain.tags]
    assert [[name for name, _ in attrs] for _, attrs in hostile.tags] == [
        [name for name, _ in attrs] for _, attrs in plain.tags
    ]
    hrefs = [value for _, attrs in hostile.tags for name, value in attrs if name == "href"]
    assert hrefs and all(value and value.startswith(("#", "file:", "http")) for value in hrefs)


def test_a_macro_or_a_join_of_engine_text_is_finalized_too() -> None:
    report = _hostile_report("\x1b[31m")
    html = render_html(report)
    assert "\x1b" not in html
    assert "lascuarenta\\x1b[31m" in html  # in the profiles of a failure block, a |join


# ------------------------------------------------------------------------------ in process


def test_an_in_process_engine_s_lone_surrogate_is_a_schema_violation() -> None:
    engine = ShapeCheckedEngine(PayloadEngine("value", PAYLOADS["surrogate"]))
    game = engine.start(deck_setup())
    with pytest.raises(ShapeError, match=r'the state field "turn" is not JSON: the string holds a lone surrogate'):
        game.state("turn")
    assert game.state("phase")  # every other field is untouched
    with pytest.raises(ShapeError, match=r"the engine's info is not JSON: the string at profiles\.lascuarenta"):
        ShapeCheckedEngine(PayloadEngine("profile", PAYLOADS["surrogate"])).info()
    with pytest.raises(ShapeError) as caught:
        ShapeCheckedEngine(PayloadEngine("name", PAYLOADS["surrogate"])).info()
    assert "name" in str(caught.value) and not RAW.search(str(caught.value))


# ------------------------------------------------------------------------------ end to end


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=REPO,
        capture_output=True,
        encoding="utf-8",  # strict: the output itself must be UTF-8
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )


def _wire(where: str, kind: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(PAYLOAD), where, kind])


def _check_outputs(done: subprocess.CompletedProcess[str], folder: Path) -> tuple[str, str, dict[str, Any]]:
    output = done.stdout + done.stderr
    assert "Traceback" not in output and "INTERNALERROR" not in output, output[-3000:]
    assert not RAW.search(output), RAW.findall(output)
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert not RAW.search(html) and "<img" not in html
    ET.parse(folder / "junit.xml")
    data = json.loads((folder / "results.json").read_bytes().decode("utf-8"))
    return output, html, data


@pytest.mark.parametrize("kind", ["html", "markup", "ansi", "nul", "bidi"])
def test_a_wire_engine_with_a_payload_everywhere_cannot_reach_the_terminal_or_the_reports(
    kind: str, tmp_path: Path
) -> None:
    done = _run("run", "--engine", _wire("all", kind), *SCENARIOS, "-j", "1", "--report-dir", str(tmp_path))
    output, html, data = _check_outputs(done, tmp_path)
    assert done.returncode == 1, output[-3000:]
    assert [r["status"] for r in data["results"]] == ["fail", "fail"]
    visible = shown(PAYLOADS[kind])
    for place in ("lascuarenta", "seat t", "as C"):  # the profile, the value, the rejection's code
        assert place + visible in output, (place, output[-3000:])
    escaped, stripped = escape(visible), escape(shown(PAYLOADS[kind].rstrip()))
    for place in ("eng", "lascuarenta", "t", "C"):  # name, profile, value, code
        assert place + escaped in html, place
    for place in ("m", "log "):  # the message, a line of stderr: the ends of a line stripped (\r, \x85)
        assert place + stripped in html, place
    for result in data["results"]:
        folder = result["rerun"].rpartition("--report-dir ")[2]
        assert SAFE_FILE.match(Path(folder).name), folder  # the re-run folder, named from the profile


def test_a_wire_engine_s_lone_surrogate_is_not_json_wherever_it_is(tmp_path: Path) -> None:
    done = _run("run", "--engine", _wire("name", "surrogate"), *SCENARIOS, "-j", "1", "--report-dir", str(tmp_path))
    assert done.returncode == 3 and "not JSON" in done.stderr, done.stdout + done.stderr
    assert not RAW.search(done.stdout + done.stderr)
    value = _wire("value", "surrogate")
    done = _run(
        "run", "--engine", value, "--profile", "lascuarenta", *SCENARIOS, "-j", "1", "--report-dir", str(tmp_path)
    )
    _, _, data = _check_outputs(done, tmp_path)
    assert done.returncode == 1
    statuses = {(r["feature"], r["status"]) for r in data["results"]}
    assert statuses == {("features/deck.feature", "error"), ("features/regional_decks.feature", "pass")}
    assert all("not JSON" in r["message"] for r in data["results"] if r["status"] == "error")


@pytest.mark.parametrize(("where", "jobs"), [("value", "1"), ("value", "2"), ("raise", "2")])
def test_an_in_process_engine_s_lone_surrogate_loses_no_result(where: str, jobs: str, tmp_path: Path) -> None:
    env = {"GUINOTE_PAYLOAD_WHERE": where, "GUINOTE_PAYLOAD_KIND": "surrogate"}
    engine = "py:tests.harness.payload_engine:make"
    profiles = ("--profile", "lascuarenta", "--profile", "ludoteka")
    done = _run("run", "--engine", engine, *profiles, *SCENARIOS, "-j", jobs, "--report-dir", str(tmp_path), env=env)
    output, _, data = _check_outputs(done, tmp_path)
    assert done.returncode == 1, output[-3000:]
    assert len(data["results"]) == 4  # two scenarios under two profiles: none lost
    statuses = {(r["feature"], r["status"]) for r in data["results"]}
    assert statuses == {("features/deck.feature", "error"), ("features/regional_decks.feature", "pass")}
    errors = [r["message"] for r in data["results"] if r["status"] == "error"]
    if where == "value":
        assert all('the state field "turn" is not JSON: the string holds a lone surrogate' in m for m in errors)
    else:  # the exception's message, its surrogate escaped (it used to kill the xdist worker)
        assert all("ValueError: bad \\udcff" in m for m in errors), errors


def test_an_in_process_engine_s_name_that_is_not_text_is_an_engine_error(tmp_path: Path) -> None:
    env = {"GUINOTE_PAYLOAD_WHERE": "name", "GUINOTE_PAYLOAD_KIND": "surrogate"}
    done = _run(
        "run", "--engine", "py:tests.harness.payload_engine:make", *SCENARIOS, "--report-dir", str(tmp_path), env=env
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "the engine's info is not JSON: the string at name holds a lone surrogate" in done.stderr
    assert "Traceback" not in done.stderr and not RAW.search(done.stdout + done.stderr)


@pytest.mark.parametrize("kind", ["markup", "ansi", "bidi", "html"])
def test_profiles_and_validate_print_engine_text_as_text(kind: str) -> None:
    runner = CliRunner()
    done = runner.invoke(cli.app, ["profiles", "--engine", _wire("profile", kind)])
    assert done.exit_code == 0, done.output
    assert shown("lascuarenta" + PAYLOADS[kind]) in done.stdout and not RAW.search(done.stdout)
    done = runner.invoke(cli.app, ["validate", "--engine", _wire("name", kind)])
    assert done.exit_code == 0, done.output
    assert shown("eng" + PAYLOADS[kind]) in done.stdout and not RAW.search(done.stdout)


def test_compare_names_its_files_safely_and_keeps_its_scenario_titles_on_one_line(tmp_path: Path) -> None:
    text = feature_text(["  Scenario: x\n    Then seat 0 wins the trick\n"], "eng\n  Scenario: injected\x1b[2J")
    assert "Scenario: injected" not in text.replace("\\x0a  Scenario: injected", "")
    done = _run(
        "compare", "--engine", _wire("all", "html"), "--hands", "2", "--depth", "hand", "--no-scenarios",
        "--report-dir", str(tmp_path),
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode in (0, 1) and "Traceback" not in output, output[-3000:]
    assert not RAW.search(output) and shown("lascuarenta" + PAYLOADS["html"]) in output
    written = [path.name for path in tmp_path.iterdir() if path.name != LOCK_NAME]
    assert "fuzz.json" in written and all(SAFE_FILE.match(name) for name in written), written
    json.loads((tmp_path / "fuzz.json").read_bytes().decode("utf-8"))


# ------------------------------------------------------------------------------ the report folder


def test_a_report_folder_in_use_is_an_input_error_naming_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    _hostile_report("").dump(elsewhere)
    with FileLock(tmp_path / LOCK_NAME, timeout=0):
        done = CliRunner().invoke(cli.app, ["run", "--area", "deck", "--report-dir", str(tmp_path)])
        assert done.exit_code == 2, done.output
        assert f"--report-dir {tmp_path.resolve()}: another guinote-conformance command" in done.stderr
        assert "choose another --report-dir" in done.stderr
        done = CliRunner().invoke(cli.app, ["report", str(elsewhere), "--out", str(tmp_path)])
        assert done.exit_code == 2 and f"--out {tmp_path.resolve()}: another" in done.stderr, done.output
        assert "choose another --out" in done.stderr
        done = CliRunner().invoke(cli.app, ["compare", "--engine", "reference", "--report-dir", str(tmp_path)])
        assert done.exit_code == 2 and "choose another --report-dir" in done.stderr, done.output
    assert not {"results.json", "index.html", "fuzz.json"} & {path.name for path in tmp_path.iterdir()}


def test_a_later_run_replaces_the_earlier_reports_and_says_which(tmp_path: Path) -> None:
    _hostile_report("").dump(tmp_path / "results.json")
    done = _run("run", "--profile", "ludoteka", *SCENARIOS[:2], "-j", "1", "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"--report-dir {tmp_path.resolve()}: replacing the reports of the run started 2026-01-01T00:00:00Z" in (
        done.stdout
    )
    started = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["run"]["started"]
    assert started != "2026-01-01T00:00:00Z"
    # the report command rendering the folder's own results again replaces nothing else
    again = CliRunner().invoke(cli.app, ["report", str(tmp_path / "results.json"), "--out", str(tmp_path)])
    assert again.exit_code == 0 and "replacing" not in again.stdout
    # the folder is free again once a command ends
    with FileLock(tmp_path / LOCK_NAME, timeout=0):
        pass


# ------------------------------------------------------------------------------ the rulebook's results page


def test_the_rulebook_s_results_page_shows_engine_text_escaped(tmp_path: Path) -> None:
    from tests.docs.conftest import PROJECT, build, require

    require("sphinx")
    report = Report.load(REPO / "tests" / "docs" / "data" / "results.json")
    payload = PAYLOADS["ansi"] + PAYLOADS["html"] + PAYLOADS["bidi"]
    report.engines = [replace(entry, name="eng" + payload) for entry in report.engines]
    problem = next(index for index, result in enumerate(report.results) if result.status.is_problem)
    report.results[problem] = replace(report.results[problem], message="m" + payload)
    hostile = tmp_path / "hostile.json"
    report.dump(hostile)
    site = build(PROJECT, tmp_path / "site", {"GUINOTE_RESULTS": str(hostile)})
    assert site.status == 0, site.warnings
    page = site.page("other")
    assert not RAW.search(page) and "<img" not in page
    text = html.unescape(page)  # (Sphinx makes the payload's quotes typographic)
    for place in ("eng", "m"):  # the engine's name, a failure's message: visible, escaped
        assert place + shown(PAYLOADS["ansi"]) + "<script>alert(1)</script><img src=x" in text, place
    assert text.count(shown(PAYLOADS["bidi"])) >= 2
