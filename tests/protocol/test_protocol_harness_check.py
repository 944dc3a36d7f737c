"""harness_check.validate and .smoke: a correct engine passes, each broken harness is named."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from guinote_conformance.adapters.harness_check import Finding, has_errors, main, smoke, validate

from .conftest import ROOT, SERVE, hostile

pytestmark = pytest.mark.timeout(60)

PYTHON_KIT = [sys.executable, str(ROOT / "kits" / "python" / "skeleton_engine.py")]
NODE_KIT = ["node", str(ROOT / "kits" / "node" / "skeleton_engine.js")]


def errors(findings: list[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.severity == "error"]


def test_the_served_reference_validates_cleanly() -> None:
    findings = validate(SERVE)
    assert errors(findings) == []
    assert [f for f in findings if f.severity == "warning"] == []
    assert any(f.check == "summary" and "guinote-reference" in f.message for f in findings)


def test_the_served_reference_passes_the_smoke_test() -> None:
    for seed in range(3):
        findings = smoke(SERVE, seed=seed)
        assert errors(findings) == [], findings
        assert any("the hand ended after" in f.message for f in findings)


def test_validate_reports_each_schema_violation() -> None:
    findings = validate(hostile("bad_schema"), timeout=2.0)
    schema = [f for f in findings if f.check == "schema"]
    assert any("$.actions[0].seat" in f.message and "legal.response.json" in f.message for f in schema)
    assert any("$.actions[0].card" in f.message for f in schema)
    assert has_errors(findings)
    assert "received:" in str(schema[0])


@pytest.mark.parametrize(
    ("engine", "kind"),
    [
        (hostile("crash_at_start"), "crash"),
        (hostile("garbage"), "not JSON"),
        (hostile("wrong_id"), "id"),
        (hostile("hang", "legal"), "timeout"),
        (["/nonexistent/engine"], "cannot run"),
    ],
)
def test_validate_reports_a_broken_transport(engine: list[str], kind: str) -> None:
    findings = validate(engine, timeout=0.5, startup_timeout=5.0)
    transport = [f for f in findings if f.check == "transport"]
    assert transport and kind in transport[0].message


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("empty_legal", "no legal action although the hand is not over"),
        ("reject_own", "rejected an action of its own legal list"),
        ("lost_field", "state field 'turn' of the vocabulary is not answered"),
    ],
)
def test_smoke_names_what_a_harness_breaks(mode: str, message: str) -> None:
    findings = smoke(hostile("broken_rules", mode), timeout=2.0)
    assert any(message in f.message for f in errors(findings)), findings


def test_smoke_reports_a_crash() -> None:
    findings = smoke(hostile("crash_mid_game", "3"), timeout=2.0)
    assert [f.check for f in errors(findings)] == ["transport"]
    assert "status 139" in errors(findings)[0].message


def test_the_python_kit_answers_the_handshake_and_validates_as_a_skeleton() -> None:
    findings = validate(PYTHON_KIT)
    assert not [f for f in findings if f.check in ("schema", "transport", "handshake", "shutdown")], findings
    assert any("my-guinote" in f.message for f in findings)
    # the only error: it cannot start a game yet
    assert [f.check for f in errors(findings)] == ["setup"]
    assert "not implemented" in errors(findings)[0].message


def test_a_kit_written_for_gcp_1_still_validates_and_is_told_what_changed(tmp_path: Path) -> None:
    """Yesterday's kit (it answers protocol 1 and refuses to speak a later one) keeps working:
    the harness asks for the current version, then for version 1, and says so once."""
    source = (ROOT / "kits" / "python" / "skeleton_engine.py").read_text(encoding="utf-8")
    old = source.replace("PROTOCOL = 2\n", "PROTOCOL = 1\n").replace(
        'request["protocol"] < PROTOCOL', 'request["protocol"] != PROTOCOL'
    )
    assert old != source
    kit = tmp_path / "old_kit.py"
    kit.write_text(old, encoding="utf-8")
    findings = validate([sys.executable, str(kit)])
    assert not [f for f in findings if f.check in ("schema", "transport", "shutdown") or (f.severity == "error" and
                f.check == "handshake")], findings  # fmt: skip
    told = [f for f in findings if f.check == "handshake" and "written for GCP/1" in f.message]
    assert len(told) == 1 and told[0].severity == "info", findings
    assert [f.check for f in errors(findings)] == ["setup"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_kit_answers_the_handshake_and_validates_as_a_skeleton() -> None:
    findings = validate(NODE_KIT)
    assert not [f for f in findings if f.check in ("schema", "transport", "handshake", "shutdown")], findings
    assert any("my-guinote" in f.message and "javascript" in f.message for f in findings)
    assert [f.check for f in errors(findings)] == ["setup"]


def test_the_cli_prints_findings_and_fails_on_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--", *SERVE]) == 0
    assert "0 error(s)" in capsys.readouterr().out
    assert main(["smoke", "--timeout", "2", "--", *hostile("broken_rules", "reject_own")]) == 1
    assert "rejected an action of its own legal list" in capsys.readouterr().out
