"""Planted doubles for the symmetries of the game: the reference with one seat- or suit-dependent bug.

Each bug hides in a corner the scenarios as written never visited (a suit they never led, a trump suit
they never had, a seat that never led), so only a run under a symmetry of the game can show it
(``tests/harness/test_symmetry.py``); two of those corners now have scenarios of their own. They
are served in their own process (``serve:tests.harness.symmetry_doubles:NAME``): the patch never
touches the reference of the test run itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from guinote_conformance.adapters.interface import EngineInfo
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.reference_engine import arrastre
from guinote_conformance.reference_engine.cards import Card, Suit
from guinote_conformance.reference_engine.flags import Rules
from guinote_conformance.reference_engine.tricks import Trick

LegalCards = Callable[[Sequence[Card], int, Trick, Suit, Mapping[Card, int], Rules], list[Card]]


Planted = Callable[[LegalCards], LegalCards]


def _no_beat_when_led(suit: Suit) -> Planted:
    """ARR-02 forgotten when ``suit`` is led: any card of it follows."""

    def plant(original: LegalCards) -> LegalCards:
        def legal(
            hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
        ) -> list[Card]:
            if trick and trick[0][1].suit is suit and any(card.suit is suit for card in hand):
                return [card for card in hand if card.suit is suit]
            return original(hand, seat, trick, trump, strength, rules)

        return legal

    return plant


def _no_beat_when_seat_leads(leader: int) -> Planted:
    """ARR-02 forgotten in a trick ``leader`` led: any card of the suit led follows."""

    def plant(original: LegalCards) -> LegalCards:
        def legal(
            hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
        ) -> list[Card]:
            if trick and trick[0][0] == leader and any(card.suit is trick[0][1].suit for card in hand):
                return [card for card in hand if card.suit is trick[0][1].suit]
            return original(hand, seat, trick, trump, strength, rules)

        return legal

    return plant


def _no_trump_duty_when_oros_trumps(original: LegalCards) -> LegalCards:
    """ARR-03 and ARR-04 forgotten when oros are trumps: a void player may discard."""

    def legal(
        hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
    ) -> list[Card]:
        if trick and trump is Suit.OROS and not any(card.suit is trick[0][1].suit for card in hand):
            return list(hand)
        return original(hand, seat, trick, trump, strength, rules)

    return legal


#: name -> (the bug, whether a scenario as written sees it: the siblings of features/arrastre.feature
#: that lead copas and let seat 3 lead were written for these two)
BUGS: dict[str, tuple[Planted, bool]] = {
    "no_beat_when_espadas_led": (_no_beat_when_led(Suit.ESPADAS), False),
    "no_trump_duty_when_oros_trumps": (_no_trump_duty_when_oros_trumps, False),
    "no_beat_when_seat_one_leads": (_no_beat_when_seat_leads(1), False),
    "no_beat_when_copas_led": (_no_beat_when_led(Suit.COPAS), True),
    "no_beat_when_seat_three_leads": (_no_beat_when_seat_leads(3), True),
}


class PlantedEngine(ReferenceEngine):
    """The reference with the bug ``name`` planted in the duties of the arrastre."""

    def __init__(self, name: str) -> None:
        arrastre.legal_cards = BUGS[name][0](arrastre.legal_cards)  # type: ignore[assignment]
        self.name = name

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(f"planted-{self.name}", full.version, full.language, full.profiles, full.flags,
                          full.capabilities)  # fmt: skip


def planted(name: str) -> Callable[[], PlantedEngine]:
    def make() -> PlantedEngine:
        return PlantedEngine(name)

    return make


no_beat_when_espadas_led = planted("no_beat_when_espadas_led")
no_trump_duty_when_oros_trumps = planted("no_trump_duty_when_oros_trumps")
no_beat_when_seat_one_leads = planted("no_beat_when_seat_one_leads")
no_beat_when_copas_led = planted("no_beat_when_copas_led")
no_beat_when_seat_three_leads = planted("no_beat_when_seat_three_leads")
