"""guinote-conformance compare and replay, run as a user would (in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_compare_groups_shrinks_and_writes_records(tmp_path: Path) -> None:
    # (the scenarios' check runs the suite twice more: tests/fuzz/test_deep.py covers it)
    done = cli("compare", "--engine", "py:tests.fuzz.engines:no_cantes", "--profile", "tradicional", "--hands", "15",
               "--depth", "hand", "--no-scenarios", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Divergences by cause" in done.stdout and "rule coverage:" in done.stdout
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["groups"] and all(g["cause"]["subject"] == "cante (missing)" for g in report["groups"])
    assert len(list(tmp_path.glob("divergence-*.json"))) == len(report["groups"])
    assert_found_as_played(done.stdout, report)
    replayed = cli("replay", str(tmp_path / "divergence-1.json"), "--engine", "py:tests.fuzz.engines:no_cantes")
    assert replayed.returncode == 1 and "The table at the divergence" in replayed.stdout, replayed.stdout


def assert_found_as_played(output: str, report: dict[str, Any]) -> None:
    """Every group of the report was shown the moment play found it: a ``found:`` line, before the table."""
    before = output.split("Divergences by cause")[0]
    found = [line for line in before.splitlines() if line.startswith("found: ")]
    assert report["groups"] and found, output
    for group in report["groups"]:
        cause = group["cause"]
        assert any(f"found: {cause['kind']} {cause['subject']} [{cause['rule']}] after " in line for line in found), (
            cause,
            found,
        )


def test_compare_with_jobs_shows_each_group_as_its_batch_comes_back(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:no_cantes", "--profile", "tradicional", "--hands", "15",
               "--depth", "hand", "--jobs", "2", "--no-scenarios", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert_found_as_played(done.stdout, json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8")))


def test_compare_of_the_reference_over_the_protocol_is_clean(tmp_path: Path) -> None:
    profiles = ["--profile", "ludoteka", "--profile", "lascuarenta+mano_a_mano"]
    done = cli("compare", "--engine", "serve:reference", *profiles, "--hands", "3", "--report-dir", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 divergence groups" in done.stdout and "lascuarenta+mano_a_mano:" in done.stdout


def test_input_mistakes_are_clear_errors_not_tracebacks(tmp_path: Path) -> None:
    known = tmp_path / "known.toml"
    known.write_text('[[known]]\nreason = "x"\nkind = "sideways"\n', encoding="utf-8")
    done = cli("compare", "--engine", "reference", "--known", str(known), "--report-dir", str(tmp_path))
    assert done.returncode == 2 and "known.toml:3: unknown kind 'sideways'" in done.stdout, done.stdout
    done = cli("compare", "--engine", "reference", "--profile", "moon", "--report-dir", str(tmp_path))
    assert done.returncode == 2 and "the engine has no profile 'moon'" in done.stdout
    (tmp_path / "bad.json").write_text('{"format": "other"}', encoding="utf-8")
    done = cli("replay", str(tmp_path / "bad.json"))
    assert done.returncode == 2 and "unknown format 'other'" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    # a path longer than the console is wide: the error stays one line and names the file once
    deep = tmp_path / ("d" * 90) / ("e" * 90) / "bad.json"
    deep.parent.mkdir(parents=True)
    deep.write_text('{"format": "other"}', encoding="utf-8")
    done = cli("replay", str(deep))
    line = f"error: {deep}: unknown format 'other'"
    assert done.returncode == 2 and done.stdout.startswith(line) and done.stdout.count(str(deep)) == 1, done.stdout
    assert "\n" not in done.stdout.strip(), done.stdout
