"""A game of Guiñote: state, legal actions and applying an action.

:class:`Game` follows OpenSpiel's shape: :meth:`Game.legal_actions` lists what may be done
now, :meth:`Game.apply` does one action and returns the :class:`~reference_engine.actions.Event`
list it caused, or raises :class:`~reference_engine.actions.IllegalAction` with a reason code
and the rule ID. The rules themselves live in one module per area (``arrastre``, ``cantes``,
``seven``, ``scoring``, ``match``...); this module only sequences them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reference_engine import arrastre, cantes, scoring, seven
from reference_engine.actions import (
    Action,
    Cante,
    Claim,
    Deal,
    Draw,
    Event,
    Exchange,
    IllegalAction,
    Play,
    Tute,
)
from reference_engine.cards import Card, CardError, Rank, Suit, parse_card, shuffled_deck, strength_table
from reference_engine.deal import DealtHand, check_cards_once, check_explicit_deal, deal_from_deck
from reference_engine.flags import Rules
from reference_engine.match import MatchScore, next_dealer
from reference_engine.scoring import PointDecision
from reference_engine.tricks import draw_order, next_seat, side_of, trick_points, winning_index


class Game:
    """One match of Guiñote under a set of :class:`~reference_engine.flags.Rules`."""

    def __init__(self, rules: Rules, dealt: DealtHand, dealer: int) -> None:
        self.rules = rules
        self.players = rules.player_count
        self.sides = 2
        self.strength = strength_table(rules.rank_8_9)
        self.match = MatchScore(int(rules.points_per_coto), int(rules.cotos_to_win))
        self.carried = [0, 0]
        self.carried_malas = [0, 0]
        self.hand_in_point = 0
        self.hands_played = 0
        self.history: list[Action] = []
        self._start_hand(dealt, dealer)

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_deck(cls, rules: Rules, deck_order: Sequence[Card], dealer: int = 0) -> Game:
        """Deal the first hand from an explicit deck order, top card first."""
        dealt = deal_from_deck(deck_order, rules.player_count, dealer, rules.deal, rules.deck_size)
        return cls(rules, dealt, dealer)

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, dealer: int = 0) -> Game:
        """Deal the first hand from a seeded shuffle (random play, reproducible)."""
        return cls.from_deck(rules, shuffled_deck(rules.deck_size, seed), dealer)

    @classmethod
    def from_deal(
        cls, rules: Rules, hands: Sequence[Sequence[Card]], muestra: Card, stock: Sequence[Card], dealer: int = 0
    ) -> Game:
        """Start from explicit hands (seat order), the muestra and the stock (top first)."""
        check_explicit_deal(hands, muestra, stock, rules.player_count, rules.deck_size)
        dealt = DealtHand(tuple(tuple(hand) for hand in hands), muestra, tuple(stock))
        return cls(rules, dealt, dealer)

    @classmethod
    def from_position(cls, rules: Rules, position: Mapping[str, Any]) -> Game:
        """Start in the middle of a hand (see :func:`reference_engine.position.load_position`)."""
        from reference_engine.position import load_position

        return load_position(cls, rules, position)

    def _start_hand(self, dealt: DealtHand, dealer: int) -> None:
        self.dealer = dealer
        self.mano = next_seat(dealer, self.players)  # PRE-09
        self.hands: list[list[Card]] = [list(hand) for hand in dealt.hands]
        self.stock: list[Card] = list(dealt.stock)
        self.muestra: Card | None = dealt.muestra
        self.trump: Suit = dealt.muestra.suit  # DEAL-05
        self.trick: list[tuple[int, Card]] = []
        self.leader = self.mano  # PLAY-03
        self.turn: int | None = self.mano
        self.draw_pending = False
        self.last_trick_winner: int | None = None
        self.window_side: int | None = None
        self.cantes_in_window = 0
        self.tricks_won = [0, 0]
        self.tricks_played = 0
        self.card_points = [0, 0]
        self.won_cards: list[list[Card]] = [[], []]
        self.cante_points = [0, 0]
        self.cantes: list[dict[str, Any]] = []
        self.sung_suits: set[Suit] = set()
        self.exchange_done = False
        self.ultimas_side: int | None = None
        self.first_over: int | None = None
        self.hand_result: PointDecision | None = None
        self.last_trick: list[tuple[int, Card]] = []

    # ------------------------------------------------------------------ queries

    def side(self, seat: int) -> int:
        return side_of(seat, self.players)

    @property
    def phase(self) -> str:
        """``free``, ``arrastre``, ``hand_over`` (waiting for the next deal) or ``match_over``."""
        if self.match.winner is not None:
            return "match_over"
        if self.hand_result is not None:
            return "hand_over"
        if self.stock or self.muestra is not None:
            return "free"
        return "arrastre"  # PLAY-13

    def playable_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (empty if it is not his turn)."""
        if seat != self.turn or self.draw_pending or self.hand_result is not None:
            return []
        if self.phase == "free":
            return list(self.hands[seat])  # PLAY-07: free play while the stock lasts
        return arrastre.legal_cards(self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules)

    def legal_actions(self) -> list[Action]:
        """Every action that :meth:`apply` would accept now, for any seat."""
        if self.match.winner is not None:
            return []
        if self.hand_result is not None:
            return [Deal()]
        actions: list[Action] = []
        if self.draw_pending:
            actions.append(Draw())
        elif self.turn is not None:
            actions.extend(Play(self.turn, card) for card in self.playable_cards(self.turn))
        if self.window_side is not None and not self.trick:
            actions.extend(self._window_actions())
        if self.muestra is not None and not self.exchange_done:
            for seat in range(self.players):
                if self._accepts(lambda s=seat: seven.check_exchange(self, s)):
                    actions.append(Exchange(seat))
        return actions

    def _window_actions(self) -> list[Action]:
        actions: list[Action] = []
        for seat in range(self.players):
            if self.side(seat) != self.window_side:
                continue
            for suit in Suit:
                if self._accepts(lambda s=seat, u=suit: cantes.check_cante(self, s, u)):
                    actions.append(Cante(seat, suit))
            for rank in (Rank.REY, Rank.SOTA):
                if self.rules.tute == "wins_point" and self._accepts(lambda s=seat, r=rank: cantes.check_tute(self, s, r)):
                    actions.append(Tute(seat, rank))
            if self._accepts(lambda s=seat: self._check_claim(s)):
                actions.append(Claim(seat))
        return actions

    @staticmethod
    def _accepts(check: Any) -> bool:
        try:
            check()
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; return its events or raise :class:`IllegalAction`."""
        if self.match.winner is not None:
            raise IllegalAction("MATCH_OVER", "MATCH-05", "the match is over")
        if self.hand_result is not None and not isinstance(action, Deal):
            raise IllegalAction("HAND_OVER", "SCORE-02", "the hand is over; the next action is the deal")
        self._check_seat(action)
        if isinstance(action, Play):
            events = self._play(action.seat, action.card)
        elif isinstance(action, Draw):
            events = self._draw()
        elif isinstance(action, Cante):
            events = self._cante(action.seat, action.suit)
        elif isinstance(action, Exchange):
            events = self._exchange(action.seat)
        elif isinstance(action, Claim):
            events = self._claim(action.seat)
        elif isinstance(action, Tute):
            events = self._tute(action.seat, action.rank)
        else:
            events = self._deal(action.deck)
        self.history.append(action)
        return events

    def _check_seat(self, action: Action) -> None:
        seat = getattr(action, "seat", None)
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction("NO_SUCH_SEAT", "PRE-01", f"seat {seat} does not exist at a {self.players}-player table")

    def _play(self, seat: int, card: Card) -> list[Event]:
        if self.draw_pending:
            raise IllegalAction("MUST_DRAW_FIRST", "PLAY-09", "every player draws before the next trick is led")
        if seat != self.turn:
            rule = "RENUNCIO-04" if self.phase == "arrastre" else "PLAY-02"
            raise IllegalAction("NOT_YOUR_TURN", rule, f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if card not in self.hands[seat]:
            raise IllegalAction("CARD_NOT_IN_HAND", "PLAY-02", f"seat {seat} does not hold {card.code}")
        events: list[Event] = []
        if self.phase == "arrastre":
            refusal = arrastre.refusal(card, self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules)
            if refusal is not None:
                if self.rules.renuncio_handling == "block":  # RENUNCIO-08
                    raise IllegalAction(refusal.code, refusal.rule, refusal.message)
                events.append(Event("renuncio", {"seat": seat, "card": card.code, "code": refusal.code, "rule": refusal.rule}))
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.window_side = None  # CANTE-06: the lead closes the cante window
        self.cantes_in_window = 0
        events.insert(0, Event("card_played", {"seat": seat, "card": card.code}))
        if events[-1].kind == "renuncio":
            # RENUNCIO-07 (interpretation): the renuncio is called at once and costs the point
            events += self._finish_hand(PointDecision(1 - self.side(seat), "renuncio", "RENUNCIO-07"))
            return events
        if len(self.trick) < self.players:
            self.turn = next_seat(seat, self.players)
            return events
        return events + self._complete_trick()

    def _complete_trick(self) -> list[Event]:
        winner, _ = self.trick[winning_index(self.trick, self.trump, self.strength)]  # PLAY-05
        side = self.side(winner)
        points = trick_points(self.trick)
        self.card_points[side] += points
        self.won_cards[side].extend(card for _, card in self.trick)
        self.tricks_won[side] += 1
        self.tricks_played += 1
        events = [Event("trick_won", {"seat": winner, "side": side, "points": points, "cards": [c.code for _, c in self.trick]})]
        self.last_trick = self.trick
        self.trick = []
        self.last_trick_winner = winner
        self.leader = self.turn = winner  # PLAY-04
        self.window_side = side
        if self.phase == "free":
            self.draw_pending = True  # PLAY-08
        elif not any(self.hands):
            self.ultimas_side = side  # SCORE-01
            events.append(Event("ultimas", {"side": side, "points": scoring.ULTIMAS}))
        events += self._after_scoring(side)
        if self.hand_result is None and not any(self.hands) and not self.draw_pending:
            events += self._finish_hand(scoring.decide_complete_hand(self))
        return events

    def _after_scoring(self, side: int) -> list[Event]:
        """VUELTAS-07: in a hand de vueltas, check the running total after points are added."""
        if self.hand_in_point == 0:
            return []
        if self.first_over is None and scoring.total(self, side) >= scoring.WIN_THRESHOLD:
            self.first_over = side
        decision = scoring.decide_automatic(self, side)
        return self._finish_hand(decision) if decision is not None else []

    def _draw(self) -> list[Event]:
        if not self.draw_pending:
            raise IllegalAction("NOTHING_TO_DRAW", "PLAY-08", "cards are drawn only after a free-phase trick")
        assert self.last_trick_winner is not None
        draws: list[list[Any]] = []
        for seat in draw_order(self.last_trick_winner, self.players):  # PLAY-08
            if self.stock:
                card = self.stock.pop(0)  # PLAY-18: from the top
            else:
                assert self.muestra is not None
                card, self.muestra = self.muestra, None  # PLAY-10: the last drawer takes the muestra
            self.hands[seat].append(card)
            draws.append([seat, card.code])
        self.draw_pending = False
        events = [Event("cards_drawn", {"draws": draws})]
        if self.phase == "arrastre":
            events.append(Event("arrastre_begins", {}))
        return events

    def _cante(self, seat: int, suit: Suit) -> list[Event]:
        cantes.check_cante(self, seat, suit)
        side = self.side(seat)
        value = cantes.cante_value(suit, self.trump)
        self.cante_points[side] += value
        self.sung_suits.add(suit)
        self.cantes_in_window += 1
        in_arrastre = self.phase == "arrastre"
        self.cantes.append({"seat": seat, "side": side, "suit": suit.value, "value": value, "arrastre": in_arrastre})
        events = [Event("cante", {"seat": seat, "side": side, "suit": suit.value, "value": value})]
        return events + self._after_scoring(side)

    def _exchange(self, seat: int) -> list[Event]:
        given = seven.check_exchange(self, seat)
        taken = self.muestra
        assert taken is not None
        self.hands[seat].remove(given)
        self.hands[seat].append(taken)
        self.muestra = given  # SEVEN-11: the given card lies in the muestra's place
        self.exchange_done = True
        return [Event("exchange", {"seat": seat, "gave": given.code, "took": taken.code})]

    def _check_claim(self, seat: int) -> None:
        if self.rules.vueltas_end != "claim" or self.hand_in_point == 0:
            raise IllegalAction("CLAIM_NOT_ALLOWED", "VUELTAS-05", "a claim is made only in a hand de vueltas with vueltas_end=claim")
        if not cantes.window_open_for(self, seat):
            raise IllegalAction("CLAIM_NOT_NOW", "VUELTAS-05", "a claim follows a trick won by the claimant's side")
        if self.rules.vueltas_claim_by == "trick_winner" and seat != self.last_trick_winner:
            raise IllegalAction("CLAIM_NOT_TRICK_WINNER", "VUELTAS-05", "only the player who won the trick may claim")

    def _claim(self, seat: int) -> list[Event]:
        self._check_claim(seat)
        decision = scoring.decide_claim(self, self.side(seat))
        events = [Event("claim", {"seat": seat, "side": self.side(seat), "valid": decision.winner == self.side(seat)})]
        return events + self._finish_hand(decision)

    def _tute(self, seat: int, rank: Rank) -> list[Event]:
        cantes.check_tute(self, seat, rank)
        side = self.side(seat)
        events = [Event("tute", {"seat": seat, "side": side, "rank": rank.value})]
        return events + self._finish_hand(PointDecision(side, "tute", "CANTE-22"))

    def _finish_hand(self, decision: PointDecision) -> list[Event]:
        """Close the hand: give the point, or carry the totals into a hand de vueltas."""
        self.hand_result = decision
        self.turn = None
        self.hands_played += 1
        totals = [scoring.total(self, side) for side in range(self.sides)]
        events = [
            Event(
                "hand_over",
                {
                    "scores": [scoring.hand_score(self, side) for side in range(self.sides)],
                    "totals": totals,
                    "card_points": list(self.card_points),
                    "winner": decision.winner,
                    "reason": decision.reason,
                    "rule": decision.rule,
                },
            )
        ]
        if decision.winner is None:  # VUELTAS-02: totals carry into the next hand
            for side in range(self.sides):
                self.carried_malas[side] = scoring.malas(self, side) if self.rules.thirty_malas_scope == "all_hands" else 0
            self.carried = totals
            self.hand_in_point += 1
            events.append(Event("de_vueltas", {"totals": totals}))
            return events
        self.carried = [0, 0]  # MATCH-02
        self.carried_malas = [0, 0]
        self.hand_in_point = 0
        completed = self.match.award_point(decision.winner)
        events.append(
            Event("point_won", {"side": decision.winner, "points": list(self.match.points), "cotos": list(self.match.cotos)})
        )
        events.extend(Event(f"{what}_won", {"side": decision.winner}) for what in completed)
        return events

    def _deal(self, order: Sequence[Card]) -> list[Event]:
        if self.hand_result is None:
            raise IllegalAction("HAND_IN_PROGRESS", "PRE-10", "the next hand is dealt when this one is over")
        assert self.last_trick_winner is not None
        dealer = next_dealer(self.last_trick_winner)
        dealt = deal_from_deck(order, self.players, dealer, self.rules.deal, self.rules.deck_size)
        self._start_hand(dealt, dealer)
        return [Event("hand_dealt", {"dealer": dealer, "mano": self.mano, "muestra": dealt.muestra.code})]

    def deal_next(self, seed: int) -> list[Event]:
        """Deal the next hand from a seeded shuffle."""
        return self.apply(Deal(tuple(shuffled_deck(self.rules.deck_size, seed))))


def cards_from_codes(codes: Sequence[str]) -> list[Card]:
    return [parse_card(code) for code in codes]


__all__ = ["Game", "CardError", "cards_from_codes", "check_cards_once"]
