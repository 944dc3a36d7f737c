"""The Java kit: built with javac in a scratch copy, its skeleton is accepted by validate and smoke; its
loop answers ``batch`` as one request at a time would (:mod:`tests.kits.batch_check`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.kits.batch_check import assert_batch_equals_one_at_a_time, assert_batch_errors, assert_compare_agrees
from tests.kits.conftest import assert_accepted, build, built_copy, toolchain

ENGINE = ["java", "-cp", "out", "guinote.kit.Main"]


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit compiled once, in a scratch copy (its classes in out/)."""
    toolchain("javac", "java", install="apt-get install default-jdk-headless")
    kit = built_copy("java", tmp_path_factory.mktemp("kit-java"))
    build(["javac", "--release", "17", "-d", "out", *sorted(str(p.relative_to(kit)) for p in kit.rglob("*.java"))], kit)
    return kit


def test_skeleton_is_accepted_by_validate_and_smoke(kit: Path) -> None:
    assert_accepted(ENGINE, kit)


def test_a_line_that_is_not_json_gets_bad_request_and_the_engine_keeps_serving(kit: Path) -> None:
    lines = [
        "not json",
        '{"id": 1, "cmd": "hello", "protocol": 2, "a": "\\udcff"}',  # a lone surrogate is not I-JSON
        '{"id": 2, "cmd": "hello", "protocol": 2}',
        '{"id": 3, "cmd": "stop"}',
    ]
    done = subprocess.run(
        ENGINE, cwd=kit, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60, check=False
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [(a["id"], a["ok"], a.get("error")) for a in answers] == [
        (None, False, "bad_request"),
        (None, False, "bad_request"),
        (2, True, None),
        (3, True, None),
    ]
    assert answers[2]["engine"]["language"] == "java"


def test_batch_is_declared_and_answers_as_one_request_at_a_time(kit: Path) -> None:
    assert_batch_equals_one_at_a_time(ENGINE, kit)
    assert_batch_errors(ENGINE, kit)


def test_compare_finds_the_same_with_the_kits_batch_as_one_request_at_a_time(kit: Path) -> None:
    assert_compare_agrees(ENGINE, kit)
