"""Engines that draw by themselves: the suite's explicit ``draw``, played on the suite's side.

The scenarios take the draw as its own action: after a free-phase trick ``draw_pending`` is
true, the legal list is ``draw`` (and the cantes and the exchange of the window), and the
``cards_drawn`` event comes with the ``draw``. Many engines instead draw as the trick ends. Such
an engine declares the capability ``automatic_draw`` and plays its own way: its ``cards_drawn``
event (and ``arrastre_begins`` after the final draw) comes in the answer to the play that
completed the trick, and it never lists nor accepts ``draw``.

:class:`ExplicitDrawEngine` wraps it so that the scenarios see the explicit draw: the draw
events are held back until the suite's ``draw``, and until then the game is shown as it was
before the draw, from the engine's answers and the held ``cards_drawn`` event: ``draw_pending``,
``hand.<seat>``, ``hand_size.<seat>``, ``stock_count``, ``muestra`` and ``phase``, and the legal
list without the next lead and without a cante or tute that needs a card drawn now (tried, it
is refused as the seat lacks the pair). The engine needs no emulation of its own. A mid-hand
position with a draw pending is given to it with the draw made (each seat, the winner first,
takes the top card of the stock, the last one the muestra when the stock is out), and the draw
is held as if the engine had just made it.

What the engine's answers after its draw cannot tell about the moment before it is *not
applicable*, with the reason (:meth:`ExplicitDrawGame.unknowable`): the exchange of the seven
before the last draw (for the engine the muestra is drawn) or between a trick and its draw when
that is the only window (``seven_exchange_window=after_won_trick_before_draw``), an exchange by
a player who draws a low trump now, a cante sung before the last draw (for the engine it is
sung in the arrastre), a cante the draw's card decides under ``cante_order=forty_first``, and
the reason for refusing a cante that only a drawn card completes. The driver asks the same
question before it reads the legal list for one action (:class:`PartlyKnown`).
See the draw section of ``docs/checking/protocol.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from guinote_conformance.adapters.interface import (
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
    end_game,
)
from guinote_conformance.results.status import NotApplicable

CAPABILITY = "automatic_draw"
DRAW = {"type": "draw"}


@runtime_checkable
class PartlyKnown(Protocol):
    """A game whose legal list cannot speak for some actions now (an engine that draws by itself,
    seen before its draw: :class:`ExplicitDrawGame`). A scenario asking whether such an
    action is legal is not applicable, with the reason :meth:`unknowable` gives."""

    def unknowable(self, action: Mapping[str, JSON]) -> str | None: ...


class ExplicitDrawGame:
    """A game of an ``automatic_draw`` engine, seen with the suite's explicit draw.

    While a draw is held the game is shown as it was before it: the hands without the drawn
    cards, the stock and the muestra still there, and the legal list of the engine (which has
    drawn) without the cantes and tutes that need a drawn card. That view is exact as long as
    the drawn cards are all that the draw changed for the engine; :meth:`unknowable` names the
    questions where the engine's answer after its draw cannot stand for the answer before it,
    and a scenario that asks one of them is *not applicable*, with the reason."""

    def __init__(self, game: GameHandle, flags: Mapping[str, JSON] | None = None) -> None:
        self.game = game
        self.flags: Mapping[str, JSON] = flags or {}
        self.held: EventList | None = None  # cards_drawn and what followed it, until the suite's draw
        self.void = False  # the hand ended before the suite's draw (a tute, a claim): nothing is drawn

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

    def _drawn_by(self, seat: JSON) -> set[str]:
        return {str(card) for who, card in self._draws() if _same_seat(who, seat)}

    # -------------------------------------------------------------- what the view cannot tell

    def unknowable(self, action: Mapping[str, JSON]) -> str | None:
        """Why the engine, having drawn already, cannot tell whether ``action`` is legal before
        the draw (a scenario asking it is not applicable); ``None`` if it can, or no draw is held."""
        if self.held is None or self.void:
            return None
        kind, seat = action.get("type"), action.get("seat")
        if kind == "exchange":
            if self._final():
                return (
                    "the scenario exchanges the seven before the last draw; the engine draws automatically, "
                    "and for it the muestra is drawn already"
                )
            if self.flags.get("seven_exchange_window") == "after_won_trick_before_draw":
                return (
                    "the scenario exchanges the seven between a trick and its draw "
                    "(seven_exchange_window=after_won_trick_before_draw); the engine draws automatically, "
                    "so for it that window has closed"
                )
            trump = self._trump()
            if {f"{rank}{trump}" for rank in "247"} & self._drawn_by(seat):
                return (  # the seven, the dos or the cuatro the seat takes the muestra with (SEVEN-01, SEVEN-09)
                    "the scenario exchanges for the muestra before a draw that gives the exchanger a low trump; "
                    "the engine draws automatically, so for it the exchanger holds that card already"
                )
        if kind == "cante" and self.flags.get("cante_order") == "forty_first":
            trump = self._trump()
            if action.get("suit") != trump and {f"R{trump}", f"S{trump}"} & self._drawn_by(seat):
                return (
                    "the scenario sings before a draw that gives the singer a card of the forty "
                    "(cante_order=forty_first); the engine draws automatically, so for it the duty to sing "
                    "the forty first has changed"
                )
        return None

    def _trump(self) -> str:
        return str(self.game.state("trump") or "")

    def _engine_offers(self, action: Mapping[str, JSON]) -> bool:
        return any(all(a.get(k) == v for k, v in action.items()) for a in self.game.legal_actions())

    def _before_the_draw(self, action: Mapping[str, JSON]) -> bool:
        """``action`` is possible with the cards held before the held draw: a cante or tute
        needs no card its seat draws now (CANTE-19, CANTE-22)."""
        if self.held is None or self.void or action.get("type") not in ("cante", "tute"):
            return True
        drawn = self._drawn_by(action.get("seat"))
        if action.get("type") == "cante":
            return not {f"R{action.get('suit')}", f"S{action.get('suit')}"} & drawn
        return not any(card[:1] == action.get("rank") for card in drawn)

    # -------------------------------------------------------------- the game

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions = [a for a in self.game.legal_actions() if a.get("type") != "draw"]
        if self.held is None or self.void:
            return actions
        return [  # the next lead waits for the draw; a cante of a card not drawn yet is not sung yet
            dict(DRAW),
            *(a for a in actions if a.get("type") != "play" and self._before_the_draw(a)),
        ]

    def apply(self, action: Action) -> Outcome:
        kind = action.get("type")
        if kind == "draw":
            if self.held is not None and not self.void:
                events, self.held = self.held, None
                return Accepted(events)
            phase = self.game.state("phase")
            if phase == "match_over":
                return Rejected("MATCH_OVER", "MATCH-05", "the match is over")
            if phase == "hand_over":
                return Rejected("HAND_OVER", "SCORE-02", "the hand is over; the next action is the deal")
            return Rejected("NOTHING_TO_DRAW", "PLAY-08", "cards are drawn only after a free-phase trick")
        if self.held is not None and not self.void:
            if kind == "play":
                return Rejected("MUST_DRAW_FIRST", "PLAY-09", "every player draws before the next trick is led")
            why = self.unknowable(action)
            if why is not None:
                raise NotApplicable(why)
            if kind in ("cante", "tute"):
                offered = self._engine_offers(action)
                if not self._before_the_draw(action):
                    if not offered:  # refused either way, but the engine's reason may be the drawn card's
                        raise NotApplicable(
                            "the scenario tries, before the draw, a cante that only a card drawn after it completes; "
                            "the engine draws automatically, so its reason for refusing it cannot be told"
                        )
                    # the engine would sing with the card it drew: before the draw the seat lacks it
                    what = "the Rey and Sota" if kind == "cante" else "the four"
                    code, rule = ("CANTE_NO_PAIR", "CANTE-19") if kind == "cante" else ("TUTE_NOT_HELD", "CANTE-22")
                    return Rejected(code, rule, f"seat {action.get('seat')} holds {what} only after the draw")
                if offered and self._final():  # a refused cante is refused alike before and after the draw
                    raise NotApplicable(
                        "the scenario sings before the last draw; the engine draws automatically, so for it the "
                        "cante would be sung in the arrastre (CANTE-15)"
                    )
        outcome = self.game.apply(action)
        if isinstance(outcome, Accepted):
            kinds = [event.get("type") for event in outcome.events]
            if kind == "deal":
                self.held, self.void = None, False  # a new hand: what the last one held is gone
            elif self.held is not None and "hand_over" in kinds:
                self.void = True  # e.g. a tute that wins the point: the hand ends before its draw
            if "cards_drawn" in kinds:
                cut = kinds.index("cards_drawn")
                self.held, self.void = outcome.events[cut:], False
                return Accepted(outcome.events[:cut])
        return outcome

    def state(self, name: str) -> JSON:
        return self._as_before_draw(name, lambda: self.game.state(name))

    def end(self) -> None:
        end_game(self.game)

    def observation(self, seat: int, name: str) -> JSON:
        return self._as_before_draw(name, lambda: self.game.observation(seat, name))

    def _as_before_draw(self, name: str, read: Callable[[], JSON]) -> JSON:
        if name == "draw_pending":
            return self.held is not None and not self.void  # the engine itself never has a draw pending
        if self.held is None:
            return read()
        draws = self._draws()
        final = self._final()
        if name == "muestra" and final and draws:
            return draws[-1][1]  # the last drawer took it (the engine has no muestra any more)
        if name == "phase" and final and not self.void:
            return "free"
        value = read()
        if value is None:
            return None  # hidden from this seat
        if name.startswith("hand.") and isinstance(value, list):
            drawn = self._drawn_by(name.removeprefix("hand."))
            return [card for card in value if card not in drawn]
        # (a count may come as 12.0: a whole number is a number whatever its spelling)
        if name.startswith("hand_size.") and _count(value):
            seat = name.removeprefix("hand_size.")
            return int(value) - sum(1 for who, _ in draws if _same_seat(who, seat))
        if name == "stock_count" and _count(value):
            return int(value) + len(draws)  # the muestra counts among the cards left to draw
        return value


def _same_seat(one: Any, other: Any) -> bool:
    """The same seat, whatever its spelling (``1``, ``1.0``, ``"1"``)."""
    return str(one).removesuffix(".0") == str(other).removesuffix(".0")


def _count(value: JSON) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()


def unfollowable(action: Mapping[str, JSON], flags: Mapping[str, JSON], *, final: bool) -> bool:
    """Whether ``action``, played while the suite's draw is pending (``final``: the last draw of the
    hand, the one that takes the muestra), may be one the view of an ``automatic_draw`` engine cannot
    follow (:meth:`ExplicitDrawGame.unknowable`, or a cante sung before the last draw): an exchange
    of the seven, a cante or tute before the last draw or under ``cante_order=forty_first``. The
    fuzzer's play steers clear of them for such an engine (``compare`` would otherwise stop the game
    there, as a scenario asking one is *not applicable*)."""
    kind = action.get("type")
    if kind == "exchange":
        return True
    if kind in ("cante", "tute"):
        return final or flags.get("cante_order") == "forty_first"
    return False


def followable(game: GameHandle, flags: Mapping[str, JSON], legal: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
    """The actions of ``legal`` (a draw pending on ``game``) that are not :func:`unfollowable`."""
    final = final_draw(game)
    return [action for action in legal if not unfollowable(action, flags, final=final)]


def final_draw(game: GameHandle) -> bool:
    """Whether the draw pending in ``game`` (the reference's, or one seen before its draw) is the
    hand's last: the one that takes the muestra (the stock count includes it)."""
    left, players = game.state("stock_count"), game.state("players")
    return _count(left) and _count(players) and float(left) <= float(players)


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
        flags = setup.get("flags")
        flags = flags if isinstance(flags, Mapping) else {}
        position = setup.get("position")
        if isinstance(position, dict) and position.get("draw_pending"):
            drawn, held = draw_made(position)
            game = ExplicitDrawGame(self.engine.start({**setup, "position": drawn}), flags)
            game.held = held
            return game
        return ExplicitDrawGame(self.engine.start(setup), flags)

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


__all__ = [
    "CAPABILITY",
    "ExplicitDrawEngine",
    "ExplicitDrawGame",
    "draw_made",
    "final_draw",
    "followable",
    "unfollowable",
]
