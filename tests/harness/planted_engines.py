"""Test doubles with one planted bug each, the kind real engines showed (issue 34), served over the
protocol in their own process (``serve:tests.harness.planted_engines:NAME``) so that the patch never
touches the reference engine of the test run itself.

* :func:`third_suit_wins`: a card of a third suit (neither trumps nor the suit led) takes the trick
  when it ranks higher: the rule that a third suit never takes the trick (DECK-11) broken, the
  card ranking intact;
* :func:`exchange_keeps_seven`: the exchange of the seven takes the muestra into the hand but leaves
  the seven there too (the events as the reference's): the exchange rule (SEVEN-01) broken.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.reference_engine import hand, tricks
from guinote_conformance.reference_engine.cards import Card, Suit
from guinote_conformance.reference_engine.tricks import Trick


def _rebind(original: object, replacement: object) -> None:
    """Rebind every ``reference_engine`` module attribute that holds ``original``."""
    for name, module in list(sys.modules.items()):
        if name == "guinote_conformance.reference_engine" or name.startswith("guinote_conformance.reference_engine."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attribute, replacement)


def _third_suit_wins() -> None:
    def any_higher(trick: Trick, trump: Suit, strength: Mapping[Card, int]) -> int:
        best, best_card = 0, trick[0][1]
        for index in range(1, len(trick)):
            card = trick[index][1]
            trumps = card.suit is trump and best_card.suit is not trump
            # the bug: a higher card of any suit but trumps beats, not only one of the suit led
            higher = trump not in (card.suit, best_card.suit) or card.suit is best_card.suit
            if trumps or (higher and strength[card] > strength[best_card]):
                best, best_card = index, card
        return best

    _rebind(tricks.winning_index, any_higher)


def _exchange_keeps_seven() -> None:
    original = hand.Hand._exchange

    def keeps_seven(self: hand.Hand, seat: int) -> list[Any]:
        events = original(self, seat)
        given = self.muestra
        assert given is not None
        self.hands[seat].append(given)  # the bug: the seven stays in the hand as well
        return events

    hand.Hand._exchange = keeps_seven  # type: ignore[method-assign]


_PLANTED = {"third_suit_wins": _third_suit_wins, "exchange_keeps_seven": _exchange_keeps_seven}


class PlantedEngine(ReferenceEngine):
    def __init__(self, name: str) -> None:
        self.name = name
        _PLANTED[name]()

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(
            name=f"planted-{self.name}",
            version=full.version,
            language=full.language,
            profiles=full.profiles,
            flags=full.flags,
            capabilities=full.capabilities,
        )


def third_suit_wins() -> PlantedEngine:
    return PlantedEngine("third_suit_wins")


def exchange_keeps_seven() -> PlantedEngine:
    return PlantedEngine("exchange_keeps_seven")
