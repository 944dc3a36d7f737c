"""Obligations once the stock is exhausted: the arrastre (rule area ARR).

In the free phase any card may be played (PLAY-07). In the arrastre a player must follow
suit (ARR-01) and beat the trick if able (ARR-02); when void he must trump if a trump
would beat (ARR-03, ARR-04); otherwise he may play any card (ARR-05, ARR-08). A partner
who is winning the trick frees him from beating or trumping (ARR-06, ARR-07,
``partner_winning_exempts=yes``). Under ``overtake_reference=previous_opponent_card``
(S004 renuncio b read literally, ARR-10) the card to beat is the one the previous player,
always an opponent, has just played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reference_engine.cards import Card, Rank, Suit
from reference_engine.flags import Rules
from reference_engine.tricks import Trick, beats, partner_of, winning_index


@dataclass(frozen=True)
class Refusal:
    """Why a card may not be played: a machine-readable code and the rule it breaks."""

    code: str
    rule: str
    message: str


def _reference_card(trick: Trick, trump: Suit, strength: Mapping[Rank, int], rules: Rules) -> tuple[int, Card]:
    if rules.overtake_reference == "previous_opponent_card":
        return trick[-1]
    return trick[winning_index(trick, trump, strength)]


def _partner_exempts(seat: int, trick: Trick, trump: Suit, strength: Mapping[Rank, int], rules: Rules) -> bool:
    """ARR-06: the partner is winning the trick (never mano a mano, ARR-12)."""
    if rules.partner_winning_exempts != "yes":
        return False
    partner = partner_of(seat, rules.player_count)
    return partner is not None and trick[winning_index(trick, trump, strength)][0] == partner


def legal_cards(
    hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Rank, int], rules: Rules
) -> list[Card]:
    """The cards ``seat`` may play to ``trick`` in the arrastre."""
    if not trick:
        return list(hand)  # PLAY-15: the leader plays any card
    led = trick[0][1].suit
    exempt = _partner_exempts(seat, trick, trump, strength, rules)
    _, target = _reference_card(trick, trump, strength, rules)
    following = [card for card in hand if card.suit is led]
    if following:  # ARR-01: asistir
        if exempt:
            return following
        higher = [card for card in following if beats(card, target, trump, strength)]
        return higher or following  # ARR-02: montar if able
    if exempt:
        return list(hand)  # ARR-07
    winning_trumps = [card for card in hand if card.suit is trump and beats(card, target, trump, strength)]
    return winning_trumps or list(hand)  # ARR-03/ARR-04 fallar and pisar; ARR-05 no under-trumping


def refusal(
    card: Card, hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Rank, int], rules: Rules
) -> Refusal | None:
    """``None`` if ``card`` may be played in the arrastre, else the obligation it breaks."""
    legal = legal_cards(hand, seat, trick, trump, strength, rules)
    if card in legal:
        return None
    led = trick[0][1].suit
    literal = rules.overtake_reference == "previous_opponent_card"
    if card.suit is not led and any(other.suit is led for other in hand):
        return Refusal("MUST_FOLLOW_SUIT", "ARR-01", f"{card.code} does not follow the suit led ({led.spanish}) and the hand holds that suit")
    if card.suit is led:
        rule = "ARR-10" if literal else "ARR-02"
        return Refusal("MUST_BEAT", rule, f"{card.code} does not beat the trick and a higher {led.spanish} card is held")
    if card.suit is trump:
        return Refusal("MUST_OVERTRUMP", "ARR-04", f"{card.code} does not beat the trump on the table and a higher trump is held")
    return Refusal("MUST_TRUMP", "ARR-03", f"{card.code} is not a trump; the hand is void in {led.spanish} and holds a trump that wins")
