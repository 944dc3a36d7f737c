"""The TypeScript kit: its untouched skeleton, built in a scratch copy, is accepted by validate and smoke,
and its loop answers ``batch`` as one request at a time would (:mod:`tests.kits.batch_check`).

The build installs the kit's pinned packages from its lock file (``npm ci``: from npm's cache when
it has them), generates the message types from the checkout's schemas and compiles them. Without
node and npm, or without a reachable npm registry, the tests are skipped with that reason.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.kits.batch_check import assert_batch_equals_one_at_a_time, assert_batch_errors, assert_compare_agrees
from tests.kits.conftest import ROOT, assert_accepted, build, built_copy, toolchain

pytestmark = pytest.mark.timeout(600)

INSTALL = "Node.js 20+ with npm: apt-get install nodejs npm, or brew install node"
#: What npm says when it cannot reach the registry (its error codes for a network failure).
OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "network request")


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit built in a scratch copy (``dist/main.js``), the types generated from the checkout's schemas."""
    toolchain("node", "npm", install=INSTALL)
    copy = built_copy("typescript", tmp_path_factory.mktemp("kit"))
    argv = ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"]
    done = subprocess.run(argv, cwd=copy, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        output = done.stdout + done.stderr
        if any(code in output for code in OFFLINE):
            pytest.skip(f"the npm registry is unreachable: {' '.join(argv)} failed:\n{output[-2000:]}")
        pytest.fail(f"{' '.join(argv)} failed ({done.returncode}):\n{output}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GUINOTE_SCHEMAS", str(ROOT / "adapters" / "schemas"))  # the copy is outside the checkout
        build(["npm", "run", "build"], copy)
    assert (copy / "src" / "generated" / "protocol.ts").is_file()
    return copy


def test_skeleton_is_accepted_by_validate_and_smoke(kit: Path) -> None:
    assert_accepted(["node", "dist/main.js"], kit)


def test_hello_for_protocol_1_is_refused_and_the_engine_exits_after_stop(kit: Path) -> None:
    requests = [
        {"id": 1, "cmd": "hello", "protocol": 1},
        {"id": 2, "cmd": "hello", "protocol": 2},
        {"id": 3, "cmd": "stop"},
    ]
    lines = "".join(json.dumps(request) + "\n" for request in requests) + "not json\n"
    done = subprocess.run(
        ["node", "dist/main.js"], cwd=kit, input=lines, capture_output=True, text=True, timeout=30, check=False
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [answer["id"] for answer in answers] == [1, 2, 3], "one answer per request, none after stop"
    assert answers[0]["ok"] is False and answers[0]["error"] == "unsupported_protocol"
    assert answers[1]["ok"] is True and answers[1]["protocol"] == 2
    assert answers[1]["engine"]["language"] == "typescript"
    assert list(answers[1]["engine"]["profiles"]) == ["lascuarenta"]


def test_batch_is_declared_and_answers_as_one_request_at_a_time(kit: Path) -> None:
    assert_batch_equals_one_at_a_time(["node", "dist/main.js"], kit)
    assert_batch_errors(["node", "dist/main.js"], kit)


def test_compare_finds_the_same_with_the_kits_batch_as_one_request_at_a_time(kit: Path) -> None:
    assert_compare_agrees(["node", "dist/main.js"], kit)
