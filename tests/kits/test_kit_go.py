"""The Go kit: built in a scratch copy with the standard library only, its skeleton is accepted; its
loop answers ``batch`` as one request at a time would (:mod:`tests.kits.batch_check`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.kits.batch_check import assert_batch_equals_one_at_a_time, assert_batch_errors, assert_compare_agrees
from tests.kits.conftest import assert_accepted, build, built_copy, toolchain


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit built once: its directory, holding ./guinote-engine."""
    toolchain("go", install="apt-get install golang-go (Debian/Ubuntu), brew install go (macOS)")
    scratch = tmp_path_factory.mktemp("kit-go")
    kit = built_copy("go", scratch)
    env = {
        "GOCACHE": str(scratch / "gocache"),  # the build cache and the module cache stay in the scratch dir
        "GOPATH": str(scratch / "gopath"),
        "GOFLAGS": "",  # nothing of the caller's (-mod=vendor...)
        "GOPROXY": "off",  # standard library only: a download would be a bug of the kit
        "GOTOOLCHAIN": "local",  # a newer go never fetches another toolchain for it
    }
    build(["go", "vet", "."], kit, env=env)
    build(["go", "build", "-o", "guinote-engine", "."], kit, env=env)
    return kit


def test_skeleton_is_accepted_by_validate_and_smoke(engine: Path) -> None:
    assert_accepted(["./guinote-engine"], engine)


def test_a_long_line_and_garbage_are_answered_not_crashed_on(engine: Path) -> None:
    long_hello = {"id": 1, "cmd": "hello", "protocol": 2, "x-padding": "x" * 200_000}
    lines = [json.dumps(long_hello), "not json", '{"id": 2, "cmd": "stop"}']
    done = subprocess.run(
        ["./guinote-engine"], cwd=engine, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=20
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [answer["id"] for answer in answers] == [1, None, 2]
    assert answers[0]["ok"] is True and answers[0]["protocol"] == 2
    assert answers[1]["ok"] is False and answers[1]["error"] == "bad_request"
    assert answers[2] == {"id": 2, "ok": True}


def test_batch_is_declared_and_answers_as_one_request_at_a_time(engine: Path) -> None:
    assert_batch_equals_one_at_a_time(["./guinote-engine"], engine)
    assert_batch_errors(["./guinote-engine"], engine)


def test_compare_finds_the_same_with_the_kits_batch_as_one_request_at_a_time(engine: Path) -> None:
    assert_compare_agrees(["./guinote-engine"], engine)
