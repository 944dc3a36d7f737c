"""Cantes: the twenty, the forty and the tute (rule area CANTE).

A player holding the Rey and the Sota of one suit may sing them (CANTE-01): 40 in the
trump suit, 20 in any other (CANTE-02, CANTE-03). He may sing only while his own side
won the trick just completed, from the end of that trick until the next card is led
(CANTE-05, CANTE-06), once per suit and hand (CANTE-11), with both cards in his hand
(CANTE-19). Singing is optional (CANTE-07) and possible in both phases (CANTE-20).

Each check returns a :class:`~guinote_conformance.reference_engine.actions.Refusal` or ``None``, so that listing
the legal actions raises nothing; ``check_*`` raise the refusal for ``Hand.apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guinote_conformance.reference_engine.actions import IllegalAction, Refusal
from guinote_conformance.reference_engine.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from guinote_conformance.reference_engine.state import HandState

_REYES = {suit: Card(Rank.REY, suit) for suit in Suit}
_SOTAS = {suit: Card(Rank.SOTA, suit) for suit in Suit}
#: the four cards of each rank, one per suit
_OF_RANK = {rank: tuple(Card(rank, suit) for suit in Suit) for rank in Rank}
TUTE_RANKS = (Rank.REY, Rank.SOTA)
_SOTA = Rank.SOTA  # (reading an enum member off its class is slow in a loop)


def cante_value(suit: Suit, trump: Suit) -> int:
    """CANTE-02/CANTE-03: 40 in the trump suit, 20 otherwise."""
    return 40 if suit is trump else 20


def holds_pair(hand: Sequence[Card], suit: Suit) -> bool:
    """CANTE-01/CANTE-19: the Rey and the Sota of ``suit`` are both in the hand."""
    return _REYES[suit] in hand and _SOTAS[suit] in hand


def pairs_held(hand: Sequence[Card]) -> list[Suit]:
    """CANTE-01: the suits whose Rey and Sota are both in the hand, in the order of the Sotas."""
    # (A plain loop: a comprehension costs a function call, more than these few cards.)
    pairs = []
    for card in hand:
        if card.rank is _SOTA and _REYES[card.suit] in hand:
            pairs.append(card.suit)
    return pairs


def window_open_for(hand: HandState, seat: int) -> bool:
    """CANTE-05/CANTE-06: the seat's side won the last trick and no card has been led since.

    B-42 (``until_next_lead``, S002): the window stays open through the draw, so a card just
    drawn may complete a pair. interpretation (CANTE-25, C-13): S000 and S004 give no timing
    for cantes; the engine follows S002's "before the next trick starts".
    """
    return (
        hand.window_side is not None and hand.window_side == hand.side(seat) and not hand.trick and hand.result is None
    )


def _one_per_trick_used(hand: HandState) -> bool:
    """CANTE-10 (``cante_per_trick=one``): the side has already sung after this trick.

    interpretation (CANTE-10, C-12): either player of the winning side may use the one
    cante; the first declaration uses it up.
    """
    return hand.rules.cante_per_trick == "one" and hand.cantes_in_window > 0


def cante_refusal(hand: HandState, seat: int, suit: Suit) -> Refusal | None:
    """Why ``seat`` may not sing ``suit`` now, or ``None`` if he may (CANTE-05, CANTE-11,
    CANTE-19, CANTE-10, CANTE-12, in that order)."""
    if not window_open_for(hand, seat):
        return Refusal(
            "CANTE_NO_WON_TRICK",
            "CANTE-05",
            "a cante needs the singer's side to have won the trick just completed, before the next lead",
        )
    if suit in hand.sung_suits:
        return Refusal("CANTE_SUIT_ALREADY_SUNG", "CANTE-11", f"{suit.spanish} has already been sung this hand")
    held = hand.hands[seat]
    if not holds_pair(held, suit):
        return Refusal("CANTE_NO_PAIR", "CANTE-19", f"seat {seat} does not hold the Rey and Sota of {suit.spanish}")
    if _one_per_trick_used(hand):
        return Refusal("CANTE_ONE_PER_TRICK", "CANTE-10", "only one cante is allowed per won trick")
    # CANTE-12 (``cante_order=forty_first``). interpretation (CANTE-12, B-08): the duty looks only at
    # the singer's own hand; a forty held by his partner does not stop his twenty.
    trump = hand.trump
    if (
        hand.rules.cante_order == "forty_first"
        and suit is not trump
        and trump not in hand.sung_suits
        and holds_pair(held, trump)
    ):
        return Refusal("CANTE_FORTY_FIRST", "CANTE-12", "the forty is available and must be sung first")
    return None


def window_allowance(hand: HandState, seat: int) -> str:
    """The rule that keeps the window open for ``seat`` now, ``""`` if it is closed: the rule a
    stricter engine breaks when it says the window is closed. In the arrastre, that cantes go on
    in both phases (CANTE-20); for the partner of the player who won the trick, that the side
    sings (CANTE-05); once the cards are drawn, that the window lasts until the next lead
    (CANTE-25, an interpretation of S002); else its opening at the end of a won trick (CANTE-06)."""
    if not window_open_for(hand, seat):
        return ""
    if hand.muestra is None:
        return "CANTE-20"
    if hand.last_trick_winner is not None and hand.last_trick_winner != seat:
        return "CANTE-05"
    return "CANTE-06" if hand.draw_pending else "CANTE-25"


def cante_allowance(hand: HandState, seat: int, suit: Suit) -> str:
    """The rule that lets ``seat`` sing ``suit`` now, ``""`` if he may not: the rule a stricter
    engine breaks when it refuses the cante. What keeps the window open, when that is more than
    its plain opening (:func:`window_allowance`); for a second cante after one trick, CANTE-09;
    else the cante itself (CANTE-01)."""
    if cante_refusal(hand, seat, suit) is not None:
        return ""
    window = window_allowance(hand, seat)
    if window != "CANTE-06":
        return window
    return "CANTE-09" if hand.cantes_in_window else "CANTE-01"


def singable_suits(hand: HandState, seat: int) -> list[Suit]:
    """CANTE-01/05: the suits ``seat`` may sing now (for the legal actions).

    The commonest refusals are told first, without building them: a suit already sung
    (CANTE-11) and the one cante of the trick already sung (CANTE-10)."""
    pairs = pairs_held(hand.hands[seat])
    if not pairs or _one_per_trick_used(hand):
        return []
    sung = hand.sung_suits
    return [suit for suit in pairs if suit not in sung and cante_refusal(hand, seat, suit) is None]


def tute_rank_held(hand: Sequence[Card], rank: Rank) -> bool:
    """CANTE-22: all four cards of ``rank`` are in the hand.

    interpretation (CANTE-29, C-23): the four cards must be in the hand together at the
    moment of singing, as for a twenty (CANTE-19).
    """
    for card in _OF_RANK[rank]:  # noqa: SIM110 (all() over a generator costs more than the loop)
        if card not in hand:
            return False
    return True


def tute_refusal(hand: HandState, seat: int, rank: Rank) -> Refusal | None:
    """Why ``seat`` may not sing tute of ``rank`` now (``tute=wins_point``), or ``None``.

    interpretation (CANTE-29, C-23): the tute follows a trick won by the singer's side like
    any cante, may be sung in the arrastre while the four cards are still held, and takes
    the one cante of the trick under ``cante_per_trick=one``.
    """
    if hand.rules.tute != "wins_point":
        return Refusal("TUTE_NOT_PLAYED", "CANTE-21", "tute is not sung under these rules (tute=none)")
    if not window_open_for(hand, seat):
        return Refusal("CANTE_NO_WON_TRICK", "CANTE-22", "tute is sung only after the singer's side wins a trick")
    if _one_per_trick_used(hand):
        return Refusal("CANTE_ONE_PER_TRICK", "CANTE-10", "only one cante is allowed per won trick")
    if rank not in TUTE_RANKS or not tute_rank_held(hand.hands[seat], rank):
        what = {Rank.REY: "Reyes", Rank.SOTA: "Sotas"}.get(rank, f"{rank.spanish} cards (a tute is Reyes or Sotas)")
        return Refusal("TUTE_NOT_HELD", "CANTE-22", f"seat {seat} does not hold the four {what}")
    return None


def check_tute(hand: HandState, seat: int, rank: Rank) -> None:
    """CANTE-21/22: raise :class:`IllegalAction` unless ``seat`` may sing tute now."""
    refused = tute_refusal(hand, seat, rank)
    if refused is not None:
        raise refused.error()


def tute_ranks(hand: HandState, seat: int) -> list[Rank]:
    """CANTE-22: the ranks of which ``seat`` may sing tute now (for the legal actions)."""
    held = hand.hands[seat]
    ranks: list[Rank] = []
    if len(held) < 4:
        return ranks
    for rank in TUTE_RANKS:
        if tute_rank_held(held, rank) and tute_refusal(hand, seat, rank) is None:
            ranks.append(rank)
    return ranks


__all__ = [
    "IllegalAction",
    "cante_allowance",
    "cante_refusal",
    "cante_value",
    "check_tute",
    "holds_pair",
    "pairs_held",
    "singable_suits",
    "tute_rank_held",
    "tute_ranks",
    "window_allowance",
    "window_open_for",
]
