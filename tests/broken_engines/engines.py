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
from reference_engine import cantes, cards, hand, scoring, tricks, views
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


def _no_cantes_in_arrastre() -> None:
    original = cantes.window_open_for

    def free_phase_only(g: Any, seat: int) -> bool:
        return bool(original(g, seat)) and g.phase != "arrastre"

    _replace_everywhere(original, free_phase_only)


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
    "no_cantes_in_arrastre": Breakage(
        "CANTE-20",
        "no cante is allowed once the arrastre begins",
        # every scenario that sings in the arrastre, whatever rule it pins down (the case of
        # a real engine: one root cause, failures under many rule IDs, none saying "arrastre")
        frozenset(
            {"CANTE-08", "CANTE-14", "CANTE-15", "CANTE-26", "CANTE-27", "CANTE-28", "CANTE-29"}
            | {"DECK-14", "ETIQ-06", "TWO-07"}
        ),
        _no_cantes_in_arrastre,
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


def _no_thirty_malas() -> None:
    scoring.THIRTY_MALAS = 0


def _tute_of_reyes_only() -> None:
    cantes.TUTE_RANKS = (Rank.REY,)  # type: ignore[assignment]  # the broken rule: a shorter tuple


def _many_cantes_per_trick() -> None:
    original = cantes._one_per_trick_used

    def never(g: Any) -> bool:
        return False

    _replace_everywhere(original, never)


def _false_claims_win() -> None:
    original = scoring.decide_claim

    def always_right(g: Any, side: int) -> scoring.PointDecision:
        decision = original(g, side)
        return scoring.PointDecision(side, "claim_correct", "VUELTAS-06") if decision.winner != side else decision

    _replace_everywhere(original, always_right)


def _totals_not_carried() -> None:
    original = scoring.total

    def this_hand_only(g: Any, side: int) -> int:
        return scoring.hand_score(g, side)

    _replace_everywhere(original, this_hand_only)
    views._PER_SIDE["total"] = this_hand_only  # the state field reads it from a table


#: Engines that break one rule random play rarely reaches: for measuring ``compare`` (they are
#: not part of the suite's own broken-engine check, which the suite need not pass on them).
RARE_BREAKAGES: dict[str, Breakage] = {
    "no_thirty_malas": Breakage("SCORE-09", "a side past 100 wins without the thirty malas", None, _no_thirty_malas),
    "tute_of_reyes_only": Breakage(
        "CANTE-22", "only four Reyes make a tute, four Sotas do not", None, _tute_of_reyes_only
    ),
    "many_cantes_per_trick": Breakage(
        "CANTE-10", "several cantes follow one trick even under cante_per_trick=one", None, _many_cantes_per_trick
    ),
    "false_claims_win": Breakage(
        "VUELTAS-06", "a claim of 101 wins the point even when it is false", None, _false_claims_win
    ),
    "totals_not_carried": Breakage(
        "VUELTAS-02", "a hand de vueltas starts from zero instead of the carried totals", None, _totals_not_carried
    ),
}


class BrokenEngine(ReferenceEngine):
    def __init__(self, name: str) -> None:
        self.breakage = BREAKAGES[name] if name in BREAKAGES else RARE_BREAKAGES[name]
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


def no_cantes_in_arrastre() -> BrokenEngine:
    return BrokenEngine("no_cantes_in_arrastre")


def no_diez_de_ultimas() -> BrokenEngine:
    return BrokenEngine("no_diez_de_ultimas")


def winner_draws_last() -> BrokenEngine:
    return BrokenEngine("winner_draws_last")


def free_phase_obligations() -> BrokenEngine:
    return BrokenEngine("free_phase_obligations")


def no_thirty_malas() -> BrokenEngine:
    return BrokenEngine("no_thirty_malas")


def tute_of_reyes_only() -> BrokenEngine:
    return BrokenEngine("tute_of_reyes_only")


def many_cantes_per_trick() -> BrokenEngine:
    return BrokenEngine("many_cantes_per_trick")


def false_claims_win() -> BrokenEngine:
    return BrokenEngine("false_claims_win")


def totals_not_carried() -> BrokenEngine:
    return BrokenEngine("totals_not_carried")
