"""Fidelity to the sources, checked by machine: the repository passes every check, and each
check catches the mistake it is for, naming file:line (in a copy of the declarations)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from guinote_conformance.catalogue import fidelity
from guinote_conformance.catalogue.scaffold import next_custom_id

ROOT = Path(__file__).resolve().parents[2]
# what the checks read: the scenarios and the index, the one flag declaration, and the files
# that must agree with it
COPIED = ("features", "reference_engine", "adapters/vocabulary.py", "kits")


def copy_project(target: Path) -> Path:
    for name in COPIED:
        source, destination = ROOT / name, target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination)
        else:
            shutil.copy(source, destination)
    return target


def replace(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once in ``path``; return the line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.fixture(scope="module")
def project() -> fidelity.Project:
    return fidelity.Project(ROOT)


@pytest.mark.parametrize("check", fidelity.CHECKS, ids=lambda check: check.__name__)
def test_the_repository_is_faithful(project: fidelity.Project, check: fidelity.Check) -> None:
    problems = check(project)
    assert not problems, "\n".join(problems)


def test_a_source_tag_that_the_profile_contradicts_is_named_with_its_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    feature = root / "features/cantes.feature"
    line = replace(feature, "    @S002 @S003 @cante_order=free\n", "    @S002 @S003 @cante_order=forty_first\n")
    problems = fidelity.scenario_sources_agree_with_profiles(fidelity.Project(root))
    assert any(p.startswith(f"{feature}:{line + 1}: tagged @S002 but needs cante_order=forty_first") for p in problems)


def test_a_value_credited_to_a_source_its_profile_does_not_play_needs_a_reason(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    profiles = root / "reference_engine/profiles.toml"
    line = replace(
        profiles,
        'values.forty_first = { sources = ["interpretation"]',
        'values.forty_first = { sources = ["S002"]',
    )
    problems = fidelity.credited_values_are_played(fidelity.Project(root))
    assert problems == [
        f"{profiles}:{line}: cante_order=forty_first is credited to S002, whose profiles play cante_order=free; "
        'say why in outside_profile = { S002 = "..." } or correct the sources'
    ]


def test_a_reading_without_a_scenario_is_named(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    profiles = root / "reference_engine/profiles.toml"
    line = replace(
        profiles,
        "values.cards_only = {",
        'values.half = { sources = ["interpretation"], reading = "x" }\nvalues.cards_only = {',
    )
    problems = fidelity.every_reading_has_a_scenario(fidelity.Project(root))
    assert problems == [f"{profiles}:{line}: no scenario is tagged @thirty_malas_count=half"]


def test_an_undeclared_custom_is_named(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    feature = root / "features/cantes.feature"
    undeclared = next_custom_id(root)  # (whatever customs the project has already)
    line = replace(feature, "    @S002 @S003 @cante_order=free\n", f"    @{undeclared} @cante_order=free\n")
    problems = fidelity.sources_are_known(fidelity.Project(root))
    assert problems == [f"{feature}:{line + 1}: @{undeclared} is not declared in features/index/customs.toml"]


def test_a_kit_table_out_of_date_is_named_with_the_command_that_regenerates_it(tmp_path: Path) -> None:
    """A kit's table must play lascuarenta: a flag that profile plays at another value than its
    default cannot be left out (it would be played at the default)."""
    root = copy_project(tmp_path)
    kit = root / "kits/node/skeleton_engine.js"
    replace(kit, "  renuncio_faults: ['out_of_turn_and_cante'],\n", "")
    problems = fidelity.declarations_agree(fidelity.Project(root))
    assert len(problems) == 1 and problems[0].startswith(f"{kit}:"), problems
    assert "out of date" in problems[0] and "renuncio_faults" in problems[0]
    assert problems[0].endswith("run guinote-conformance sync")
    assert fidelity.sync_kits(root) == [kit]
    assert fidelity.declarations_agree(fidelity.Project(root)) == []


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("  cotos_to_win: ['1'],\n", "  cotos_to_win: ['2'],\n", "cotos_to_win"),  # the profile plays 1
        ("  cotos_to_win: ['1'],\n", "  cotos_to_win: ['1'],\n  zz_gone: ['x'],\n", "zz_gone"),  # not declared
    ],
)
def test_a_kit_table_that_contradicts_the_declaration_is_out_of_date(
    tmp_path: Path, old: str, new: str, named: str
) -> None:
    root = copy_project(tmp_path)
    kit = root / "kits/node/skeleton_engine.js"
    replace(kit, old, new)
    problems = fidelity.declarations_agree(fidelity.Project(root))
    assert len(problems) == 1 and problems[0].startswith(f"{kit}:") and named in problems[0], problems
    assert fidelity.sync_kits(root) == [kit]
    assert fidelity.declarations_agree(fidelity.Project(root)) == []


def test_a_new_flag_at_its_default_needs_no_kit_entry(tmp_path: Path) -> None:
    """A flag a kit leaves out is played at its default and never sent (docs/checking/protocol.md,
    Versioning): a new flag, declared at the default every profile keeps, touches no kit."""
    root = copy_project(tmp_path)
    kit = root / "kits/node/skeleton_engine.js"
    replace(kit, "  cotos_to_win: ['1'],\n", "")  # lascuarenta plays the default, 1
    assert fidelity.declarations_agree(fidelity.Project(root)) == []
    assert fidelity.sync_kits(root) == []


def test_a_flag_the_engine_reads_but_nobody_declared_is_named_at_its_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    module = root / "reference_engine/scoring.py"
    text = module.read_text(encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if "rules." in x and "def " not in x)) + 1
    old = next(x for x in text.splitlines() if "rules." in x and "def " not in x)
    name = re.search(r"rules\.([a-z_0-9]+)", old)
    assert name is not None
    replace(module, old, old.replace(f"rules.{name.group(1)}", "rules.last_trick_bonus", 1))
    assert fidelity.rules_reads_are_flags(fidelity.Project(root)) == [
        f"{module}:{line}: rules.last_trick_bonus is not a flag of reference_engine/profiles.toml "
        "(declare it there: guinote-conformance new-flag)"
    ]


def test_a_reason_code_left_out_of_the_vocabulary_is_named_where_it_is_given_and_named(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    replace(root / "adapters/vocabulary.py", '    "CANTE_FORTY_FIRST": "CANTE-12",\n', "")
    problems = fidelity.reason_codes_are_declared(fidelity.Project(root))
    said = "reason code CANTE_FORTY_FIRST is not declared in adapters/vocabulary.py (REASON_CODES)"
    where = [problem.partition(": reason code")[0] for problem in problems]
    assert all(said in problem for problem in problems) and len(problems) >= 2
    assert any(w.startswith(f"{root}/reference_engine/cantes.py:") for w in where)
    assert any(w.startswith(f"{root}/features/cantes.feature:") for w in where)


def test_a_kit_refusing_with_a_code_nobody_declared_is_named_at_its_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path)
    line = replace(root / "kits/rust/src/messages.rs", '"MUST_FOLLOW_SUIT"', '"MUST_FOLLOW_SUITE"')
    problems = fidelity.reason_codes_are_declared(fidelity.Project(root))
    assert problems == [
        f"{root}/kits/rust/src/messages.rs:{line}: reason code MUST_FOLLOW_SUITE is not declared in "
        "adapters/vocabulary.py (REASON_CODES)"
    ]


def test_every_reason_code_of_the_project_is_declared(project: fidelity.Project) -> None:
    assert fidelity.reason_codes_are_declared(project) == []
