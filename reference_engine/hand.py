"""One hand of Guiñote: from the deal to its count.

A :class:`Hand` is made in one of two ways only: dealt (:meth:`Hand.from_deck`,
:meth:`Hand.from_deal`, or a :class:`~guinote_conformance.reference_engine.deal.DealtHand`), or loaded from a
position (:meth:`Hand.from_position`, which checks that the position is a possible state).
It lists the legal actions of the hand (:meth:`Hand.legal_actions`) and applies them
(:meth:`Hand.apply`): plays, the draw, cantes, the exchange, tutes and claims. When the hand
ends its :attr:`Hand.result` is set; what follows (the point, the coto, the carry-over into
a hand de vueltas, the next deal) is the match's (:class:`guinote_conformance.reference_engine.game.Game`).

The rules themselves live in one module per area (``arrastre``, ``cantes``, ``renuncio``,
``seven``, ``scoring``, ``tricks``), which decide from the state; this module keeps the state,
changes it, and sequences them. The position format, read and written, is
:mod:`guinote_conformance.reference_engine.position`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from guinote_conformance.reference_engine import arrastre, cantes, renuncio, scoring, seven
from guinote_conformance.reference_engine.actions import (
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
from guinote_conformance.reference_engine.cards import Card, CardError, Rank, Suit, strength_table
from guinote_conformance.reference_engine.deal import DealtHand, check_explicit_deal, deal_from_deck
from guinote_conformance.reference_engine.flags import Rules
from guinote_conformance.reference_engine.position import read_hand, write_hand
from guinote_conformance.reference_engine.scoring import PointDecision
from guinote_conformance.reference_engine.tricks import (
    SEAT_SIDES,
    SIDE_SEATS,
    draw_order,
    next_seat,
    trick_points,
    winning_index,
)


class Hand:
    """The state of one hand, and the in-hand actions.

    The fields are public and read by :mod:`guinote_conformance.reference_engine.views` and the rule modules
    (:class:`~guinote_conformance.reference_engine.state.HandState`); they change only through :meth:`apply`.

    * ``dealer``, ``mano``: who dealt, and the seat on his right who leads first (PRE-09);
    * ``hands``: each seat's cards; ``stock``: face down, top first; ``muestra``: the
      face-up card under the stock (``None`` once drawn: the arrastre, PLAY-13), and
      ``trump``, its suit;
    * ``trick``: the ``(seat, card)`` pairs played to the trick in progress; ``leader`` and
      ``turn``; ``draw_pending`` after a free-phase trick, until the draw (PLAY-08);
    * ``last_trick``, ``last_trick_winner``; ``window_side``: the side that may sing now
      (CANTE-05), and ``cantes_in_window``, how many cantes it has sung in that window;
    * ``tricks_won``, ``tricks_played``, ``card_points``, ``won_cards`` (per side, in the
      order won); ``cante_points``, ``cantes`` (one record per cante) and ``sung_suits``;
    * ``exchange_done`` (SEVEN-13); ``ultimas_side`` (SCORE-01), once the last trick is taken;
    * ``hand_in_point``: 0 for the first hand of a point, then 1, 2... de vueltas, with
      ``carried`` and ``carried_malas``, the totals carried in (VUELTAS-02), and
      ``first_over``, the side that passed 100 first (VUELTAS-14);
    * ``result``: the :class:`~guinote_conformance.reference_engine.scoring.PointDecision` once the hand is over.
    """

    # The fields are slots: a hand has too many fields for Python's fast attribute access to an
    # instance dictionary, and the hot paths read them on every action.
    __slots__ = (
        "_legal_cache",
        "_version",
        "cante_points",
        "cantes",
        "cantes_in_window",
        "card_points",
        "carried",
        "carried_malas",
        "dealer",
        "draw_pending",
        "exchange_done",
        "first_over",
        "hand_in_point",
        "hands",
        "last_trick",
        "last_trick_winner",
        "leader",
        "mano",
        "muestra",
        "players",
        "result",
        "rules",
        "seat_sides",
        "side_seats",
        "sides",
        "stock",
        "strength",
        "sung_suits",
        "trick",
        "tricks_played",
        "tricks_won",
        "trump",
        "turn",
        "ultimas_side",
        "window_side",
        "won_cards",
    )
    # The constructors below fill every field through _set_state; these declare their types.
    rules: Rules
    players: int
    sides: int
    seat_sides: tuple[int, ...]
    side_seats: tuple[tuple[int, ...], ...]
    strength: Mapping[Card, int]
    dealer: int
    mano: int
    hands: list[list[Card]]
    stock: list[Card]
    muestra: Card | None
    trump: Suit
    trick: list[tuple[int, Card]]
    leader: int
    turn: int | None
    draw_pending: bool
    last_trick: list[tuple[int, Card]]
    last_trick_winner: int | None
    window_side: int | None
    cantes_in_window: int
    tricks_won: list[int]
    tricks_played: int
    card_points: list[int]
    won_cards: list[list[Card]]
    cante_points: list[int]
    cantes: list[dict[str, Any]]
    sung_suits: set[Suit]
    exchange_done: bool
    ultimas_side: int | None
    hand_in_point: int
    carried: list[int]
    carried_malas: list[int]
    first_over: int | None
    result: PointDecision | None

    def __init__(
        self,
        rules: Rules,
        dealt: DealtHand,
        dealer: int,
        hand_in_point: int = 0,
        carried: Sequence[int] = (0, 0),
        carried_malas: Sequence[int] = (0, 0),
    ) -> None:
        """DEAL-05 / PLAY-03: the hand ``dealt`` by ``dealer``; the muestra fixes the trump and
        the mano leads the first trick. ``hand_in_point`` counts the hands de vueltas before
        this one in the point, whose totals (and thirty malas) are ``carried`` in (VUELTAS-02)."""
        self._set_state(
            rules,
            dealer=dealer,
            hands=list(map(list, dealt.hands)),
            stock=list(dealt.stock),
            muestra=dealt.muestra,
            trump=dealt.muestra.suit,  # DEAL-05
            leader=next_seat(dealer, rules.player_count),  # PLAY-03: the mano (PRE-09)
            hand_in_point=hand_in_point,
            carried=list(carried),
            carried_malas=list(carried_malas),
        )

    def _set_state(
        self,
        rules: Rules,
        *,
        dealer: int,
        hands: list[list[Card]],
        stock: list[Card],
        muestra: Card | None,
        trump: Suit,
        leader: int,
        trick: list[tuple[int, Card]] | None = None,
        draw_pending: bool = False,
        last_trick: list[tuple[int, Card]] | None = None,
        last_trick_winner: int | None = None,
        cantes_in_window: int = 0,
        tricks_won: list[int] | None = None,
        card_points: list[int] | None = None,
        won_cards: list[list[Card]] | None = None,
        cantes: list[dict[str, Any]] | None = None,
        exchange_done: bool = False,
        hand_in_point: int = 0,
        carried: list[int] | None = None,
        carried_malas: list[int] | None = None,
        first_over: int | None = None,
    ) -> None:
        """Every field, from the state's free parts; the rest follows from them."""
        players = rules.player_count
        self.rules = rules
        self.players = players
        self.sides = 2
        self.seat_sides = SEAT_SIDES[players]
        self.side_seats = SIDE_SEATS[players]
        self.strength = strength_table(rules.rank_8_9)
        self.dealer = dealer
        self.mano = next_seat(dealer, players)  # PRE-09
        self.hands = hands
        self.stock = stock
        self.muestra = muestra
        self.trump = trump
        self.trick = trick or []
        self.leader = leader
        self.turn = (leader + len(self.trick)) % players  # PLAY-02: play goes round from the leader
        self.draw_pending = draw_pending
        self.last_trick = last_trick or []
        self.last_trick_winner = last_trick_winner
        # CANTE-05 / CANTE-06: the side that took the last trick may sing until the next lead
        self.window_side = self.seat_sides[last_trick_winner] if last_trick_winner is not None and not trick else None
        self.cantes_in_window = cantes_in_window
        self.tricks_won = tricks_won or [0, 0]
        self.tricks_played = sum(self.tricks_won)
        self.card_points = card_points or [0, 0]
        self.won_cards = won_cards or [[], []]
        self.cantes = cantes or []
        self.cante_points = [0, 0]
        for cante in self.cantes:
            self.cante_points[cante["side"]] += cante["value"]
        self.sung_suits = {Suit(cante["suit"]) for cante in self.cantes}
        self.exchange_done = exchange_done
        self.ultimas_side = None
        self.hand_in_point = hand_in_point
        self.carried = carried or [0, 0]
        self.carried_malas = carried_malas or [0, 0]
        self.first_over = first_over
        self.result = None
        # Bumped by every accepted action: the arrastre's legal cards are worked out once per
        # state, for legal_actions() and the apply() that usually follows it.
        self._version = 0
        self._legal_cache: tuple[int, list[Card]] | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        deck_order: Sequence[Card],
        dealer: int = 0,
        hand_in_point: int = 0,
        carried: Sequence[int] = (0, 0),
        carried_malas: Sequence[int] = (0, 0),
    ) -> Hand:
        """Deal from an explicit deck order, top card first (DEAL)."""
        dealt = deal_from_deck(deck_order, rules.player_count, dealer, rules.deal, rules.deck_size)
        return cls(rules, dealt, dealer, hand_in_point, carried, carried_malas)

    @classmethod
    def from_deal(
        cls, rules: Rules, hands: Sequence[Sequence[Card]], muestra: Card, stock: Sequence[Card], dealer: int = 0
    ) -> Hand:
        """Start from explicit hands (seat order), the muestra and the stock (top first)."""
        check_explicit_deal(hands, muestra, stock, rules.player_count, rules.deck_size)
        if not 0 <= dealer < rules.player_count:
            raise CardError(f"dealer seat {dealer} is not a seat of a {rules.player_count}-player table")
        return cls(rules, DealtHand(tuple(tuple(hand) for hand in hands), muestra, tuple(stock)), dealer)

    @classmethod
    def from_position(cls, rules: Rules, position: Mapping[str, Any]) -> Hand:
        """The hand in ``position`` (:mod:`guinote_conformance.reference_engine.position`), or a
        :class:`~guinote_conformance.reference_engine.position.PositionError` naming the field that makes it
        impossible. The match fields (``match_points``, ``cotos``) are the match's."""
        hand = cls.__new__(cls)
        hand._set_state(rules, **read_hand(rules, position))
        return hand

    def position(self) -> dict[str, Any]:
        """The position of this hand, in the JSON that :meth:`from_position` loads back to
        the same state (the match's fields aside). A hand that is over has none."""
        return write_hand(self)

    # ------------------------------------------------------------------ queries

    def side(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for (PRE-01, TWO-07)."""
        return self.seat_sides[seat]

    @property
    def phase(self) -> str:
        """``free``, ``arrastre``, or ``over`` once the hand has a result.

        PLAY-13: the arrastre starts once the muestra, always the last card of the stock, has
        been drawn; so within a hand ``muestra is None`` is the cheap test for the arrastre."""
        if self.result is not None:
            return "over"
        return "arrastre" if self.muestra is None else "free"  # PLAY-07 / PLAY-13

    def playable_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (empty if it is not his turn): any in the free phase
        (PLAY-07), those the duties allow in the arrastre (ARR-01..09)."""
        if seat != self.turn or self.draw_pending or self.result is not None:
            return []
        if self.muestra is not None:
            return list(self.hands[seat])  # PLAY-07: free play while the stock lasts
        return list(self._arrastre_cards(seat))

    def allowed_by(self, seat: int, card: Card) -> str:
        """The rule that lets ``seat`` play ``card`` now, ``""`` if he may not: free play
        (PLAY-07), the last trick before the stock runs out included (ARR-11), or what the
        duties of the arrastre leave him (:func:`guinote_conformance.reference_engine.arrastre.allowance`)."""
        if card not in self.playable_cards(seat):
            return ""
        if self.muestra is not None:
            # the stock, with the muestra, holds one card per player: the next draw empties it
            return "ARR-11" if len(self.stock) + 1 <= self.players else "PLAY-07"
        return arrastre.allowance(card, self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules)

    def cante_allowed_by(self, seat: int, suit: Suit | None = None) -> str:
        """The rule that lets ``seat`` sing ``suit`` now, ``""`` if he may not
        (:func:`guinote_conformance.reference_engine.cantes.cante_allowance`); with no suit, the rule that keeps his
        window open (:func:`guinote_conformance.reference_engine.cantes.window_allowance`)."""
        if suit is None:
            return cantes.window_allowance(self, seat)
        return cantes.cante_allowance(self, seat, suit)

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
        Nothing once the hand is over."""
        if self.result is not None:
            return []
        actions: list[Action]
        if self.draw_pending:
            actions = [DRAW]
        else:
            turn = self.turn
            assert turn is not None
            plays = plays_of(turn)
            actions = []
            for card in self.playable_cards(turn):  # (a loop: a comprehension costs a call)
                actions.append(plays[card])
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
            if claims and scoring.claim_refusal(self, seat) is None:
                actions.append(Claim(seat))
        return actions

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        """Do ``action``; return its events or raise :class:`IllegalAction` (the state is then
        unchanged). RENUNCIO-08: illegal actions are refused, except a card against the
        arrastre duties under ``renuncio_handling=lose_point`` (RENUNCIO-07). The last event
        of the action that ends the hand is ``hand_over``."""
        if self.result is not None:
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
            raise IllegalAction("HAND_IN_PROGRESS", "PRE-10", "the next hand is dealt when this one is over")
        else:
            raise TypeError(f"not an action: {action!r}")
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
        """RENUNCIO-07: the renuncio called (:func:`guinote_conformance.reference_engine.renuncio.called`) ends the
        hand."""
        event, decision = renuncio.called(self, seat, card, refused, suit)
        return [event, *self._finish(decision)]

    def _complete_trick(self) -> list[Event]:
        """PLAY-05 / PLAY-16: the trick goes to its winner's side; then the draw (PLAY-08), or
        at the last trick the diez de últimas (SCORE-01) and the count of the hand."""
        trick = self.trick
        winner = trick[winning_index(trick, self.trump, self.strength)][0]  # PLAY-05
        side = self.seat_sides[winner]
        points = trick_points(trick)
        self.card_points[side] += points  # PLAY-16: tricks belong to the side
        won = self.won_cards[side]
        played: list[str] = []
        for _, card in trick:  # (a loop: a comprehension costs a call, more than four cards)
            won.append(card)
            played.append(card.code)
        self.tricks_won[side] += 1
        self.tricks_played += 1
        events = [Event("trick_won", {"seat": winner, "side": side, "points": points, "cards": played})]
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
        if hand_done and self.result is None:
            events += self._finish(scoring.decide_complete_hand(self))
        return events

    def _after_scoring(self, side: int) -> list[Event]:
        """VUELTAS-07: in a hand de vueltas, check the running total after ``side`` scored."""
        if self.hand_in_point == 0:
            return []
        if self.first_over is None and scoring.total(self, side) >= scoring.WIN_THRESHOLD:
            self.first_over = side
        decision = scoring.decide_automatic(self, side)
        return self._finish(decision) if decision is not None else []

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

    def _claim(self, seat: int) -> list[Event]:
        """VUELTAS-05 / VUELTAS-06: claim 101 de vueltas; the claim ends the hand either way."""
        self._check_seat(seat)
        refused = scoring.claim_refusal(self, seat)
        if refused is not None:
            raise refused.error()
        decision = scoring.decide_claim(self, self.side(seat))
        events = [Event("claim", {"seat": seat, "side": self.side(seat), "valid": decision.winner == self.side(seat)})]
        return events + self._finish(decision)

    def _tute(self, seat: int, rank: Rank) -> list[Event]:
        """CANTE-22 / MATCH-09 (``tute=wins_point``): four Reyes or four Sotas win the point."""
        self._check_seat(seat)
        cantes.check_tute(self, seat, rank)
        side = self.side(seat)
        events = [Event("tute", {"seat": seat, "side": side, "rank": rank.value})]
        # CANTE-22 / MATCH-09; interpretation (CANTE-29, C-23): also in a hand de vueltas
        return events + self._finish(PointDecision(side, "tute", "CANTE-22"))

    def _finish(self, decision: PointDecision) -> list[Event]:
        """SCORE-02: close the hand with ``decision`` and show its count; the match gives the
        point or carries the totals into a hand de vueltas (SCORE-13, VUELTAS-02)."""
        self.result = decision
        self.turn = None
        self.window_side = None
        return [Event("hand_over", scoring.count(self, decision))]


__all__ = ["Hand"]
