"""The Spanish suite gives the English suite's results, run for run.

``guinote-conformance run --language es`` plays the Spanish feature files generated from the English
ones (:mod:`guinote_conformance.catalogue.spanish`). Each scenario run of the Spanish session must be the
English session's run: the same feature file and line, profile and engine, and the same status,
against the reference and against a broken engine served in its own process; only the steps shown
with a failure are in Spanish, on the English steps' lines. The default run compares every
scenario against the reference under one profile, and the areas that the broken engine breaks;
``tox -e slow`` compares the whole suite, every profile, against the reference and two broken engines.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.catalogue.spanish import GIVEN_AGREEMENT, STEP_KEYWORDS

REPO = Path(__file__).resolve().parents[2]
BROKEN = "serve:tests.broken_engines.engines:caballo_above_sota"  # breaks DECK-06 and the cantes it decides
ULTIMAS = "serve:tests.broken_engines.engines:no_diez_de_ultimas"
#: figures of the comparisons, printed with -s (runs, identical, seconds of each language)
FIGURES: list[str] = []


def run(folder: Path, engine: str, language: str, *selection: str) -> tuple[list[dict[str, Any]], float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", engine, "--language", language,
         "--report-dir", str(folder / language), "--jobs", "1", *selection],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr
    data = json.loads((folder / language / "results.json").read_text(encoding="utf-8"))
    return list(data["results"]), seconds


def key(result: dict[str, Any]) -> tuple[str, int, str, str]:
    return result["feature"], result["line"], result["profile"], result["engine"]


def compare(folder: Path, engine: str, *selection: str) -> list[dict[str, Any]]:
    """Both languages' runs; they must correspond one to one, status for status. The Spanish failures."""
    english, english_s = run(folder, engine, "en", *selection)
    spanish, spanish_s = run(folder, engine, "es", *selection)
    by_key = {key(result): result for result in english}
    assert len(by_key) == len(english) == len(spanish) > 0
    differences = []
    for result in spanish:
        other = by_key.get(key(result))
        if other is None:
            differences.append(f"{key(result)}: no English run")
            continue
        for field in ("status", "id", "scenario", "rules", "flags"):
            if result.get(field) != other.get(field):
                differences.append(f"{key(result)}: {field} {result.get(field)!r} != {other.get(field)!r}")
        if other.get("steps"):
            assert [step["line"] for step in result["steps"]] == [step["line"] for step in other["steps"]]
    identical = len(spanish) - len({difference.split(":")[0] for difference in differences})
    FIGURES.append(f"{engine} {' '.join(selection)}: {len(spanish)} runs, {identical} identical, "
                   f"en {english_s:.1f} s, es {spanish_s:.1f} s")  # fmt: skip
    print(FIGURES[-1])
    assert not differences, "\n".join(differences[:20])
    return [result for result in spanish if result["status"] in ("fail", "error")]


def assert_spanish_steps(failures: list[dict[str, Any]]) -> None:
    """A failure's steps are the Spanish text that ran."""
    assert failures
    for failure in failures:
        assert failure["steps"], failure["id"]
        for step in failure["steps"]:
            assert step["keyword"] in {*STEP_KEYWORDS.values(), *GIVEN_AGREEMENT.values()}, (failure["id"], step)
        assert "--language es" in failure["rerun"]


def test_against_the_reference_the_spanish_suite_gives_the_english_results(tmp_path: Path) -> None:
    # every scenario and step of the Spanish files runs under one profile (the other three: tox -e slow)
    assert compare(tmp_path, "reference", "--profile", "lascuarenta") == []


@pytest.mark.slow
def test_against_the_reference_the_whole_spanish_suite_gives_the_english_results(tmp_path: Path) -> None:
    assert compare(tmp_path, "reference") == []


def test_against_a_broken_engine_the_spanish_suite_fails_where_the_english_fails(tmp_path: Path) -> None:
    assert_spanish_steps(compare(tmp_path, BROKEN, "--area", "deck", "--area", "cantes"))


@pytest.mark.slow
@pytest.mark.parametrize("engine", [BROKEN, ULTIMAS])
def test_the_whole_spanish_suite_fails_where_the_english_fails(tmp_path: Path, engine: str) -> None:
    assert_spanish_steps(compare(tmp_path, engine))
