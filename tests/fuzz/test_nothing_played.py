"""A compare that plays no game does not pass: it exits 2 (nothing to compare) or 3 (the engine
could not start a game), with one line saying why, the reasons counted by configuration."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.fuzz.commands import nothing_played
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.oracle.divergence import Config
from tests.fuzz.engines import refuses_every_setup

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


def error_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("error:")]


def test_every_configuration_not_applicable_exits_2_saying_why(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.independent.minimal_engine:make_v1",
               "--flags", "renuncio_faults=out_of_turn", "--hands", "2", "--report-dir", str(tmp_path))  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.USAGE, output
    assert "Traceback" not in output
    (line,) = error_lines(done)
    assert line == (
        "error: no game was played, so nothing was compared: not applicable: the engine does not play "
        "renuncio_faults=out_of_turn (4 of 4 configurations)"
    )
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["games"] == 0 and len(report["not_applicable"]) == 4
    assert not list(tmp_path.glob("divergence-*.json"))


def test_an_engine_that_refuses_every_setup_exits_2(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:refuses_every_setup", "--profile", "lascuarenta",
               "--profile", "tradicional", "--hands", "2", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == ExitCode.USAGE, done.stdout + done.stderr
    (line,) = error_lines(done)
    assert "no game was played" in line
    assert "not applicable: the engine refused the setup: this engine plays online only (2 of 2 configurations)" in line


def test_an_engine_that_cannot_start_a_game_exits_3(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:crashes_at_every_start", "--profile", "lascuarenta",
               "--hands", "8", "--report-dir", str(tmp_path))  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.ENGINE_UNAVAILABLE, output
    assert "Traceback" not in output
    (line,) = error_lines(done)
    assert line.startswith("error: no game was played, so nothing was compared: the engine could not start a game: ")
    assert "exited with code 3" in line and line.endswith("(1 of 1 configuration)")


def test_no_hands_is_a_usage_error(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "reference", "--hands", "0", "--report-dir", str(tmp_path))
    assert done.returncode == ExitCode.USAGE, done.stdout + done.stderr
    assert error_lines(done) == ["error: --hands 0: must be 1 or more"]


def test_the_reasons_are_counted_by_configuration() -> None:
    engine = refuses_every_setup()
    info = engine.info()
    configs = [resolve(info, "lascuarenta"), resolve(info, "tradicional"), Config("odd", {"deck": "52"})]
    report = Fuzzer(ReferenceEngine(), engine, info).run(configs, 2)
    assert report.games == 0
    code, line = nothing_played(report, configs, None)
    assert (code, line) == (
        ExitCode.USAGE,
        "no game was played, so nothing was compared: "
        "not applicable: the engine refused the setup: this engine plays online only (2 of 3 configurations); "
        "not applicable: the engine does not play deck=52 (1 of 3 configurations)",
    )
    started = FuzzReport("e", start_failures={"lascuarenta": "no answer within 1.0 s"})
    code, line = nothing_played(started, [Config("lascuarenta", {})], None)
    assert code == ExitCode.ENGINE_UNAVAILABLE and "could not start a game: no answer within 1.0 s" in line
    assert nothing_played(FuzzReport("e"), [], None)[0] == ExitCode.USAGE
    late = nothing_played(FuzzReport("e"), [Config("lascuarenta", {})], 0.001)[1]
    assert late.endswith("its time (--seconds) ran out before its first game (1 of 1 configuration)")
