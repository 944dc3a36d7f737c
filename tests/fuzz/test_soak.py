"""The soak run (guinote_conformance.fuzz.soak, ``tox -e soak``): a few hands per configuration here, so it cannot rot;
and each of its checks shown to fire."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.interface import JSON, GameHandle
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.engines.specs import overlays
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import MAX_ACTIONS_PER_HAND, Fuzzer
from guinote_conformance.fuzz.soak import HandInvariants, children, main
from guinote_conformance.oracle.steps import Step

LINUX = sys.platform.startswith("linux")


def test_a_quick_soak_of_every_profile_and_overlay_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "4"]) == 0
    out = capsys.readouterr().out
    profiles = list(ReferenceEngine().info().profiles)
    for profile in profiles:
        for label in (profile, *(f"{profile}+{overlay}" for overlay in overlays())):
            line = next(line for line in out.splitlines() if line.split(" ")[0] == label)
            hands, single, in_matches, matches = (int(value) for value in line.split()[1:5])
            assert hands >= 4 and single == 2 and in_matches >= 2 and matches >= 1, line
    assert "OK: 0 divergences, 0 violations" in out
    if LINUX:
        assert "resident memory of the engine: " in out and "unknown" not in out


def test_a_divergence_fails_the_soak(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--hands", "30", "--profile", "lascuarenta", "--engine", "serve:py:tests.fuzz.engines:no_cantes"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "DIVERGENCE" in out and "cante" in out


@pytest.mark.skipif(not LINUX, reason="the resident size is read from /proc")
def test_memory_growth_past_the_bound_fails_the_soak(capsys: pytest.CaptureFixture[str]) -> None:
    # any growth, even none, is more than -1 MiB: the check is wired to the exit status
    assert main(["--hands", "2", "--profile", "ludoteka", "--max-rss-growth", "-1"]) == 1
    assert "memory grew" in capsys.readouterr().out


def test_a_usage_error_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "2", "--profile", "nosuch"]) == 2
    assert "error: " in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ the invariants


def finished_hand(label: str = "lascuarenta", seed: int = 3) -> tuple[GameHandle, list[Step]]:
    """A hand played to its end by the fuzzer on the reference: its game and its steps."""
    seen: list[tuple[GameHandle, list[Step]]] = []
    reference = ReferenceEngine()
    info = reference.info()
    fuzzer = Fuzzer(
        ReferenceEngine(), reference, info, depth="hand", seed=seed, hand_played=lambda g, s: seen.append((g, list(s)))
    )
    fuzzer.play_game(resolve(info, label), 0, FuzzReport(info.name))
    assert len(seen) == 1
    return seen[0]


class Lying:
    """A game handle that answers one field otherwise."""

    def __init__(self, game: GameHandle, name: str, value: JSON) -> None:
        self.game, self.name, self.value = game, name, value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def state(self, name: str) -> JSON:
        return self.value if name == self.name else self.game.state(name)

    def state_fields(self, names: Sequence[str]) -> dict[str, JSON]:
        return {name: self.state(name) for name in names}


@pytest.mark.parametrize(
    "label", ["lascuarenta", "tradicional+mano_a_mano", "ludoteka+ademuz48", "tradicional+castellon36"]
)
def test_a_sound_hand_keeps_every_invariant(label: str) -> None:
    game, steps = finished_hand(label)
    checker = HandInvariants(deck_size=resolve(ReferenceEngine().info(), label).deck_size)
    assert checker.problems(game, steps) == []


@pytest.mark.parametrize(
    ("field", "change", "problem"),
    [
        ("stock_count", lambda v: int(v) + 1, "cards, not 40"),
        ("won_cards.1", lambda v: [*v[:-1], v[0]] if v else ["Ao", "Ao"], "cards in two places at once"),
        ("won_cards.0", lambda v: [*v, "9o"] if v else ["9o"], "cards not of the 40-card deck"),
        ("card_points.0", lambda v: int(v) + 11, "card points, its cards are worth"),
        ("score.1", lambda v: int(v) + 1, "scores"),
        ("phase", lambda v: "free", "yet its phase is 'free'"),
        ("ultimas", lambda v: None, "nobody took the diez de últimas"),
    ],
)
def test_a_broken_invariant_is_named(field: str, change: Any, problem: str) -> None:
    game, steps = finished_hand()
    lying = Lying(game, field, change(game.state(field)))
    problems = HandInvariants().problems(lying, steps)
    assert any(problem in text for text in problems), problems


def test_the_points_of_the_tricks_must_add_up() -> None:
    game, steps = finished_hand()
    trick = next(index for index, step in enumerate(steps) if any(e.get("type") == "trick_won" for e in step.events))
    events = [
        {**e, "points": int(str(e["points"])) + 1} if e.get("type") == "trick_won" else e for e in steps[trick].events
    ]
    forged = [
        *steps[:trick],
        Step(steps[trick].action, True, events, "", "", steps[trick].legal, steps[trick].state),
        *steps[trick + 1 :],
    ]
    assert any("the tricks won carried" in text for text in HandInvariants().problems(game, forged))


def test_a_hand_that_does_not_end_is_named() -> None:
    game, steps = finished_hand()
    endless = [
        steps[0],
        *[Step({"type": "play"}, legal=[{"type": "play", "seat": 0, "card": "Ao"}])] * MAX_ACTIONS_PER_HAND,
    ]
    assert HandInvariants().problems(game, endless) == [f"the hand did not end within {MAX_ACTIONS_PER_HAND} actions"]


@pytest.mark.skipif(not LINUX, reason="children are read from /proc")
def test_a_child_left_behind_is_seen() -> None:
    import os

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in children(os.getpid())
    finally:
        child.kill()
        child.wait()
    assert child.pid not in children(os.getpid())


def test_an_engine_that_cannot_start_is_exit_3_with_its_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    script = Path(__file__).resolve().parents[1] / "protocol" / "hostile" / "crash_at_start.py"
    assert main(["--hands", "2", "--engine", f"cmd:{sys.executable} {script}"]) == 3
    err = capsys.readouterr().err
    assert "could not be started" in err and "fatal: cannot load the rules table" in err
    assert "Traceback" not in err
