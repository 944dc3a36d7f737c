"""The reference engine served over GCP/1 answers exactly like the reference engine in process."""

from __future__ import annotations

import dataclasses
import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest

from guinote_conformance.adapters.interface import Accepted, GameHandle, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.adapters.vocabulary import STATE_FIELDS, deck_codes

from .conftest import SERVE, EngineFactory, deck_setup

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def served() -> Iterator[SubprocessEngine]:
    engine = SubprocessEngine(SERVE, timeout=5.0)
    yield engine
    engine.close()


def fields(players: int) -> list[str]:
    names: list[str] = []
    for name in STATE_FIELDS:
        if name.endswith(".<seat>"):
            names += [f"{name[:-7]}.{seat}" for seat in range(players)]
        elif name.endswith(".<side>"):
            names += [f"{name[:-7]}.{side}" for side in range(2)]
        else:
            names.append(name)
    return names


def answer(call: Any, *args: Any) -> Any:
    """A comparable form of ``call(*args)``: the value, or the exception's type family and text."""
    try:
        return ("value", call(*args))
    except KeyError as error:
        return ("KeyError", str(error.args[0]) if error.args else "")
    except SetupRejected as error:
        return ("SetupRejected", str(error), error.unsupported)


def random_flags(rng: random.Random) -> dict[str, str]:
    info = ReferenceEngine().info()
    flags = dict(info.profiles[rng.choice(sorted(info.profiles))])
    for name in rng.sample(sorted(info.flags), 3):
        flags[name] = rng.choice(list(info.flags[name]))
    return flags


def random_odd_action(rng: random.Random, flags: dict[str, str]) -> dict[str, Any]:
    """An action that is probably illegal, or malformed."""
    card = rng.choice(deck_codes(int(flags["deck"])))
    return rng.choice(
        [
            {"type": "play", "seat": rng.randrange(5), "card": card},
            {"type": "cante", "seat": rng.randrange(4), "suit": rng.choice("oceb")},
            {"type": "exchange", "seat": rng.randrange(4)},
            {"type": "draw"},
            {"type": "claim", "seat": 0},
            {"type": "tute", "seat": 1, "rank": "R"},
            {"type": "play", "seat": "zero", "card": "Ao"},
            {"type": "teleport"},
        ]
    )


def compare_states(local: GameHandle, remote: GameHandle, names: list[str], players: int, where: str) -> None:
    for name in names:
        assert answer(local.state, name) == answer(remote.state, name), f"{where}: state {name}"
    for seat in range(players):
        for name in ("hand.0", f"hand.{seat}", "score.0", "cantes", "sung_suits", "phase"):
            assert answer(local.observation, seat, name) == answer(remote.observation, seat, name), (
                f"{where}: observe {seat} {name}"
            )


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_answer_the_same_in_process_and_over_the_protocol(served: SubprocessEngine, seed: int) -> None:
    rng = random.Random(seed)
    flags = random_flags(rng)
    players = int(flags["players"])
    setup = deck_setup(seed, flags, dealer=rng.randrange(players))
    reference = ReferenceEngine()
    started_locally = answer(reference.start, setup)
    started_remotely = answer(served.start, setup)
    assert started_locally[0] == started_remotely[0]
    if started_locally[0] != "value":
        assert started_locally == started_remotely
        return
    local, remote = started_locally[1], started_remotely[1]
    names = fields(players)
    compare_states(local, remote, names, players, "start")
    hands = 0
    for step in range(400):
        if rng.random() < 0.2:  # may be accepted, too
            odd = random_odd_action(rng, flags)
            assert local.apply(odd) == remote.apply(odd), f"step {step}: {odd}"
        legal = local.legal_actions()
        assert legal == remote.legal_actions(), f"step {step}: legal actions"
        if not legal:
            break
        action = rng.choice(legal)
        if action["type"] == "deal":
            hands += 1
            if hands == 2:
                break
            deck = deck_codes(int(flags["deck"]))
            rng.shuffle(deck)
            action = {"type": "deal", "deck": deck}
        outcome = local.apply(action)
        assert outcome == remote.apply(action), f"step {step}: {action}"
        assert isinstance(outcome, Accepted) or action["type"] == "deal"
        probe = rng.sample(names, 4)
        for name in probe:
            assert answer(local.state, name) == answer(remote.state, name), f"step {step}: {name}"
    compare_states(local, remote, names, players, "end")
    for name in ("no_such_field", "hand.9", "score.2", ""):
        assert answer(local.state, name) == answer(remote.state, name)
    assert answer(local.observation, 7, "phase") == answer(remote.observation, 7, "phase")
    assert local.state("phase") in ("hand_over", "match_over") or hands == 2


def test_impossible_and_unknown_setups_are_rejected_the_same_way(served: SubprocessEngine) -> None:
    reference = ReferenceEngine()
    good = deck_setup(0)
    setups: list[dict[str, Any]] = [
        {**good, "deck": good["deck"][:-1] + good["deck"][:1]},  # a card twice
        {**good, "flags": {**good["flags"], "players": "7"}},
        {**good, "flags": {**good["flags"], "no_such_flag": "x"}},
        {"flags": good["flags"], "hands": [["Ao"]], "muestra": "Rb", "stock": []},
        {"flags": good["flags"], "deck": ["Zz"]},
    ]
    for setup in setups:
        local = answer(reference.start, setup)
        remote = answer(served.start, setup)
        assert local[0] == "SetupRejected"
        assert local == remote


def test_a_position_setup_answers_the_same(served: SubprocessEngine) -> None:
    setup = {
        "flags": deck_setup(0)["flags"],
        "position": {
            "hands": [["Ao", "3o"], ["2o", "4o"], ["5o", "6o"], ["7o", "So"]],
            "trump": "b",
            "leader": 0,
            "card_points": [40, 30],
            "tricks_won": [4, 4],
        },
    }
    local, remote = ReferenceEngine().start(setup), served.start(setup)
    names = fields(4)
    compare_states(local, remote, names, 4, "position")
    for _ in range(20):
        if local.state("phase") in ("hand_over", "match_over"):
            break
        action = local.legal_actions()[0]
        assert local.apply(action) == remote.apply(action)
    assert local.state("phase") in ("hand_over", "match_over")
    compare_states(local, remote, names, 4, "position, end")


def test_info_is_the_same(served: SubprocessEngine) -> None:
    local = ReferenceEngine().info()
    # the server answers the optional 'batch' command itself, for any engine it serves
    assert served.info() == dataclasses.replace(local, capabilities=local.capabilities | {"batch"})


def test_served_games_can_be_ended(make_engine: EngineFactory) -> None:
    engine = make_engine(SERVE)
    game = engine.start(deck_setup())
    game.end()
    with pytest.raises(Exception, match="ended"):
        game.legal_actions()
    for number in range(3):
        engine.start(deck_setup(number))  # forgotten at once: ended on the next start
    gc.collect()
    assert len(engine._orphans) == 1  # each start ended the handle forgotten before it
    kept = engine.start(deck_setup(9))
    assert engine._orphans == []
    assert kept.state("phase") == "free"
