"""``check-variant`` (``tox -e variant``) catches each mistake a variant's contributor can make, and
names the file: each is planted in a copy of the project and the catalogue step must name it."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from guinote_conformance.cli import variant
from tests.harness.test_fidelity import ROOT, copy_project, replace

SCORING = "features/scoring.feature"
#: a new scenario under SCORE-01 whose title no Spanish catalogue has yet
NEW_SCENARIO = """
    @SCORE-01 @S000 @S002 @S003 @S004
    Scenario: A scenario of the variant check that no catalogue has translated
      Given a hand in the arrastre, trumps in espadas, seat 1 to lead:
        | seat 0 | 4o |
        | seat 1 | 2o |
        | seat 2 | Ao |
        | seat 3 | 5o |
      And the card points so far are 54 for side 0 and 55 for side 1
      When these tricks are played:
        | 2o Ao 5o 4o |
      Then side 0 has 75 points in the hand
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of what the catalogue step reads: the declarations, the features, the kits and the
    Spanish catalogues."""
    copy_project(tmp_path)
    shutil.copytree(ROOT / variant.LOCALE, tmp_path / variant.LOCALE)
    return tmp_path


def problems(root: Path, *changed: str) -> list[str]:
    return variant.catalogue_problems(root, [root / name for name in changed])


def test_the_copy_passes(root: Path) -> None:
    assert problems(root, SCORING) == []


def test_a_tag_with_an_unknown_flag_value_is_named_at_its_line(root: Path) -> None:
    feature = root / "features/cantes.feature"
    line = replace(feature, "    @S002 @S003 @cante_order=free\n", "    @S002 @S003 @cante_order=fourty_first\n")
    found = problems(root, "features/cantes.feature")
    assert len(found) == 1 and found[0].startswith(f"{feature}:{line}: @cante_order=fourty_first"), found
    assert "forty_first" in found[0]  # the values it may take


def test_a_scenario_with_no_spanish_title_is_named_with_the_catalogue_to_write(root: Path) -> None:
    feature = root / SCORING
    feature.write_text(feature.read_text(encoding="utf-8").replace(
        "  Rule: SCORE-01 The side that wins the final trick of the hand scores the diez de últimas\n",
        "  Rule: SCORE-01 The side that wins the final trick of the hand scores the diez de últimas\n" + NEW_SCENARIO,
    ), encoding="utf-8")  # fmt: skip
    line = (
        feature.read_text(encoding="utf-8")
        .splitlines()
        .index("    Scenario: A scenario of the variant check that no catalogue has translated")
    )
    found = problems(root, SCORING)
    assert len(found) == 1, found
    assert found[0].startswith(f"{feature}:{line + 1}: the scenario 'A scenario of the variant check")
    assert "docs/locale/es/LC_MESSAGES/data.po" in found[0]

    # translated once, in the shared catalogue: the check passes
    shared = root / variant.LOCALE / "data.po"
    entry = '\nmsgid "A scenario of the variant check that no catalogue has translated"\nmsgstr "Un escenario"\n'
    shared.write_text(shared.read_text(encoding="utf-8") + entry, encoding="utf-8")
    assert problems(root, SCORING) == []


def test_a_reading_with_no_spanish_is_named_with_the_message_to_add(root: Path) -> None:
    profiles = root / "reference_engine/profiles.toml"
    old = 'reading = "The first side to two cotos wins the match'
    line = replace(
        profiles,
        old,
        'reading = "At the club of the variant check, SCORE-01 says the first side to two cotos wins the match',
    )
    found = problems(root)
    assert len(found) == 1 and found[0].startswith(
        f"{profiles}:{line}: the reading of cotos_to_win=2 has no Spanish"
    ), found
    message = 'msgid "At the club of the variant check, :rule:`SCORE-01` says the first side to two cotos'
    assert str(root / variant.LOCALE / "data.po") in found[0] and message in found[0]
    assert "(the Spanish of a near text, to start from: " in found[0]  # the reading it was edited from
    assert "Gana el encuentro el primer bando que llega a dos cotos" in found[0]


def test_a_reason_code_left_undeclared_is_named_where_the_engine_refuses_with_it(root: Path) -> None:
    replace(root / "adapters/vocabulary.py", '    "MUST_TRUMP": "ARR-03",\n', "")
    engine = root / "reference_engine/arrastre.py"
    line = engine.read_text(encoding="utf-8").splitlines().index('        "MUST_TRUMP",') + 1
    found = problems(root, "adapters/vocabulary.py")
    assert f"{engine}:{line}: reason code MUST_TRUMP is not declared in adapters/vocabulary.py (REASON_CODES)" in found


def test_a_kit_table_out_of_date_is_named_with_the_command(root: Path) -> None:
    kit = root / "kits/rust/src/game.rs"
    replace(kit, '    ("cotos_to_win", &["1"]),\n', '    ("cotos_to_win", &["2"]),\n')  # lascuarenta plays 1
    found = problems(root, "kits/rust/src/game.rs")
    assert len(found) == 1 and found[0].startswith(f"{kit}:"), found
    assert found[0].endswith("run guinote-conformance sync")


def test_a_heading_with_a_note_and_no_spanish_is_named(root: Path) -> None:
    index = root / "features/index/scoring.toml"
    text = index.read_text(encoding="utf-8")
    heading = re.search(r'heading = "([^"]*\([^"]*\))"', text)
    assert heading is not None
    changed = variant.NOTE.sub("(a note of the variant check)", heading.group(1))
    index.write_text(text.replace(f'"{heading.group(1)}"', f'"{changed}"'), encoding="utf-8")
    found = problems(root, "features/index/scoring.toml")
    assert len(found) == 1 and found[0].startswith(f"{index}:"), found
    assert str(root / variant.SOURCE_HEADINGS) in found[0]


def test_a_customs_heading_is_a_place_and_needs_no_spanish(root: Path) -> None:
    index = root / "features/index/scoring.toml"
    custom = '{ id = "R999", heading = "A club (Teruel)" }'
    index.write_text(
        index.read_text(encoding="utf-8").replace("sources = [", f"sources = [{custom}, ", 1), encoding="utf-8"
    )
    assert [p for p in problems(root, "features/index/scoring.toml") if "Teruel" in p and "Spanish" in p] == []


def test_a_draft_translation_left_is_named_at_its_line(root: Path) -> None:
    catalogue = root / variant.LOCALE / "disagreements.po"
    text = catalogue.read_text(encoding="utf-8")
    entry = text.index("\nmsgid", text.index('msgstr ""') + 10)  # the first message after the header
    catalogue.write_text(text[:entry] + "\n#, fuzzy" + text[entry:], encoding="utf-8")
    line = text[:entry].count("\n") + 2
    found = problems(root)
    assert len(found) == 1 and found[0].startswith(f"{catalogue}:{line}: a draft translation"), found


def test_the_touched_areas(root: Path) -> None:
    def areas(*names: str) -> list[str] | None:
        return variant.touched_areas(root, [root / name for name in names])

    assert areas(SCORING, "features/index/cantes.toml", "docs/contributing/variant.rst") == ["cantes", "scoring"]
    assert areas("reference_engine/seven.py") == ["seven"]
    assert areas("reference_engine/hand.py") is None  # shared by every area
    assert areas("reference_engine/profiles.toml") is None


def test_the_changed_files_are_those_since_the_branch_left_main_committed_or_not(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True,
                       capture_output=True)  # fmt: skip

    git("init", "-q", "-b", "main")
    for name in ("kept.txt", "edited.txt"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "main")
    git("checkout", "-q", "-b", "wip")
    (tmp_path / "committed on the branch.txt").write_text("y", encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "wip")
    (tmp_path / "edited.txt").write_text("z", encoding="utf-8")
    (tmp_path / "new.txt").write_text("n", encoding="utf-8")
    assert variant.changed_files(tmp_path) == [
        tmp_path / "committed on the branch.txt",
        tmp_path / "edited.txt",
        tmp_path / "new.txt",
    ]


def test_an_unknown_value_in_a_multi_value_tag_is_named_at_its_line(root: Path) -> None:
    feature = root / "features/cantes.feature"
    old, new = "    @S002 @S003 @cante_order=free\n", "    @S002 @S003 @cante_order=free|fourty_first\n"
    line = replace(feature, old, new)
    found = problems(root, "features/cantes.feature")
    assert len(found) == 1 and found[0].startswith(f"{feature}:{line}: @cante_order=free|fourty_first"), found
    assert "unknown value 'fourty_first'" in found[0] and "forty_first" in found[0]


def test_a_reason_code_declared_without_the_players_words_is_named_at_its_declaration(root: Path) -> None:
    vocabulary = root / "adapters/vocabulary.py"
    line = replace(
        vocabulary, '    "MUST_TRUMP": "ARR-03",\n', '    "MUST_TRUMP": "ARR-03",\n    "CANTE_WORTHLESS": "CANTE-20",\n'
    )
    found = problems(root, "adapters/vocabulary.py")
    assert len(found) == 1 and found[0].startswith(f"{vocabulary}:{line + 1}: reason code CANTE_WORTHLESS"), found
    assert "table_words.py (REASON_WORDS" in found[0]


def test_a_linter_missing_from_the_environment_is_a_problem_not_a_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without mypy, ``python -m mypy`` prints no ``: error:`` line: the types would pass unseen."""
    changed = tmp_path / "guinote_conformance" / "x.py"
    changed.parent.mkdir()
    changed.write_text("x: int = 1\n", encoding="utf-8")
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name in ("ruff", "mypy") else found(name))
    problems = variant.lint_problems(tmp_path, [changed])
    assert len(problems) == 1
    assert problems[0].startswith("ruff and mypy not installed in ") and problems[0].endswith("pip install ruff mypy")
