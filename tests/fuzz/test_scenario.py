"""A divergence comes back as a shrunk Gherkin scenario that fails on the engine and passes on the
reference, run through the suite's own plugin; a record replays step by step with the table."""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.commands import _last_step, _write_groups, run_replay
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport, Group
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.scenario import feature_text, write_scenario
from guinote_conformance.fuzz.scenario_check import _CONFTEST, _TEST_MODULE
from guinote_conformance.fuzz.shrink import Shrinker, canonical_tail, shrink
from guinote_conformance.oracle.divergence import Cause, Divergence
from tests.fuzz.engines import forgets_totals, no_cantes, refuses_draw, ultimas_zero

#: what the protocol requires of an engine with every capability (the reference's)
FULL = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))

INFO = ReferenceEngine().info()


def found(engine_factory: object, profile: str, depth: str) -> Divergence:
    engine = engine_factory()  # type: ignore[operator]
    report = Fuzzer(ReferenceEngine(), engine, engine.info(), depth=depth).run([resolve(INFO, profile)], 30)
    group = max(report.groups.values(), key=lambda g: g.count)
    return shrink(ReferenceEngine(), engine, group.example, obligations=FULL)


def run_scenarios(pytester: pytest.Pytester, feature: str, engine: str, profile: str) -> dict[str, str]:
    path = pytester.path / "found.feature"
    path.write_text(feature, encoding="utf-8")
    pytester.makepyfile(test_found=_TEST_MODULE.format(feature=str(path)))
    pytester.makeconftest(_CONFTEST)
    out = pytester.path / f"{engine.replace(':', '_')}.json"
    pytester.runpytest_inprocess(
        "-p", "guinote_conformance.plugin", "--engine", engine, "--profile", profile, "--guinote-results", str(out)
    )
    return {r["scenario"]: r["status"] for r in json.loads(out.read_text(encoding="utf-8"))["results"]}


@pytest.mark.parametrize(
    ("factory", "spec", "profile", "depth"),
    [
        (no_cantes, "py:tests.fuzz.engines:no_cantes", "tradicional", "hand"),
        (forgets_totals, "py:tests.fuzz.engines:forgets_totals", "lascuarenta", "point"),
        # an event member no other step reads: the suite's step for a member checks it
        (ultimas_zero, "py:tests.fuzz.engines:ultimas_zero", "lascuarenta", "hand"),
        # the draw's legality, checked by attempting it (not by the draw_pending state)
        (refuses_draw, "py:tests.fuzz.engines:refuses_draw", "lascuarenta", "hand"),
    ],
)
def test_the_scenario_fails_on_the_engine_and_passes_on_the_reference(
    pytester: pytest.Pytester, factory: object, spec: str, profile: str, depth: str
) -> None:
    example = found(factory, profile, depth)
    text = write_scenario(example, [INFO], _last_step(ReferenceEngine(), example), "found by compare")
    assert "Given a deal by seat" in text and "When these tricks are played:" in text
    feature = feature_text([text], "test engine")
    assert run_scenarios(pytester, feature, spec, profile) == {"found by compare": "fail"}
    assert run_scenarios(pytester, feature, "reference", profile) == {"found by compare": "pass"}


def test_shrinking_keeps_the_cause_and_hides_the_cards_nobody_draws() -> None:
    example = found(no_cantes, "tradicional", "hand")
    assert example.actions and example.setup["deck"]
    deck = example.setup["deck"]
    assert canonical_tail(deck, 4, 4 * sum(1 for a in example.actions if a["type"] == "draw"), 40) == deck
    text = write_scenario(example, [INFO], _last_step(ReferenceEngine(), example), "t")
    assert "may sing" in text


def test_replay_shows_the_table_at_the_divergence(tmp_path: Path) -> None:
    example = found(no_cantes, "tradicional", "hand")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(example.record()), encoding="utf-8")
    out = io.StringIO()
    console = Console(file=out, width=160)
    assert run_replay(console, ReferenceEngine(), no_cantes(), path) == 1
    text = out.getvalue()
    assert f"divergence after {len(example.actions)} actions: legal cante (missing)" in text
    assert "The table at the divergence" in text and "hand.0" in text and "muestra" in text
    out.truncate(0)
    assert run_replay(console, ReferenceEngine(), ReferenceEngine(), path) == 0
    assert "no divergence" in out.getvalue()


def test_shrinking_stops_at_its_deadline_with_the_example_it_has() -> None:
    """A slow or hanging engine costs a timeout per candidate: past the deadline none is tried."""
    engine = no_cantes()
    fuzzer = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand")
    report = fuzzer.run([resolve(INFO, "tradicional")], 30)
    group = max(report.groups.values(), key=lambda g: g.example.size)
    assert fuzzer.smallest(group, seconds=0.0) == group.example  # nothing tried
    late = Shrinker(ReferenceEngine(), engine, FULL, deadline=time.monotonic() - 1)
    assert late.shrink(group.example) == group.example and late.budget == 0
    unhurried = Shrinker(ReferenceEngine(), engine, FULL)
    assert unhurried.shrink(group.example).size <= group.example.size and unhurried.budget < 200


def test_a_divergence_no_step_can_check_gets_no_scenario_and_says_why(tmp_path: Path) -> None:
    example = found(no_cantes, "tradicional", "hand")
    unreadable = replace(example, cause=Cause("length", "hand", ""))
    report = FuzzReport("t", games=1, hands=1)
    report.groups[unreadable.cause] = Group(unreadable.cause, unreadable, count=1)
    console = Console(file=io.StringIO(), width=160)
    engine = no_cantes()
    written = _write_groups(console, ReferenceEngine(), engine, engine.info(), "py:tests.fuzz.engines:no_cantes",
                            report, tmp_path, True, False)  # fmt: skip
    assert written is None and not (tmp_path / "divergences.feature").exists()
    assert "no step of the suite checks" in report.groups[unreadable.cause].unwritten
    assert report.to_json()["groups"][0]["unwritten"] == report.groups[unreadable.cause].unwritten
