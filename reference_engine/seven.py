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

from reference_engine.actions import IllegalAction, Refusal
from reference_engine.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from reference_engine.game import Game

__all__ = ["IllegalAction", "check_exchange", "exchange_card", "exchange_refusal", "exchanger"]

_SEVENS = {suit: Card(Rank.SIETE, suit) for suit in Suit}
_DOSES = {suit: Card(Rank.DOS, suit) for suit in Suit}
_CUATROS = {suit: Card(Rank.CUATRO, suit) for suit in Suit}
_WINDOW_RULE = {
    "after_won_trick_before_draw": "the exchange is made after a won trick and before the draw",
    "until_next_lead": "the exchange is made after a won trick and before the next card is led",
}
_REQUIRES_RULE = {
    "exchanger_won_last_trick": "SEVEN-03",
    "own_side_won_last_trick": "SEVEN-05",
    "own_side_won_any_trick": "SEVEN-04",
}


def exchange_card(game: Game) -> Card | None:
    """SEVEN-02 / SEVEN-09: the trump that may be given for the current muestra, if any.

    interpretation (SEVEN-13, C-15): one exchange per hand. After it the seven lies as the
    muestra, and even under ``swap_with_two`` the dos cannot take it back.
    interpretation (REGION-13, B-39): with 48 cards the card given is still the seven.
    """
    muestra = game.muestra
    if muestra is None or game.exchange_done:
        return None
    seven = _SEVENS[game.trump]
    if muestra is seven:
        # SEVEN-09 / B-14. interpretation (REGION-11, B-40): the 36-card deck has no dos, so
        # under swap_with_two a seven muestra is never exchanged there; swap_with_lowest
        # reads S002's dos as the lowest trump, the cuatro with 36 cards.
        flag = game.rules.seven_is_muestra
        if flag == "swap_with_two" and game.rules.deck_size != 36:
            return _DOSES[game.trump]
        if flag == "swap_with_lowest":
            return (_CUATROS if game.rules.deck_size == 36 else _DOSES)[game.trump]
        return None
    if game.strength[muestra] <= game.strength[seven]:
        return None  # SEVEN-02 / B-13: a muestra below the seven is never taken
    if game.rules.seven_exchange_min == "value_card" and muestra.points == 0:
        return None  # SEVEN-02 (S000): only As, Tres, Rey, Sota or Caballo; not a 9 or 8 (REGION-12)
    return seven


def _won_trick_condition(game: Game, seat: int) -> bool:
    """SEVEN-03/04/05 (B-11 ``seven_exchange_requires``).

    interpretation (SEVEN-09, B-14): the holder of the dos taking a seven muestra meets the same
    condition as the holder of the seven.
    """
    requires = game.rules.seven_exchange_requires
    if requires == "exchanger_won_last_trick":
        return game.last_trick_winner == seat
    if requires == "own_side_won_last_trick":
        return game.last_trick_winner is not None and game.side(game.last_trick_winner) == game.side(seat)
    return game.tricks_won[game.side(seat)] > 0  # own_side_won_any_trick


def _in_window(game: Game) -> bool:
    """SEVEN-16 (B-12 ``seven_exchange_window``).

    ``after_won_trick_before_draw`` (S000): between the end of a trick and its draw, so the
    exchange at the last draw (SEVEN-07) is the one before the muestra is drawn.
    ``until_next_lead`` (S004, read like its cantes): from the end of the trick until the
    next card is led, the draw included.
    interpretation (SEVEN-16, B-12): ``while_muestra_visible`` (S002) allows it at any
    moment, also in the middle of a trick and out of turn.
    """
    window = game.rules.seven_exchange_window
    if window == "after_won_trick_before_draw":
        return game.draw_pending
    if window == "until_next_lead":
        return not game.trick and game.last_trick_winner is not None
    return True


def exchange_refusal(game: Game, seat: int) -> Refusal | None:
    """Why ``seat`` may not exchange now, or ``None`` if he may.

    interpretation (SEVEN-14, C-16): the exchanger may be the player who will draw the
    exchanged seven back at the last draw; that is allowed with no special case.
    """
    if game.hand_result is not None or game.muestra is None:
        return Refusal("EXCHANGE_NO_MUESTRA", "SEVEN-06", "the muestra has already been drawn")
    card = exchange_card(game)
    if card is None:
        why = "the muestra has already been exchanged this hand" if game.exchange_done else "it cannot be taken"
        return Refusal("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02", f"the muestra {game.muestra.code}: {why}")
    if card not in game.hands[seat]:
        return Refusal("EXCHANGE_CARD_NOT_HELD", "SEVEN-01", f"seat {seat} does not hold {card.code}")
    if not _won_trick_condition(game, seat):
        requires = game.rules.seven_exchange_requires
        return Refusal(
            "EXCHANGE_NO_WON_TRICK",
            _REQUIRES_RULE[requires],
            f"seven_exchange_requires={requires} is not met for seat {seat}",
        )
    if not _in_window(game):
        window = game.rules.seven_exchange_window
        return Refusal("EXCHANGE_WINDOW_CLOSED", "SEVEN-03", f"{_WINDOW_RULE[window]} ({window})")
    return None


def check_exchange(game: Game, seat: int) -> Card:
    """SEVEN-01..06: return the card ``seat`` gives up, or raise :class:`IllegalAction`."""
    refused = exchange_refusal(game, seat)
    if refused is not None:
        raise refused.error()
    card = exchange_card(game)
    assert card is not None
    return card


def exchanger(game: Game) -> int | None:
    """SEVEN-01: the seat that may exchange now, if any (only the holder of the card can)."""
    if game.hand_result is not None or not _in_window(game):
        return None
    card = exchange_card(game)
    if card is None:
        return None
    for seat, hand in enumerate(game.hands):
        if card in hand:
            # the other conditions of exchange_refusal hold here: muestra, card, holder, window
            return seat if _won_trick_condition(game, seat) else None
    return None
