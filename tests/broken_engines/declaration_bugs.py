"""Planted bugs of declarations: cantes, the exchange of the seven and claims made in the wrong
window, by the wrong player, in the wrong suit (each breaks one rule of features/index)."""

from __future__ import annotations

from typing import Any

from guinote_conformance.reference_engine import cantes, hand, scoring, seven
from guinote_conformance.reference_engine.actions import Claim, Event, Refusal
from guinote_conformance.reference_engine.cards import Card, Rank, Suit
from tests.broken_engines.base import Breakage, replace_everywhere

_SEVENS = {suit: Card(Rank.SIETE, suit) for suit in Suit}


# ------------------------------------------------------------------ cantes


def _forty_in_oros() -> None:
    original = cantes.cante_value

    def oros_is_forty(suit: Suit, trump: Suit) -> int:
        return 40 if suit is Suit.OROS else 20  # the forty hard-coded in oros, whatever the trump

    replace_everywhere(original, oros_is_forty)


def _only_winner_sings() -> None:
    original = cantes.window_open_for

    def winner_only(g: Any, seat: int) -> bool:
        return bool(original(g, seat)) and seat == g.last_trick_winner  # the partner may not sing

    replace_everywhere(original, winner_only)


def _window_past_lead() -> None:
    original = cantes.window_open_for
    original_actions = hand.Hand.legal_actions

    def until_trick_ends(g: Any, seat: int) -> bool:
        if original(g, seat):
            return True
        last = g.last_trick_winner
        return bool(g.trick) and last is not None and g.side(last) == g.side(seat) and g.result is None

    def actions(self: hand.Hand) -> list[Any]:
        found = original_actions(self)
        if self.trick and self.result is None and self.last_trick_winner is not None:
            found.extend(self._window_actions(self.side(self.last_trick_winner)))
        return found

    replace_everywhere(original, until_trick_ends)
    hand.Hand.legal_actions = actions  # type: ignore[method-assign]


def _cante_refusal_without(check_sung: bool, partners_pool: bool) -> Any:
    """The reference's cante refusal (CANTE-05, -11, -19, -10, -12), with the sung-suit check or the
    singer's own hand left out."""

    def refusal(g: Any, seat: int, suit: Suit) -> Refusal | None:
        if not cantes.window_open_for(g, seat):
            return Refusal("CANTE_NO_WON_TRICK", "CANTE-05", "a cante needs the singer's side to have won the trick")
        if check_sung and suit in g.sung_suits:
            return Refusal("CANTE_SUIT_ALREADY_SUNG", "CANTE-11", f"{suit.spanish} has already been sung this hand")
        held = list(g.hands[seat])
        if partners_pool and g.players == 4:
            held += g.hands[(seat + 2) % 4]
        if not cantes.holds_pair(held, suit):
            return Refusal("CANTE_NO_PAIR", "CANTE-19", f"seat {seat} does not hold the Rey and Sota of {suit.spanish}")
        if cantes._one_per_trick_used(g):
            return Refusal("CANTE_ONE_PER_TRICK", "CANTE-10", "only one cante is allowed per won trick")
        trump = g.trump
        if (
            g.rules.cante_order == "forty_first"
            and suit is not trump
            and trump not in g.sung_suits
            and cantes.holds_pair(held, trump)
        ):
            return Refusal("CANTE_FORTY_FIRST", "CANTE-12", "the forty is available and must be sung first")
        return None

    def singable(g: Any, seat: int) -> list[Suit]:
        return [suit for suit in Suit if refusal(g, seat, suit) is None]

    return refusal, singable


def _patch_cante_refusal(check_sung: bool, partners_pool: bool) -> None:
    refusal, singable = _cante_refusal_without(check_sung, partners_pool)
    replace_everywhere(cantes.cante_refusal, refusal)
    replace_everywhere(cantes.singable_suits, singable)


def _suit_sung_twice() -> None:
    _patch_cante_refusal(check_sung=False, partners_pool=False)


def _partners_pool_pair() -> None:
    _patch_cante_refusal(check_sung=True, partners_pool=True)


def _window_closed_by_draw() -> None:
    original = hand.Hand._draw

    def draw(self: hand.Hand) -> list[Event]:
        events = original(self)
        self.window_side = None  # the draw ends the cante window
        return events

    hand.Hand._draw = draw  # type: ignore[method-assign]


# ------------------------------------------------------------------ claims


def _claims_any_time() -> None:
    original = scoring.claim_refusal

    def refusal(g: Any, seat: int) -> Refusal | None:
        refused = original(g, seat)
        if refused is not None and refused.code in ("CLAIM_NOT_NOW", "CLAIM_NOT_TRICK_WINNER"):
            return None  # a claim of 101 is taken at any moment of a hand de vueltas
        return refused

    original_actions = hand.Hand.legal_actions

    def actions(self: hand.Hand) -> list[Any]:
        found = original_actions(self)
        listed = {action.seat for action in found if isinstance(action, Claim)}
        if self.result is None and self.rules.vueltas_end == "claim" and self.hand_in_point > 0:
            found.extend(Claim(seat) for seat in range(self.players) if seat not in listed)
        return found

    replace_everywhere(scoring.claim_refusal, refusal)
    hand.Hand.legal_actions = actions  # type: ignore[method-assign]


# ------------------------------------------------------------------ the seven of trumps


def _exchange_any_seven() -> None:
    original_check = seven.check_exchange
    original_exchanger = seven.exchanger

    def other_seven(g: Any, seat: int) -> Card | None:
        if seven.exchange_card(g) is not _SEVENS[g.trump] or _SEVENS[g.trump] in g.hands[seat]:
            return None
        if not seven._won_trick_condition(g, seat) or not seven._in_window(g):
            return None
        return next((card for card in g.hands[seat] if card.rank is Rank.SIETE), None)

    def check(g: Any, seat: int) -> Card:
        if g.result is None and g.muestra is not None:
            card = other_seven(g, seat)
            if card is not None:
                return card  # any seven takes the muestra
        found: Card = original_check(g, seat)
        return found

    def exchanger(g: Any) -> int | None:
        seat = original_exchanger(g)
        if seat is not None or g.result is not None or g.muestra is None:
            return seat
        if any(_SEVENS[g.trump] in held for held in g.hands):
            return None
        return next((s for s in range(g.players) if other_seven(g, s) is not None), None)

    replace_everywhere(original_check, check)
    replace_everywhere(original_exchanger, exchanger)


def _exchange_low_muestra() -> None:
    original = seven.exchange_card

    def any_muestra(g: Any) -> Card | None:
        card = original(g)
        muestra = g.muestra
        if card is None and muestra is not None and not g.exchange_done and muestra is not _SEVENS[g.trump]:
            return _SEVENS[g.trump]  # a 6, 5, 4 or 2 muestra taken too
        return card

    replace_everywhere(original, any_muestra)


def _exchange_after_draw() -> None:
    original = seven._in_window

    def window(g: Any) -> bool:
        if g.rules.seven_exchange_window == "after_won_trick_before_draw":
            return g.draw_pending or (not g.trick and g.last_trick_winner is not None)  # after the draw too
        return bool(original(g))

    replace_everywhere(original, window)


def _exchange_twice() -> None:
    original = hand.Hand._exchange

    def exchange(self: hand.Hand, seat: int) -> list[Event]:
        events = original(self, seat)
        self.exchange_done = False  # the seven lying there may be taken again
        return events

    hand.Hand._exchange = exchange  # type: ignore[method-assign]


DECLARATION_BUGS: dict[str, Breakage] = {
    "forty_in_oros": Breakage(
        "CANTE-03",
        "the forty is scored for the pair of oros, whatever the trump suit",
        frozenset({"CANTE-02", "CANTE-04", "CANTE-14", "CANTE-24", "DECK-14", "SCORE-02", "VUELTAS-07"}),
        _forty_in_oros,
        area="trump",
    ),
    "only_winner_sings": Breakage(
        "CANTE-05",
        "only the player who took the trick may sing, not his partner",
        frozenset({"CANTE-09", "CANTE-10", "CANTE-12", "VUELTAS-05", "VUELTAS-13", "RENUNCIO-05"}),
        _only_winner_sings,
        area="declarations",
    ),
    "window_past_lead": Breakage(
        "CANTE-06",
        "the cante window stays open after the next card is led, until that trick ends",
        frozenset({"CANTE-05", "CANTE-18", "RENUNCIO-05", "VUELTAS-05"}),
        _window_past_lead,
        area="declarations",
    ),
    "suit_sung_twice": Breakage(
        "CANTE-11",
        "a pair already sung may be sung again after a later trick",
        frozenset({"CANTE-08", "CANTE-10", "DECK-14"}),
        _suit_sung_twice,
        area="declarations",
    ),
    "partners_pool_pair": Breakage(
        "CANTE-19",
        "partners may sing a pair whose Rey and Sota are in different hands",
        frozenset({"CANTE-01", "CANTE-12"}),
        _partners_pool_pair,
        area="declarations",
    ),
    "window_closed_by_draw": Breakage(
        "CANTE-25",
        "the draw closes the cante window: a card just drawn cannot complete a pair",
        frozenset({"CANTE-05", "CANTE-08", "CANTE-09", "CANTE-24", "VUELTAS-05", "VUELTAS-13"}),
        _window_closed_by_draw,
        area="phase",
    ),
    "claims_any_time": Breakage(
        "VUELTAS-05",
        "a claim of 101 is accepted at any moment of a hand de vueltas, from any player",
        frozenset({"VUELTAS-06", "VUELTAS-13", "VUELTAS-14"}),
        _claims_any_time,
        profile="ludoteka",
        area="declarations",
    ),
    "exchange_any_seven": Breakage(
        "SEVEN-01",
        "any seven, not only the seven of trumps, may be given for the muestra",
        frozenset({"SEVEN-02", "SEVEN-10", "SEVEN-11"}),
        _exchange_any_seven,
        area="trump",
    ),
    "exchange_low_muestra": Breakage(
        "SEVEN-02",
        "the seven may take a muestra below it (a 6, 5, 4 or 2)",
        frozenset({"SEVEN-09", "SEVEN-13", "REGION-11", "REGION-12"}),
        _exchange_low_muestra,
        area="trump",
    ),
    "exchange_after_draw": Breakage(
        "SEVEN-16",
        "under after_won_trick_before_draw the exchange is still allowed after the draw",
        frozenset({"SEVEN-03", "SEVEN-07"}),
        _exchange_after_draw,
        profile="ludoteka",
        area="phase",
    ),
    "exchange_twice": Breakage(
        "SEVEN-13",
        "the muestra may be exchanged again: the dos takes back the seven just given",
        frozenset({"SEVEN-09"}),
        _exchange_twice,
        area="trump",
    ),
}
