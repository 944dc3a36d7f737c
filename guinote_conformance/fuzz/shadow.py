"""The reference's view of a hand the engine deals and plays first, to choose actions both take.

A hand the engine deals from its own shuffle is played on the engine first, a policy choosing among
its legal actions (:mod:`guinote_conformance.fuzz.own_deal`), because its stock is known only as it is
drawn. A card the engine offers that the rules refuse (a wrong duty in the arrastre) would be chosen
now and then, and the reference, given the same actions afterwards, would refuse it: the game
would end there, and nothing after it in the game would be compared.

The rule: a :class:`Shadow` is a game of the reference dealt the engine's hands and muestra (the
stock filled in deck order: until a draw, no legal action depends on it), which takes every
action chosen; after a draw its hands are set to the engine's. The policy then chooses among the
actions both offer. Where the shadow cannot follow (a mano, a trick winner or a draw the engine
makes otherwise, a position it cannot take) it gives up for the rest of the hand, and the
engine's own legal actions are chosen from, as before. The shadow only steers the choice: the
comparison is made afterwards on the reference given the deal read back, as ever.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from guinote_conformance.adapters.interface import JSON, Accepted, Engine, GameHandle
from guinote_conformance.fuzz.own_deal import deal_of
from guinote_conformance.oracle.steps import Step, action_key

#: What may go wrong in the shadow: it is a guide only, and gives up (it never stops a game).
_SHADOW_ERRORS = (Exception,)


class Shadow:
    """The reference's view of the engine's own hand: :meth:`deal`, then :meth:`narrowed` and
    :meth:`played` at each action (a shadow that gave up narrows nothing)."""

    def __init__(
        self,
        reference: Engine,
        replica: Callable[[], GameHandle],
        flags: Mapping[str, JSON],
        players: int,
        deck_size: int,
    ) -> None:
        self.reference, self._replica = reference, replica  # the reference's game at the end of the hand before
        self.flags, self.players, self.deck_size = dict(flags), players, deck_size
        self.game: GameHandle | None = None
        self._stock: JSON = None  # the shadow's stock when its hands were last matched to the engine's

    def deal(self, hands: list[JSON], muestra: JSON, dealt: Step) -> None:
        """Deal the engine's hands and muestra to a replica of the reference's game."""
        try:
            game = self._replica()
            if isinstance(game.apply(deal_of(hands, muestra, dealt, [], self.deck_size)), Accepted):
                self.game = game
        except _SHADOW_ERRORS:
            self.game = None

    def narrowed(self, engine: GameHandle, legal: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
        """The actions of the engine's ``legal`` the reference takes too (all of them where the
        shadow has given up, or where none is common)."""
        if self.game is None:
            return legal
        try:
            self._follow_hands(engine)
            ours = {action_key(action) for action in self.game.legal_actions()}
        except _SHADOW_ERRORS:
            self.game = None
            return legal
        both = [action for action in legal if action_key(action) in ours]
        if not both:
            self.game = None  # (the two tables part: another seat to play, another phase)
        return both or legal

    def played(self, action: dict[str, JSON]) -> None:
        """The action chosen, played on the shadow too (it gives up where it refuses it)."""
        if self.game is None:
            return
        try:
            if not isinstance(self.game.apply(action), Accepted):
                self.game = None
        except _SHADOW_ERRORS:
            self.game = None

    def _follow_hands(self, engine: GameHandle) -> None:
        """After a draw, the shadow's hands set to the engine's (its stock was a guess). The
        engine's hands are read only once cards were drawn (each read is a request to the engine)."""
        assert self.game is not None
        stock = self.game.state("stock_count")
        if stock == self._stock:
            return
        self._stock = stock
        hands = [engine.state(f"hand.{seat}") for seat in range(self.players)]
        mine = [self.game.state(f"hand.{seat}") for seat in range(self.players)]
        if [sorted(map(str, hand)) for hand in hands if isinstance(hand, list)] == [
            sorted(map(str, hand)) for hand in mine if isinstance(hand, list)
        ]:
            return
        position: Any = getattr(getattr(self.game, "game", None), "position", None)
        if position is None:
            raise LookupError("the reference's game does not tell its position")
        now = dict(position())
        theirs = [[str(card) for card in hand] for hand in hands if isinstance(hand, list)]
        held = {card for hand in theirs for card in hand}
        # the cards the shadow drew and the engine did not go back to its stock (a guess, as ever)
        spare = [str(card) for hand in now["hands"] for card in hand if str(card) not in held]
        stock = [str(card) for card in now.get("stock") or [] if str(card) not in held]
        now["stock"] = spare[: len(now.get("stock") or []) - len(stock)] + stock
        now["hands"] = theirs
        self.game = self.reference.start({"flags": dict(self.flags), "position": now})


__all__ = ["Shadow"]
