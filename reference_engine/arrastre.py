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

from guinote_conformance.reference_engine.actions import Refusal
from guinote_conformance.reference_engine.cards import Card, Suit
from guinote_conformance.reference_engine.flags import Rules
from guinote_conformance.reference_engine.tricks import Trick, beats, partner_of, winning_index

__all__ = ["Refusal", "allowance", "legal_cards", "refusal"]


def _card_to_beat(trick: Trick, winner: Card, rules: Rules) -> Card:
    """ARR-02 / ARR-10: the card a player has to beat (B-21 ``overtake_reference``).

    Under ``previous_opponent_card`` it is the card just played: at a four-player table the
    previous player is always an opponent, and mano a mano too.
    """
    if rules.overtake_reference == "previous_opponent_card":
        return trick[-1][1]
    return winner


def legal_cards(
    hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
) -> list[Card]:
    """ARR-01..ARR-09: the cards ``seat`` may play to ``trick`` in the arrastre.

    interpretation (ARR-10, B-21): under the literal S004 reading a trump counts as higher than any
    card of another suit, and only a card that could take the trick (one of the suit led,
    or a trump) counts as "higher": a higher card of a discarded third suit does not.
    """
    if not trick:
        return list(hand)  # PLAY-15 / C-26: the leader plays any card, trumps included
    led = trick[0][1].suit
    winner_seat, winner_card = trick[winning_index(trick, trump, strength)]
    # ARR-06 / ARR-12: a partner winning the trick leaves only the duty to follow suit
    exempt = rules.partner_winning_exempts == "yes" and winner_seat == partner_of(seat, rules.player_count)
    target = _card_to_beat(trick, winner_card, rules)
    # (Plain loops, not comprehensions: a comprehension costs a call, more than these few cards.)
    following = []
    for card in hand:
        if card.suit is led:
            following.append(card)
    if following:  # ARR-01: asistir (ARR-09: the same when trumps were led)
        if exempt:
            return following
        # ARR-02: montar if able. ARR-13 (B-18): a trick already trumped cannot be beaten with
        # the suit led, so then any card of that suit will do.
        higher = []
        for card in following:
            if beats(card, target, trump, strength):
                higher.append(card)
        return higher or following
    if exempt:
        return list(hand)  # ARR-07
    # ARR-03 fallar / ARR-04 pisar: a trump that beats the trick is required if held;
    # ARR-05 (B-19): otherwise any card, with no duty to under-trump; ARR-08: no trump at all.
    winning_trumps = []
    for card in hand:
        if card.suit is trump and beats(card, target, trump, strength):
            winning_trumps.append(card)
    return winning_trumps or list(hand)


def allowance(
    card: Card, hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
) -> str:
    """The rule that lets ``seat`` play ``card``, one of his :func:`legal_cards`, to ``trick``: the
    rule a stricter engine breaks when it refuses the card.

    A lead is free (ARR-14). A card of the suit led that beats the trick is the duty to beat
    (ARR-02, ARR-09 on a trump lead, ARR-10 under the literal S004 reading); one that does not is
    allowed by the partner winning the trick (ARR-06) when the player could beat, else by the
    trump already on the trick (ARR-13) or by holding nothing higher (ARR-02 / ARR-09, "if he
    can"). A void player's card is allowed by the partner winning (ARR-07) when a trump of his
    would win; a winning trump is the duty to trump (ARR-03) or to overtrump (ARR-04); any
    other card by holding only losing trumps (ARR-05) or none at all (ARR-08).
    """
    if not trick:
        return "ARR-14"
    led = trick[0][1].suit
    winner_seat, winner_card = trick[winning_index(trick, trump, strength)]
    exempt = rules.partner_winning_exempts == "yes" and winner_seat == partner_of(seat, rules.player_count)
    target = _card_to_beat(trick, winner_card, rules)
    beat_rule = "ARR-10" if rules.overtake_reference == "previous_opponent_card" else "ARR-02"
    if card.suit is led:
        beat_rule = "ARR-09" if led is trump and beat_rule == "ARR-02" else beat_rule
        if beats(card, target, trump, strength):
            return beat_rule
        if exempt and any(other.suit is led and beats(other, target, trump, strength) for other in hand):
            return "ARR-06"
        if led is not trump and target.suit is trump:
            return "ARR-13"
        return beat_rule
    winning_trumps = [other for other in hand if other.suit is trump and beats(other, target, trump, strength)]
    if card in winning_trumps:
        return "ARR-04" if target.suit is trump else "ARR-03"
    if exempt and winning_trumps:
        return "ARR-07"
    return "ARR-05" if any(other.suit is trump for other in hand) else "ARR-08"


def refusal(
    card: Card, hand: Sequence[Card], seat: int, trick: Trick, trump: Suit, strength: Mapping[Card, int], rules: Rules
) -> Refusal | None:
    """``None`` if ``card`` may be played in the arrastre, else the obligation it breaks
    (RENUNCIO-02, RENUNCIO-03, RENUNCIO-06)."""
    if card in legal_cards(hand, seat, trick, trump, strength, rules):
        return None
    led = trick[0][1].suit
    if card.suit is not led and any(other.suit is led for other in hand):
        return Refusal(
            "MUST_FOLLOW_SUIT",
            "ARR-01",
            f"{card.code} does not follow the suit led ({led.spanish}) and the hand holds that suit",
        )
    if card.suit is led:
        rule = "ARR-10" if rules.overtake_reference == "previous_opponent_card" else "ARR-02"
        return Refusal(
            "MUST_BEAT", rule, f"{card.code} does not beat the trick and a higher {led.spanish} card is held"
        )
    winner_card = trick[winning_index(trick, trump, strength)][1]
    if card.suit is trump or _card_to_beat(trick, winner_card, rules).suit is trump:
        return Refusal(
            "MUST_OVERTRUMP",
            "ARR-04",
            f"{card.code} does not beat the trump on the table and a higher trump is held",
        )
    return Refusal(
        "MUST_TRUMP",
        "ARR-03",
        f"{card.code} is not a trump; the hand is void in {led.spanish} and holds a trump that wins",
    )
