"""``compare`` under every set of capabilities an engine may declare, and every shape of its answers.

The doubles (:mod:`tests.fuzz.capabilities`) are the reference dressed as an engine that declares
some of ``automatic_draw``, ``own_shuffle``, ``batch``, ``positions``, ``observations``, ``match``
and ``reason_codes`` and answers as the variant double draws it (members and lists in any order,
optional members given or not, members and events of its own, ``3.0`` for ``3``, codes of its own).
Whatever it declares, ``compare`` never raises; with no bug planted it finds nothing; with one, it
finds that bug's group; with two, both in one run, with no ``--known`` file.

Few examples by default; ``HYPOTHESIS_PROFILE=deep`` (``tox -e deep``) draws many more.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from guinote_conformance.adapters.checked import ShapeCheckedEngine
from guinote_conformance.adapters.interface import Engine, UnknownField
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.versions import CompatibleEngine
from guinote_conformance.engines.explicit_draw import ExplicitDrawEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from tests.fuzz.capabilities import ADDED, BUGS, OWN, Dress, Dressed, dressed
from tests.independent.variants import CODES, OPTIONAL, PLACES, Variation

REPO = Path(__file__).resolve().parents[2]
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
EXAMPLES = 150 if DEEP else 6


def opened(engine: Dressed) -> Engine:
    """The double as ``compare`` opens an in-process engine (``EngineSpec.open``)."""
    return CompatibleEngine(ExplicitDrawEngine(ShapeCheckedEngine(engine, contained=True)))


def fuzz(engine: Dressed, games: int, *, seed: int = 0, overlay: str = "") -> FuzzReport:
    under_test = opened(engine)
    info = under_test.info()
    fuzzer = Fuzzer(ReferenceEngine(), under_test, info, depth="match", seed=seed)
    return fuzzer.run([resolve(info, "aragon_online" + overlay)], games)


def found(report: FuzzReport) -> set[tuple[str, str]]:
    return {(group.cause.kind, group.cause.subject) for group in report.groups.values()}


@st.composite
def doubles(draw: Any, bugs: st.SearchStrategy[tuple[str, ...]]) -> Dressed:
    """A dressed double: a subset of the capabilities, a shape of answers, and ``bugs``."""
    added = draw(st.lists(st.sampled_from(ADDED), unique=True))
    own = draw(st.lists(st.sampled_from(OWN), unique=True))
    variation = Variation(
        seed=draw(st.integers(0, 2**31)),
        capabilities=tuple(sorted(own)),
        deck_orders=draw(st.booleans()),
        shuffle_members=draw(st.booleans()),
        shuffle_lists=draw(st.booleans()),
        optional=tuple(draw(st.lists(st.sampled_from(OPTIONAL), min_size=1, unique=True))),
        extra_members=draw(st.booleans()),
        extra_events=draw(st.booleans()),
        floats=tuple(draw(st.lists(st.sampled_from(PLACES), unique=True))),
        codes=draw(st.sampled_from(CODES)),
        new_point_deal=draw(st.booleans()),
    )
    return Dressed(variation, Dress(tuple(sorted(added)), draw(bugs), seed=variation.seed))


# (no shrinking: each example is whole games, and the failing example is printed as drawn)
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=not DEEP, database=None,
                    phases=(Phase.explicit, Phase.reuse, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


@SETTINGS
@given(engine=doubles(st.just(())), seed=st.integers(0, 1000), overlay=st.sampled_from(["", "+mano_a_mano"]))
def test_compare_never_raises_and_finds_nothing_when_nothing_is_broken(
    engine: Dressed, seed: int, overlay: str
) -> None:
    report = fuzz(engine, 3, seed=seed, overlay=overlay)
    assert report.games == 3
    assert report.groups == {}, (
        f"{engine.dress} {engine.variant.variation.describe()}: {[str(c) for c in report.groups]}"
    )


@SETTINGS
@given(engine=doubles(st.sampled_from([(bug,) for bug in BUGS])), seed=st.integers(0, 1000))
def test_compare_finds_the_group_of_a_planted_bug_whatever_the_engine_declares(engine: Dressed, seed: int) -> None:
    (bug,) = engine.dress.bugs
    report = fuzz(engine, 12 if bug == "forgets_totals" else 4, seed=seed)  # (that one needs a hand de vueltas)
    assert BUGS[bug] in found(report), f"{engine.dress} {engine.variant.variation.describe()}: {found(report)}"
    assert found(report) <= set(BUGS.values()) | {("state", "total.1")}


@pytest.mark.parametrize("added", [(), ("own_shuffle",), ("automatic_draw",), ("automatic_draw", "own_shuffle")])
def test_a_two_bug_engine_yields_both_groups_in_one_run_without_a_known_file(added: tuple[str, ...]) -> None:
    report = fuzz(dressed(added, bugs=list(BUGS)), 6)
    assert set(BUGS.values()) <= found(report)
    assert report.failures and all(group.known is None for group in report.groups.values())
    assert report.passed_over > 0  # the games went on past the first divergence


def test_an_own_shuffle_engine_has_its_hands_de_vueltas_compared() -> None:
    report = fuzz(dressed(["own_shuffle"]), 10)
    assert report.groups == {} and report.ended_early == {}
    assert report.own_deals > 0 and report.hands == report.games + report.own_deals
    # and a bug that only a hand de vueltas shows is found there
    carried = fuzz(dressed(["own_shuffle"], bugs=["forgets_totals"]), 10)
    assert ("state", "total.0") in found(carried) and carried.own_deals > 0
    example = next(g.example for g in carried.groups.values() if g.cause.subject == "total.0")
    assert any(action.get("type") == "deal" and "hands" in action for action in example.actions)


def test_an_own_deal_that_cannot_be_read_back_ends_the_game_and_says_why() -> None:
    class Hidden(Dressed):
        """Hides the hands once it has dealt a hand itself."""

        def start(self, setup: Any) -> Any:
            game = super().start(setup)
            state, apply = game.state, game.apply
            dealt: list[Any] = []

            def hidden(name: str) -> Any:
                if name.startswith("hand.") and dealt:
                    raise UnknownField(name)
                return state(name)

            def applied(action: Any) -> Any:
                if action.get("type") == "deal":
                    dealt.append(action)
                return apply(action)

            game.state, game.apply = hidden, applied  # type: ignore[method-assign]
            return game

    plain = dressed(["own_shuffle"])
    report = fuzz(Hidden(plain.variant.variation, plain.dress), 4)
    assert report.groups == {} and report.own_deals == 0 and report.own_shuffle_ends > 0
    (why,) = report.ended_early
    assert "cannot be read back" in why and "hands and muestra" in why


def test_compare_on_the_automatic_draw_double_exits_0_with_no_group(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "compare", "--engine", "py:tests.harness.auto_draw_engine:make",
         "--profile", "lascuarenta", "--profile", "ludoteka", "--hands", "6", "--no-scenarios",
         "--report-dir", str(tmp_path / "out")],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    assert done.returncode == 0, output
    report = json.loads((tmp_path / "out" / "fuzz.json").read_text(encoding="utf-8"))
    assert report["groups"] == [] and report["games"] == 12
