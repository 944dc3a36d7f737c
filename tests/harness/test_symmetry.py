"""The symmetries of the game (:mod:`guinote_conformance.engines.symmetry`): what they map, that mapping is
undone exactly, that a game played through the wrapper on the reference is the reference's game, and
that the default run's sample catches bugs the scenarios as written cannot see."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guinote_conformance.adapters.interface import Accepted, GameHandle
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import ACTION_TYPES, EVENT_TYPES, STATE_FIELDS, deck_codes
from guinote_conformance.catalogue.features import Scenario, load_scenarios
from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.engines.specs import profile_flags
from guinote_conformance.engines.symmetry import (
    ACTION_MEMBERS,
    CARD,
    EVENT_MEMBERS,
    FIELD_VALUES,
    POSITION_MEMBERS,
    SEAT,
    SIDE,
    SUIT,
    Mapper,
    SymmetricEngine,
    Symmetry,
    SymmetryError,
    asymmetric_reason,
    check_mode,
    group,
    sample,
)
from guinote_conformance.results.report import Report
from guinote_conformance.run.expectations import scenario_id
from tests.harness.symmetry_doubles import BUGS

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "adapters" / "schemas"

symmetries = st.builds(
    Symmetry, st.integers(0, 3), st.permutations("oceb").map("".join)
)  # fmt: skip


# ------------------------------------------------------------------ the declaration, against the vocabulary


def _kinds(shape: Any) -> set[str]:
    """The scalar kinds (seat, side, card, suit) a declared shape carries."""
    if isinstance(shape, str):
        return {shape} & {SEAT, SIDE, CARD, SUIT}
    if isinstance(shape, dict):
        return set().union(*(_kinds(part) for part in shape.values())) if shape else set()
    return set().union(*(_kinds(part) for part in shape[1:]))


def _schema_kinds(schema: Any) -> set[str]:
    """The kinds a JSON schema fragment refers to (``$ref .../seat``, ``/card``, ``/suit``)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        ref = schema.get("$ref", "")
        found |= {kind for kind in (SEAT, CARD, SUIT) if ref.endswith(f"/{kind}")}
        for value in schema.values():
            found |= _schema_kinds(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _schema_kinds(value)
    return found


def test_every_event_and_field_of_the_vocabulary_is_declared_as_the_schemas_type_it() -> None:
    common = json.loads((SCHEMAS / "common.json").read_text(encoding="utf-8"))["$defs"]
    fields = json.loads((SCHEMAS / "fields.json").read_text(encoding="utf-8"))["$defs"]
    assert set(EVENT_MEMBERS) == set(EVENT_TYPES)
    for branch in common["event"]["allOf"]:
        kind = branch["if"]["properties"]["type"]["const"]
        for member, schema in (branch["then"].get("properties") or {}).items():
            wanted = _schema_kinds(schema) | ({SIDE} if member in ("side", "winner") else set())
            declared = _kinds(EVENT_MEMBERS[kind].get(member, "plain"))
            assert wanted <= declared, f"event {kind}.{member} carries {wanted}, declared {declared}"
    for member, schema in common["action"]["properties"].items():
        assert _schema_kinds(schema) <= _kinds(ACTION_MEMBERS.get(member, "plain")), f"action member {member}"
    assert set(FIELD_VALUES) <= set(STATE_FIELDS)
    for name in STATE_FIELDS:
        wanted = _schema_kinds(fields[name])
        sides = {"ultimas", "hand_winner", "match.winner"}  # a side is an integer to the schema
        wanted |= {SIDE} if name in sides else set()
        assert wanted <= _kinds(FIELD_VALUES.get(name, "plain")), f"field {name}"
    assert set(ACTION_TYPES) >= {"play", "cante", "exchange", "draw", "claim", "tute", "deal"}


def test_every_member_of_a_position_is_declared_or_carries_nothing() -> None:
    game = ReferenceEngine().start(_setup(random.Random(1), 4)).game
    position = game.hand.position()
    plain = {"exchange_done", "draw_pending", "hand_in_point", "window_cantes"}
    assert set(position) - plain <= set(POSITION_MEMBERS)


# ------------------------------------------------------------------ names and choices


@given(symmetries)
def test_a_name_reads_back_and_the_inverse_undoes(symmetry: Symmetry) -> None:
    assert Symmetry.parse(symmetry.name) == symmetry
    mapper = Mapper(symmetry, 4)
    assert [mapper.inverse().seat(mapper.seat(seat)) for seat in range(4)] == [0, 1, 2, 3]


def test_the_groups_and_the_sample() -> None:
    assert len(group(4)) == 96 and len(group(2)) == 48 and group(4)[0].identity
    key = "arrastre::Seat 1 must follow suit"
    assert sample(key, 4) == sample(key, 4) and not sample(key, 4).identity
    assert sample(key, 2).rotation < 2
    assert Mapper(Symmetry(1), 4).side(0) == 1 and Mapper(Symmetry(2), 4).side(0) == 0  # odd rotations swap sides
    for bad in ("r4+oceb", "r1+ooeb", "r1", "sometimes", ""):
        with pytest.raises(SymmetryError):
            check_mode(bad)
    assert check_mode("r1+ocbe,r0+oceb") == "r1+ocbe,r0+oceb"


# ------------------------------------------------------------------ a game through the wrapper


def _setup(rng: random.Random, players: int) -> dict[str, Any]:
    info = ReferenceEngine().info()
    flags = profile_flags(info, "lascuarenta" if players == 4 else "lascuarenta+mano_a_mano")
    deck = deck_codes(40)
    rng.shuffle(deck)
    return {"flags": flags, "dealer": rng.randrange(players), "deck": deck}


def _canonical(value: Any) -> Any:
    """Lists of cards in any order (hands, won cards) compared as sets; the rest as is."""
    if isinstance(value, list):
        items = [_canonical(item) for item in value]
        return sorted(items, key=json.dumps) if all(isinstance(item, str) for item in items) else items
    if isinstance(value, dict):
        return {key: _canonical(item) for key, item in value.items()}
    return value


def _fields(players: int) -> Iterator[str]:
    for name in STATE_FIELDS:
        if name.endswith(".<seat>"):
            yield from (name.replace("<seat>", str(seat)) for seat in range(players))
        elif name.endswith(".<side>"):
            yield from (name.replace("<side>", str(side)) for side in range(2))
        else:
            yield name


def _view(game: GameHandle, players: int) -> dict[str, Any]:
    """Everything the harness can ask of a game now: every field, one seat's observation, the legal list."""
    seen = {name: _canonical(game.state(name)) for name in _fields(players)}
    seen |= {f"observe 1 {name}": _canonical(game.observation(1, name)) for name in ("hand.1", "hand.0", "trick")}
    seen["legal"] = sorted(json.dumps(action, sort_keys=True) for action in game.legal_actions())
    return seen


@settings(max_examples=12, deadline=None)
@given(symmetries, st.integers(0, 2**32), st.sampled_from([4, 2]))
def test_a_game_through_the_wrapper_on_the_reference_is_the_reference_game(
    symmetry: Symmetry, seed: int, players: int
) -> None:
    symmetry = Symmetry(symmetry.rotation % players, symmetry.suits)
    rng = random.Random(seed)
    setup = _setup(rng, players)
    plain, turned = ReferenceEngine().start(setup), SymmetricEngine(ReferenceEngine(), symmetry).start(setup)
    mapper = Mapper(symmetry, players)
    for _ in range(80):
        view = _view(plain, players)
        assert _view(turned, players) == view
        actions = [action for action in plain.legal_actions() if action.get("type") != "deal"]
        if not actions:
            return
        action = rng.choice(actions)
        assert mapper.inverse().apply(mapper.apply(action, ACTION_MEMBERS), ACTION_MEMBERS) == action
        expected, got = plain.apply(action), turned.apply(action)
        assert isinstance(expected, Accepted) and isinstance(got, Accepted)
        assert _canonical(got.events) == _canonical(expected.events)
        for event in expected.events:  # mapping then unmapping is the identity on every answer
            assert mapper.inverse().event(mapper.event(event)) == event
    pytest.fail("the hand did not end in 80 actions")


@given(symmetries, st.sampled_from([4, 2]), st.data())
def test_mapping_then_unmapping_a_position_is_the_identity(symmetry: Symmetry, players: int, data: Any) -> None:
    mapper = Mapper(Symmetry(symmetry.rotation % players, symmetry.suits), players)
    cards = data.draw(st.permutations(deck_codes(40)))
    seats = st.integers(0, players - 1)
    position = {
        "hands": [cards[6 * seat : 6 * seat + 5] for seat in range(players)], "muestra": cards[30],
        "trump": cards[30][1], "stock": cards[31:34], "leader": data.draw(seats), "dealer": data.draw(seats),
        "trick": [[data.draw(seats), cards[35]]], "card_points": [3, 40], "won_cards": [[cards[36]], [cards[37]]],
        "sung": [{"seat": data.draw(seats), "suit": "c", "arrastre": False}], "first_over": 1,
    }  # fmt: skip
    setup = {"flags": {"players": str(players)}, "position": position}
    assert mapper.inverse().setup(mapper.setup(setup)) == setup


# ------------------------------------------------------------------ planted bugs: the sample sees them


def _run(engine: str, mode: str, out: Path) -> list[dict[str, Any]]:
    subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--engine", engine, "--area", "arrastre",
         "--profile", "lascuarenta", "--symmetries", mode, "--jobs", "1", "--report-dir", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    results: list[dict[str, Any]] = json.loads((out / "results.json").read_text(encoding="utf-8"))["results"]
    return results


@pytest.mark.parametrize(
    "bug",
    [
        "no_beat_when_espadas_led",
        pytest.param("no_trump_duty_when_oros_trumps", marks=pytest.mark.slow),
        pytest.param("no_beat_when_seat_one_leads", marks=pytest.mark.slow),
    ],
)
def test_a_planted_seat_or_suit_bug_hides_from_the_scenarios_as_written_but_not_from_the_sample(
    bug: str, tmp_path: Path
) -> None:
    assert not BUGS[bug][1]
    engine = f"serve:tests.harness.symmetry_doubles:{bug}"
    written = _run(engine, "none", tmp_path / "none")
    assert written and {r["status"] for r in written} == {"pass"}, "the scenarios as written cannot see the bug"
    sampled = _run(engine, "sample", tmp_path / "sample")
    assert len(sampled) > len(written)
    failed = [r for r in sampled if r["status"] != "pass"]
    assert failed and {r["status"] for r in failed} == {"fail"}
    for result in failed:
        name = result["symmetry"]
        assert f"under the symmetry {name} (" in result["message"]
        assert f"--symmetries {name}" in result["rerun"]


@pytest.mark.slow
@pytest.mark.parametrize("bug", [name for name, (_, seen) in BUGS.items() if seen])
def test_the_siblings_see_as_written_what_only_a_symmetry_saw_before(bug: str, tmp_path: Path) -> None:
    failed = [r for r in _run(f"serve:tests.harness.symmetry_doubles:{bug}", "none", tmp_path) if r["status"] != "pass"]
    assert failed and {r["status"] for r in failed} == {"fail"}


# ------------------------------------------------------------------ the runs a mode plays


def _cli(out: Path, *args: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "run", "--jobs", "1", "--report-dir", str(out), *args],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return Report.load(out / "results.json").to_json()["results"]  # type: ignore[no-any-return]


def _first_arrastre_scenario() -> tuple[Scenario, str]:
    scenario = next(s for s in load_scenarios() if s.path.stem == "arrastre")
    return scenario, f"{scenario.path.relative_to(REPO)}:{scenario.line}"


def test_the_sample_adds_one_run_per_scenario_under_a_symmetry_drawn_from_its_id(tmp_path: Path) -> None:
    scenario, where = _first_arrastre_scenario()
    sampled = _cli(tmp_path / "sample", "--scenario", where, "--symmetries", "sample")
    assert len(sampled) == 5 and {r["status"] for r in sampled} == {"pass"}
    (extra,) = [r for r in sampled if "symmetry" in r]
    assert extra["symmetry"] == sample(scenario_id(scenario), 4).name
    assert sorted(r["profile"] for r in sampled if "symmetry" not in r) == sorted(ReferenceEngine().info().profiles)


@pytest.mark.slow
def test_all_plays_the_whole_group(tmp_path: Path) -> None:
    _, where = _first_arrastre_scenario()
    whole = _cli(tmp_path / "all", "--scenario", where, "--profile", "ludoteka", "--symmetries", "all")
    assert len(whole) == 96 and {r["status"] for r in whole} == {"pass"}
    assert len({r.get("symmetry", "") for r in whole}) == 96


def test_a_rule_the_index_declares_asymmetric_exempts_its_scenarios() -> None:
    scenario = next(s for s in load_scenarios() if "ARR-01" in s.rules)
    rules = load_rules()
    assert asymmetric_reason(scenario, rules) is None
    declared = {**rules, "ARR-01": replace(rules["ARR-01"], asymmetric="seat 0 is special")}
    reason = asymmetric_reason(scenario, declared)
    assert reason is not None and reason.startswith("ARR-01 does not hold") and "seat 0 is special" in reason


@pytest.mark.parametrize("value", ["r5+oceb", "r1+ooce", "sometimes"])
def test_a_symmetry_that_names_none_is_a_usage_error(value: str) -> None:
    from guinote_conformance.base.exit_codes import ExitCode
    from tests.harness.test_cli_errors import assert_error, invoke

    done = invoke("run", "--symmetries", value, "--report-dir", "/nonexistent/never-made")
    assert_error(done, ExitCode.USAGE, f"{value!r} names no symmetry", "e.g. r1+ocbe")
