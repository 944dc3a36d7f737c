"""A game of Guiñote: state, legal actions and applying an action.

:class:`Game` follows OpenSpiel's shape: :meth:`Game.legal_actions` lists what may be done
now, :meth:`Game.apply` does one action and returns the :class:`~reference_engine.actions.Event`
list it caused, or raises :class:`~reference_engine.actions.IllegalAction` with a reason code
and the rule ID. The rules themselves live in one module per area (``arrastre``, ``cantes``,
``seven``, ``scoring``, ``match``...); this module only sequences them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from reference_engine import arrastre, cantes, renuncio, scoring, seven
from reference_engine.actions import (
    DRAW,
    Action,
    Cante,
    Claim,
    Deal,
    Draw,
    Event,
    Exchange,
    IllegalAction,
    Play,
    Refusal,
    Tute,
    plays_of,
)
from reference_engine.cards import Card, CardError, Rank, Suit, codes, parse_card, shuffled_deck, strength_table
from reference_engine.deal import DealtHand, check_cards_once, check_explicit_deal, deal_from_deck
from reference_engine.flags import Rules
from reference_engine.match import MatchScore, next_dealer
from reference_engine.scoring import PointDecision
from reference_engine.tricks import SEAT_SIDES, SIDE_SEATS, draw_order, next_seat, trick_points, winning_index


class Game:
    """One match of Guiñote under a set of :class:`~reference_engine.flags.Rules`.

    The state is public and read by :mod:`reference_engine.views`; change it only through
    :meth:`apply`. ``start`` describes how the first hand was set up, in JSON, and
    ``history`` lists every accepted action: together they replay the game
    (:mod:`reference_engine.records`).
    """

    def __init__(self, rules: Rules, dealt: DealtHand, dealer: int, start: Mapping[str, Any] | None = None) -> None:
        """A match whose first hand is ``dealt`` by ``dealer``; prefer the ``from_*`` constructors.
        ``start`` is the JSON that set the first hand up (an explicit deal by default)."""
        self.rules = rules
        self.players = rules.player_count
        self.sides = 2
        self.seat_sides = SEAT_SIDES[self.players]
        self.side_seats = SIDE_SEATS[self.players]
        self.strength = strength_table(rules.rank_8_9)
        self.match = MatchScore(int(rules.points_per_coto), int(rules.cotos_to_win))
        self.carried = [0, 0]
        self.carried_malas = [0, 0]
        self.hand_in_point = 0
        self.hands_played = 0
        self.history: list[Action] = []
        self.start: dict[str, Any] = dict(start) if start is not None else _explicit_deal_json(dealt)
        self.first_dealer = dealer
        # Bumped by every accepted action: the arrastre's legal cards are worked out once per
        # state, for legal_actions() and the apply() that usually follows it.
        self._version = 0
        self._legal_cache: tuple[int, list[Card]] | None = None
        self._start_hand(dealt, dealer)

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_deck(cls, rules: Rules, deck_order: Sequence[Card], dealer: int = 0) -> Game:
        """Deal the first hand from an explicit deck order, top card first (DEAL)."""
        dealt = deal_from_deck(deck_order, rules.player_count, dealer, rules.deal, rules.deck_size)
        return cls(rules, dealt, dealer, {"deck": codes(deck_order)})

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
        if not 0 <= dealer < rules.player_count:
            raise CardError(f"dealer seat {dealer} is not a seat of a {rules.player_count}-player table")
        dealt = DealtHand(tuple(tuple(hand) for hand in hands), muestra, tuple(stock))
        return cls(rules, dealt, dealer)

    @classmethod
    def from_position(cls, rules: Rules, position: Mapping[str, Any]) -> Game:
        """Start in the middle of a hand (see :func:`reference_engine.position.load_position`)."""
        from reference_engine.position import load_position

        game = load_position(cls, rules, position)
        game.start = {"position": json.loads(json.dumps(position))}
        return game

    def _start_hand(self, dealt: DealtHand, dealer: int) -> None:
        """DEAL-05 / PLAY-03: a hand starts from its deal; the mano leads the first trick."""
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
        # Set when the hand ends: the totals and malas the next hand starts from (VUELTAS-02),
        # or None when a point was won (MATCH-02). The carried totals of this hand stay as they
        # are until then, so ``total`` keeps meaning "carried + this hand" after the hand.
        self._carry_over: tuple[list[int], list[int]] | None = None

    # ------------------------------------------------------------------ queries

    def side(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for (PRE-01, TWO-07)."""
        return self.seat_sides[seat]

    @property
    def phase(self) -> str:
        """``free``, ``arrastre``, ``hand_over`` (waiting for the next deal) or ``match_over``.

        PLAY-13: the arrastre starts once the muestra, always the last card of the stock, has
        been drawn; so within a hand ``muestra is None`` is the cheap test for the arrastre."""
        if self.hand_result is not None:
            return "match_over" if self.match.winner is not None else "hand_over"
        return "arrastre" if self.muestra is None else "free"  # PLAY-07 / PLAY-13

    def playable_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (empty if it is not his turn): any in the free phase
        (PLAY-07), those the duties allow in the arrastre (ARR-01..09)."""
        if seat != self.turn or self.draw_pending or self.hand_result is not None:
            return []
        if self.muestra is not None:
            return list(self.hands[seat])  # PLAY-07: free play while the stock lasts
        return list(self._arrastre_cards(seat))

    def _arrastre_cards(self, seat: int) -> list[Card]:
        """ARR-01..09: the cards ``seat`` (whose turn it is) may play in the arrastre; computed once
        per state. The list is shared: do not change it."""
        cached = self._legal_cache
        if cached is not None and cached[0] == self._version:
            return cached[1]
        cards = arrastre.legal_cards(self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules)
        self._legal_cache = (self._version, cards)
        return cards

    def legal_actions(self) -> list[Action]:
        """Every action that :meth:`apply` would accept now, for any seat: the plays of the
        seat to play (PLAY-07 / ARR) or the draw (PLAY-08), the cantes, tutes and claims of the
        side that won the last trick (CANTE-05, VUELTAS-05), and the exchange (SEVEN-01).

        A :class:`Deal` in the list has an empty deck: it stands for a deal of any order of
        the deck (see :meth:`deal_next`).
        """
        if self.hand_result is not None:
            return [] if self.match.winner is not None else [Deal()]
        actions: list[Action]
        if self.draw_pending:
            actions = [DRAW]
        else:
            turn = self.turn
            assert turn is not None
            plays = plays_of(turn)
            actions = [plays[card] for card in self.playable_cards(turn)]
        if self.window_side is not None and not self.trick:
            actions.extend(self._window_actions(self.window_side))
        if self.muestra is not None and not self.exchange_done:
            seat = seven.exchanger(self)
            if seat is not None:
                actions.append(Exchange(seat))
        return actions

    def _window_actions(self, side: int) -> list[Action]:
        """Cantes, tutes and claims of the side that won the trick just completed (CANTE-05)."""
        actions: list[Action] = []
        claims = self.rules.vueltas_end == "claim" and self.hand_in_point > 0
        tutes = self.rules.tute == "wins_point"
        for seat in self.side_seats[side]:
            for suit in cantes.singable_suits(self, seat):
                actions.append(Cante(seat, suit))
            if tutes:
                for rank in cantes.tute_ranks(self, seat):
                    actions.append(Tute(seat, rank))
            if claims and self._claim_refusal(seat) is None:
                actions.append(Claim(seat))
        return actions

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; return its events or raise :class:`IllegalAction` (the state is then
        unchanged). RENUNCIO-08: illegal actions are refused, except a card against the
        arrastre duties under ``renuncio_handling=lose_point`` (RENUNCIO-07)."""
        if self.hand_result is not None:
            if self.match.winner is not None:
                raise IllegalAction("MATCH_OVER", "MATCH-05", "the match is over")
            if not isinstance(action, Deal):
                raise IllegalAction("HAND_OVER", "SCORE-02", "the hand is over; the next action is the deal")
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
        elif isinstance(action, Deal):
            events = self._deal(action.deck)
        else:
            raise TypeError(f"not an action: {action!r}")
        self.history.append(action)
        self._version += 1
        return events

    def _check_seat(self, seat: int) -> None:
        """PRE-01 / TWO-01: seats are 0-3, or 0-1 mano a mano."""
        if not 0 <= seat < self.players:
            raise IllegalAction(
                "NO_SUCH_SEAT", "PRE-01", f"seat {seat} does not exist at a {self.players}-player table"
            )

    def _play(self, seat: int, card: Card) -> list[Event]:
        """PLAY-02: ``seat`` plays ``card`` in turn; free in the free phase (PLAY-07), under the
        duties of the arrastre (ARR, RENUNCIO) once the stock is gone."""
        if not 0 <= seat < self.players:
            self._check_seat(seat)
        if self.draw_pending:
            raise IllegalAction("MUST_DRAW_FIRST", "PLAY-09", "every player draws before the next trick is led")
        if seat != self.turn:
            # RENUNCIO-04 / C-18: out-of-turn play is refused, except where renuncio_faults makes it a renuncio
            rule = "RENUNCIO-04" if self.muestra is None else "PLAY-02"
            out_of_turn = Refusal("NOT_YOUR_TURN", rule, f"it is seat {self.turn}'s turn, not seat {seat}'s")
            if not (renuncio.out_of_turn_stands(self) and card in self.hands[seat]):
                raise out_of_turn.error()
            self.hands[seat].remove(card)
            self.trick.append((seat, card))
            return [Event("card_played", {"seat": seat, "card": card.code}), *self._renuncio(seat, card, out_of_turn)]
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction("CARD_NOT_IN_HAND", "PLAY-02", f"seat {seat} does not hold {card.code}")
        refused: Refusal | None = None
        # ARR-11: the obligations hold only in the arrastre
        if self.muestra is None and card not in self._arrastre_cards(seat):
            refused = arrastre.refusal(card, hand, seat, self.trick, self.trump, self.strength, self.rules)
            assert refused is not None
            if self.rules.renuncio_handling == "block":  # RENUNCIO-08
                raise refused.error()
        hand.remove(card)
        self.trick.append((seat, card))
        self.window_side = None  # CANTE-06: the lead closes the cante window
        self.cantes_in_window = 0
        events = [Event("card_played", {"seat": seat, "card": card.code})]
        if refused is not None:
            return events + self._renuncio(seat, card, refused)
        if len(self.trick) < self.players:
            self.turn = next_seat(seat, self.players)  # PLAY-02
            return events
        return events + self._complete_trick()

    def _renuncio(self, seat: int, card: Card | None, refused: Refusal, suit: Suit | None = None) -> list[Event]:
        """RENUNCIO-07 (``renuncio_handling=lose_point``): the offending side loses the point.

        interpretation (RENUNCIO-07, C-17): the renuncio is called at once, the hand stops there, and the
        point goes to the opponents even in a hand de vueltas.
        """
        what = {"card": card.code} if card is not None else {"suit": suit.value if suit else None}
        event = Event("renuncio", {"seat": seat, **what, "code": refused.code, "rule": refused.rule})
        return [event, *self._finish_hand(PointDecision(1 - self.side(seat), "renuncio", "RENUNCIO-07"))]

    def _complete_trick(self) -> list[Event]:
        """PLAY-05 / PLAY-16: the trick goes to its winner's side; then the draw (PLAY-08), or
        at the last trick the diez de últimas (SCORE-01) and the count of the hand."""
        trick = self.trick
        winner = trick[winning_index(trick, self.trump, self.strength)][0]  # PLAY-05
        side = self.seat_sides[winner]
        points = trick_points(trick)
        self.card_points[side] += points  # PLAY-16: tricks belong to the side
        self.won_cards[side].extend([card for _, card in trick])
        self.tricks_won[side] += 1
        self.tricks_played += 1
        events = [
            Event("trick_won", {"seat": winner, "side": side, "points": points, "cards": [c.code for _, c in trick]})
        ]
        self.last_trick = trick
        self.trick = []
        self.last_trick_winner = winner
        self.leader = self.turn = winner  # PLAY-04
        self.window_side = side  # CANTE-05: the winning side may sing until the next lead
        hand_done = False
        if self.muestra is not None:
            self.draw_pending = True  # PLAY-08
        elif not any(self.hands):
            hand_done = True
            self.ultimas_side = side  # SCORE-01 (B-36: the final trick of the hand)
            events.append(Event("ultimas", {"side": side, "points": scoring.ULTIMAS}))
        events += self._after_scoring(side)
        if hand_done and self.hand_result is None:
            events += self._finish_hand(scoring.decide_complete_hand(self))
        return events

    def _after_scoring(self, side: int) -> list[Event]:
        """VUELTAS-07: in a hand de vueltas, check the running total after ``side`` scored."""
        if self.hand_in_point == 0:
            return []
        if self.first_over is None and scoring.total(self, side) >= scoring.WIN_THRESHOLD:
            self.first_over = side
        decision = scoring.decide_automatic(self, side)
        return self._finish_hand(decision) if decision is not None else []

    def _draw(self) -> list[Event]:
        """PLAY-08 / PLAY-10: every player draws one card, the winner first; the last card is
        the muestra (or the seven given for it), and with it the arrastre begins (PLAY-13)."""
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
        if self.muestra is None:
            events.append(Event("arrastre_begins", {}))  # PLAY-13
        return events

    def _cante(self, seat: int, suit: Suit) -> list[Event]:
        """CANTE-01..04: sing the Rey and Sota of ``suit`` for 20, or 40 in trumps."""
        self._check_seat(seat)
        refused = cantes.cante_refusal(self, seat, suit)
        if refused is not None:
            # RENUNCIO-05 (renuncio_faults=out_of_turn_and_cante): a held pair sung without a won trick
            if (
                refused.code == "CANTE_NO_WON_TRICK"
                and renuncio.premature_cante_stands(self)
                and cantes.holds_pair(self.hands[seat], suit)
                and suit not in self.sung_suits
            ):
                return self._renuncio(seat, None, refused, suit)
            raise refused.error()
        side = self.side(seat)
        value = cantes.cante_value(suit, self.trump)
        # CANTE-04; interpretation (CANTE-28, C-14): a cante stays scored whatever follows
        self.cante_points[side] += value
        self.sung_suits.add(suit)
        self.cantes_in_window += 1
        # CANTE-15: the record keeps whether the twenty was sung in the arrastre (views hide its suit)
        in_arrastre = self.muestra is None
        self.cantes.append({"seat": seat, "side": side, "suit": suit.value, "value": value, "arrastre": in_arrastre})
        events = [Event("cante", {"seat": seat, "side": side, "suit": suit.value, "value": value})]
        return events + self._after_scoring(side)

    def _exchange(self, seat: int) -> list[Event]:
        """SEVEN-01 / SEVEN-09: give the seven (or the dos) of trumps for the muestra."""
        self._check_seat(seat)
        given = seven.check_exchange(self, seat)
        taken = self.muestra
        assert taken is not None
        self.hands[seat].remove(given)
        self.hands[seat].append(taken)
        self.muestra = given  # SEVEN-11: the given card lies in the muestra's place
        self.exchange_done = True
        return [Event("exchange", {"seat": seat, "gave": given.code, "took": taken.code})]  # C-06: public

    def _claim_refusal(self, seat: int) -> Refusal | None:
        """VUELTAS-05 / B-28: when a claim of 101 may be made.

        interpretation (VUELTAS-13, B-28): the claim is made after a trick won by the claimant's
        side and before the next lead, so after the cantes of that trick (which count) and
        before or after its draw.
        """
        if self.rules.vueltas_end != "claim" or self.hand_in_point == 0:
            return Refusal(
                "CLAIM_NOT_ALLOWED", "VUELTAS-05", "a claim is made only in a hand de vueltas with vueltas_end=claim"
            )
        if not cantes.window_open_for(self, seat):
            return Refusal("CLAIM_NOT_NOW", "VUELTAS-05", "a claim follows a trick won by the claimant's side")
        if self.rules.vueltas_claim_by == "trick_winner" and seat != self.last_trick_winner:
            return Refusal("CLAIM_NOT_TRICK_WINNER", "VUELTAS-05", "only the player who won the trick may claim")
        return None

    def _claim(self, seat: int) -> list[Event]:
        """VUELTAS-05 / VUELTAS-06: claim 101 de vueltas; the claim ends the hand either way."""
        self._check_seat(seat)
        refused = self._claim_refusal(seat)
        if refused is not None:
            raise refused.error()
        decision = scoring.decide_claim(self, self.side(seat))
        events = [Event("claim", {"seat": seat, "side": self.side(seat), "valid": decision.winner == self.side(seat)})]
        return events + self._finish_hand(decision)

    def _tute(self, seat: int, rank: Rank) -> list[Event]:
        """CANTE-22 / MATCH-09 (``tute=wins_point``): four Reyes or four Sotas win the point."""
        self._check_seat(seat)
        cantes.check_tute(self, seat, rank)
        side = self.side(seat)
        events = [Event("tute", {"seat": seat, "side": side, "rank": rank.value})]
        # CANTE-22 / MATCH-09; interpretation (CANTE-29, C-23): also in a hand de vueltas
        return events + self._finish_hand(PointDecision(side, "tute", "CANTE-22"))

    def _finish_hand(self, decision: PointDecision) -> list[Event]:
        """Close the hand: give the point (MATCH-01), or carry the totals into a hand de
        vueltas (SCORE-13, VUELTAS-02)."""
        self.hand_result = decision
        self.turn = None
        self.window_side = None
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
        if decision.winner is None:  # VUELTAS-02: totals carry into the next hand (at its deal)
            all_hands = self.rules.thirty_malas_scope == "all_hands"
            malas = [scoring.malas(self, side) if all_hands else 0 for side in range(self.sides)]
            self._carry_over = (totals, malas)
            events.append(Event("de_vueltas", {"totals": totals}))
            return events
        self._carry_over = None  # MATCH-02: the next point starts from zero
        completed = self.match.award_point(decision.winner)
        details = {"side": decision.winner, "points": list(self.match.points), "cotos": list(self.match.cotos)}
        events.append(Event("point_won", details))
        events.extend(Event(f"{what}_won", {"side": decision.winner}) for what in completed)
        return events

    def _deal(self, order: Sequence[Card]) -> list[Event]:
        """VUELTAS-01: every hand, de vueltas or not, is dealt like the first.
        PRE-10 / C-10: the winner of the last trick played deals."""
        if self.hand_result is None:
            raise IllegalAction("HAND_IN_PROGRESS", "PRE-10", "the next hand is dealt when this one is over")
        dealer = self.next_dealer()
        dealt = deal_from_deck(order, self.players, dealer, self.rules.deal, self.rules.deck_size)
        if self._carry_over is None:
            self.carried, self.carried_malas, self.hand_in_point = [0, 0], [0, 0], 0
        else:
            self.carried, self.carried_malas = self._carry_over
            self.hand_in_point += 1
        self._start_hand(dealt, dealer)
        return [Event("hand_dealt", {"dealer": dealer, "mano": self.mano, "muestra": dealt.muestra.code})]

    def next_dealer(self) -> int:
        """Who deals the next hand (PRE-10): the winner of the last trick of this one."""
        assert self.last_trick_winner is not None, "a hand always ends after a trick"
        return next_dealer(self.last_trick_winner)

    def deal_next(self, seed: int) -> list[Event]:
        """Deal the next hand (PRE-10) from a seeded shuffle."""
        return self.apply(Deal(tuple(shuffled_deck(self.rules.deck_size, seed))))


def _explicit_deal_json(dealt: DealtHand) -> dict[str, Any]:
    """The JSON form of an explicit deal, for :attr:`Game.start`."""
    return {"hands": [codes(hand) for hand in dealt.hands], "muestra": dealt.muestra.code, "stock": codes(dealt.stock)}


def cards_from_codes(codes: Sequence[str]) -> list[Card]:
    """Read card codes (see :func:`reference_engine.cards.parse_card`)."""
    return [parse_card(code) for code in codes]


__all__ = ["CardError", "Game", "cards_from_codes", "check_cards_once"]
