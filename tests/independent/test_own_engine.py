"""The suite against an engine that shares nothing with the reference (issue 34).

``tests/independent/own_engine/engine.py`` is written from the rule sources and the protocol
page and imports nothing of the project: its own shuffle for the next hands (``own_shuffle``, or
the harness's deck orders with ``--take-deals``), its own draw (``automatic_draw``) and its own
end of hand. Every run of the suite on it passes or is not applicable for what it declares: a
failure is a bug of that engine or a check of the suite that says more than the rules.
"""

from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.catalogue.features import load_scenarios
from tests.independent.own_engine import engine as own
from tests.independent.test_minimal_engine import run_suite

ENGINE_FILE = Path(own.__file__).resolve()
OWN_SHUFFLE = f"cmd:{sys.executable} {ENGINE_FILE}"
TAKES_DEALS = f"{OWN_SHUFFLE} --take-deals"
WITH_MATCH = f"{TAKES_DEALS} --match"  # and answers the match score (capability match)
#: why a run may be not applicable on this engine: what it does not play or declare
INHERENT = (
    "engine own-guinote does not support",  # a flag value of neither of its profiles
    "the engine lacks the 'observations' capability",
    "the engine lacks the 'match' capability",
    "the engine deals it from its own shuffle ('own_shuffle')",
    "the engine draws automatically",  # the moment before its own draw (protocol.md, The draw)
)


def check_runs(done: Any, data: dict[str, Any]) -> Counter[str]:
    """No run failed, and every run not applicable is so for what the engine declares."""
    results = data["results"]
    bad = [
        f"{r['feature']}:{r['line']} [{r['profile']}] {r['status']}: {r['message'][:300]}"
        for r in results
        if r["status"] not in ("pass", "not_applicable")
    ]
    assert not bad, "\n".join(bad[:20])
    assert done.returncode == 0, done.stdout[-2000:]
    lost = [
        r["message"]
        for r in results
        if r["status"] == "not_applicable" and not any(i in r["message"] for i in INHERENT)
    ]
    assert not lost, Counter(lost).most_common(5)
    return Counter(result["status"] for result in results)


def test_the_engine_imports_nothing_but_the_standard_library() -> None:
    """Independent by construction: no module of the project, so none of the reference's choices."""
    tree = ast.parse(ENGINE_FILE.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported, "the engine imports nothing?"
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported - set(sys.stdlib_module_names)


def speak(server: own.Server, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's answers to ``requests``, each through its JSON line."""
    answers = []
    for number, request in enumerate(requests, 1):
        reply, _ = server.answer(json.dumps({"id": number, **request}))
        answers.append(reply)
    return answers


def a_deal() -> dict[str, Any]:
    deck = own.DECK
    return {"flags": own.LASCUARENTA, "dealer": 0, "hands": [deck[6 * s : 6 * s + 6] for s in range(4)],
            "muestra": deck[24], "stock": deck[25:]}  # fmt: skip


def test_the_play_that_ends_a_free_trick_draws_the_winner_first() -> None:
    server = own.Server()
    [started] = speak(server, {"cmd": "start", "setup": a_deal()})
    game = started["game"]
    hands = a_deal()["hands"]
    plays = [{"cmd": "apply", "game": game, "action": {"type": "play", "seat": s % 4, "card": hands[s % 4][0]}}
             for s in range(1, 5)]  # fmt: skip
    *_, last = speak(server, *plays)
    kinds = [event["type"] for event in last["events"]]
    assert kinds == ["card_played", "trick_won", "cards_drawn"], kinds
    winner = last["events"][1]["seat"]
    draws = last["events"][2]["draws"]
    assert [seat for seat, _ in draws] == [(winner + step) % 4 for step in range(4)]
    assert [card for _, card in draws] == own.DECK[25:29]  # the top of the stock
    [size, stock, pending] = speak(
        server, *({"cmd": "state", "game": game, "field": f} for f in ("hand_size.0", "stock_count", "draw_pending"))
    )
    assert (size["value"], stock["value"], pending["value"]) == (6, 12, False)
    [draw] = speak(server, {"cmd": "apply", "game": game, "action": {"type": "draw"}})
    assert draw["accepted"] is False  # it never takes the suite's draw


def hand_over(server: own.Server) -> str:
    """A game whose first hand has just been played out."""
    [started] = speak(server, {"cmd": "start", "setup": a_deal()})
    game = str(started["game"])
    for _ in range(40):
        [legal] = speak(server, {"cmd": "legal", "game": game})
        plays = [action for action in legal["actions"] if action["type"] == "play"]
        if not plays:
            break
        speak(server, {"cmd": "apply", "game": game, "action": plays[0]})
    [phase] = speak(server, {"cmd": "state", "game": game, "field": "phase"})
    assert phase["value"] == "hand_over"
    return game


def test_the_next_hand_comes_from_its_own_shuffle_the_same_on_a_replay() -> None:
    server = own.Server()
    game = hand_over(server)
    [legal, refused] = speak(
        server,
        {"cmd": "legal", "game": game},
        {"cmd": "apply", "game": game, "action": {"type": "deal", "deck": own.DECK}},
    )
    assert legal["actions"] == [{"type": "deal", "deck": []}]
    assert refused["accepted"] is False  # it cannot be given the cards of the next hand
    [dealt, hand] = speak(
        server,
        {"cmd": "apply", "game": game, "action": {"type": "deal", "deck": []}},
        {"cmd": "state", "game": game, "field": "hand.1"},
    )
    assert [event["type"] for event in dealt["events"]] == ["hand_dealt"]
    again = own.Server()
    replayed = hand_over(again)
    speak(again, {"cmd": "apply", "game": replayed, "action": {"type": "deal", "deck": []}})
    [same] = speak(again, {"cmd": "state", "game": replayed, "field": "hand.1"})
    assert same["value"] == hand["value"] and len(hand["value"]) == 6


@pytest.mark.parametrize(
    ("engine", "profile", "area", "least"),
    [
        (TAKES_DEALS, "ludoteka", "vueltas", 20),
        (OWN_SHUFFLE, "lascuarenta", "free_phase", 30),
        (WITH_MATCH, "lascuarenta", "match", 15),
    ],
)
def test_one_area_runs_on_the_engine_with_no_failure(
    tmp_path: Path, engine: str, profile: str, area: str, least: int
) -> None:
    """The hands de vueltas (claims, early ends) on the engine that takes the harness's deals,
    the free phase and its draws on the one that shuffles its own, and the match score."""
    done, data = run_suite(tmp_path, engine, "--profile", profile, "--area", area)
    statuses = check_runs(done, data)
    assert statuses["pass"] >= least, statuses


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["lascuarenta", "ludoteka"])
@pytest.mark.parametrize("engine", [OWN_SHUFFLE, WITH_MATCH], ids=["own_shuffle", "take_deals_match"])
def test_the_whole_suite_runs_on_the_engine_with_no_failure(tmp_path: Path, engine: str, profile: str) -> None:
    """Its own shuffle, or the harness's deals and the match score (which plays every scenario
    the other declaration leaves out)."""
    done, data = run_suite(tmp_path, engine, "--profile", profile)
    statuses = check_runs(done, data)
    # every scenario once (run_suite plays them as written, no symmetry), under the one profile
    assert len(data["results"]) == len(load_scenarios()) and statuses["pass"] >= 175, statuses


def test_an_engine_that_takes_deck_orders_is_given_the_next_hand_as_one(tmp_path: Path) -> None:
    """deal.feature:118 gives the next hand as its hands, muestra and stock, a form protocol.md
    sends only to an engine that refuses deck orders: this engine takes deck orders, refuses the
    explicit form, and is given the deck order that deals the same hands."""
    done, data = run_suite(tmp_path, TAKES_DEALS, "--profile", "lascuarenta", "--scenario", "features/deal.feature:118")
    assert check_runs(done, data) == Counter({"pass": 1})
