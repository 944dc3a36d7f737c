"""Engines that draw by themselves: the suite's explicit ``draw``, played on the suite's side.

The scenarios take the draw as its own action: after a free-phase trick ``draw_pending`` is
true, the legal list is ``draw`` (and the cantes and the exchange of the window), and the
``cards_drawn`` event comes with the ``draw``. Many engines instead draw as the trick ends. Such
an engine declares the capability ``automatic_draw`` and plays its own way: its ``cards_drawn``
event (and ``arrastre_begins`` after the final draw) comes in the answer to the play that
completed the trick, and it never lists nor accepts ``draw``.

:func:`explicit_draw` wraps it so that the scenarios see the explicit draw: the draw events
are held back until the suite's ``draw``, and until then the state fields the draw changes
(``draw_pending``, ``hand.<seat>``, ``stock_count``, ``muestra``, ``phase``) are answered as
they were before it, from the engine's answers and the held ``cards_drawn`` event. The engine
needs no emulation of its own. A mid-hand position with a draw pending is given to it with
the draw made (each seat, the winner first, takes the top card of the stock, the last one the
muestra when the stock is out), and the draw is held as if the engine had just made it. What
such an engine cannot do at all, exchanging the seven for the muestra between a trick and its
draw, is *not applicable*; the few scenarios that read the exchange window or a cante window
around the draw in other ways are not expressible for it either (see protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adapters.interface import (
    JSON,
    Accepted,
    Action,
    Engine,
    EngineInfo,
    EventList,
    GameHandle,
    Outcome,
    Rejected,
    Setup,
)
from conformance.driver import NotApplicable

CAPABILITY = "automatic_draw"
DRAW = {"type": "draw"}


class ExplicitDrawGame:
    """A game of an ``automatic_draw`` engine, seen with the suite's explicit draw."""

    def __init__(self, game: GameHandle) -> None:
        self.game = game
        self.held: EventList | None = None  # cards_drawn and what followed it, until the suite's draw

    def _draws(self) -> list[list[Any]]:
        assert self.held is not None
        for event in self.held:
            if event.get("type") == "cards_drawn":
                draws = event.get("draws")
                return [list(pair) for pair in draws] if isinstance(draws, list) else []
        return []

    def _final(self) -> bool:
        """The held draw is the last one: it took the muestra, and the arrastre began."""
        return self.held is not None and any(event.get("type") == "arrastre_begins" for event in self.held)

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions = [a for a in self.game.legal_actions() if a.get("type") != "draw"]
        if self.held is None:
            return actions
        return [dict(DRAW), *(a for a in actions if a.get("type") != "play")]  # the next lead waits for it

    def apply(self, action: Action) -> Outcome:
        kind = action.get("type")
        if kind == "draw":
            if self.held is not None:
                events, self.held = self.held, None
                return Accepted(events)
            phase = self.game.state("phase")
            if phase == "match_over":
                return Rejected("MATCH_OVER", "MATCH-05", "the match is over")
            if phase == "hand_over":
                return Rejected("HAND_OVER", "SCORE-02", "the hand is over; the next action is the deal")
            return Rejected("NOTHING_TO_DRAW", "PLAY-08", "cards are drawn only after a free-phase trick")
        if self.held is not None and kind == "play":
            return Rejected("MUST_DRAW_FIRST", "PLAY-09", "every player draws before the next trick is led")
        if self._final() and kind == "cante":
            # for the engine the arrastre has begun: a cante "before the last draw" is not its notion
            raise NotApplicable("the scenario sings before the last draw; the engine draws automatically")
        outcome = self.game.apply(action)
        if self.held is not None and kind == "exchange" and isinstance(outcome, Rejected):
            # the engine has drawn already: the exchange window before the draw (SEVEN-03) is not its own
            raise NotApplicable("the scenario exchanges for the muestra before a draw; the engine draws automatically")
        if isinstance(outcome, Accepted):
            kinds = [event.get("type") for event in outcome.events]
            if "cards_drawn" in kinds:
                cut = kinds.index("cards_drawn")
                self.held = outcome.events[cut:]
                return Accepted(outcome.events[:cut])
        return outcome

    def state(self, name: str) -> JSON:
        return self._as_before_draw(name, lambda: self.game.state(name))

    def observation(self, seat: int, name: str) -> JSON:
        return self._as_before_draw(name, lambda: self.game.observation(seat, name))

    def _as_before_draw(self, name: str, read: Callable[[], JSON]) -> JSON:
        if name == "draw_pending":
            return self.held is not None  # the engine itself never has a draw pending
        if self.held is None:
            return read()
        draws = self._draws()
        value = read()
        if value is None:
            return None  # hidden from this seat
        if name.startswith("hand.") and isinstance(value, list):
            seat = name.removeprefix("hand.")
            drawn = {str(card) for who, card in draws if str(who) == seat}
            return [card for card in value if card not in drawn]
        if name.startswith("hand_size.") and isinstance(value, int):
            seat = name.removeprefix("hand_size.")
            return value - sum(1 for who, _ in draws if str(who) == seat)
        if name == "stock_count" and isinstance(value, int):
            return value + len(draws)  # the muestra counts among the cards left to draw
        if name == "muestra" and self._final() and draws:
            return draws[-1][1]  # the last drawer took it
        if name == "phase" and self._final():
            return "free"
        return value


class ExplicitDrawEngine:
    """An engine whose games show the explicit draw when it declares ``automatic_draw``.

    The declaration is read at the first ``start`` (not before: opening an engine must not
    launch it); an engine without it gets its own games back, untouched.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._automatic: bool | None = None

    def info(self) -> EngineInfo:
        return self.engine.info()

    def start(self, setup: Setup) -> GameHandle:
        if self._automatic is None:
            self._automatic = CAPABILITY in self.engine.info().capabilities
        if not self._automatic:
            return self.engine.start(setup)
        position = setup.get("position")
        if isinstance(position, dict) and position.get("draw_pending"):
            drawn, held = draw_made(position)
            game = ExplicitDrawGame(self.engine.start({**setup, "position": drawn}))
            game.held = held
            return game
        return ExplicitDrawGame(self.engine.start(setup))

    def close(self) -> None:
        self.engine.close()

    def __getattr__(self, name: str) -> Any:  # e.g. stderr_tail of a subprocess engine
        return getattr(self.engine, name)


def draw_made(position: dict[str, Any]) -> tuple[dict[str, Any], EventList]:
    """A position with a draw pending, with the draw made (PLAY-08, PLAY-10), and the events of that draw."""
    hands = [list(hand) for hand in position["hands"]]
    stock = list(position.get("stock", []))
    muestra = position.get("muestra")
    winner = int(position.get("last_trick_winner", position.get("leader", 0)))
    draws: list[list[Any]] = []
    for step in range(len(hands)):
        seat = (winner + step) % len(hands)
        if stock:
            card = stock.pop(0)
        elif muestra is not None:
            card, muestra = muestra, None
        else:
            break
        hands[seat].append(card)
        draws.append([seat, card])
    drawn = {**position, "hands": hands, "stock": stock, "draw_pending": False}
    events: EventList = [{"type": "cards_drawn", "draws": draws}]
    if muestra is None and "muestra" in position:
        drawn.pop("muestra")
        drawn["trump"] = str(position["muestra"])[-1]  # the muestra's suit stays trumps
        events.append({"type": "arrastre_begins"})
    return drawn, events


__all__ = ["CAPABILITY", "ExplicitDrawEngine", "ExplicitDrawGame", "draw_made"]
