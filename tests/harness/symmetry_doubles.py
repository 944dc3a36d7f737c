"""Planted doubles for the symmetries of the game: the reference with one seat- or suit-dependent bug.

Each bug hides in a corner the scenarios as written never visit (a suit they never lead, a seat they
never ask a duty of), so only a run under a symmetry of the game can show it
(``tests/harness/test_symmetry.py``). They are served in their own process
(``serve:tests.harness.symmetry_doubles:NAME``): the patch never touches the reference of the test
run itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from adapters.interface import EngineInfo
from adapters.reference import ReferenceEngine
from reference_engine import arrastre
from reference_engine.cards import Card, Suit
from reference_engine.flags import Rules
from reference_engine.tricks import Trick

LegalCards = Callable[[Sequence[Card], int, Trick, Suit, Mapping[Card, int], Rules], list[Card]]


def _no_beat_when_copas_led(original: LegalCards) -> LegalCards:
    """ARR-02 forgotten when copas are led: any copa follows."""

    def legal(
        hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
    ) -> list[Card]:
        if trick and trick[0][1].suit is Suit.COPAS and any(card.suit is Suit.COPAS for card in hand):
            return [card for card in hand if card.suit is Suit.COPAS]
        return original(hand, seat, trick, trump, strength, rules)

    return legal


def _no_trump_duty_when_oros_trumps(original: LegalCards) -> LegalCards:
    """ARR-03 and ARR-04 forgotten when oros are trumps: a void player may discard."""

    def legal(
        hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
    ) -> list[Card]:
        if trick and trump is Suit.OROS and not any(card.suit is trick[0][1].suit for card in hand):
            return list(hand)
        return original(hand, seat, trick, trump, strength, rules)

    return legal


def _no_beat_when_seat_three_leads(original: LegalCards) -> LegalCards:
    """ARR-02 forgotten in a trick seat 3 led: any card of the suit led follows."""

    def legal(
        hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
    ) -> list[Card]:
        if trick and trick[0][0] == 3 and any(card.suit is trick[0][1].suit for card in hand):
            return [card for card in hand if card.suit is trick[0][1].suit]
        return original(hand, seat, trick, trump, strength, rules)

    return legal


BUGS: dict[str, Callable[[LegalCards], LegalCards]] = {
    "no_beat_when_copas_led": _no_beat_when_copas_led,
    "no_trump_duty_when_oros_trumps": _no_trump_duty_when_oros_trumps,
    "no_beat_when_seat_three_leads": _no_beat_when_seat_three_leads,
}


class PlantedEngine(ReferenceEngine):
    """The reference with the bug ``name`` planted in the duties of the arrastre."""

    def __init__(self, name: str) -> None:
        arrastre.legal_cards = BUGS[name](arrastre.legal_cards)  # type: ignore[assignment]
        self.name = name

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(f"planted-{self.name}", full.version, full.language, full.profiles, full.flags,
                          full.capabilities)  # fmt: skip


def no_beat_when_copas_led() -> PlantedEngine:
    return PlantedEngine("no_beat_when_copas_led")


def no_trump_duty_when_oros_trumps() -> PlantedEngine:
    return PlantedEngine("no_trump_duty_when_oros_trumps")


def no_beat_when_seat_three_leads() -> PlantedEngine:
    return PlantedEngine("no_beat_when_seat_three_leads")
