"""Cantes: the twenty, the forty and the tute (rule area CANTE).

A player holding the Rey and the Sota of one suit may sing them (CANTE-01): 40 in the
trump suit, 20 in any other (CANTE-02, CANTE-03). He may sing only while his own side
won the trick just completed, from the end of that trick until the next card is led
(CANTE-05, CANTE-06; interpretation: a card just drawn may complete the pair), once per
suit and hand (CANTE-11), with both cards in his hand (CANTE-19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.actions import IllegalAction
from reference_engine.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from reference_engine.game import Game


def cante_value(suit: Suit, trump: Suit) -> int:
    """CANTE-02/CANTE-03: 40 in the trump suit, 20 otherwise."""
    return 40 if suit is trump else 20


def holds_pair(hand: list[Card], suit: Suit) -> bool:
    """CANTE-01/CANTE-19: the Rey and the Sota of ``suit`` are both in the hand."""
    return Card(Rank.REY, suit) in hand and Card(Rank.SOTA, suit) in hand


def window_open_for(game: Game, seat: int) -> bool:
    """CANTE-05/CANTE-06: the seat's side won the last trick and no card has been led since."""
    return (
        game.window_side is not None
        and game.window_side == game.side(seat)
        and not game.trick
        and game.hand_result is None
    )


def check_cante(game: Game, seat: int, suit: Suit) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may sing ``suit`` now."""
    if not window_open_for(game, seat):
        raise IllegalAction(
            "CANTE_NO_WON_TRICK", "CANTE-05",
            "a cante needs the singer's side to have won the trick just completed, before the next lead",
        )
    if suit in game.sung_suits:
        raise IllegalAction("CANTE_SUIT_ALREADY_SUNG", "CANTE-11", f"{suit.spanish} has already been sung this hand")
    if not holds_pair(game.hands[seat], suit):
        raise IllegalAction("CANTE_NO_PAIR", "CANTE-19", f"seat {seat} does not hold the Rey and Sota of {suit.spanish}")
    if game.rules.cante_per_trick == "one" and game.cantes_in_window > 0:
        raise IllegalAction("CANTE_ONE_PER_TRICK", "CANTE-10", "only one cante is allowed per won trick")
    if (
        game.rules.cante_order == "forty_first"
        and suit is not game.trump
        and game.trump not in game.sung_suits
        and holds_pair(game.hands[seat], game.trump)
    ):
        raise IllegalAction("CANTE_FORTY_FIRST", "CANTE-12", "the forty is available and must be sung first")


def tute_rank_held(hand: list[Card], rank: Rank) -> bool:
    """CANTE-22: all four cards of ``rank`` are in the hand."""
    return sum(1 for card in hand if card.rank is rank) == 4


def check_tute(game: Game, seat: int, rank: Rank) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may sing tute now (``tute=wins_point``)."""
    if game.rules.tute != "wins_point":
        raise IllegalAction("TUTE_NOT_PLAYED", "CANTE-21", "tute is not sung under these rules (tute=none)")
    if not window_open_for(game, seat):
        raise IllegalAction("CANTE_NO_WON_TRICK", "CANTE-22", "tute is sung only after the singer's side wins a trick")
    if game.rules.cante_per_trick == "one" and game.cantes_in_window > 0:
        raise IllegalAction("CANTE_ONE_PER_TRICK", "CANTE-10", "only one cante is allowed per won trick")
    if not tute_rank_held(game.hands[seat], rank):
        raise IllegalAction("TUTE_NOT_HELD", "CANTE-22", f"seat {seat} does not hold the four {rank.spanish}s")
