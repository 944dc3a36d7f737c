"""The CLI as an engine author meets it first: exit codes, clear errors, selection, expectations, help.

Every test runs the command in a subprocess, as a user would, and checks the exit code of
:mod:`guinote_conformance.base.exit_codes` and the one-line message (never a traceback).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.protocol import PROTOCOL_VERSION
from guinote_conformance.base.exit_codes import ExitCode

REPO = Path(__file__).resolve().parents[2]
HOSTILE = f"{sys.executable} tests/protocol/hostile"
BROKEN = "serve:tests.broken_engines.engines:caballo_above_sota"  # breaks DECK-06


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def invoke(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in process (typer's runner), for the many mistakes caught before any engine runs."""
    from typer.testing import CliRunner

    from guinote_conformance.cli import app

    done = CliRunner().invoke(app, list(args))
    return subprocess.CompletedProcess(list(args), done.exit_code, done.stdout, done.stderr)


def assert_error(done: subprocess.CompletedProcess[str], code: ExitCode, *fragments: str) -> None:
    output = done.stdout + done.stderr
    assert done.returncode == code, f"exit {done.returncode}, expected {int(code)}\n{output}"
    assert "Traceback" not in output, output
    assert "error:" in done.stderr, output
    for fragment in fragments:
        assert fragment in output, f"{fragment!r} not in:\n{output}"


def results(folder: Path) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return list(data["results"])


# ------------------------------------------------------------------------------ exit 3: no engine


@pytest.mark.parametrize(
    ("command", "engine", "fragment"),
    [
        ("run", "cmd:./no-such-engine", "No such file or directory: './no-such-engine'"),
        ("profiles", f"cmd:{HOSTILE}/crash_at_start.py", "cannot load the rules table"),
        ("compare", f"cmd:{HOSTILE}/crash_at_start.py", "exited with status 3"),
        ("run", "cmd:echo hello", "the engine failed its handshake"),
    ],
)
def test_an_engine_that_cannot_start_exits_3_with_its_own_message(
    command: str, engine: str, fragment: str, tmp_path: Path
) -> None:
    extra = ["--report-dir", str(tmp_path)] if command in ("run", "compare") else []
    assert_error(cli(command, "--engine", engine, *extra), ExitCode.ENGINE_UNAVAILABLE, fragment)


def test_validate_and_smoke_exit_3_when_the_engine_cannot_start() -> None:
    for command in ("validate", "smoke"):
        done = cli(command, "--engine", "cmd:./no-such-engine")
        assert done.returncode == ExitCode.ENGINE_UNAVAILABLE, done.stdout + done.stderr
        assert "No such file or directory" in done.stdout and "Traceback" not in done.stdout + done.stderr


# ------------------------------------------------------------------------------ exit 2: usage and input


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--engine", "carrier-pigeon"], "unknown engine 'carrier-pigeon': use reference | py:"),
        (["--engine", "py:no_such_module:make"], "cannot import 'no_such_module'"),
        (["--engine", "cmd:"], "the command is empty"),
        (["--profile", "nope"], "has no profile 'nope'; its profiles: ludoteka"),
        (["--profile", "lascuarenta+nope"], "unknown overlay 'nope'"),
        (["--rule", "NOPE-99"], "--rule NOPE-99: no such rule"),
        (["--area", "poker"], "--area poker: no such area; areas: deck"),
        (["--scenario", "no such scenario*"], "no scenario matches --scenario no such scenario*"),
        (["--rule", "DECK-05", "--area", "cantes"], "no scenario matches --rule DECK-05 --area cantes"),
    ],
)
def test_a_usage_mistake_in_run_exits_2_and_says_what(args: list[str], fragment: str, tmp_path: Path) -> None:
    assert_error(invoke("run", *args, "--report-dir", str(tmp_path)), ExitCode.USAGE, fragment)


def test_a_report_dir_that_is_a_file_or_cannot_be_made_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert_error(cli("run", "--report-dir", str(blocker)), ExitCode.USAGE, "is a file, not a folder")
    assert_error(cli("run", "--report-dir", str(blocker / "sub")), ExitCode.USAGE, "cannot write there")


def test_report_on_a_missing_or_foreign_file_exits_2(tmp_path: Path) -> None:
    assert_error(cli("report", str(tmp_path / "missing.json")), ExitCode.USAGE, "missing.json: cannot read")
    text = tmp_path / "notes.json"
    text.write_text("hello\n", encoding="utf-8")
    assert_error(cli("report", str(text)), ExitCode.USAGE, "notes.json:1: not a results file (not JSON")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}\n', encoding="utf-8")
    assert_error(cli("report", str(other)), ExitCode.USAGE, "not a guinote-conformance results file")


# ------------------------------------------------------------------------------ expectations


def expectations(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "known.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('[[expect]]\nrule = "NOPE-01"\nreason = "x"\n', 2, "unknown rule 'NOPE-01'"),
        ('[[expect]]\nrule = "DECK-05"\nprofile = "nope*"\nreason = "x"\n', 3, "profile 'nope*' matches none"),
        ('[[expect]]\nrule = "DECK-05"\nreason = "x"\nsenario = "deck::*"\n', 4, "unknown key 'senario'"),
        ('[[expect]]\nrule = "DECK-05"\nstatus = "broken"\nreason = "x"\n', 3, "unknown status 'broken'"),
        ('[[expect]]\nscenario = "deck::No such*"\nreason = "x"\n', 2, "scenario 'deck::No such*' matches no"),
        ('[[expect]]\nrule = "DECK-05"\nreason = 12\n', 3, "reason must be a string, not int 12"),
        ('\n[[expect]]\nrule = "DECK-05"\n', 2, "the entry needs a reason"),
        ('[[expect]]\nrule = "DECK-05"\nreason = "a"\n\n[[expect]]\nrule = ["DECK-05"]\nreason = "b"\n', 6, "string"),
    ],
)
def test_a_wrong_expectations_file_exits_2_naming_file_and_line(
    text: str, line: int, fragment: str, tmp_path: Path
) -> None:
    path = expectations(tmp_path, text)
    done = invoke("run", "--expectations", str(path), "--report-dir", str(tmp_path / "reports"))
    assert_error(done, ExitCode.USAGE, f"{path}:{line}: ", fragment)


def test_a_rule_entry_may_fail_in_part_and_a_stale_entry_fails_the_run(tmp_path: Path) -> None:
    # caballo_above_sota fails one of the two DECK-06 scenarios and none of DECK-05
    selection = ["--engine", BROKEN, "--profile", "lascuarenta", "--rule", "DECK-06", "--jobs", "1"]
    partial = expectations(tmp_path, '[[expect]]\nrule = "DECK-06"\nreason = "Caballo above Sota (issue 1)"\n')
    done = cli("run", *selection, "--expectations", str(partial), "--report-dir", str(tmp_path / "a"))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    assert sorted(r["status"] for r in results(tmp_path / "a")) == ["pass", "xfail"]

    two = '[[expect]]\nrule = "DECK-06"\nreason = "a"\n\n[[expect]]\nrule = "DECK-05"\nreason = "b"\n'
    stale = expectations(tmp_path, two)
    selection[-3:-2] = ["DECK-06", "--rule", "DECK-05"]
    done = cli("run", *selection, "--expectations", str(stale), "--report-dir", str(tmp_path / "b"))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    assert f"stale expectation {stale}:5" in done.stdout and f"{stale}:1" not in done.stdout


def test_an_entry_for_one_scenario_that_passes_is_an_xpass(tmp_path: Path) -> None:
    path = expectations(tmp_path, '[[expect]]\nscenario = "deck::The Caballo beats the 7"\nreason = "x"\n')
    done = cli("run", "--engine", BROKEN, "--profile", "lascuarenta", "--rule", "DECK-06", "--jobs", "1",
               "--expectations", str(path), "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    assert sorted(r["status"] for r in results(tmp_path)) == ["fail", "xpass"]


# ------------------------------------------------------------------------------ selection and profiles


def test_select_by_rule_id_and_by_area(tmp_path: Path) -> None:
    done = cli("run", "--rule", "CANTE-05", "--profile", "lascuarenta", "--jobs", "1", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    ran = results(tmp_path)
    assert ran and all("CANTE-05" in r["rules"] for r in ran)
    done = cli("run", "--area", "deck", "--profile", "ludoteka", "--jobs", "1", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    ran = results(tmp_path)
    assert "features/deck.feature" in {r["feature"] for r in ran}
    assert all(any(rule.startswith("DECK-") for rule in r["rules"]) for r in ran)


def test_an_overlay_combines_with_a_profile_of_the_reference(tmp_path: Path) -> None:
    done = cli("run", "--profile", "lascuarenta+mano_a_mano", "--area", "two_players", "--jobs", "1",
               "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    ran = results(tmp_path)
    assert {r["profile"] for r in ran} == {"lascuarenta+mano_a_mano"}
    assert {r["flags"]["players"] for r in ran} == {"2"} and "pass" in {r["status"] for r in ran}


def test_profiles_lists_the_overlays() -> None:
    done = cli("profiles")
    assert done.returncode == ExitCode.OK, done.stderr
    assert "Overlays" in done.stdout and "mano_a_mano" in done.stdout and "players=2" in done.stdout


@pytest.mark.parametrize(
    "engine", ["reference", "py:guinote_conformance.adapters.reference:ReferenceEngine", "serve:reference"]
)
def test_validate_and_smoke_take_every_engine_spec_run_takes(engine: str) -> None:
    for command in ("validate", "smoke"):
        done = cli(command, "--engine", engine)
        assert done.returncode == ExitCode.OK, done.stdout + done.stderr
        assert "PROBLEM" not in done.stdout and "summary" in done.stdout


# ------------------------------------------------------------------------------ help and version


def test_version_names_the_package_and_the_protocol() -> None:
    done = cli("--version")
    assert done.returncode == ExitCode.OK
    assert done.stdout.startswith("guinote-conformance 0.") and f"GCP/{PROTOCOL_VERSION}" in done.stdout


def test_help_has_readable_placeholders_an_example_per_command_and_the_exit_codes() -> None:
    top = cli("--help")
    assert top.returncode == ExitCode.OK
    assert all(f"  {int(code)}  " in top.stdout for code in ExitCode)
    commands = ["run", "rules", "profiles", "flags", "validate", "smoke", "export", "compare", "report"]
    for command in commands:  # in process: the top help above vouches for the installed command
        done = invoke(command, "--help")
        assert done.returncode == ExitCode.OK, done.stderr
        assert "<" not in done.stdout.replace("<command line>", ""), done.stdout  # no <list[str]>, <bool>
        assert f"guinote-conformance {command}" in done.stdout.split("Examples:")[1], command
    run_help = invoke("run", "--help").stdout
    assert "--profile NAME[+OVERLAY]" in run_help and "--rule RULE-ID" in run_help and "Exit codes:" in run_help


# ------------------------------------------------------------------------------ capabilities


def test_reason_codes_declared_for_one_area_are_checked_there_only(tmp_path: Path) -> None:
    selection = ["--profile", "lascuarenta", "--area", "arrastre", "--area", "cantes", "--jobs", "1"]
    done = cli("run", "--engine", "py:tests.harness.partial_codes_engine:make", *selection,
               "--report-dir", str(tmp_path / "a"))  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout[-3000:] + done.stderr
    done = cli("run", "--engine", "py:tests.harness.partial_codes_engine:make_wrong", *selection,
               "--report-dir", str(tmp_path / "b"))  # fmt: skip
    assert done.returncode == ExitCode.RULE_FAILURES
    failed = [r for r in results(tmp_path / "b") if r["status"] == "fail"]
    assert failed and all(any(rule.startswith("ARR-") for rule in r["rules"]) for r in failed)
    assert all("E_MY_OWN_CODE" in r["message"] for r in failed)


def test_validate_checks_the_members_the_scenarios_read_and_says_what_it_exercised() -> None:
    done = cli("validate", "--engine", f"cmd:{HOSTILE}/misnamed_members.py")
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    assert "'seat' is a required property" in done.stdout and "$.events[" in done.stdout
    assert "state field 'phase'" in done.stdout and "fields.json" in done.stdout
    clean = cli("validate", "--engine", "reference").stdout
    assert "exercised the commands hello, start, legal, apply, state, observe, end, stop" in clean
    assert "trick_won" in clean and "state fields" in clean


def test_validate_and_smoke_deal_explicitly_to_an_engine_that_refuses_deck_orders() -> None:
    for command in ("validate", "smoke"):
        done = cli(command, "--engine", "serve:py:tests.harness.explicit_deal_engine:make")
        assert done.returncode == ExitCode.OK, done.stdout + done.stderr
        assert "refused a deck order" in done.stdout and "PROBLEM" not in done.stdout


def test_a_feature_file_that_does_not_parse_is_an_input_error_naming_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # in process (typer's runner): the packaged features are swapped for a broken one
    from typer.testing import CliRunner

    from guinote_conformance.catalogue import features as catalogue
    from guinote_conformance.cli import app

    (tmp_path / "broken.feature").write_text("Feature: Broken\n  Scenario: x\n    Given a deal\n  Nonsense\n")
    monkeypatch.setattr(catalogue, "default_root", lambda: tmp_path)
    for command in (["run", "--report-dir", str(tmp_path / "reports")], ["rules"], ["export"]):
        done = CliRunner().invoke(app, command)
        assert done.exit_code == ExitCode.USAGE, (command, done.output)
        assert f"{tmp_path / 'broken.feature'}:4" in done.output and "Traceback" not in done.output


def test_an_undeclared_flag_value_in_a_feature_file_is_an_input_error_naming_the_tags_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # not a run where the scenario is not applicable under every profile, and the run passes
    from typer.testing import CliRunner

    from guinote_conformance.catalogue import features as catalogue
    from guinote_conformance.catalogue.rule_index import default_root
    from guinote_conformance.cli import app

    seven = (default_root() / "seven.feature").read_text(encoding="utf-8")
    tag = "@seven_exchange_window=while_muestra_visible"
    line = seven.splitlines().index(next(row for row in seven.splitlines() if tag in row)) + 1
    (tmp_path / "seven.feature").write_text(seven.replace(tag, "@seven_exchange_window=while_visible", 1))
    monkeypatch.setattr(catalogue, "default_root", lambda: tmp_path)
    for command in (["run", "--report-dir", str(tmp_path / "reports"), "--area", "seven"], ["rules"], ["export"]):
        done = CliRunner().invoke(app, command)
        assert done.exit_code == ExitCode.USAGE, (command, done.output)
        assert f"{tmp_path / 'seven.feature'}:{line}: @seven_exchange_window=while_visible: unknown value" in (
            done.output
        ), (command, done.output)
        assert "Traceback" not in done.output


# ------------------------------------------------------------------------------ --features: an author's own files

OWN = """\
Feature: Mine
  @DECK-06
  Scenario: The Sota beats the Caballo
    Given a hand in the free phase, muestra Rb, seat 0 to lead:
      | seat 0 | So 2c 3c 4c 5c 6c |
      | seat 1 | Co 2e 3e 4e 5e 6e |
      | seat 2 | 4o 2b 3b 4b 5b 6b |
      | seat 3 | 5o 7c Rc Sc Cc Ac |
    When these tricks are played:
      | So Co 4o 5o |
    Then seat 0 wins the trick
"""


@pytest.mark.parametrize(
    ("files", "args", "fragments"),
    [
        ({}, ["--features", "{tmp}/nowhere"], ["--features {tmp}/nowhere: no such file or folder"]),
        ({"notes.txt": "hello"}, ["--features", "{tmp}"], ["--features {tmp}: no .feature file in this folder"]),
        ({"fuzz.json": "{}"}, ["--features", "{tmp}/fuzz.json"], ["{tmp}/fuzz.json: not a .feature file"]),
        (
            {"mine.feature": OWN.replace("    When these", "  Nonsense\n    When these")},
            ["--features", "{tmp}/mine.feature"],
            ["--features {tmp}/mine.feature: the file does not parse: {tmp}/mine.feature:9:"],
        ),
        (
            {"mine.feature": OWN.replace("@DECK-06", "@DECK-99")},
            ["--features", "{tmp}"],
            ["--features {tmp}: {tmp}/mine.feature:3: no such rule DECK-99"],
        ),
        (
            {"mine.feature": OWN.replace("@DECK-06", "@no_such_flag=1")},
            ["--features", "{tmp}"],
            ["{tmp}/mine.feature:2: @no_such_flag=1: unknown flag"],
        ),
        ({"mine.feature": "Feature: Nothing yet\n"}, ["--features", "{tmp}"], ["--features {tmp}: no scenario in"]),
        (
            {"mine.feature": OWN},
            ["--features", "{tmp}", "--rule", "CANTE-01"],
            ["no scenario of --features {tmp} matches --rule CANTE-01"],
        ),
        (
            {"mine.feature": OWN},
            ["--features", "{tmp}", "--scenario", "features/deck.feature:8"],
            ["--scenario features/deck.feature:8: features/deck.feature is not one of the files of --features {tmp}"],
        ),
        (
            {"mine.feature": OWN},
            ["--features", "{tmp}", "--scenario", "{tmp}/mine.feature:4"],
            ["no scenario starts at line 4 of {tmp}/mine.feature; the nearest starts at line 3"],
        ),
        (
            {"mine.feature": OWN},
            ["--features", "{tmp}", "--language", "es"],
            ["--language es translates only the suite's own scenarios"],
        ),
    ],
)
def test_a_mistake_with_own_features_exits_2_before_any_engine_starts_and_says_where(
    files: dict[str, str], args: list[str], fragments: list[str], tmp_path: Path
) -> None:
    own = tmp_path / "own"
    own.mkdir()
    for name, text in files.items():
        (own / name).write_text(text, encoding="utf-8")
    filled = [arg.replace("{tmp}", str(own)) for arg in args]
    done = invoke("run", "--engine", "cmd:./no-such-engine", *filled, "--report-dir", str(tmp_path / "r"))
    assert_error(done, ExitCode.USAGE, *(fragment.replace("{tmp}", str(own)) for fragment in fragments))


def test_a_scenario_of_the_suite_points_to_features_for_a_file_of_ones_own(tmp_path: Path) -> None:
    mine = tmp_path / "mine.feature"
    mine.write_text(OWN, encoding="utf-8")
    done = invoke("run", "--scenario", f"{mine}:3", "--report-dir", str(tmp_path / "r"))
    assert_error(done, ExitCode.USAGE, f"{mine} is not one of the suite's feature files", "--features runs your own")
