"""The options that make a run read like pytest's, and the limit on an engine's start.

The account of a run (a short header, the failures by likely cause, the closing summary ending
with the likely causes and the command that re-runs the failures); ``--start-timeout`` (every
command that starts an engine), ``-x`` / ``--maxfail``, ``-q`` / ``-v`` / ``-vv``, ``--lf``,
``--features`` (an author's own feature files, such as the one ``compare`` writes); every numeric
option checked; ``--scenario FILE:LINE``, ``--features`` and an undefined step each with an error
of its own (exit 2, never blamed on the engine). Each test runs the command as a user would
(in a subprocess, or in process for the mistakes caught before any engine starts) on a selection
small enough to take a few seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import Report
from guinote_conformance.results.status import Status
from tests.harness.test_cli_errors import assert_error, cli, invoke

REPO = Path(__file__).resolve().parents[2]
#: serves the reference after sleeping 1 s: an engine that starts slowly
SLOW = f"cmd:{sys.executable} tests/protocol/hostile/slow_start.py 1"
#: gives a trick to a card of a third suit: of these rules it fails two scenarios (deck.feature:32 of
#: DECK-05 and :204 of DECK-11), and passes the rest (SCORE-01's come after them)
BROKEN = "serve:tests.broken_engines.engines:third_suit_wins"
DECK = ["--profile", "lascuarenta", "--symmetries", "none", "--jobs", "1"]
DECK += [argument for rule in ("DECK-05", "DECK-06", "DECK-11", "SCORE-01") for argument in ("--rule", rule)]


def results(folder: Path) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return list(data["results"])


def statuses(folder: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for result in results(folder):
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    return counts


# ------------------------------------------------------------------------------ --start-timeout


def test_an_engine_slower_to_start_than_the_start_timeout_exits_3_saying_how_to_give_it_longer(
    tmp_path: Path,
) -> None:
    done = cli("run", "--engine", SLOW, "--start-timeout", "0.5", "--rule", "DECK-05", "--report-dir", str(tmp_path))
    assert_error(
        done, ExitCode.ENGINE_UNAVAILABLE, "no answer within 0.5 s (request 'hello'", "--start-timeout SECONDS"
    )


def test_a_longer_start_timeout_lets_a_slow_engine_play_in_run_and_in_the_plugin_it_starts(tmp_path: Path) -> None:
    # the run reads the handshake, then the plugin opens the engine again: both with the limit given
    done = cli("run", "--engine", SLOW, "--start-timeout", "6", "--profile", "lascuarenta", "--rule", "DECK-05",
               "--jobs", "1", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    assert set(statuses(tmp_path)) == {"pass"}


@pytest.mark.parametrize("command", ["compare", "validate", "smoke", "profiles"])
def test_every_command_that_starts_an_engine_takes_the_start_timeout(command: str, tmp_path: Path) -> None:
    extra = ["--report-dir", str(tmp_path)] if command == "compare" else []
    done = cli(command, "--engine", SLOW, "--start-timeout", "0.5", *extra)
    assert done.returncode == ExitCode.ENGINE_UNAVAILABLE, done.stdout + done.stderr
    assert "within 0.5 s" in done.stdout + done.stderr and "Traceback" not in done.stdout + done.stderr


# ------------------------------------------------------------------------------ every number checked


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "--jobs", "-2"], "--jobs -2: must be 1 or more"),
        (["run", "--jobs", "0"], "--jobs 0: must be 1 or more"),
        (["run", "--maxfail", "-1"], "--maxfail -1: must be 0 or more"),
        (["run", "--start-timeout", "0"], "--start-timeout 0: a number of seconds must be finite and greater than 0"),
        (["run", "--start-timeout", "nan"], "--start-timeout nan: a number of seconds must be finite"),
        (["run", "--timeout", "-1"], "--timeout -1: a number of seconds"),
        (["run", "-q", "-v"], "-q and -v: choose one"),
        (["compare", "-e", "reference", "--jobs", "-2"], "--jobs -2: must be 0 or more"),
        (["compare", "-e", "reference", "--hands", "0"], "--hands 0: must be 1 or more"),
        (["compare", "-e", "reference", "--batch", "-1"], "--batch -1: must be 0 or more"),
        (["compare", "-e", "reference", "--window", "-4"], "--window -4: must be 0 or more"),
        (["compare", "-e", "reference", "--timeout", "0"], "--timeout 0: a number of seconds"),
        (["compare", "-e", "reference", "--start-timeout", "-3"], "--start-timeout -3: a number of seconds"),
        (["replay", "x.json", "--start-timeout", "inf"], "--start-timeout inf: a number of seconds"),
        (["validate", "-e", "reference", "--start-timeout", "0"], "--start-timeout 0: a number of seconds"),
        (["realise", "--jobs", "-2"], "--jobs -2: must be 1 or more"),
        (["realise", "--seconds", "nan"], "--seconds nan: a number of seconds must be finite"),
        (["run", "--budget", "-1"], "--budget -1: a number of seconds"),
        (["run", "--max-engine-failures", "-1"], "--max-engine-failures -1: must be 0 or more"),
        (["compare", "-e", "reference", "--seconds", "0"], "--seconds 0: a number of seconds"),
    ],
)
def test_a_wrong_number_is_an_error_naming_the_option(args: list[str], fragment: str, tmp_path: Path) -> None:
    extra = ["--report-dir", str(tmp_path)] if args[0] in ("run", "compare") else []
    assert_error(invoke(*args, *extra), ExitCode.USAGE, fragment)


# ------------------------------------------------------------------------------ -x, --maxfail


@pytest.mark.parametrize(("option", "failing", "said"), [(["-x"], 1, "(-x)"), (["--maxfail", "2"], 2, "(--maxfail 2)")])
def test_a_run_stopped_at_its_nth_failure_reports_the_rest_as_not_run_and_says_so(
    option: list[str], failing: int, said: str, tmp_path: Path
) -> None:
    done = cli("run", "--engine", BROKEN, *DECK, *option, "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    counts = statuses(tmp_path)
    assert counts.get("fail") == failing and counts.get("not_run", 0) > 0, counts
    assert set(counts) <= {"pass", "fail", "not_run"}
    report = Report.load(tmp_path / "results.json")  # the results file still loads
    stopped = [r for r in report.results if r.status.value == "not_run"]
    assert all(f"the run was stopped early, after {failing} failing" in r.message for r in stopped)
    assert f"STOPPED EARLY {said} after {failing} failing scenario run" in done.stdout
    assert "error:" not in done.stderr, done.stderr  # a stop asked for is not a run that broke
    assert "the run was stopped early" in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "not run" in (tmp_path / "junit.xml").read_text(encoding="utf-8")


# ------------------------------------------------------------------------------ -q, -v


#: the limited engine plays only forty cards: the scenarios of DECK-04 for 36 and 48 are not applicable
LIMITED = ["--engine", "py:tests.harness.limited_engine:make", "--rule", "DECK-04", "--rule", "DECK-05", "--jobs", "1"]


def test_quiet_leaves_out_the_table_and_verbose_gives_the_reasons_of_the_runs_not_applicable(tmp_path: Path) -> None:
    default = cli("run", *LIMITED, "--report-dir", str(tmp_path / "default"))
    quiet = cli("run", *LIMITED, "-q", "--report-dir", str(tmp_path / "quiet"))
    verbose = cli("run", *LIMITED, "-v", "--report-dir", str(tmp_path / "verbose"))
    assert default.returncode == quiet.returncode == verbose.returncode == ExitCode.OK, default.stdout + quiet.stderr
    assert "Results by rule area" in default.stdout and "Results by rule area" not in quiet.stdout
    for done in (default, quiet):  # the reasons counted, in one line at each end of the run
        assert " not applicable: " not in done.stdout
        assert "not applicable by the engine's declaration (-v: why)" in done.stdout
        assert " not applicable, for " in done.stdout and " (-v lists them; results.json has each run's)" in done.stdout
    reason = "engine limited does not support deck="
    assert reason not in default.stdout and reason not in quiet.stdout
    assert f" {reason}" in verbose.stdout and f" not applicable: {reason}" in verbose.stdout  # the header, the end
    assert "PASSED: " in quiet.stdout and len(quiet.stdout.splitlines()) < len(default.stdout.splitlines())


def test_verbose_gives_one_line_per_scenario_run(tmp_path: Path) -> None:
    done = cli("run", *LIMITED, "-v", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    ran = results(tmp_path)
    lines = [line for line in done.stdout.splitlines() if line.startswith(("✔ pass ", "⊘ not applicable ")) and
             " features/" in line]  # fmt: skip
    assert sorted(lines) == sorted(
        f"{'✔' if r['status'] == 'pass' else '⊘'} {r['status'].replace('_', ' '):<14} {r['feature']}:{r['line']}  "
        f"{r['scenario']}  [{r['profile']}]"
        for r in ran
    )
    assert {r["status"] for r in ran} == {"pass", "not_applicable"}


# ------------------------------------------------------------------------------ --lf


def test_lf_runs_again_only_the_runs_that_failed_in_that_report_folder(tmp_path: Path) -> None:
    first = cli("run", "--engine", BROKEN, *DECK, "--report-dir", str(tmp_path))
    assert first.returncode == ExitCode.RULE_FAILURES, first.stdout + first.stderr
    failed = sorted((r["id"], r["profile"]) for r in results(tmp_path) if r["status"] == "fail")
    assert len(failed) == 2 and len(results(tmp_path)) > 2 * len(failed)
    again = cli("run", "--engine", BROKEN, *DECK, "--lf", "--report-dir", str(tmp_path))
    assert again.returncode == ExitCode.RULE_FAILURES, again.stdout + again.stderr
    assert sorted((r["id"], r["profile"]) for r in results(tmp_path)) == failed
    assert f"--lf: only the 2 scenario runs that failed in the last run in {tmp_path}" in again.stdout


def test_lf_when_no_run_that_failed_is_among_this_runs_exits_2(tmp_path: Path) -> None:
    failed = CaseResult(
        "deck::The 4 beats the 2, the lowest card",
        "The 4 beats the 2, the lowest card",
        "features/deck.feature",
        32,
        ("DECK-05",),
        "cmd:./another-engine",
        "lascuarenta",
        Status.FAIL,
    )
    Report(results=[failed]).dump(tmp_path / "results.json")
    done = invoke("run", "--engine", "reference", "--lf", "--report-dir", str(tmp_path))
    assert_error(done, ExitCode.USAGE, f"--lf: none of the 1 scenario runs that failed in the last run in {tmp_path}")


def test_lf_without_a_readable_last_run_exits_2(tmp_path: Path) -> None:
    assert_error(invoke("run", "--lf", "--report-dir", str(tmp_path)), ExitCode.USAGE, "--lf: ", "no results file")
    (tmp_path / "results.json").write_text("{not json\n", encoding="utf-8")
    assert_error(invoke("run", "--lf", "--report-dir", str(tmp_path)), ExitCode.USAGE, "results.json:1: not a results")


# ------------------------------------------------------------------------------ --scenario and undefined steps


def test_a_scenario_location_that_cannot_select_says_why(tmp_path: Path) -> None:
    def mistake(location: str, *fragments: str) -> None:
        done = invoke("run", "--scenario", location, "--report-dir", str(tmp_path / "r"))
        assert_error(done, ExitCode.USAGE, f"--scenario {location}: ", *fragments)
        assert "no scenario matches" not in done.stderr

    mistake("features/no_such.feature:12", "no such file features/no_such.feature")
    broken = tmp_path / "broken.feature"
    broken.write_text("Feature: Broken\n  Scenario: x\n    Given a deal\n  Nonsense\n", encoding="utf-8")
    mistake(f"{broken}:2", "the file does not parse", f"{broken}:4")
    mine = tmp_path / "mine.feature"
    mine.write_text("Feature: Mine\n  Scenario: x\n    Given a deal\n", encoding="utf-8")
    mistake(f"{mine}:2", "is not one of the suite's feature files")
    mistake("features/deck.feature:3", "no scenario starts at line 3 of features/deck.feature; the nearest starts")


UNDEFINED = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from typer.testing import CliRunner

    import guinote_conformance.catalogue.features as catalogue
    import guinote_conformance.run.language as language
    from guinote_conformance.cli import app

    folder = Path(sys.argv[1])
    catalogue.default_root = language.default_root = lambda: folder  # the suite's features, one step undefined
    done = CliRunner().invoke(app, ["run", "--area", "deck", "--profile", "lascuarenta", "--jobs", "1",
                                    "--report-dir", str(folder / "reports")])
    print(done.output)
    sys.exit(done.exit_code)
    """
)


def test_an_undefined_step_in_a_feature_stops_the_run_at_its_line_and_is_not_blamed_on_the_engine(
    tmp_path: Path,
) -> None:
    from guinote_conformance.catalogue.rule_index import default_root

    lines = (default_root() / "deck.feature").read_text(encoding="utf-8").splitlines()
    index = next(number for number, text in enumerate(lines) if text.strip().startswith("When "))
    lines[index] = lines[index].replace("When ", "When the moon rises and ", 1)
    (tmp_path / "deck.feature").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", UNDEFINED, str(tmp_path)], cwd=REPO, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.USAGE, output
    assert f"{tmp_path / 'deck.feature'}:{index + 1}: undefined step: When the moon rises and " in output
    assert "Traceback" not in output and "check the harness" not in output
    assert not (tmp_path / "reports" / "results.json").exists()  # no engine was blamed: no run was played


# ------------------------------------------------------------------------------ --flag


def test_a_flag_value_is_played_over_the_profile_and_a_scenario_tagged_otherwise_is_not_applicable(
    tmp_path: Path,
) -> None:
    done = cli("run", "--engine", "reference", "--profile", "ludoteka", "--flag", "cante_per_trick=many",
               "--area", "cantes", "--symmetries", "none", "--jobs", "1", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    found = results(tmp_path)
    assert {result["profile"] for result in found} == {"ludoteka+cante_per_trick=many"}
    tagged = [r for r in found if r["status"] == "not_applicable"]
    assert tagged and all("--flag cante_per_trick=many changes it" in r["message"] for r in tagged)
    assert statuses(tmp_path).get("pass", 0) > len(tagged)


@pytest.mark.parametrize(
    ("flag", "fragment"),
    [
        ("cante_per_trick=three", "unknown value 'three' for flag 'cante_per_trick'; valid values: many, one"),
        ("no_such_flag=1", "unknown flag 'no_such_flag'; valid flags: cante_order"),
        ("cante_per_trick", "--flag 'cante_per_trick': write NAME=VALUE"),
    ],
)
def test_a_flag_the_suite_does_not_declare_is_an_error_naming_the_choices(
    flag: str, fragment: str, tmp_path: Path
) -> None:
    assert_error(invoke("run", "--flag", flag, "--report-dir", str(tmp_path)), ExitCode.USAGE, fragment)


def test_a_flag_over_several_engines_needs_their_profiles_named(tmp_path: Path) -> None:
    done = invoke(
        "run", "-e", "reference", "-e", "reference", "--flag", "tute=wins_point", "--report-dir", str(tmp_path)
    )
    assert_error(done, ExitCode.USAGE, "--flag with several engines: name the profiles")


# ------------------------------------------------------------------------------ --profile-file

CLUB = """\
# a club's rules
name = "cierzo"
base = "ludoteka"
[flags]
cante_per_trick = "one"
tute = "wins_point"
deal = "one_by_one"
"""


def test_a_clubs_profile_file_plays_its_values_over_the_base_profile(tmp_path: Path) -> None:
    club = tmp_path / "cierzo.toml"
    club.write_text(CLUB, encoding="utf-8")
    done = cli("run", "--engine", "reference", "--profile-file", str(club), "--area", "cantes",
               "--symmetries", "none", "--jobs", "1", "--report-dir", str(tmp_path / "r"))  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    # only what the club plays otherwise than the engine's ludoteka (whose deal is one_by_one already)
    assert f"--profile-file {club} (cierzo): plays ludoteka+cante_per_trick=one+tute=wins_point" in done.stdout
    assert {r["profile"] for r in results(tmp_path / "r")} == {"ludoteka+cante_per_trick=one+tute=wins_point"}
    assert statuses(tmp_path / "r").get("pass", 0) > 0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (CLUB.replace('"one"', '"several"'), "cierzo.toml:5: unknown value 'several' for flag 'cante_per_trick'"),
        (CLUB.replace("tute =", "no_such_flag ="), "cierzo.toml:6: unknown flag 'no_such_flag'"),
        (CLUB.replace("[flags]", "[flag]"), "cierzo.toml:4: unknown key 'flag': use name, base and [flags]"),
        (CLUB.replace('tute = "wins_point"', "tute = "), "cierzo.toml:6: not TOML"),
        (CLUB.replace('"cierzo"', '"<b>x</b>"'), "cierzo.toml:2: name '<b>x</b>': letters, digits"),
        (CLUB.replace('"ludoteka"', '"nope"'), "engine guinote-reference has no profile 'nope'"),
    ],
)
def test_a_mistake_in_a_profile_file_is_an_error_naming_its_line(text: str, fragment: str, tmp_path: Path) -> None:
    club = tmp_path / "cierzo.toml"
    club.write_text(text, encoding="utf-8")
    assert_error(
        invoke("run", "--profile-file", str(club), "--report-dir", str(tmp_path / "r")), ExitCode.USAGE, fragment
    )


def test_a_profile_file_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    done = invoke("run", "--profile-file", str(tmp_path / "none.toml"), "--report-dir", str(tmp_path / "r"))
    assert_error(done, ExitCode.USAGE, "none.toml: cannot be read")


# ------------------------------------------------------------------------------ the account of a run


def test_a_failing_run_reads_like_pytests_and_ends_with_its_likely_causes_and_the_command_for_its_failures(
    tmp_path: Path,
) -> None:
    """A short header, plain progress (the output is not a terminal), the failures under their likely
    cause, the table, the verdict, the reports, and last the likely causes and the ``--lf`` command,
    which plays only the failures again."""
    done = cli("run", "--engine", BROKEN, *DECK, "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    failures = lines.index("== Failures, by likely cause (2 failure blocks for 2 runs) ==")
    header = lines[: next(i for i, line in enumerate(lines) if line.startswith("played "))]
    assert len(header) <= 10 and header[0].startswith("engine broken-third_suit_wins"), header
    assert not any(line.startswith("scenarios (") for line in lines)  # no live bar in a pipe: a plain line
    played = f"played {len(results(tmp_path))} scenario runs, 2 failing ("
    assert lines[failures - 1].startswith(played), lines[failures - 1]
    heading = lines[failures + 2]
    assert heading.startswith("-- DECK-11 (2 failure blocks, 1 of them blocked before their own rule): "), heading
    starts = ("== Failures", "✖ fail", "  blocked at DECK-11", " Results by rule area", "FAILED: ", "reports: ",
              "Likely causes (2 failure blocks for 2 runs):", "1. DECK-11 explains 2")  # fmt: skip
    order = [next(i for i, line in enumerate(lines) if line.strip().startswith(start.strip())) for start in starts]
    assert order == sorted(order), order
    assert lines[-2].startswith("     re-run its first failure: guinote-conformance run --engine ")
    assert "--scenario features/deck.feature:204 " in lines[-2]  # DECK-11's own scenario, not the one it blocked
    rerun = f"guinote-conformance run --engine {BROKEN} --profile lascuarenta --symmetries none --lf"
    rerun += f" --report-dir {tmp_path}"
    assert lines[-1] == f"re-run the failing scenario runs only: {rerun}"
    again = cli(*rerun.split()[1:], "--jobs", "1")
    assert again.returncode == ExitCode.RULE_FAILURES, again.stdout + again.stderr
    assert statuses(tmp_path) == {"fail": 2}


def test_a_passing_run_ends_with_its_verdict_and_its_reports(tmp_path: Path) -> None:
    done = cli("run", "--engine", "reference", *DECK, "-q", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-2].startswith("PASSED: ") and lines[-1].startswith("reports: ")
    assert "Failures" not in done.stdout and "Likely causes" not in done.stdout and "re-run" not in done.stdout


def test_very_verbose_shows_every_failure_with_its_steps(tmp_path: Path) -> None:
    done = cli("run", "--engine", BROKEN, *DECK, "-vv", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    assert ">>  213 Then seat 0 wins the trick" in done.stdout  # DECK-11's failing step, marked
    assert "more failure block" not in done.stdout


# ------------------------------------------------------------------------------ --features

#: A scenario as compare writes it in divergences.feature (compare against caballo_above_sota):
#: the engine ranks the Caballo above the Sota, so seat 1's Caballo takes the trick seat 3's Sota wins.
OWN = """\
Feature: Divergences found by guinote-conformance compare
  Each scenario replays one divergence of broken-caballo_above_sota from the reference engine, shrunk:
  it fails on that engine and passes on the reference.

  @DECK-06 @cante_order=free
  Scenario: compare 1: event trick_won.seat (lascuarenta)
    Given a deal by seat 1:
      | seat 0  | 5c 7c Se Re Ro 6c                                |
      | seat 1  | 5b 4o 3e Ae 3b 3o                                |
      | seat 2  | 4c Rb Sb Rc Sc 2c                                |
      | seat 3  | Cb Ab Ac 3c 6b Ao                                |
      | muestra | 2b                                               |
      | stock   | So 2e 4e 4b 6e 6o 7b 7e 2o Ce 5o 5e Cc Co 7o ... |
    When these tricks are played:
      | 2c 6b 5c Ae |
      | Ab 2e 3b 4c |
      | Ao 6c 3o 4b |
      | 2o 6e 5o 4o |
      | 6o Co 7o So |
    Then seat 3 wins the trick
"""
CABALLO = "serve:tests.broken_engines.engines:caballo_above_sota"
ONE = ["--profile", "lascuarenta", "--symmetries", "none", "--jobs", "1"]


def test_own_features_run_instead_of_the_suites_fail_on_the_broken_engine_and_pass_on_the_reference(
    tmp_path: Path,
) -> None:
    own = tmp_path / "divergences.feature"
    own.write_text(OWN, encoding="utf-8")
    done = cli("run", "--engine", CABALLO, "--features", str(own), *ONE, "--report-dir", str(tmp_path / "engine"))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    (failed,) = results(tmp_path / "engine")
    assert failed["status"] == "fail" and failed["divergence"]["rule"] == "DECK-06"
    assert f"--scenario {own}:6 --features {own} " in failed["rerun"]  # the re-run plays the same file
    assert "1. DECK-06 explains 1 failure" in done.stdout
    assert done.stdout.splitlines()[-1].endswith(
        f"--features {own} --symmetries none --lf --report-dir {tmp_path / 'engine'}"
    )
    passed = cli("run", "--engine", "reference", "--features", str(tmp_path), *ONE, "--report-dir", str(tmp_path / "r"))
    assert passed.returncode == ExitCode.OK, passed.stdout + passed.stderr
    assert [(r["feature"], r["status"]) for r in results(tmp_path / "r")] == [(str(own), "pass")]


def test_an_undefined_step_in_an_own_feature_is_an_error_at_its_line_never_the_engines(tmp_path: Path) -> None:
    own = tmp_path / "mine.feature"
    own.write_text(OWN.replace("Then seat 3 wins the trick", "Then seat 3 wins the trick with panache"))
    done = cli("run", "--engine", CABALLO, "--features", str(own), *ONE, "--report-dir", str(tmp_path / "r"))
    assert_error(done, ExitCode.USAGE, f"{own}:20: undefined step: Then seat 3 wins the trick with panache")
    assert "check the harness" not in done.stdout + done.stderr
    assert not (tmp_path / "r" / "results.json").exists()


@pytest.mark.slow
def test_the_divergences_compare_writes_run_with_features_and_fail_there_as_they_did(tmp_path: Path) -> None:
    """A real compare against a broken engine, then its divergences.feature run on it and on the reference."""
    found = cli("compare", "--engine", CABALLO, "--profile", "lascuarenta", "--hands", "20", "--depth", "hand",
                "--report-dir", str(tmp_path / "compare"))  # fmt: skip
    assert found.returncode == ExitCode.RULE_FAILURES, found.stdout + found.stderr
    feature = tmp_path / "compare" / "divergences.feature"
    assert feature.is_file(), found.stdout
    done = cli("run", "--engine", CABALLO, "--features", str(feature), *ONE, "--report-dir", str(tmp_path / "e"))
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    assert {r["status"] for r in results(tmp_path / "e")} == {"fail"}
    done = cli("run", "--engine", "reference", "--features", str(feature), *ONE, "--report-dir", str(tmp_path / "r"))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr


# ------------------------------------------------------------------------------ the progress line


def test_the_progress_is_a_live_line_on_a_terminal_and_plain_lines_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from guinote_conformance.cli import progress as progress_module

    def report(failed: bool) -> Any:
        return SimpleNamespace(when="call", passed=not failed, failed=failed, user_properties=[])

    shown, written = io.StringIO(), io.StringIO()
    terminal = Console(file=shown, force_terminal=True, width=100)
    with progress_module.progress(terminal) as live:
        assert live.live is not None  # rich's live line, redrawn in place
        live._total(3)
        for failed in (False, True, True):
            live.pytest_runtest_logreport(report(failed))
    assert (live.done, live.bad) == (3, 2) and "scenarios (2 failing)" in shown.getvalue()

    monkeypatch.setattr(progress_module, "PLAIN_EVERY", 0.0)  # a line at every run, to see them
    piped = Console(file=written, force_terminal=False, width=100)
    with progress_module.progress(piped) as plain:
        assert plain.live is None
        plain._total(2)
        for failed in (False, True):
            plain.pytest_runtest_logreport(report(failed))
    lines = written.getvalue().splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        "played 1 of 2 scenario runs",
        "played 2 of 2 scenario runs, 1 failing",
    ]
    assert "\x1b" not in written.getvalue()  # no escape sequence in a log
