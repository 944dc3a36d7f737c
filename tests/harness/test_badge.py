"""``guinote-conformance badge``: well-formed SVG naming the suite and protocol versions and the
applicable runs that pass (not applicable ones not counted), coloured by the verdict; engine text
escaped; one ``error:`` line for a wrong option."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.cli import app
from guinote_conformance.report.badge import GREEN, GREY, ORANGE, RED, badge_of, tally, text_width
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import EngineEntry, Report, SuiteInfo
from guinote_conformance.results.status import Status

SVG = "{http://www.w3.org/2000/svg}"


def _result(status: Status, profile: str = "ludoteka", n: int = 0) -> CaseResult:
    return CaseResult(f"deck::s{n}", f"s{n}", "features/deck.feature", n, ("DECK-01",), "cmd:./e", profile, status)


def _report(*statuses: Status, profile: str = "ludoteka", name: str = "mine") -> Report:
    return Report(
        engines=[EngineEntry("cmd:./e", name, "2.0", "rust", {profile: {}})],
        suite=SuiteInfo(commit="abc123", protocol=2),
        results=[_result(status, profile, n) for n, status in enumerate(statuses)],
    )


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return [node.text or "" for node in root.iter(f"{SVG}text")]


def test_the_badge_counts_passed_of_applicable_and_names_the_versions() -> None:
    many = [Status.PASS] * 1236 + [Status.NOT_APPLICABLE] * 40
    made = badge_of(_report(*many))
    texts = _texts(made.svg())
    assert "guiñote 0.1.0 GCP/2" in texts and "1,236/1,236 passing" in texts
    assert made.colour == GREEN
    title = ET.fromstring(made.svg()).find(f"{SVG}title")
    assert title is not None and "40 not applicable, not counted" in (title.text or "")
    assert "mine 2.0" in (title.text or "") and "commit abc123" in (title.text or "")


def test_failing_runs_turn_it_red_and_runs_not_played_orange() -> None:
    failing = badge_of(_report(Status.PASS, Status.FAIL, Status.TIMEOUT, Status.NOT_RUN))
    assert (failing.value, failing.colour) == ("1/4 passing, 2 failing", RED)
    unplayed = badge_of(_report(Status.PASS, Status.NOT_RUN))
    assert (unplayed.value, unplayed.colour) == ("1/2 passing, 1 not run", ORANGE)
    known = badge_of(_report(Status.PASS, Status.XFAIL))
    assert (known.value, known.colour) == ("1/2 passing, 1 known failures", ORANGE)
    nothing = badge_of(_report(Status.NOT_APPLICABLE))
    assert (nothing.value, nothing.colour) == ("no applicable runs", GREY)
    assert tally([_result(Status.XPASS)]).failing == 1


def test_a_profile_badge_counts_that_profile_and_escapes_its_name() -> None:
    hostile = "<script>alert(1)</script>\x1b"
    report = _report(Status.PASS, Status.FAIL, profile=hostile, name="<b>x</b>")
    report.results.append(dataclasses.replace(_result(Status.PASS, "other", 9)))
    svg = badge_of(report, profile=hostile).svg()
    assert "<script>" not in svg and "<b>x" not in svg and "\x1b" not in svg
    texts = _texts(svg)
    assert "guiñote 0.1.0 GCP/2 · <script>alert(1)</script>\\x1b" in texts  # escaped in the file, text when parsed
    assert "1/2 passing, 1 failing" in texts
    assert "1/1 passing" in _texts(badge_of(report, profile="other").svg())


def test_the_text_width_grows_with_the_text() -> None:
    assert 0 < text_width("1/1 passing") < text_width("1,236/1,236 passing")
    assert text_width("ñ") == text_width("n") and text_width("漢") == 2 * text_width("n")


def test_the_badge_command_writes_the_file_and_names_a_wrong_option(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    _report(Status.PASS, Status.FAIL).dump(results)
    out = tmp_path / "badge.svg"
    done = CliRunner().invoke(app, ["badge", str(results), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "1/2 passing, 1 failing" in _texts(out.read_text(encoding="utf-8"))
    for args, said in (
        (["--profile", "nope"], "--profile 'nope': the file has 'ludoteka'"),
        (["--engine", "cmd:./other"], "--engine 'cmd:./other': the file has 'cmd:./e'"),
        (["--out", str(tmp_path / "no" / "such" / "folder.svg")], "cannot write"),
    ):
        done = CliRunner().invoke(app, ["badge", str(results), *args])
        assert done.exit_code == ExitCode.USAGE and said in done.output, done.output
        assert len(done.output.strip().splitlines()) == 1 and done.output.startswith("error: ")
    two = _report(Status.PASS)
    two.engines.append(EngineEntry("cmd:./f", "f", "1", "go"))
    two.results.append(dataclasses.replace(_result(Status.FAIL, n=5), engine="cmd:./f"))
    two.dump(results)
    done = CliRunner().invoke(app, ["badge", str(results), "--out", str(out)])
    assert done.exit_code == ExitCode.USAGE and "holds 2 engines" in done.output and "--engine" in done.output
    done = CliRunner().invoke(app, ["badge", str(results), "--engine", "cmd:./f", "--out", str(out)])
    assert done.exit_code == 0 and "0/1 passing, 1 failing" in _texts(out.read_text(encoding="utf-8"))
