"""The Rust kit (kits/rust): built in a scratch copy, its untouched skeleton is accepted by validate and smoke,
and its loop answers ``batch`` as one request at a time would (:mod:`tests.kits.batch_check`).

The build needs cargo (the standard library only, no crate: ``cargo build --offline`` works without a
network). Without cargo the tests are skipped with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.kits.batch_check import assert_batch_equals_one_at_a_time, assert_batch_errors, assert_compare_agrees
from tests.kits.conftest import assert_accepted, build, built_copy, toolchain

INSTALL = "apt-get install cargo, or rustup"
ENGINE = Path("target") / "release" / "guinote-engine"


def _cargo() -> str:
    """cargo on PATH, else rustup's usual place (often not on the PATH of a test run)."""
    found = shutil.which("cargo")
    if found is not None:
        return found
    home = Path.home() / ".cargo" / "bin" / "cargo"
    if home.is_file() and os.access(home, os.X_OK):
        return str(home)
    toolchain("cargo", install=INSTALL)  # skips, with the reason
    raise AssertionError("unreachable")  # pragma: no cover


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit copied and built in release mode, its target directory inside the copy."""
    cargo = _cargo()
    copy = built_copy("rust", tmp_path_factory.mktemp("kit"))
    env = {
        "CARGO_TARGET_DIR": str(copy / "target"),
        "PATH": os.pathsep.join([str(Path(cargo).parent), os.environ.get("PATH", "")]),
    }
    build([cargo, "build", "--offline", "--release", "--quiet"], copy, env=env)
    assert (copy / ENGINE).is_file(), f"the build made no {ENGINE}"
    return copy


def test_skeleton_is_accepted_by_validate_and_smoke(kit: Path) -> None:
    assert_accepted([str(ENGINE)], kit)


def test_a_line_that_is_not_json_gets_bad_request_and_the_engine_keeps_serving(kit: Path) -> None:
    lines = [
        "this is not JSON",
        '{"id": 1, "cmd": "hello", "protocol": 2} trailing',
        '["' + "x" * 2_000_000 + '"]',  # longer than any buffer: no line-length limit
        json.dumps({"id": 2, "cmd": "hello", "protocol": 2}),
        json.dumps({"id": 3, "cmd": "stop"}),
    ]
    done = subprocess.run(
        [str(kit / ENGINE)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=20, check=False
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [None, None, None, 2, 3], done.stdout[:2000]
    assert [answer.get("error") for answer in answers[:3]] == ["bad_request"] * 3
    assert answers[3]["ok"] is True and answers[3]["engine"]["language"] == "rust"
    assert answers[4] == {"id": 3, "ok": True}
    assert done.returncode == 0, done.stderr


def test_batch_is_declared_and_answers_as_one_request_at_a_time(kit: Path) -> None:
    assert_batch_equals_one_at_a_time([str(ENGINE)], kit)
    assert_batch_errors([str(ENGINE)], kit)


def test_compare_finds_the_same_with_the_kits_batch_as_one_request_at_a_time(kit: Path) -> None:
    assert_compare_agrees([str(ENGINE)], kit)
