"""Exchanging the seven of trumps for the muestra (rule area SEVEN).

The holder of the seven of trumps may exchange it for the face-up muestra (SEVEN-01) if the
muestra outranks it (SEVEN-02, ``seven_exchange_min``) and the won-trick condition of
``seven_exchange_requires`` holds (SEVEN-03/04/05), inside the ``seven_exchange_window``,
and only while the muestra is still under the stock (SEVEN-06). The exchange is optional
(SEVEN-08). The exchanged card lies in the muestra's place and is drawn last (SEVEN-11).
When the muestra is itself the seven, ``seven_is_muestra=swap_with_two`` lets the holder
of the dos of trumps take it (SEVEN-09); ``swap_with_lowest`` lets the holder of the lowest
trump of the deck take it (the cuatro with 36 cards, B-40).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guinote_conformance.reference_engine.actions import IllegalAction, Refusal
from guinote_conformance.reference_engine.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from guinote_conformance.reference_engine.state import HandState

__all__ = ["IllegalAction", "check_exchange", "exchange_card", "exchange_refusal", "exchanger"]

_SEVENS = {suit: Card(Rank.SIETE, suit) for suit in Suit}
_DOSES = {suit: Card(Rank.DOS, suit) for suit in Suit}
_CUATROS = {suit: Card(Rank.CUATRO, suit) for suit in Suit}
_WINDOW_RULE = {
    "after_won_trick_before_draw": "the exchange is made after a won trick and before the draw",
    "until_next_lead": "the exchange is made after a won trick and before the next card is led",
    "between_tricks": "the exchange is made between tricks, not once a trick has begun",
}
_REQUIRES_RULE = {
    "exchanger_won_last_trick": "SEVEN-03",
    "own_side_won_last_trick": "SEVEN-05",
    "own_side_won_any_trick": "SEVEN-04",
}


def exchange_card(hand: HandState) -> Card | None:
    """SEVEN-02 / SEVEN-09: the trump that may be given for the current muestra, if any.

    interpretation (SEVEN-13, C-15): one exchange per hand. After it the seven lies as the
    muestra, and even under ``swap_with_two`` the dos cannot take it back.
    interpretation (REGION-13, B-39): with 48 cards the card given is still the seven.
    """
    muestra = hand.muestra
    if muestra is None or hand.exchange_done:
        return None
    seven = _SEVENS[hand.trump]
    if muestra is seven:
        # SEVEN-09 / B-14. interpretation (REGION-11, B-40): the 36-card deck has no dos, so
        # under swap_with_two a seven muestra is never exchanged there; swap_with_lowest
        # reads S002's dos as the lowest trump, the cuatro with 36 cards.
        flag = hand.rules.seven_is_muestra
        if flag == "swap_with_two" and hand.rules.deck_size != 36:
            return _DOSES[hand.trump]
        if flag == "swap_with_lowest":
            return (_CUATROS if hand.rules.deck_size == 36 else _DOSES)[hand.trump]
        return None
    if hand.strength[muestra] <= hand.strength[seven]:
        return None  # SEVEN-02 / B-13: a muestra below the seven is never taken
    if hand.rules.seven_exchange_min == "value_card" and muestra.points == 0:
        return None  # SEVEN-02 (S000): only As, Tres, Rey, Sota or Caballo; not a 9 or 8 (REGION-12)
    return seven


def _won_trick_condition(hand: HandState, seat: int) -> bool:
    """SEVEN-03/04/05 (B-11 ``seven_exchange_requires``).

    interpretation (SEVEN-09, B-14): the holder of the dos taking a seven muestra meets the same
    condition as the holder of the seven.
    """
    requires = hand.rules.seven_exchange_requires
    if requires == "exchanger_won_last_trick":
        return hand.last_trick_winner == seat
    if requires == "own_side_won_last_trick":
        return hand.last_trick_winner is not None and hand.side(hand.last_trick_winner) == hand.side(seat)
    return hand.tricks_won[hand.side(seat)] > 0  # own_side_won_any_trick


def _in_window(hand: HandState) -> bool:
    """SEVEN-16 (B-12 ``seven_exchange_window``).

    ``after_won_trick_before_draw`` (S000): between the end of a trick and its draw, so the
    exchange at the last draw (SEVEN-07) is the one before the muestra is drawn.
    ``until_next_lead`` (S004, read like its cantes): from the end of the trick until the
    next card is led, the draw included.
    ``between_tricks`` (S002/S003: a trick won by the side, the muestra visible, nothing said of
    the middle of a trick): at any moment no trick is being played, before or after the draw;
    the won trick may be any earlier one (``seven_exchange_requires`` says which counts).
    interpretation (SEVEN-16, B-12): ``while_muestra_visible`` allows it at any moment, also in
    the middle of a trick and out of turn (the muestra's presence is checked by
    :func:`exchange_card` and SEVEN-06 under every window).
    """
    window = hand.rules.seven_exchange_window
    if window == "after_won_trick_before_draw":
        return hand.draw_pending
    if window == "until_next_lead":
        return not hand.trick and hand.last_trick_winner is not None
    if window == "between_tricks":
        return not hand.trick
    return True  # while_muestra_visible


def exchange_refusal(hand: HandState, seat: int) -> Refusal | None:
    """Why ``seat`` may not exchange now, or ``None`` if he may.

    interpretation (SEVEN-14, C-16): the exchanger may be the player who will draw the
    exchanged seven back at the last draw; that is allowed with no special case.
    """
    if hand.result is not None or hand.muestra is None:
        return Refusal("EXCHANGE_NO_MUESTRA", "SEVEN-06", "the muestra has already been drawn")
    card = exchange_card(hand)
    if card is None:
        why = "the muestra has already been exchanged this hand" if hand.exchange_done else "it cannot be taken"
        return Refusal("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02", f"the muestra {hand.muestra.code}: {why}")
    if card not in hand.hands[seat]:
        return Refusal("EXCHANGE_CARD_NOT_HELD", "SEVEN-01", f"seat {seat} does not hold {card.code}")
    if not _won_trick_condition(hand, seat):
        requires = hand.rules.seven_exchange_requires
        return Refusal(
            "EXCHANGE_NO_WON_TRICK",
            _REQUIRES_RULE[requires],
            f"seven_exchange_requires={requires} is not met for seat {seat}",
        )
    if not _in_window(hand):
        window = hand.rules.seven_exchange_window
        return Refusal("EXCHANGE_WINDOW_CLOSED", "SEVEN-03", f"{_WINDOW_RULE[window]} ({window})")
    return None


def check_exchange(hand: HandState, seat: int) -> Card:
    """SEVEN-01..06: return the card ``seat`` gives up, or raise :class:`IllegalAction`."""
    refused = exchange_refusal(hand, seat)
    if refused is not None:
        raise refused.error()
    card = exchange_card(hand)
    assert card is not None
    return card


def exchanger(hand: HandState) -> int | None:
    """SEVEN-01: the seat that may exchange now, if any (only the holder of the card can)."""
    if hand.result is not None or not _in_window(hand):
        return None
    card = exchange_card(hand)
    if card is None:
        return None
    for seat, held in enumerate(hand.hands):
        if card in held:
            # the other conditions of exchange_refusal hold here: muestra, card, holder, window
            return seat if _won_trick_condition(hand, seat) else None
    return None
