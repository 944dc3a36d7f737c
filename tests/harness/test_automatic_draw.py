"""An engine that draws by itself (capability ``automatic_draw``) runs the scenarios with no
emulation: the suite plays the explicit draw on its side (conformance.automatic_draw)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from adapters.interface import Accepted, Rejected
from adapters.reference import ReferenceEngine
from adapters.vocabulary import deck_codes
from conformance.automatic_draw import ExplicitDrawEngine, draw_made
from conformance.exit_codes import ExitCode
from reference_engine.flags import rules_for
from tests.harness.auto_draw_engine import AutoDrawEngine

REPO = Path(__file__).resolve().parents[2]


def setup(seed: int = 3) -> dict[str, object]:
    cards = deck_codes(40)
    random.Random(seed).shuffle(cards)
    return {"flags": rules_for("lascuarenta").as_dict(), "dealer": 0, "deck": cards}


def play_trick(game: object) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for _ in range(4):
        play = next(a for a in game.legal_actions() if a["type"] == "play")  # type: ignore[attr-defined]
        outcome = game.apply(play)  # type: ignore[attr-defined]
        assert isinstance(outcome, Accepted)
        events += outcome.events
    return events


def test_the_draw_of_an_automatic_engine_is_held_until_the_suite_draws() -> None:
    explicit = ReferenceEngine().start(setup())
    automatic = ExplicitDrawEngine(AutoDrawEngine()).start(setup())
    for game in (explicit, automatic):
        events = play_trick(game)
        assert "cards_drawn" not in [e["type"] for e in events]
        assert game.state("draw_pending") is True
        assert [a["type"] for a in game.legal_actions()][:1] == ["draw"]
        assert [game.state(f"hand_size.{seat}") for seat in range(4)] == [5, 5, 5, 5]
        assert game.state("stock_count") == 16
        refused = game.apply(
            {"type": "play", "seat": game.state("turn"), "card": game.state(f"hand.{game.state('turn')}")[0]}
        )
        assert isinstance(refused, Rejected) and refused.code == "MUST_DRAW_FIRST"
    drawn = [game.apply({"type": "draw"}) for game in (explicit, automatic)]
    assert isinstance(drawn[0], Accepted) and isinstance(drawn[1], Accepted)
    assert drawn[0].events == drawn[1].events
    for game in (explicit, automatic):
        assert game.state("draw_pending") is False and game.state("stock_count") == 12
        again = game.apply({"type": "draw"})
        assert isinstance(again, Rejected) and again.code == "NOTHING_TO_DRAW"
    assert [explicit.state(f"hand.{s}") for s in range(4)] == [automatic.state(f"hand.{s}") for s in range(4)]


def test_an_engine_without_the_capability_is_left_alone() -> None:
    game = ExplicitDrawEngine(ReferenceEngine()).start(setup())
    assert type(game).__name__ == "ReferenceGame"


def test_a_position_with_a_draw_pending_is_given_with_the_draw_made() -> None:
    position = {
        "hands": [["Ao"], ["3o"], ["Ro"], ["Co"]], "leader": 1, "last_trick_winner": 1,
        "stock": ["2o", "4o", "5o"], "muestra": "6o", "draw_pending": True,
    }  # fmt: skip
    drawn, events = draw_made(position)
    assert drawn["hands"] == [["Ao", "6o"], ["3o", "2o"], ["Ro", "4o"], ["Co", "5o"]]  # the last drawer: the muestra
    assert "muestra" not in drawn and drawn["trump"] == "o" and drawn["stock"] == []
    assert events == [{"type": "cards_drawn", "draws": [[1, "2o"], [2, "4o"], [3, "5o"], [0, "6o"]]},
                      {"type": "arrastre_begins"}]  # fmt: skip


def test_the_suite_runs_on_an_engine_that_draws_by_itself(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--engine", "py:tests.harness.auto_draw_engine:make",
         "--profile", "lascuarenta", "--area", "free_phase", "--area", "scoring", "--area", "vueltas",
         "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    assert sum(1 for r in results if r["status"] == "pass") > 0.8 * len(results)
