"""compare for an engine that deals its own way: it refuses deck orders, so the fuzzer gives it
the same cards as explicit deals (the setup's hands, muestra and stock, and the explicit form of
the next hand's ``deal``), and the scenarios it writes start from an explicit deal."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.adapters.interface import JSON, Accepted, Action, Engine, GameHandle, Outcome, Rejected, Setup
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.oracle.steps import FIELDS, snapshot
from guinote_conformance.reference_engine.cards import parse_card
from guinote_conformance.reference_engine.deal import deal_from_deck, order_of_deal
from guinote_conformance.reference_engine.flags import rules_for
from guinote_conformance.reference_engine.match import next_dealer
from tests.fuzz.engines import forgets_totals
from tests.harness.explicit_deal_engine import ExplicitDealEngine

REPO = Path(__file__).resolve().parents[2]
INFO = ReferenceEngine().info()


def _flags(players: int, method: str, size: int) -> dict[str, str]:
    flags = rules_for("lascuarenta").as_dict()
    flags.update(players=str(players), deal=method, deck=str(size))
    if size == 48:
        flags.update(rank_8_9="below_caballo")
    return flags


def _explicit(order: list[str], players: int, dealer: int, method: str, size: int) -> dict[str, JSON]:
    dealt = deal_from_deck([parse_card(c) for c in order], players, dealer, method, size)
    return {
        "hands": [[c.code for c in hand] for hand in dealt.hands],
        "muestra": dealt.muestra.code,
        "stock": [c.code for c in dealt.stock],
    }


def _position(game: GameHandle) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
    fields = [*FIELDS, "dealer", "mano", *(f"hand.{seat}" for seat in range(int(game.state("players"))))]
    step = snapshot(game, None, fields)
    return step.state, step.legal


CASES = list(itertools.product((4, 2), ("one_by_one", "three_three"), (40, 36, 48)))


@pytest.mark.parametrize(("players", "method", "size"), CASES)
def test_a_deck_order_and_its_explicit_deal_are_the_same_position(players: int, method: str, size: int) -> None:
    flags = _flags(players, method, size)
    for seed in range(6):
        order = deck_codes(size)
        random.Random(seed).shuffle(order)
        dealer = seed % players
        explicit = _explicit(order, players, dealer, method, size)
        # the inverse of DEAL: the explicit deal back to the very deck order
        dealt = deal_from_deck([parse_card(c) for c in order], players, dealer, method, size)
        assert [c.code for c in order_of_deal(dealt, players, dealer, method)] == order
        by_deck = ReferenceEngine().start({"flags": flags, "dealer": dealer, "deck": order})
        by_hands = ReferenceEngine().start({"flags": flags, "dealer": dealer, **explicit})
        assert _position(by_deck) == _position(by_hands)
        # and the next hand: the deal action's deck order, or its explicit form
        for game in (by_deck, by_hands):
            while game.state("phase") in ("free", "arrastre"):
                assert isinstance(game.apply(game.legal_actions()[0]), Accepted)
        following = deck_codes(size)
        random.Random(seed + 100).shuffle(following)
        deals = next_dealer(int(by_deck.state("last_trick_winner")))
        by_deck.apply({"type": "deal", "deck": following})
        outcome = by_hands.apply({"type": "deal", **_explicit(following, players, deals, method, size)})
        assert isinstance(outcome, Accepted), outcome
        assert _position(by_deck) == _position(by_hands)


def test_the_reference_refuses_a_malformed_explicit_deal_clearly() -> None:
    flags = rules_for("lascuarenta").as_dict()
    order = deck_codes(40)
    game = ReferenceEngine().start({"flags": flags, "dealer": 0, "deck": order})
    early = game.apply({"type": "deal", **_explicit(order, 4, 1, "three_three", 40)})
    assert isinstance(early, Rejected) and early.code == "HAND_IN_PROGRESS"
    while game.state("phase") in ("free", "arrastre"):
        game.apply(game.legal_actions()[0])
    for action, words in (
        ({"type": "deal", "hands": [["Ao"]], "muestra": "Rb", "stock": []}, "hands to 1 seats"),
        ({"type": "deal", "deck": order, "hands": [], "muestra": "Rb", "stock": []}, "either a deck order"),
        ({"type": "deal", "hands": "Ao", "muestra": "Rb", "stock": []}, "a list of card lists"),
        ({"type": "deal", **{**_explicit(order, 4, 1, "three_three", 40), "muestra": "Zz"}}, "Zz"),
    ):
        refused = game.apply(action)
        assert isinstance(refused, Rejected) and refused.code == "BAD_ACTION" and words in refused.message, refused
    assert game.state("phase") == "hand_over", "a refused deal changes nothing"


class _Spy:
    """An engine that records what it is given: the setups and every deal action."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.setups: list[dict[str, Any]] = []
        self.deals: list[dict[str, Any]] = []

    def info(self) -> Any:
        return self.inner.info()

    def start(self, setup: Setup) -> Any:
        self.setups.append(dict(setup))
        spy = self

        class Game:
            def __init__(self, game: GameHandle) -> None:
                self.game = game

            def legal_actions(self) -> list[dict[str, JSON]]:
                return self.game.legal_actions()

            def apply(self, action: Action) -> Outcome:
                if action.get("type") == "deal":
                    spy.deals.append(dict(action))
                return self.game.apply(action)

            def state(self, name: str) -> JSON:
                return self.game.state(name)

            def observation(self, seat: int, name: str) -> JSON:
                return self.game.observation(seat, name)

        return Game(self.inner.start(setup))

    def close(self) -> None:
        self.inner.close()


@pytest.mark.parametrize("depth", ["hand", "match"])
def test_an_engine_that_refuses_deck_orders_is_compared_on_explicit_deals(depth: str) -> None:
    engine = _Spy(ExplicitDealEngine())
    fuzzer = Fuzzer(ReferenceEngine(), engine, INFO, depth=depth, batch=False)
    report = fuzzer.run([resolve(INFO, "ludoteka"), resolve(INFO, "lascuarenta+mano_a_mano")], 4)
    assert report.not_applicable == {}, report.not_applicable
    assert report.groups == {} and report.games == 8 and fuzzer.explicit_deals
    assert [s for s in engine.setups if "deck" in s] == [engine.setups[0]], "one refused deck order, then none"
    assert all({"hands", "muestra", "stock"} <= set(s) for s in engine.setups[1:])
    if depth == "match":
        assert report.hands > report.games and engine.deals, "the next hands are dealt too"
        assert all("deck" not in deal and len(deal["hands"]) in (2, 4) for deal in engine.deals)


def test_the_same_seed_deals_the_same_cards_as_deck_orders_or_explicitly() -> None:
    configs = [resolve(INFO, "tradicional")]
    by_deck = _Spy(ReferenceEngine())
    Fuzzer(ReferenceEngine(), by_deck, INFO, depth="hand", batch=False).run(configs, 3)
    explicit = _Spy(ExplicitDealEngine())
    Fuzzer(ReferenceEngine(), explicit, INFO, depth="hand", batch=False).run(configs, 3)
    method = configs[0].flags["deal"]
    as_hands = [_explicit(s["deck"], 4, s["dealer"], method, 40) for s in by_deck.setups]
    assert [{k: s[k] for k in ("hands", "muestra", "stock")} for s in explicit.setups[1:]] == as_hands


def test_a_broken_engine_that_deals_its_own_way_is_found_past_the_first_hand() -> None:
    engine = ExplicitDealEngine(forgets_totals())
    fuzzer = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="match", seed=3)
    report = fuzzer.run([resolve(INFO, "lascuarenta")], 30)
    assert report.groups, "VUELTAS-02 breaks in the hand de vueltas, after an explicit next deal"
    group = next(iter(report.groups.values()))
    assert group.cause.rule == "VUELTAS-02"
    example = fuzzer.smallest(group)
    assert "deck" not in example.setup and all("deck" not in a for a in example.actions if a["type"] == "deal")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guinote_conformance", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("depth", ["hand", "match"])
def test_compare_through_the_cli_plays_an_engine_that_refuses_deck_orders(tmp_path: Path, depth: str) -> None:
    engine = "serve:py:tests.harness.explicit_deal_engine:make"  # over the protocol: serve takes explicit deals
    done = cli("compare", "--engine", engine, "--profile", "lascuarenta", "--profile", "ludoteka+mano_a_mano",
               "--hands", "4", "--depth", depth, "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["not_applicable"] == {} and report["hands"] >= 8, report
    if depth == "match":
        assert report["hands"] > report["games"], "the next hands are dealt explicitly"


def test_compare_finds_a_broken_engine_that_deals_its_own_way_and_writes_a_scenario_it_runs(tmp_path: Path) -> None:
    done = cli("compare", "--engine", "py:tests.fuzz.engines:explicit_deal_forgets_totals", "--profile", "lascuarenta",
               "--hands", "30", "--depth", "match", "--report-dir", str(tmp_path))  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "scenario reproduced [lascuarenta;" in done.stdout, done.stdout
    assert "engine fail, reference pass" in done.stdout, done.stdout
    feature = (tmp_path / "divergences.feature").read_text(encoding="utf-8")
    assert "Given a deal by seat" in feature and "When the next hand is dealt:" in feature
    assert "from the deck" not in feature, "the engine refuses deck orders: the scenario must not use them"
