"""Which faults stand as a renuncio (rule area RENUNCIO, B-34 ``renuncio_faults``).

Under ``renuncio_handling=block`` (RENUNCIO-08) every illegal move is refused. Under
``lose_point`` (RENUNCIO-07) a card against the duties of the arrastre always stands and costs
the point; whether a card played out of turn (RENUNCIO-04) or a cante without a won trick
(RENUNCIO-05) does too depends on ``renuncio_faults``:

* ``play_duties`` (S000): neither; both are refused;
* ``out_of_turn`` (S004 fault c): a card out of turn in the arrastre stands as a renuncio;
* ``out_of_turn_and_cante`` (S002/S003 Errores típicos): both, in the arrastre.

Nothing in the free phase is ever a renuncio (RENUNCIO-10, RENUNCIO-11). A fault that stands is
called at once (:func:`called`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guinote_conformance.reference_engine.actions import Event, Refusal
from guinote_conformance.reference_engine.scoring import PointDecision

if TYPE_CHECKING:
    from guinote_conformance.reference_engine.cards import Card, Suit
    from guinote_conformance.reference_engine.state import HandState

_OUT_OF_TURN = ("out_of_turn", "out_of_turn_and_cante")


def _at_a_table_in_arrastre(hand: HandState) -> bool:
    return hand.rules.renuncio_handling == "lose_point" and hand.muestra is None and hand.result is None


def out_of_turn_stands(hand: HandState) -> bool:
    """RENUNCIO-04: a card offered out of turn is played, and is a renuncio, rather than refused."""
    return _at_a_table_in_arrastre(hand) and hand.rules.renuncio_faults in _OUT_OF_TURN


def premature_cante_stands(hand: HandState) -> bool:
    """RENUNCIO-05: a cante without a won trick is declared, and is a renuncio, rather than refused."""
    return _at_a_table_in_arrastre(hand) and hand.rules.renuncio_faults == "out_of_turn_and_cante"


def called(
    hand: HandState, seat: int, card: Card | None, refused: Refusal, suit: Suit | None = None
) -> tuple[Event, PointDecision]:
    """RENUNCIO-07 (``renuncio_handling=lose_point``): the renuncio of ``seat``, who played
    ``card`` (or sang ``suit``) against ``refused``, and the decision that ends the hand: the
    offending side loses the point.

    interpretation (RENUNCIO-07, C-17): the renuncio is called at once, the hand stops there, and the
    point goes to the opponents even in a hand de vueltas.
    """
    if card is not None:
        what = {"card": card.code}
    else:
        assert suit is not None, "a renuncio names the card played or the suit sung"
        what = {"suit": suit.value}
    event = Event("renuncio", {"seat": seat, **what, "code": refused.code, "rule": refused.rule})
    return event, PointDecision(1 - hand.side(seat), "renuncio", "RENUNCIO-07")
