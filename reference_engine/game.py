"""A match of Guiñote: hands dealt one after another until a side wins (rule area MATCH).

:class:`Game` follows OpenSpiel's shape: :meth:`Game.legal_actions` lists what may be done
now, :meth:`Game.apply` does one action and returns the :class:`~guinote_conformance.reference_engine.actions.Event`
list it caused, or raises :class:`~guinote_conformance.reference_engine.actions.IllegalAction` with a reason code
and the rule ID. The hand in progress is a :class:`~guinote_conformance.reference_engine.hand.Hand`
(:attr:`Game.hand`), which owns its state and applies the in-hand actions; the match holds
the rules, the score, the totals carried into a hand de vueltas, the history and the
sequencing of the hands (who deals next, the deal).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any, Generic, TypeVar, overload

from guinote_conformance.reference_engine import scoring
from guinote_conformance.reference_engine.actions import Action, Cante, Deal, Event, IllegalAction, Play, Tute
from guinote_conformance.reference_engine.cards import Card, CardError, Suit, codes, shuffled_deck
from guinote_conformance.reference_engine.deal import check_cards_once
from guinote_conformance.reference_engine.flags import Rules
from guinote_conformance.reference_engine.hand import Hand
from guinote_conformance.reference_engine.match import MatchScore, next_dealer
from guinote_conformance.reference_engine.position import read_pair
from guinote_conformance.reference_engine.scoring import PointDecision

_T = TypeVar("_T")


class _HandField(Generic[_T]):
    """A field of the current hand, read through the match: ``game.turn`` is ``game.hand.turn``."""

    def __init__(self, source: str | None = None) -> None:
        self._source = source

    def __set_name__(self, owner: type[Any], name: str) -> None:
        source = self._source or name
        self._get: attrgetter[Any] = attrgetter(f"hand.{source}")
        self.__doc__ = (
            f"The current hand's ``{source}`` (:class:`~guinote_conformance.reference_engine.hand.Hand`); read-only."
        )

    @overload
    def __get__(self, game: None, owner: type[Any]) -> _HandField[_T]: ...
    @overload
    def __get__(self, game: Game, owner: type[Any]) -> _T: ...
    def __get__(self, game: Game | None, owner: type[Any]) -> _T | _HandField[_T]:
        if game is None:
            return self
        value: _T = self._get(game)
        return value

    def __set__(self, game: Game, value: object) -> None:
        raise AttributeError("the hand's fields change only through Game.apply")


class Game:
    """One match of Guiñote under a set of :class:`~guinote_conformance.reference_engine.flags.Rules`.

    ``hand`` is the hand in progress (or just over); ``match`` the points and cotos. The
    fields of the current hand also read through the game (``game.turn``, ``game.hands``...),
    read-only. ``start`` describes how the first hand was set up, in JSON, and ``history``
    lists every accepted action: together they replay the game (:mod:`guinote_conformance.reference_engine.records`).
    """

    def __init__(self, rules: Rules, hand: Hand, start: Mapping[str, Any], match: MatchScore | None = None) -> None:
        """A match whose first hand is ``hand``, set up as ``start`` says (JSON); prefer the
        ``from_*`` constructors. ``match`` is the score so far (none by default)."""
        self.rules = rules
        self.players = rules.player_count
        self.match = match or MatchScore(int(rules.points_per_coto), int(rules.cotos_to_win))
        self.hand = hand
        self.hands_played = 0
        self.history: list[Action] = []
        self.start: dict[str, Any] = dict(start)
        self.first_dealer = hand.dealer
        # Set when a hand ends undecided: the totals and malas the next hand starts from
        # (VUELTAS-02); None after a point was won (MATCH-02).
        self._carry_over: tuple[list[int], list[int]] | None = None

    # The current hand's fields, read through the match (the API before the hand was split out).
    dealer = _HandField[int]()
    mano = _HandField[int]()
    hands = _HandField[list[list[Card]]]()
    stock = _HandField[list[Card]]()
    muestra = _HandField[Card | None]()
    trump = _HandField[Suit]()
    trick = _HandField[list[tuple[int, Card]]]()
    leader = _HandField[int]()
    turn = _HandField[int | None]()
    draw_pending = _HandField[bool]()
    last_trick = _HandField[list[tuple[int, Card]]]()
    last_trick_winner = _HandField[int | None]()
    window_side = _HandField[int | None]()
    cantes_in_window = _HandField[int]()
    tricks_won = _HandField[list[int]]()
    tricks_played = _HandField[int]()
    card_points = _HandField[list[int]]()
    won_cards = _HandField[list[list[Card]]]()
    cante_points = _HandField[list[int]]()
    cantes = _HandField[list[dict[str, Any]]]()
    sung_suits = _HandField[set[Suit]]()
    exchange_done = _HandField[bool]()
    ultimas_side = _HandField[int | None]()
    first_over = _HandField[int | None]()
    hand_in_point = _HandField[int]()
    carried = _HandField[list[int]]()
    carried_malas = _HandField[list[int]]()
    hand_result = _HandField[PointDecision | None]("result")
    sides = _HandField[int]()
    seat_sides = _HandField[tuple[int, ...]]()
    side_seats = _HandField[tuple[tuple[int, ...], ...]]()
    strength = _HandField[Mapping[Card, int]]()

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_deck(cls, rules: Rules, deck_order: Sequence[Card], dealer: int = 0) -> Game:
        """Deal the first hand from an explicit deck order, top card first (DEAL)."""
        return cls(rules, Hand.from_deck(rules, deck_order, dealer), {"deck": codes(deck_order)})

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, dealer: int = 0) -> Game:
        """Deal the first hand from a seeded shuffle (random play, reproducible)."""
        return cls.from_deck(rules, shuffled_deck(rules.deck_size, seed), dealer)

    @classmethod
    def from_deal(
        cls, rules: Rules, hands: Sequence[Sequence[Card]], muestra: Card, stock: Sequence[Card], dealer: int = 0
    ) -> Game:
        """Start from explicit hands (seat order), the muestra and the stock (top first)."""
        hand = Hand.from_deal(rules, hands, muestra, stock, dealer)
        start = {"hands": [codes(cards) for cards in hands], "muestra": muestra.code, "stock": codes(stock)}
        return cls(rules, hand, start)

    @classmethod
    def from_position(cls, rules: Rules, position: Mapping[str, Any]) -> Game:
        """Start in the middle of a hand (:mod:`guinote_conformance.reference_engine.position`); the position may
        give the match score so far (``match_points``, ``cotos``)."""
        hand = Hand.from_position(rules, position)
        points, cotos = read_pair(position, "match_points"), read_pair(position, "cotos")
        match = MatchScore(int(rules.points_per_coto), int(rules.cotos_to_win), points, cotos)
        return cls(rules, hand, {"position": json.loads(json.dumps(position))}, match)

    def position(self) -> dict[str, Any]:
        """The position of the hand in progress and the match score, as JSON that
        :meth:`from_position` loads back to the same state (not the history). A hand that is
        over has no position: raises :class:`~guinote_conformance.reference_engine.position.PositionError`."""
        return {**self.hand.position(), "match_points": list(self.match.points), "cotos": list(self.match.cotos)}

    # ------------------------------------------------------------------ queries

    def side(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for (PRE-01, TWO-07)."""
        return self.hand.seat_sides[seat]

    @property
    def phase(self) -> str:
        """``free``, ``arrastre``, ``hand_over`` (waiting for the next deal) or ``match_over``."""
        if self.hand.result is not None:
            return "match_over" if self.match.winner is not None else "hand_over"
        return self.hand.phase

    def playable_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (see :meth:`Hand.playable_cards
        <guinote_conformance.reference_engine.hand.Hand.playable_cards>`)."""
        return self.hand.playable_cards(seat)

    def allowed_by(self, action: Action, *, window: bool = False) -> str:
        """The rule that lets :meth:`apply` accept ``action``, a play or a cante, where a stricter
        engine refuses it (:meth:`Hand.allowed_by <guinote_conformance.reference_engine.hand.Hand.allowed_by>`,
        :meth:`Hand.cante_allowed_by <guinote_conformance.reference_engine.hand.Hand.cante_allowed_by>`); ``""`` if
        it would be refused, or for another action. With ``window``, for a cante or a tute: the
        rule that keeps the singer's window open, whatever else refuses it."""
        if self.hand.result is not None:
            return ""
        if window and isinstance(action, Cante | Tute):
            return self.hand.cante_allowed_by(action.seat)
        if isinstance(action, Play):
            return self.hand.allowed_by(action.seat, action.card)
        if isinstance(action, Cante):
            return self.hand.cante_allowed_by(action.seat, action.suit)
        return ""

    def legal_actions(self) -> list[Action]:
        """Every action that :meth:`apply` would accept now, for any seat: those of the hand
        in progress (:meth:`Hand.legal_actions <guinote_conformance.reference_engine.hand.Hand.legal_actions>`),
        or the next deal once it is over, nothing once the match is won (MATCH-05).

        A :class:`Deal` in the list has an empty deck: it stands for a deal of any order of
        the deck (see :meth:`deal_next`).
        """
        if self.hand.result is not None:
            return [] if self.match.winner is not None else [Deal()]
        return self.hand.legal_actions()

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; return its events or raise :class:`IllegalAction` (the state is then
        unchanged). In-hand actions go to the hand; the deal starts the next one."""
        hand = self.hand
        if hand.result is not None and self.match.winner is not None:
            raise IllegalAction("MATCH_OVER", "MATCH-05", "the match is over")
        if hand.result is not None and isinstance(action, Deal):
            events = self._deal(action.deck)
        else:
            # the hand refuses any action once it is over (SCORE-02) and a deal while it is played (PRE-10)
            events = hand.apply(action)
            if hand.result is not None:
                events += self._close_hand(hand, hand.result)
        self.history.append(action)
        return events

    def _close_hand(self, hand: Hand, decision: PointDecision) -> list[Event]:
        """MATCH-01: give the point, or carry the totals into a hand de vueltas (SCORE-13,
        VUELTAS-02)."""
        self.hands_played += 1
        if decision.winner is None:  # VUELTAS-02: totals carry into the next hand (at its deal)
            totals = [scoring.total(hand, side) for side in range(hand.sides)]
            all_hands = self.rules.thirty_malas_scope == "all_hands"
            malas = [scoring.malas(hand, side) if all_hands else 0 for side in range(hand.sides)]
            self._carry_over = (totals, malas)
            return [Event("de_vueltas", {"totals": totals})]
        self._carry_over = None  # MATCH-02: the next point starts from zero
        completed = self.match.award_point(decision.winner)
        details = {"side": decision.winner, "points": list(self.match.points), "cotos": list(self.match.cotos)}
        events = [Event("point_won", details)]
        events.extend(Event(f"{what}_won", {"side": decision.winner}) for what in completed)
        return events

    def _deal(self, order: Sequence[Card]) -> list[Event]:
        """VUELTAS-01: every hand, de vueltas or not, is dealt like the first.
        PRE-10 / C-10: the winner of the last trick played deals."""
        dealer = self.next_dealer()
        if self._carry_over is None:
            hand = Hand.from_deck(self.rules, order, dealer)
        else:
            totals, malas = self._carry_over
            hand = Hand.from_deck(self.rules, order, dealer, self.hand.hand_in_point + 1, totals, malas)
        self.hand = hand
        assert hand.muestra is not None
        return [Event("hand_dealt", {"dealer": dealer, "mano": hand.mano, "muestra": hand.muestra.code})]

    def next_dealer(self) -> int:
        """Who deals the next hand (PRE-10): the winner of the last trick of this one."""
        last = self.hand.last_trick_winner
        assert last is not None, "a hand always ends after a trick"
        return next_dealer(last)

    def deal_next(self, seed: int) -> list[Event]:
        """Deal the next hand (PRE-10) from a seeded shuffle."""
        return self.apply(Deal(tuple(shuffled_deck(self.rules.deck_size, seed))))


__all__ = ["CardError", "Game", "check_cards_once"]
