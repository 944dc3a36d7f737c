"""No internal traceback from compare or replay: an in-process engine whose code raises, a record
that is wrong, a scenario check that fails, a known file that is wrong each end in one clear line
(the engine's text escaped) and the right exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.fuzz.known import load_known
from guinote_conformance.fuzz.scenario_check import check_scenarios, last_word
from guinote_conformance.oracle.rules import observable_rules

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def compare(engine: str, folder: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return cli("compare", "--engine", engine, "--profile", "lascuarenta", "--hands", "3", "--depth", "hand",
               "--no-scenarios", "--report-dir", str(folder), *more)  # fmt: skip


def no_traceback(done: subprocess.CompletedProcess[str]) -> str:
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    return output


@pytest.mark.parametrize(
    ("factory", "subject", "said"),
    [
        ("raises", "raised", "the engine raised RuntimeError: internal error \\x1b[31min the engine"),
        ("legal_raises", "raised", "the engine raised ZeroDivisionError: division by zero"),
        ("answers_none", "ShapeError", "is NoneType, not Accepted or Rejected"),
        ("exits", "raised", "the engine raised SystemExit(4): an engine must not end the process"),
    ],
)
def test_an_in_process_engine_whose_code_fails_is_a_failure_traced_to_its_action(
    factory: str, subject: str, said: str, tmp_path: Path
) -> None:
    engine = f"py:tests.fuzz.engines:{factory}"
    done = compare(engine, tmp_path)
    output = no_traceback(done)
    assert done.returncode == ExitCode.RULE_FAILURES, output
    assert said in done.stdout and "\x1b" not in output
    record = json.loads((tmp_path / "divergence-1.json").read_text(encoding="utf-8"))
    assert (record["divergence"]["kind"], record["divergence"]["subject"]) == ("failure", subject)
    assert len(record["actions"]) == 6  # the sixth action, where it failed (not "before any action")
    replayed = cli("replay", str(tmp_path / "divergence-1.json"), "--engine", engine)
    no_traceback(replayed)
    assert replayed.returncode == ExitCode.RULE_FAILURES, replayed.stdout
    failed = next(line for line in replayed.stdout.splitlines() if "the engine failed: " in line)
    assert said in failed and "The table at the divergence" in replayed.stdout


def test_in_worker_processes_too(tmp_path: Path) -> None:
    done = compare("py:tests.fuzz.engines:raises", tmp_path, "--jobs", "2")
    no_traceback(done)
    assert done.returncode == ExitCode.RULE_FAILURES and "failure raised" in done.stdout


def record_of(tmp_path: Path, **changes: Any) -> Path:
    done = compare("py:tests.fuzz.engines:no_cantes", tmp_path / "found")
    assert done.returncode == ExitCode.RULE_FAILURES, done.stdout + done.stderr
    record = json.loads((tmp_path / "found" / "divergence-1.json").read_text(encoding="utf-8"))
    for key, value in changes.items():
        record[key] = value(record) if callable(value) else value
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"actions": lambda r: [*r["actions"][:3], {"type": "deal", "deck": 5}]},
         "action 4 of the record ({\"type\": \"deal\", \"deck\": 5}): the reference cannot play it: TypeError"),
        ({"setup": lambda r: {**r["setup"], "flags": {**r["setup"]["flags"], "players": ["4"]}}},
         "'setup.flags' must map each flag to its value, a string"),
        ({"setup": lambda r: {**r["setup"], "dealer": "north"}}, "the reference refuses the record's setup:"),
        ({"passed_over": "state total.0"}, "'passed_over' must be a list of strings"),
    ],
)  # fmt: skip
def test_a_wrong_record_is_an_input_error_of_one_line(tmp_path: Path, changes: dict[str, Any], said: str) -> None:
    path = record_of(tmp_path, **changes)
    done = cli("replay", str(path), "--engine", "py:tests.fuzz.engines:no_cantes")
    no_traceback(done)
    assert done.returncode == ExitCode.USAGE, done.stdout
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("error:")]
    assert line.startswith(f"error: {path}: ") and said in line, line


def test_a_scenario_check_that_times_out_or_writes_nonsense_is_one_error(tmp_path: Path) -> None:
    def times_out(argv: list[str], **_: Any) -> Any:
        raise subprocess.TimeoutExpired(argv, 1.0)

    with pytest.raises(RuntimeError, match=r"the check on the engine \(reference, profile lascuarenta\) took over"):
        check_scenarios("Feature: x\n", "reference", "lascuarenta", runner=times_out, timeout=1.0)

    def nonsense(argv: list[str], **_: Any) -> Any:
        Path(argv[argv.index("--guinote-results") + 1]).write_text('{"results": 3}', encoding="utf-8")
        return subprocess.CompletedProcess(argv, 0, "", "")

    with pytest.raises(RuntimeError, match="wrote no results it can read: TypeError"):
        check_scenarios("Feature: x\n", "reference", "lascuarenta", runner=nonsense)


def test_pytests_last_word_is_its_error_line_whole() -> None:
    """An ``E`` line loses its marker; an ``ERROR`` line keeps its E (it lost it once)."""
    said = "collecting ...\nERROR: Config file '/x/pyproject.toml' not found\n"
    assert last_word(said) == "ERROR: Config file '/x/pyproject.toml' not found"
    assert last_word("def f():\nE   AssertionError: no\n") == "AssertionError: no"


def test_the_written_scenarios_are_checked_with_a_configuration_of_their_own(tmp_path: Path) -> None:
    """Installed from the wheel there is no project pyproject.toml: the check must not ask for one."""
    seen: list[list[str]] = []

    def records(argv: list[str], **_: Any) -> Any:
        seen.append(argv)
        config = Path(argv[argv.index("-c") + 1])
        assert config.is_file() and "guinote_conformance.plugin" in config.read_text(encoding="utf-8")
        Path(argv[argv.index("--guinote-results") + 1]).write_text('{"results": []}', encoding="utf-8")
        return subprocess.CompletedProcess(argv, 0, "", "")

    check_scenarios("Feature: x\n", "reference", "lascuarenta", runner=records)
    assert len(seen) == 2 and not [arg for argv in seen for arg in argv if arg.endswith("pyproject.toml")]


def test_a_known_file_that_is_a_folder_is_one_error(tmp_path: Path) -> None:
    done = compare("reference", tmp_path / "out", "--known", str(tmp_path))
    no_traceback(done)
    assert done.returncode == ExitCode.USAGE
    assert f"error: {tmp_path}: cannot read the known-divergences file" in done.stdout


def test_the_failures_of_an_in_process_engine_can_be_known(tmp_path: Path) -> None:
    path = tmp_path / "known.toml"
    path.write_text(
        '[[known]]\nkind = "failure"\nsubject = "raised"\nreason = "r"\n'
        '[[known]]\nkind = "failure"\nsubject = "ShapeError"\nreason = "r"\n'
        '[[known]]\nkind = "failure"\nsubject = "start"\nreason = "r"\n',
        encoding="utf-8",
    )
    assert len(load_known(path, rules=observable_rules())) == 3


def test_the_written_scenarios_are_checked_on_an_engine_named_from_the_users_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``compare --engine cmd:./guinote-engine`` (a path from the folder the user is in), or a Python
    engine found on a relative ``PYTHONPATH``: the check of the scenarios starts the engine from
    that folder too (it ran in a folder of its own, where neither could be found)."""
    engine = tmp_path / "guinote-engine"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} -m guinote_conformance.adapters.serve\n", encoding="utf-8")
    engine.chmod(0o755)
    (tmp_path / "my_engine.py").write_text(
        "from guinote_conformance.adapters.reference import ReferenceEngine\n\n"
        "def make() -> ReferenceEngine:\n    return ReferenceEngine()\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", ".")
    for spec in ("cmd:./guinote-engine", "serve:py:my_engine:make"):
        checked = check_scenarios(_SINGS, spec, "tradicional")
        assert [(c.engine_status, c.reference_status) for c in checked.values()] == [("pass", "pass")]
    # the folder's own modules are not put before pytest's and the suite's
    monkeypatch.delenv("PYTHONPATH")
    (tmp_path / "pytest.py").write_text("raise SystemExit('the user folder shadowed pytest')\n", encoding="utf-8")
    checked = check_scenarios(_SINGS, "cmd:./guinote-engine", "tradicional")
    assert [(c.engine_status, c.reference_status) for c in checked.values()] == [("pass", "pass")]


#: A scenario as compare writes them (the engines above are the reference: it passes on both).
_SINGS = """Feature: Divergences found by guinote-conformance compare

  @CANTE-01
  Scenario: compare 1: legal cante (missing) (tradicional)
    Given a deal by seat 3:
      | seat 0  | 4e Re Se 2e Sb Rb |
      | seat 1  | 7b 3b Ao Ae 3c Ce |
      | seat 2  | 5e So Sc Rc Ro 6e |
      | seat 3  | Ab 3o 6b 7o Ac 3e |
      | muestra | 7c                |
    When these tricks are played:
      | Rb 7b Rc 6b |
    Then seat 0 may sing espadas
    And seat 2 may sing oros
"""
