"""Sibling scenarios that tell a right engine from one with a planted bug the others let through.

Each scenario below was added because every scenario of its rule shared a detail a real engine's
bug can hang on (issue 34): the ARR-03 scenarios all had bastos trumps, the forty scenarios all
had oros trumps, and the PLAY-13/ARR-11 scenarios all started with no trick won, so an engine that
counts tricks to find the arrastre never reached its bug. Each planted bug of
:mod:`tests.broken_engines` must fail its sibling under the rule it breaks, with the scenarios as
written (no symmetry: ``tests/conftest.py``); the reference passes them with the rest of the suite
(``tests/conformance``). A whole run per bug (about 10 s each): ``tox -e slow``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.broken_engines.engines import CATALOGUE

REPO = Path(__file__).resolve().parents[2]

#: planted bug -> (the rule it breaks, the glob naming its sibling scenarios)
SIBLINGS = {
    "no_trumping_when_copas": ("ARR-03", "With copas trumps, seat 0 void in espadas *"),
    "first_arrastre_trick_free": ("PLAY-13", "The first trick after the draw that takes the muestra *"),
    "forty_in_oros": ("CANTE-03", "With copas trumps the pair of *"),
}


@pytest.mark.slow
@pytest.mark.parametrize("bug", sorted(SIBLINGS))
def test_the_sibling_fails_the_planted_bug_under_the_rule_it_breaks(bug: str, tmp_path: Path) -> None:
    rule, scenario = SIBLINGS[bug]
    assert rule in CATALOGUE[bug].rules  # the catalogue still plants this rule's bug under this name
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", f"serve:tests.broken_engines.engines:{bug}",
         "--profile", "lascuarenta", "--scenario", scenario, "--jobs", "1", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 1, f"{bug} must fail {scenario!r}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    assert results, f"no scenario matches {scenario!r}"
    passed = [r["scenario"] for r in results if r["status"] != "fail"]
    assert not passed, f"{bug} passes {passed}: the sibling no longer tells it apart"
    assert rule in {tagged for r in results for tagged in r["rules"]}, [(r["scenario"], r["rules"]) for r in results]
