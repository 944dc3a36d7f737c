"""Planted bugs of play: who sits where, the suit led, the trump suit, rank against points, and the
phase a duty belongs to (the kinds of bug real engines have; each breaks one rule of features/index).

Every patch wraps what the reference module holds when it is applied, so bugs of different
areas compose (the three-bug engines of :mod:`tests.broken_engines.engines`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import Any

from guinote_conformance.reference_engine import arrastre, cards, game, hand, tricks
from guinote_conformance.reference_engine.actions import Event
from guinote_conformance.reference_engine.cards import Card, Suit
from guinote_conformance.reference_engine.flags import Rules
from tests.broken_engines.base import Breakage, replace_everywhere

LegalCards = Any  # the signature of arrastre.legal_cards


def _wrap_legal_cards(make: Any) -> None:
    """Replace ``arrastre.legal_cards`` by ``make(original)`` everywhere."""
    original = arrastre.legal_cards
    replace_everywhere(original, make(original))


def _current(module: ModuleType, name: str) -> Any:
    """What ``module`` holds under ``name`` now, patched or not (a name it imports, not exports)."""
    return vars(module)[name]


def _void(held: Sequence[Card], trick: tricks.Trick) -> bool:
    led = trick[0][1].suit
    return not any(card.suit is led for card in held)


def _winner(trick: tricks.Trick, trump: Suit, strength: Mapping[Card, int]) -> tuple[int, Card]:
    """The seat and card winning ``trick``, as the arrastre sees it now (patched or not)."""
    seat, card = trick[_current(arrastre, "winning_index")(trick, trump, strength)]
    return seat, card


# ------------------------------------------------------------------ seat


def _partner_is_next_seat() -> None:
    original = tricks.partner_of

    def next_seat_partner(seat: int, players: int) -> int | None:
        return (seat + 1) % 4 if players == 4 else None

    replace_everywhere(original, next_seat_partner)


def _mano_left_of_dealer() -> None:
    original = hand.Hand.__init__

    def init(self: hand.Hand, rules: Rules, dealt: Any, dealer: int, *args: Any, **kwargs: Any) -> None:
        original(self, rules, dealt, dealer, *args, **kwargs)
        self.mano = self.leader = self.turn = (dealer - 1) % self.players  # the seat before the dealer

    hand.Hand.__init__ = init  # type: ignore[method-assign]


def _draw_with(self: hand.Hand, take: Any) -> list[Event]:
    """The reference draw (PLAY-08), each card taken by ``take(self, seat, position in the draw)``."""
    assert self.last_trick_winner is not None
    draws: list[list[Any]] = []
    for index, seat in enumerate(_current(hand, "draw_order")(self.last_trick_winner, self.players)):
        card = take(self, seat, index)
        self.hands[seat].append(card)
        draws.append([seat, card.code])
    self.draw_pending = False
    events = [Event("cards_drawn", {"draws": draws})]
    if self.muestra is None:
        events.append(Event("arrastre_begins", {}))
    return events


def _take_in_order(self: hand.Hand, seat: int, index: int) -> Card:
    if self.stock:
        return self.stock.pop(0)
    card, self.muestra = self.muestra, None
    assert card is not None
    return card


def _seat3_draws_from_bottom() -> None:
    original = hand.Hand._draw

    def take(self: hand.Hand, seat: int, index: int) -> Card:
        if seat == 3 and len(self.stock) > 1:
            return self.stock.pop()  # the bottom of the stock, not the top
        return _take_in_order(self, seat, index)

    def draw(self: hand.Hand) -> list[Event]:
        return original(self) if not self.draw_pending else _draw_with(self, take)

    hand.Hand._draw = draw  # type: ignore[method-assign]


def _muestra_to_winner() -> None:
    original = hand.Hand._draw

    def take(self: hand.Hand, seat: int, index: int) -> Card:
        if index == 0 and len(self.stock) < self.players and self.muestra is not None:
            card, self.muestra = self.muestra, None  # the winner takes the face-up card at the last draw
            return card
        if self.stock:
            return self.stock.pop(0)
        return _take_in_order(self, seat, index)

    def draw(self: hand.Hand) -> list[Event]:
        if not self.draw_pending:
            return original(self)
        return _draw_with(self, take)

    hand.Hand._draw = draw  # type: ignore[method-assign]


def _dealer_rotates() -> None:
    def next_dealer(self: game.Game) -> int:
        return (self.hand.dealer + 1) % self.players  # the deal passes round, whoever took the last trick

    game.Game.next_dealer = next_dealer  # type: ignore[method-assign]


# ------------------------------------------------------------------ suit led


def _third_suit_wins() -> None:
    original = tricks.winning_index

    def highest_of_any_suit(trick: tricks.Trick, trump: Suit, strength: Mapping[Card, int]) -> int:
        best, best_card = 0, trick[0][1]
        for index in range(1, len(trick)):
            card = trick[index][1]
            if card.suit is trump:
                if best_card.suit is not trump or strength[card] > strength[best_card]:
                    best, best_card = index, card
            elif best_card.suit is not trump and strength[card] > strength[best_card]:
                best, best_card = index, card  # a higher card of any suit takes it
        return best

    replace_everywhere(original, highest_of_any_suit)


def _trump_before_following() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            if trick and trick[0][1].suit is not trump:
                trumps = [card for card in held if card.suit is trump]
                if trumps:
                    return trumps  # "follow" checked against the trump suit
            return original(held, seat, trick, trump, strength, rules)

        return legal

    _wrap_legal_cards(make)


def _beat_only_when_oros_led() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            if trick and trick[0][1].suit is not Suit.OROS:
                following = [card for card in held if card.suit is trick[0][1].suit]
                if following:
                    return following
            return original(held, seat, trick, trump, strength, rules)

        return legal

    _wrap_legal_cards(make)


def _trump_lead_no_beat() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            if trick and trick[0][1].suit is trump:
                trumps = [card for card in held if card.suit is trump]
                if trumps:
                    return trumps  # any trump follows a trump lead
            return original(held, seat, trick, trump, strength, rules)

        return legal

    _wrap_legal_cards(make)


# ------------------------------------------------------------------ trump suit


def _no_trumping_when_copas() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            if trick and trump is Suit.COPAS and _void(held, trick):
                return list(held)
            return original(held, seat, trick, trump, strength, rules)

        return legal

    _wrap_legal_cards(make)


def _any_trump_overtrumps() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            allowed = original(held, seat, trick, trump, strength, rules)
            duty = trick and trick[0][1].suit is not trump and _void(held, trick) and len(allowed) < len(held)
            if duty and _winner(trick, trump, strength)[1].suit is trump:
                return [card for card in held if card.suit is trump]  # a lower trump will do
            return allowed

        return legal

    _wrap_legal_cards(make)


def _must_undertrump() -> None:
    def make(original: LegalCards) -> LegalCards:
        def legal(
            held: Sequence[Card], seat: int, trick: tricks.Trick, trump: Suit, strength: Any, rules: Rules
        ) -> Any:
            allowed = original(held, seat, trick, trump, strength, rules)
            if not trick or trick[0][1].suit is trump or not _void(held, trick) or len(allowed) < len(held):
                return allowed
            winner_seat, winner_card = _winner(trick, trump, strength)
            exempt = rules.partner_winning_exempts == "yes" and winner_seat == _current(arrastre, "partner_of")(
                seat, rules.player_count
            )
            trumps = [card for card in held if card.suit is trump]
            if winner_card.suit is trump and trumps and not exempt:
                return trumps  # a losing trump is owed
            return allowed

        return legal

    _wrap_legal_cards(make)


# ------------------------------------------------------------------ rank and points


def _low_cards_tie_on_points() -> None:
    original = cards.strength_table

    @cache
    def by_points(rank_8_9: str = "below_caballo") -> Mapping[Card, int]:
        return {card: card.points for card in original(rank_8_9)}  # the 7 no higher than the 2

    replace_everywhere(original, by_points)


def _tute_card_points() -> None:
    cards._POINTS[cards.Rank.SOTA] = 2
    cards._POINTS[cards.Rank.CABALLO] = 3
    for card in cards.ALL_CARDS.values():
        object.__setattr__(card, "points", card.rank.points)


# ------------------------------------------------------------------ phase


def _last_free_trick(self: hand.Hand) -> bool:
    return self.muestra is not None and len(self.stock) + 1 <= self.players


def _duties_in_last_free_trick() -> None:
    original_play = hand.Hand._play
    original_playable = hand.Hand.playable_cards

    def duties(self: hand.Hand, seat: int) -> list[Card]:
        found: list[Card] = arrastre.legal_cards(
            self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules
        )
        return found

    def play(self: hand.Hand, seat: int, card: Card) -> list[Event]:
        held = seat == self.turn and not self.draw_pending and card in self.hands[seat]
        if held and _last_free_trick(self) and card not in duties(self, seat):
            refused = arrastre.refusal(card, self.hands[seat], seat, self.trick, self.trump, self.strength, self.rules)
            assert refused is not None
            raise refused.error()
        return original_play(self, seat, card)

    def playable(self: hand.Hand, seat: int) -> list[Card]:
        found = original_playable(self, seat)
        return duties(self, seat) if found and _last_free_trick(self) else found

    hand.Hand._play = play  # type: ignore[method-assign]
    hand.Hand.playable_cards = playable  # type: ignore[method-assign]


def _first_arrastre_trick_free() -> None:
    original = hand.Hand._arrastre_cards

    def cards_of(self: hand.Hand, seat: int) -> list[Card]:
        free_tricks = (self.rules.deck_size - 6 * self.players) // self.players
        if self.tricks_played == free_tricks:
            return list(self.hands[seat])  # the duties start a trick late
        return original(self, seat)

    hand.Hand._arrastre_cards = cards_of  # type: ignore[method-assign]


PLAY_BUGS: dict[str, Breakage] = {
    "partner_is_next_seat": Breakage(
        "ARR-06",
        "the winning-partner exemption looks at seat+1 instead of seat+2",
        frozenset({"ARR-07", "ARR-02", "ARR-03", "ARR-04", "ARR-13", "RENUNCIO-03"}),
        _partner_is_next_seat,
        area="seat",
    ),
    "mano_left_of_dealer": Breakage(
        "PRE-09", "the mano is the seat before the dealer, not after", None, _mano_left_of_dealer, area="seat"
    ),
    "seat3_draws_from_bottom": Breakage(
        "PLAY-18", "seat 3 draws from the bottom of the stock", None, _seat3_draws_from_bottom, area="seat"
    ),
    "dealer_rotates": Breakage(
        "PRE-10",
        "the next hand is dealt by the seat after the dealer, not by the winner of the last trick",
        frozenset({"MATCH-11", "TWO-05", "PRE-09"}),
        _dealer_rotates,
        area="seat",
    ),
    "muestra_to_winner": Breakage(
        "PLAY-10",
        "at the last draw the trick winner takes the muestra instead of the last drawer",
        None,
        _muestra_to_winner,
        area="seat",
    ),
    "third_suit_wins": Breakage(
        "DECK-11", "a higher card of a third suit takes the trick", None, _third_suit_wins, area="suit led"
    ),
    "trump_before_following": Breakage(
        "ARR-01",
        "in the arrastre a player holding trumps must play one even when he can follow suit",
        frozenset({"ARR-02", "ARR-03", "ARR-06", "ARR-07", "ARR-10", "ARR-13", "RENUNCIO-02", "RENUNCIO-09"}),
        _trump_before_following,
        area="suit led",
    ),
    "beat_only_when_oros_led": Breakage(
        "ARR-02",
        "the duty to beat holds only when oros are led",
        frozenset({"ARR-09", "ARR-10", "ARR-12", "RENUNCIO-03", "TWO-07"}),
        _beat_only_when_oros_led,
        area="suit led",
    ),
    "trump_lead_no_beat": Breakage(
        "ARR-09",
        "when trumps are led any trump follows, no duty to beat",
        frozenset({"ARR-02", "ARR-12", "RENUNCIO-03"}),
        _trump_lead_no_beat,
        area="suit led",
    ),
    "no_trumping_when_copas": Breakage(
        "ARR-03",
        "no duty to trump when copas are trumps",
        frozenset({"ARR-04", "ARR-12", "RENUNCIO-06", "TWO-07"}),
        _no_trumping_when_copas,
        area="trump",
    ),
    "any_trump_overtrumps": Breakage(
        "ARR-04",
        "a void player may play any trump on a trumped trick, even one that does not overtrump",
        frozenset({"ARR-03", "RENUNCIO-06"}),
        _any_trump_overtrumps,
        area="trump",
    ),
    "must_undertrump": Breakage(
        "ARR-05",
        "a void player holding only lower trumps must still play one (under-trumping)",
        frozenset({"ARR-08", "ARR-12"}),
        _must_undertrump,
        area="trump",
    ),
    "low_cards_tie_on_points": Breakage(
        "DECK-05",
        "cards rank by their points, so the 7, 6, 5, 4 and 2 tie and the first played wins",
        None,
        _low_cards_tie_on_points,
        area="rank",
    ),
    "tute_card_points": Breakage(
        "DECK-07", "the Sota is worth 2 and the Caballo 3, as in Tute", None, _tute_card_points, area="rank"
    ),
    "duties_in_last_free_trick": Breakage(
        "ARR-11",
        "the duties of the arrastre already hold in the last free trick",
        frozenset({"PLAY-07", "SCORE-01", "SCORE-03", "RENUNCIO-11"}),
        _duties_in_last_free_trick,
        area="phase",
    ),
    "first_arrastre_trick_free": Breakage(
        "PLAY-13",
        "the first trick of the arrastre is still played freely",
        None,
        _first_arrastre_trick_free,
        area="phase",
    ),
}
