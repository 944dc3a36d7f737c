"""Exchanging the seven of trumps for the muestra (rule area SEVEN).

The holder of the seven of trumps may exchange it for the face-up muestra (SEVEN-01) if the
muestra outranks it (SEVEN-02, ``seven_exchange_min``) and the won-trick condition of
``seven_exchange_requires`` holds (SEVEN-03/04/05), inside the ``seven_exchange_window``.
The exchanged card lies in the muestra's place and is drawn last (SEVEN-11); the exchange
happens at most once per hand (interpretation, C-15). When the muestra is itself the seven,
``seven_is_muestra=swap_with_two`` lets the holder of the dos of trumps take it (SEVEN-09);
the 36-card deck has no dos, so no exchange is possible there (interpretation, B-40).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference_engine.actions import IllegalAction
from reference_engine.cards import Card, Rank

if TYPE_CHECKING:
    from reference_engine.game import Game


def exchange_card(game: Game) -> Card | None:
    """The trump card that may be exchanged for the current muestra, if any (SEVEN-02/09)."""
    muestra = game.muestra
    if muestra is None or game.exchange_done:
        return None
    seven = Card(Rank.SIETE, game.trump)
    if muestra == seven:
        if game.rules.seven_is_muestra == "swap_with_two" and game.rules.deck_size != 36:
            return Card(Rank.DOS, game.trump)
        return None
    if game.strength[muestra.rank] <= game.strength[Rank.SIETE]:
        return None  # SEVEN-02: a muestra below the seven is never taken
    if game.rules.seven_exchange_min == "value_card" and muestra.points == 0:
        return None  # S000: only As, Tres, Rey, Sota or Caballo
    return seven


def _won_trick_condition(game: Game, seat: int) -> bool:
    requires = game.rules.seven_exchange_requires
    if requires == "exchanger_won_last_trick":
        return game.last_trick_winner == seat
    if requires == "own_side_won_last_trick":
        return game.last_trick_winner is not None and game.side(game.last_trick_winner) == game.side(seat)
    return game.tricks_won[game.side(seat)] > 0  # own_side_won_any_trick


def _in_window(game: Game) -> bool:
    if game.rules.seven_exchange_window == "after_won_trick_before_draw":
        return game.draw_pending
    return True  # while_muestra_visible: the muestra is checked by exchange_card


def check_exchange(game: Game, seat: int) -> Card:
    """Return the card ``seat`` gives up, or raise :class:`IllegalAction` naming the rule."""
    if game.hand_result is not None or game.muestra is None:
        raise IllegalAction("EXCHANGE_NO_MUESTRA", "SEVEN-06", "the muestra has already been drawn")
    card = exchange_card(game)
    if card is None:
        raise IllegalAction("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02", f"the muestra {game.muestra.code} cannot be taken in exchange")
    if card not in game.hands[seat]:
        raise IllegalAction("EXCHANGE_CARD_NOT_HELD", "SEVEN-01", f"seat {seat} does not hold {card.code}")
    if not _won_trick_condition(game, seat):
        rule = {"exchanger_won_last_trick": "SEVEN-03", "own_side_won_last_trick": "SEVEN-05"}.get(
            game.rules.seven_exchange_requires, "SEVEN-04"
        )
        raise IllegalAction("EXCHANGE_NO_WON_TRICK", rule, f"seven_exchange_requires={game.rules.seven_exchange_requires} is not met for seat {seat}")
    if not _in_window(game):
        raise IllegalAction("EXCHANGE_WINDOW_CLOSED", "SEVEN-03", "the exchange is made after a won trick and before the draw")
    return card
