"""Deliberately broken engines: each is the reference engine with ONE rule broken.

They are served over the protocol in their own process (``serve:tests.broken_engines.engines:NAME``),
so the patches never touch the reference engine of the test run itself. The suite must flag
each one under the rule it breaks and pass everything that rule does not touch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adapters.interface import EngineInfo
from adapters.reference import ReferenceEngine
from reference_engine import cantes, cards, hand, scoring, tricks
from reference_engine.cards import Card, Rank


@dataclass(frozen=True)
class Breakage:
    """What is broken: the rule it breaks, and the other rules whose scenarios may fail with it.

    ``collateral=None`` marks a foundational rule (the draw, the diez de últimas) that every
    later count depends on, so its failures may show up anywhere."""

    rule: str
    description: str
    collateral: frozenset[str] | None
    apply: Callable[[], None]


def _replace_everywhere(original: object, replacement: object) -> None:
    """Rebind every ``reference_engine`` module attribute that holds ``original``."""
    for name, module in list(sys.modules.items()):
        if name == "reference_engine" or name.startswith("reference_engine."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attribute, replacement)


def _caballo_above_sota() -> None:
    original = cards.strength_table

    def swapped(rank_8_9: str = "below_caballo") -> Mapping[Card, int]:
        table = dict(original(rank_8_9))
        for card in list(table):
            if card.rank is Rank.SOTA:
                caballo = Card(Rank.CABALLO, card.suit)
                table[card], table[caballo] = table[caballo], table[card]
        return table

    _replace_everywhere(original, swapped)


def _cantes_without_won_trick() -> None:
    original = cantes.window_open_for

    def any_side(g: Any, seat: int) -> bool:
        return bool(original(g, seat)) or (g.last_trick_winner is not None and not g.trick and g.result is None)

    _replace_everywhere(original, any_side)


def _no_diez_de_ultimas() -> None:
    scoring.ULTIMAS = 0


def _winner_draws_last() -> None:
    original = tricks.draw_order

    def loser_first(winner: int, players: int) -> list[int]:
        order = list(original(winner, players))
        return order[1:] + order[:1]

    _replace_everywhere(original, loser_first)


def _free_phase_obligations() -> None:
    original = hand.Hand.playable_cards

    def with_duties(self: hand.Hand, seat: int) -> list[Card]:
        playable = original(self, seat)
        if self.phase == "free" and self.trick:
            led = self.trick[0][1].suit
            following = [card for card in playable if card.suit is led]
            return following or playable
        return playable

    hand.Hand.playable_cards = with_duties  # type: ignore[method-assign]


BREAKAGES: dict[str, Breakage] = {
    "caballo_above_sota": Breakage(
        "DECK-06",
        "the Caballo outranks the Sota, as in Tute",
        frozenset({"DECK-05", "CANTE-19", "SEVEN-08"}),
        _caballo_above_sota,
    ),
    "no_partner_exemption": Breakage(
        "ARR-06",
        "the duty to beat or trump holds even when the partner is winning",
        frozenset({"ARR-07", "ARR-10", "ARR-13"}),
        lambda: None,  # done by forcing the flag: see BrokenEngine.start
    ),
    "cantes_without_won_trick": Breakage(
        "CANTE-05",
        "either side may sing after any trick",
        # tute, the mano a mano cante and claims open in the same window after a won trick
        frozenset({"CANTE-18", "CANTE-22", "CANTE-27", "TWO-07", "RENUNCIO-05", "VUELTAS-05"}),
        _cantes_without_won_trick,
    ),
    "no_diez_de_ultimas": Breakage(
        "SCORE-01",
        "the last trick carries no diez de últimas",
        None,
        _no_diez_de_ultimas,
    ),
    "winner_draws_last": Breakage(
        "PLAY-08", "after a trick the winner draws last instead of first", None, _winner_draws_last
    ),
    "free_phase_obligations": Breakage(
        "PLAY-07",
        "players must follow suit while the stock lasts",
        # whole hands played out card by card take other cards once the free phase is restricted
        frozenset({"ARR-11", "SCORE-01", "SCORE-03", "SCORE-13", "TWO-02", "TWO-05"}),
        _free_phase_obligations,
    ),
}


class BrokenEngine(ReferenceEngine):
    def __init__(self, name: str) -> None:
        self.breakage = BREAKAGES[name]
        self.name = name
        self.breakage.apply()

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(
            name=f"broken-{self.name}",
            version=full.version,
            language=full.language,
            profiles=full.profiles,
            flags=full.flags,
            capabilities=full.capabilities,
        )

    def start(self, setup: Mapping[str, Any]) -> Any:
        if self.name == "no_partner_exemption":
            setup = {**setup, "flags": {**setup.get("flags", {}), "partner_winning_exempts": "no"}}
        return super().start(setup)


def caballo_above_sota() -> BrokenEngine:
    return BrokenEngine("caballo_above_sota")


def no_partner_exemption() -> BrokenEngine:
    return BrokenEngine("no_partner_exemption")


def cantes_without_won_trick() -> BrokenEngine:
    return BrokenEngine("cantes_without_won_trick")


def no_diez_de_ultimas() -> BrokenEngine:
    return BrokenEngine("no_diez_de_ultimas")


def winner_draws_last() -> BrokenEngine:
    return BrokenEngine("winner_draws_last")


def free_phase_obligations() -> BrokenEngine:
    return BrokenEngine("free_phase_obligations")
