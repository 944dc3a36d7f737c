"""The contributor guide, done: a throwaway regional variant is added to a copy of the
repository with the scaffold commands, completed as docs/contributing/variant.rst says,
and the fidelity checks pass on it (and fail, naming file:line, while a step is missing)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guinote_conformance.catalogue import fidelity
from guinote_conformance.catalogue.rule_index import load_customs, load_rules
from guinote_conformance.catalogue.scaffold import next_custom_id, next_question_code
from guinote_conformance.cli import app
from tests.harness.test_fidelity import ROOT, copy_project

SCENARIOS = """
  Rule: SCORE-01 A club's bonus for the last trick (throwaway variant of the scaffold test)

    @SCORE-01 @S000 @S002 @S003 @S004 @last_trick_bonus=ten
    Scenario: The scaffold test's last trick is worth the usual ten
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the card points so far are 25 for side 0 and 95 for side 1
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 35 points in the hand

    @SCORE-01 @{custom} @last_trick_bonus=twenty
    Scenario: The scaffold test's last trick is worth twenty at the club
      Given a hand in the arrastre, trumps in oros, seat 0 to lead:
        | seat 0 | 7c |
        | seat 1 | 2c |
        | seat 2 | 4c |
        | seat 3 | 5c |
      And the card points so far are 25 for side 0 and 95 for side 1
      When these tricks are played:
        | 7c 2c 4c 5c |
      Then side 0 has 45 points in the hand
"""


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def fill_todos(path: Path) -> None:
    """What the contributor writes in place of each stub (here: a placeholder sentence)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"TODO: [^\"]*", "Written by the contributor.", text), encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path)


def test_a_regional_variant_from_scaffold_to_green_checks(root: Path) -> None:
    # 1. the custom no document states, with the next free ID (the project may have customs already)
    custom, question = next_custom_id(root), next_question_code(root, "disagreement")
    output = invoke(
        "new-custom", "--title", "Twenty de últimas", "--where", "A club (Teruel)", "--reported", "a member, 2026-12",
        "--description", "The last trick is worth twenty.", "--root", str(root),
    )  # fmt: skip
    assert output.startswith(f"{custom}: wrote")
    assert custom in load_customs(root / "features")

    # 2. the flag, in the one place it is declared, with the next free question code
    output = invoke(
        "new-flag", "last_trick_bonus", "--value", "ten", "--value", "twenty", "--default", "ten",
        "--source", "ten=S000,S002,S003,S004", "--source", f"twenty={custom}", "--rule", "SCORE-01",
        "--root", str(root),
    )  # fmt: skip
    assert output.startswith(f"{question}: wrote {root / 'reference_engine/profiles.toml'}\n")
    # nothing else: the kits play a new flag at its default, the question is derived from the flag
    assert "last_trick_bonus" not in (root / "kits/python/skeleton_engine.py").read_text(encoding="utf-8")
    assert question not in (root / "features/index/questions.toml").read_text(encoding="utf-8")

    # 3. until the stubs are written and each reading has a scenario, the checks say what is missing
    problems = fidelity.all_problems(root)
    profiles = root / "reference_engine/profiles.toml"
    assert any(p.startswith(f"{profiles}:") and "TODO" in p for p in problems)
    assert any(p.endswith("no scenario is tagged @last_trick_bonus=twenty") for p in problems)

    # 4. the contributor writes the readings, the question and one scenario per reading
    fill_todos(profiles)
    feature = root / "features/scoring.feature"
    text = feature.read_text(encoding="utf-8").rstrip("\n") + "\n" + SCENARIOS.format(custom=custom)
    feature.write_text(text, encoding="utf-8")

    assert fidelity.all_problems(root) == []
    assert "SCORE-01" in load_rules(root / "features")


def test_a_new_value_is_added_to_its_flag_and_must_get_a_scenario(root: Path) -> None:
    invoke("new-value", "cotos_to_win", "3", "--source", "interpretation", "--root", str(root))
    problems = fidelity.all_problems(root)
    assert any(p.endswith("no scenario is tagged @cotos_to_win=3") for p in problems)
    profiles = root / "reference_engine/profiles.toml"
    assert any(p.startswith(f"{profiles}:") and "TODO" in p and "values.3" in p for p in problems)


def test_a_scenario_tagged_with_a_value_not_yet_declared_is_named_at_its_tag(root: Path) -> None:
    feature = root / "features/scoring.feature"
    text = feature.read_text(encoding="utf-8").rstrip("\n") + "\n" + SCENARIOS.format(custom=next_custom_id(root))
    feature.write_text(text, encoding="utf-8")
    # the first scenario that names the flag, at its tag's line (before new-flag declared it)
    line = text.splitlines().index("    @SCORE-01 @S000 @S002 @S003 @S004 @last_trick_bonus=ten") + 1
    assert fidelity.all_problems(root) == [
        f"{feature}:{line}: @last_trick_bonus=ten: unknown flag 'last_trick_bonus'; "
        + "valid flags: "
        + ", ".join(sorted(fidelity.Project(root).flags))
    ]


def test_scaffold_mistakes_are_clear_errors(root: Path) -> None:
    runner = CliRunner()
    unknown = runner.invoke(
        app, ["new-flag", "x_y", "--value", "a", "--value", "b", "--default", "a", "--source", "b=R999",
              "--root", str(root)],
    )  # fmt: skip
    assert unknown.exit_code == 2
    assert "unknown source 'R999' (declare it first with new-custom)" in unknown.output
    taken = runner.invoke(
        app, ["new-flag", "deck", "--value", "a", "--value", "b", "--default", "a", "--root", str(root)]
    )
    assert taken.exit_code == 2 and "flag deck already exists" in taken.output
    value = runner.invoke(app, ["new-value", "deck", "40", "--root", str(root)])
    assert value.exit_code == 2 and "already has the value 40" in value.output


def _po_entry(english: str, spanish: str) -> str:
    return f"\nmsgid {_po_quote(english)}\nmsgstr {_po_quote(spanish)}\n"


def _po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.slow
def test_a_new_flag_with_a_custom_touches_six_files_and_passes_check_variant(tmp_path: Path) -> None:
    """The guide's loop, end to end, in a copy of the working tree: new-custom, new-flag, the
    readings, the rule in the index, one scenario per reading, the engine's behaviour and the
    Spanish; at most six files changed, and ``check-variant`` (tox -e variant) passes on them."""
    import subprocess
    import sys

    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    root = tmp_path / "clone"
    for name in filter(None, tracked.decode().split("\0")):
        source, target = ROOT / name, root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(source.readlink())
        elif source.is_file():
            shutil.copy2(source, target)

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout

    git("init", "-q", "-b", "main")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--no-verify", "-m", "base", "--allow-empty")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--no-verify", "-m", "the project")

    custom, code = next_custom_id(root), next_question_code(root, "disagreement")
    invoke("new-custom", "--title", "Twenty de últimas", "--where", "A club (Teruel)", "--reported",
           "a member, 2026-12", "--description", "The last trick is worth twenty.", "--root", str(root))  # fmt: skip
    invoke("new-flag", "last_trick_bonus", "--value", "ten", "--value", "twenty", "--default", "ten",
           "--source", "ten=S000,S002,S003,S004", "--source", f"twenty={custom}", "--rule", "SCORE-01",
           "--root", str(root))  # fmt: skip
    summary, ten, twenty = (
        "How much is the last trick of the hand worth?",
        "Ten, the diez de últimas of every document.",
        "Twenty, at a club of Teruel.",
    )
    profiles = root / "reference_engine/profiles.toml"
    text = profiles.read_text(encoding="utf-8")
    text = text.replace('"TODO: the question the flag answers, in one line."', f'"{summary}"')
    text = re.sub(r'(values\.ten = .*reading = )"TODO[^"]*"', rf'\1"{ten}"', text)
    text = re.sub(r'(values\.twenty = .*reading = )"TODO[^"]*"', rf'\1"{twenty}"', text)
    profiles.write_text(text, encoding="utf-8")
    index = root / "features/index/scoring.toml"
    _edit(index, 'id = "SCORE-01"\n', 'id = "SCORE-01"\nflag = "last_trick_bonus"\n')
    feature = root / "features/scoring.feature"
    feature.write_text(feature.read_text(encoding="utf-8").rstrip("\n") + "\n" + SCENARIOS.format(custom=custom),
                       encoding="utf-8")  # fmt: skip
    _edit(root / "reference_engine/scoring.py", "    ultimas = ULTIMAS if hand.ultimas_side == side else 0\n",
          "    bonus = 20 if hand.rules.last_trick_bonus == \"twenty\" else ULTIMAS  # SCORE-01 (last_trick_bonus)\n"
          "    ultimas = bonus if hand.ultimas_side == side else 0\n")  # fmt: skip
    spanish = {
        summary: "¿Cuánto vale la última baza de la mano?",
        f"{code} {summary}": f"{code} ¿Cuánto vale la última baza de la mano?",
        ten: "Diez, las diez de últimas de todos los documentos.",
        twenty: "Veinte, en una peña de Teruel.",
        "SCORE-01 A club's bonus for the last trick (throwaway variant of the scaffold test)": (
            "SCORE-01 La prima de una peña por la última baza (variante desechable de la prueba)"
        ),
        "The scaffold test's last trick is worth the usual ten": "La última baza de la prueba vale diez",
        "The scaffold test's last trick is worth twenty at the club": "La última baza de la prueba vale veinte",
    }
    catalogue = root / "docs/locale/es/LC_MESSAGES/data.po"
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + "".join(_po_entry(*pair) for pair in spanish.items()),
                         encoding="utf-8")  # fmt: skip

    changed = [line[3:] for line in git("status", "--porcelain").splitlines()]
    assert len(changed) <= 6, changed
    assert sorted(changed) == sorted([
        "docs/locale/es/LC_MESSAGES/data.po", "features/index/customs.toml", "features/index/scoring.toml",
        "features/scoring.feature", "reference_engine/profiles.toml", "reference_engine/scoring.py",
    ])  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-m", "guinote_conformance", "check-variant", "--base", "HEAD"], cwd=root,
                          capture_output=True, text=True, env=environment, timeout=600, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "catalogue checks: ok" in done.stdout and "scenarios on the reference (en, es): ok" in done.stdout
