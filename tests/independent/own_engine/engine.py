#!/usr/bin/env python3
"""An independent Guiñote engine, written from the rule sources and the protocol page alone.

Issue 34: every other test double of the project wraps ``reference_engine``, so it shares the
reference's draw order, its deal and its state at the end of a hand, and cannot show a check of
the suite that says more than the rules do. This engine shares nothing with the reference: it
imports nothing of the project (only the standard library, like ``kits/python/skeleton_engine.py``,
whose protocol loop it follows) and makes its own choices wherever the rules leave one:

* **its own shuffle** (capability ``own_shuffle``): it deals every hand after the first from a
  shuffle of its own, seeded by the game's first deal so that a replayed game is the same;
* **its own draw** (capability ``automatic_draw``): the play that completes a free-phase trick
  draws at once, the winner first (PLAY-08), the last drawer taking the muestra (PLAY-10);
* **its own end of hand**: a hand that stops before its last trick (a hand de vueltas that a
  trick or a cante takes to 101, a tute) stops at once, without drawing, and its hands and
  stock stay as they fell.

It plays one rule profile fully, ``lascuarenta`` (S002 and its Catalan text S003, as played
online: an illegal move is refused). The readings of that profile are the project's, taken from
the flag descriptions of ``profiles.toml`` and the rule statements of ``features/index``; the
comments cite the source and its heading.

Run it as a ``cmd:`` engine::

    guinote-conformance run --engine "cmd:python3 tests/independent/own_engine/engine.py"

``--take-deals`` takes the next hands' deck orders from the harness instead of shuffling (no
``own_shuffle``), ``--match`` answers the match score (capability ``match``).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import traceback
from collections.abc import Callable
from typing import Any

PROTOCOL = 2
ENGINE = {"name": "own-guinote", "version": "1.0", "language": "python"}

#: The one profile played, every flag at the value S002/S003 give it.
LASCUARENTA: dict[str, str] = {
    "players": "4",
    "deck": "40",
    "rank_8_9": "below_caballo",
    "deal": "three_three",
    "cante_per_trick": "one",
    "cante_order": "free",
    "tute": "wins_point",
    "seven_exchange_requires": "own_side_won_any_trick",
    "seven_exchange_window": "while_muestra_visible",
    "seven_exchange_min": "higher_than_seven",
    "seven_is_muestra": "swap_with_two",
    "partner_winning_exempts": "yes",
    "overtake_reference": "current_winning_card",
    "renuncio_handling": "block",
    "renuncio_faults": "out_of_turn_and_cante",
    "thirty_malas": "vueltas",
    "thirty_malas_count": "cards_plus_ultimas",
    "thirty_malas_scope": "first_hand_only",
    "thirty_malas_trigger": "any_winner",
    "vueltas_end": "automatic",
    "vueltas_claim_by": "trick_winner",
    "points_per_coto": "3",
    "cotos_to_win": "1",
}
#: The second profile played: S000, the Ludoteka-based summary, where an illegal card stands and
#: costs the point and a hand de vueltas ends on a claim.
LUDOTEKA: dict[str, str] = {
    **LASCUARENTA,
    "deal": "one_by_one",
    "cante_per_trick": "many",
    "tute": "none",
    "seven_exchange_requires": "exchanger_won_last_trick",
    "seven_exchange_window": "after_won_trick_before_draw",
    "seven_exchange_min": "value_card",
    "seven_is_muestra": "none",
    "renuncio_handling": "lose_point",
    "renuncio_faults": "play_duties",
    "thirty_malas": "lose",
    "thirty_malas_trigger": "both_over_only",
    "vueltas_end": "claim",
    "cotos_to_win": "2",
}
PROFILES = {"lascuarenta": LASCUARENTA, "ludoteka": LUDOTEKA}
#: Each flag value of either profile is played with any value of the other flags.
FLAGS = {flag: sorted({profile[flag] for profile in PROFILES.values()}) for flag in LASCUARENTA}
CAPABILITIES = ["automatic_draw", "own_shuffle"]
#: With ``--take-deals`` the engine deals the next hands from the deck orders the harness sends
#: (still its own way) instead of its own shuffle, and does not declare ``own_shuffle``: the
#: scenarios that need a next hand's cards (every hand de vueltas) are then played on it.
TAKE_DEALS = "--take-deals" in sys.argv[1:]
if TAKE_DEALS:
    CAPABILITIES.remove("own_shuffle")
#: With ``--match`` it also answers the match score (capability ``match``): the points of the
#: coto, the cotos and the winner of the match, which it keeps in any case.
MATCH = "--match" in sys.argv[1:]
if MATCH:
    CAPABILITIES.append("match")

# ---------------------------------------------------------------------------------- the cards
SUITS = "oceb"
#: Strength inside a suit, highest first (S000 Objetivo del juego; S002 La baraja): the Sota
#: above the Caballo, the other way round from Tute.
ORDER = "A3RSC76542"
#: Card points (S000 Objetivo del juego; S002 La baraja): As 11, Tres 10, Rey 4, Sota 3, Caballo 2.
POINTS = {"A": 11, "3": 10, "R": 4, "S": 3, "C": 2}
DECK = [rank + suit for suit in SUITS for rank in ORDER]
PLAYERS = 4
HAND = 6
TARGET = 101  # pass 100 (S000), reach 101 (S002 Puntuación y final)
ULTIMAS = 10  # the diez de últimas (S000 Puntuación por las bazas)
POINTS_PER_COTO = 3  # every source: three points make the coto


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def points(cards: list[str]) -> int:
    return sum(POINTS.get(rank(card), 0) for card in cards)


def beats(card: str, other: str, trump: str) -> bool:
    """Whether ``card`` beats ``other`` when ``other`` is winning a trick: a trump beats any
    other suit, and inside one suit the higher card wins; a card of a third suit never wins
    (S000 Recoger las bazas; S002 Cómo se juega, paso 2)."""
    if suit(card) == suit(other):
        return ORDER.index(rank(card)) < ORDER.index(rank(other))
    return suit(card) == trump


def side_of(seat: int) -> int:
    """Partners sit facing each other, so seats 0 and 2 are one side (S000 En qué consiste)."""
    return seat % 2


class BadSetup(Exception):
    """An impossible deal."""


class UnknownField(Exception):
    """A field name (or seat) that is not a field."""


class Refused(Exception):
    """A move the rules do not allow now: the answer is a refusal, the game unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------------------------ the game
class Game:
    """One match: hands are dealt, played and scored until a side has won the coto."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.flags: dict[str, str] = dict(setup["flags"])
        dealer = setup.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < PLAYERS:
            raise BadSetup(f"dealer {dealer!r} is not a seat")
        muestra: Any
        if "deck" in setup:
            hands, muestra, stock = self._deal_from(list(setup["deck"]), dealer)
        elif "hands" in setup:
            hands = [list(hand) for hand in setup["hands"]]
            muestra = setup.get("muestra")
            stock = list(setup.get("stock", []))
        else:
            raise BadSetup("the setup gives neither a deck order nor a deal")
        self._check_deal(hands, muestra, stock)
        # The seed of the shuffles of the next hands: the first deal, so a replay deals the same.
        self.seed = hashlib.sha256(json.dumps([hands, muestra, stock, dealer]).encode()).hexdigest()
        self.points_won = [0, 0]  # points of the coto (S000 Objetivo del juego)
        self.cotos = [0, 0]
        self.match_over = False
        self.match_winner: int | None = None
        self.hands_dealt = 0
        self.carried = [0, 0]  # the totals this hand started from (a hand de vueltas)
        self.carry_next: list[int] | None = None  # what the next hand starts from: None, a new point
        self.hand_in_point = 0
        self._new_hand(dealer, hands, muestra, stock)

    # ------------------------------------------------------------------------------ the deal
    def _deal_from(self, deck: list[str], dealer: int) -> tuple[list[list[str]], str, list[str]]:
        """Deal a deck order from the top, the mano served first: two rounds of three cards
        (S002 La mesa y el reparto; S004 Las Reglas) or one card at a time (S000 Comienzo de
        la partida). The next card is the muestra, which lies face up under the rest of the
        pack (S004 El triunfo: the 25th card with four players)."""
        if sorted(deck) != sorted(DECK):
            raise BadSetup("the deck order is not the 40 cards of the Spanish deck, each once")
        hands: list[list[str]] = [[] for _ in range(PLAYERS)]
        batch = 3 if self.flags["deal"] == "three_three" else 1
        top = 0
        for _round in range(HAND // batch):
            for step in range(1, PLAYERS + 1):
                hands[(dealer + step) % PLAYERS] += deck[top : top + batch]
                top += batch
        return hands, deck[top], deck[top + 1 :]

    @staticmethod
    def _check_deal(hands: list[list[str]], muestra: Any, stock: list[str]) -> None:
        if len(hands) != PLAYERS or any(len(hand) != HAND for hand in hands):
            raise BadSetup(f"a deal gives {HAND} cards to each of {PLAYERS} seats")
        if not isinstance(muestra, str):
            raise BadSetup("the deal has no muestra")
        cards = [card for hand in hands for card in hand] + [muestra] + stock
        if sorted(cards) != sorted(DECK):
            twice = sorted({card for card in cards if cards.count(card) > 1})
            raise BadSetup(
                f"the deal is not the 40 cards each once (twice: {twice}, unknown: {sorted(set(cards) - set(DECK))})"
            )

    def _new_hand(self, dealer: int, hands: list[list[str]], muestra: str, stock: list[str]) -> None:
        self.hands_dealt += 1
        self.dealer = dealer
        self.mano = (dealer + 1) % PLAYERS  # the mano sits on the dealer's right (S000, S002)
        self.hands = hands
        self.muestra: str | None = muestra  # the card face up under the stock (the seven after an exchange)
        self.trump = suit(muestra)
        self.stock = stock
        self.turn: int | None = self.mano
        self.leader: int | None = self.mano
        self.trick: list[tuple[int, str]] = []
        self.last_trick: list[tuple[int, str]] = []
        self.last_winner: int | None = None
        self.tricks_played = 0
        self.won: list[list[str]] = [[], []]
        self.tricks_won = [0, 0]
        self.last_won: list[list[str]] = [[], []]
        self.cantes: list[dict[str, Any]] = []
        self.cante_used = False  # the one cante of the trick just won (S002: one per won trick)
        self.exchanged = False
        self.ultimas: int | None = None
        self.first_over: int | None = None  # the first side past 100 in a hand de vueltas
        self.over = False
        self.winner: int | None = None
        self.reason: str | None = None

    def _deal_next(self, order: list[str]) -> list[dict[str, Any]]:
        """Deal the next hand, from ``order`` or else from a shuffle of this engine's own. The
        winner of the last trick played deals (S004 Las Reglas: who makes the diez últimas
        deals; S000 names the mano to his right)."""
        assert self.last_winner is not None
        dealer = self.last_winner
        deck = list(order)
        if not deck:
            deck = list(DECK)
            random.Random(f"{self.seed}/{self.hands_dealt}").shuffle(deck)
        hands, muestra, stock = self._deal_from(deck, dealer)
        if self.carry_next is None:  # a new point starts from zero (S004 Los cotos)
            self.carried, self.hand_in_point = [0, 0], 0
        else:  # de vueltas: the totals go on (S004 La partida)
            self.carried, self.hand_in_point = self.carry_next, self.hand_in_point + 1
        self._new_hand(dealer, hands, muestra, stock)
        return [{"type": "hand_dealt", "dealer": self.dealer, "mano": self.mano, "muestra": muestra}]

    # ---------------------------------------------------------------------------- the rules
    @property
    def phase(self) -> str:
        if self.match_over:
            return "match_over"
        if self.over:
            return "hand_over"
        return "free" if self.muestra is not None else "arrastre"

    def score(self, side: int) -> int:
        """Cards won, cantes sung and the diez de últimas (S000 Puntuación por las bazas)."""
        return points(self.won[side]) + self.cante_points(side) + (ULTIMAS if self.ultimas == side else 0)

    def cante_points(self, side: int) -> int:
        return sum(int(cante["value"]) for cante in self.cantes if cante["side"] == side)

    def total(self, side: int) -> int:
        return self.carried[side] + self.score(side)

    def malas(self, side: int) -> int:
        """The points that count toward the thirty malas: cards and the diez de últimas, not
        the cantes (S002 Puntuación y final; S000 and S004 leave out only the cantes)."""
        return points(self.won[side]) + (ULTIMAS if self.ultimas == side else 0)

    def winning(self) -> tuple[int, str] | None:
        """The seat and card winning the trick so far."""
        if not self.trick:
            return None
        best = self.trick[0]
        for seat, card in self.trick[1:]:
            if beats(card, best[1], self.trump):
                best = (seat, card)
        return best

    def allowed_cards(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now. While cards are left to draw any card goes (S000
        Primera fase; S002 paso 2). In the arrastre (S000 Segunda fase; S002 La mesa y el
        reparto): follow suit, beating the winning card if one can; void, trump so as to win;
        a partner winning the trick leaves only the duty to follow; otherwise any card."""
        hand = self.hands[seat]
        best = self.winning()
        if self.phase != "arrastre" or best is None:
            return list(hand)
        led = suit(self.trick[0][1])
        partner_winning = side_of(best[0]) == side_of(seat)
        following = [card for card in hand if suit(card) == led]
        if following:
            if partner_winning:
                return following
            higher = [card for card in following if beats(card, best[1], self.trump)]
            return higher or following
        if partner_winning:
            return list(hand)
        winning_trumps = [card for card in hand if suit(card) == self.trump and beats(card, best[1], self.trump)]
        return winning_trumps or list(hand)

    def _refuse_play(self, seat: int, card: str) -> None:
        if seat != self.turn:
            raise Refused("NOT_YOUR_TURN", f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if card not in self.hands[seat]:
            raise Refused("CARD_NOT_IN_HAND", f"seat {seat} does not hold {card}")
        if card not in self.allowed_cards(seat) and self.flags["renuncio_handling"] == "block":
            best = self.winning()
            assert best is not None
            led = suit(self.trick[0][1])
            if any(suit(held) == led for held in self.hands[seat]):
                code = "MUST_FOLLOW_SUIT" if suit(card) != led else "MUST_BEAT"
            else:
                code = "MUST_OVERTRUMP" if suit(best[1]) == self.trump else "MUST_TRUMP"
            raise Refused(code, f"{card} breaks the duties of the arrastre; allowed: {self.allowed_cards(seat)}")

    def _cante_window(self) -> bool:
        """A side sings only right after a trick it took, until the next card is led (S002
        Errores típicos, Cantar en el peor momento); once per won trick where S002 says so
        (Puntuación y final), as often as it holds pairs in S000 (Diferencias con el Tute)."""
        return not self.over and not self.trick and self.last_winner is not None and not self._cante_spent()

    def _cante_spent(self) -> bool:
        return self.cante_used and self.flags["cante_per_trick"] == "one"

    def _singers(self) -> list[int]:
        assert self.last_winner is not None
        return [seat for seat in range(PLAYERS) if side_of(seat) == side_of(self.last_winner)]

    def _refuse_cante(self, seat: int, suit_: str) -> None:
        if self.over:
            raise Refused("HAND_OVER", "the hand is over")
        if self.last_winner is None or side_of(seat) != side_of(self.last_winner) or self.trick:
            raise Refused("CANTE_NO_WON_TRICK", f"seat {seat}'s side did not take the trick just played")
        if self._cante_spent():
            raise Refused("CANTE_ONE_PER_TRICK", "one cante per won trick")
        if any(cante["suit"] == suit_ for cante in self.cantes):
            raise Refused("CANTE_SUIT_ALREADY_SUNG", f"{suit_} has been sung in this hand")
        if not {"R" + suit_, "S" + suit_} <= set(self.hands[seat]):
            raise Refused("CANTE_NO_PAIR", f"seat {seat} does not hold the Rey and the Sota of {suit_}")

    def _refuse_tute(self, seat: int, rank_: str) -> None:
        if self.over:
            raise Refused("HAND_OVER", "the hand is over")
        if self.flags["tute"] == "none":
            raise Refused("TUTE_NOT_PLAYED", "tute is not sung in guiñote (S000 Diferencias con el Tute)")
        if self.last_winner is None or side_of(seat) != side_of(self.last_winner) or self.trick:
            raise Refused("CANTE_NO_WON_TRICK", f"seat {seat}'s side did not take the trick just played")
        if self._cante_spent():
            raise Refused("CANTE_ONE_PER_TRICK", "one cante per won trick")
        if sum(1 for card in self.hands[seat] if rank(card) == rank_) != 4:
            raise Refused("TUTE_NOT_HELD", f"seat {seat} does not hold the four {rank_}")

    def _exchange_card(self, seat: int) -> str:
        """The card ``seat`` gives for the muestra, or the reason it cannot: the seven of
        trumps for a higher muestra (S004 Los cotos), or the dos for a seven muestra (S002 paso
        5), while the muestra lies under the stock. S002 (La mesa y el reparto) wants a trick
        won by the side at any time, and allows it at any moment; S000 (Cambio de cartas) the
        trick just won by the exchanger, between that trick and its draw: a window that is
        closed in this engine, which draws as the trick ends (protocol.md, The draw)."""
        if self.over or self.muestra is None:
            raise Refused("EXCHANGE_NO_MUESTRA", "the muestra has been drawn")
        if self.exchanged:
            raise Refused("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "the muestra has been exchanged already")
        if self.flags["seven_exchange_requires"] == "own_side_won_any_trick":
            if self.tricks_won[side_of(seat)] == 0:
                raise Refused("EXCHANGE_NO_WON_TRICK", f"seat {seat}'s side has won no trick in this hand")
        elif self.last_winner != seat:
            raise Refused("EXCHANGE_NO_WON_TRICK", f"seat {seat} did not take the trick just played")
        if self.flags["seven_exchange_window"] == "after_won_trick_before_draw":
            raise Refused("EXCHANGE_WINDOW_CLOSED", "the cards of the last trick are drawn already")
        if rank(self.muestra) == "7":  # S002 paso 5: a seven muestra is taken with the dos
            if self.flags["seven_is_muestra"] == "none":
                raise Refused("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "a seven muestra is never taken")
            give = "2" + self.trump
        elif ORDER.index(rank(self.muestra)) < ORDER.index("7"):  # S004: only a higher muestra
            give = "7" + self.trump
        else:
            raise Refused("EXCHANGE_MUESTRA_NOT_ELIGIBLE", f"the muestra {self.muestra} is lower than the seven")
        if give not in self.hands[seat]:
            raise Refused("EXCHANGE_CARD_NOT_HELD", f"seat {seat} does not hold {give}")
        return give

    # -------------------------------------------------------------------------- the protocol
    def legal(self) -> list[dict[str, Any]]:
        if self.match_over:
            return []
        if self.over:
            return [{"type": "deal", "deck": []}]
        actions: list[dict[str, Any]] = []
        if self.turn is not None:
            actions += [{"type": "play", "seat": self.turn, "card": card} for card in self.allowed_cards(self.turn)]
        if self._cante_window():
            for seat in self._singers():
                for suit_ in SUITS:
                    if self._allows(self._refuse_cante, seat, suit_):
                        actions.append({"type": "cante", "seat": seat, "suit": suit_})
                for rank_ in "RS":
                    if self._allows(self._refuse_tute, seat, rank_):
                        actions.append({"type": "tute", "seat": seat, "rank": rank_})
        for seat in range(PLAYERS):
            if self._allows(self._exchange_card, seat):
                actions.append({"type": "exchange", "seat": seat})
        if self.last_winner is not None and self._allows(self._refuse_claim, self.last_winner):
            actions.append({"type": "claim", "seat": self.last_winner})
        return actions

    @staticmethod
    def _allows(check: Any, *args: Any) -> bool:
        try:
            check(*args)
        except Refused:
            return False
        return True

    def apply(self, action: Any) -> list[dict[str, Any]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise Refused("BAD_ACTION", "an action is an object with a type")
        kind = action["type"]
        if self.match_over:
            raise Refused("MATCH_OVER", "the match is over")
        if kind == "deal":
            return self._deal_action(action)
        if self.over:
            raise Refused("HAND_OVER", "the hand is over: deal the next one")
        if kind == "draw":
            raise Refused("NOTHING_TO_DRAW", "this engine draws by itself as a trick ends")
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Refused("BAD_ACTION", f"{kind} needs a seat")
        if not 0 <= seat < PLAYERS:
            raise Refused("NO_SUCH_SEAT", f"there is no seat {seat}")
        if kind == "play":
            card = action.get("card")
            if not isinstance(card, str):
                raise Refused("BAD_ACTION", "play needs a card")
            renuncio = self._play_renuncio(seat, card)
            if renuncio:
                return renuncio
            self._refuse_play(seat, card)
            return self._play(seat, card)
        if kind == "cante":
            suit_ = action.get("suit")
            if suit_ not in tuple(SUITS):
                raise Refused("BAD_ACTION", "cante needs a suit")
            renuncio = self._cante_renuncio(seat, suit_)
            if renuncio:
                return renuncio
            self._refuse_cante(seat, suit_)
            return self._cante(seat, suit_)
        if kind == "tute":
            rank_ = action.get("rank")
            if rank_ not in ("R", "S"):
                raise Refused("BAD_ACTION", "tute needs the rank R or S")
            self._refuse_tute(seat, rank_)
            return self._tute(seat, rank_)
        if kind == "exchange":
            give = self._exchange_card(seat)
            assert self.muestra is not None
            took = self.muestra
            self.hands[seat].remove(give)
            self.hands[seat].append(took)
            self.muestra = give
            self.exchanged = True
            return [{"type": "exchange", "seat": seat, "gave": give, "took": took}]
        if kind == "claim":
            self._refuse_claim(seat)
            return self._claim(seat)
        raise Refused("BAD_ACTION", f"unknown action type {kind!r}")

    def _play_renuncio(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Where a renuncio costs the point (S000 Glosario, Renuncio: the partida goes to the
        other side), a card of the arrastre that breaks a duty of play stands, and the hand
        ends at once. Which faults count is the flag renuncio_faults."""
        if self.flags["renuncio_handling"] != "lose_point" or self.phase != "arrastre":
            return []
        if card not in self.hands[seat]:
            return []
        out_of_turn = seat != self.turn
        if out_of_turn and self.flags["renuncio_faults"] == "play_duties":
            return []
        if not out_of_turn and card in self.allowed_cards(seat):
            return []
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events: list[dict[str, Any]] = [
            {"type": "card_played", "seat": seat, "card": card},
            {"type": "renuncio", "seat": seat, "card": card},
        ]
        return events + self._end_hand(1 - side_of(seat), "renuncio")

    def _cante_renuncio(self, seat: int, suit_: str) -> list[dict[str, Any]]:
        """S002 (Errores típicos) counts a cante without a won trick among the renuncios of
        the arrastre: where renuncios cost the point and that fault counts, it does."""
        if (
            self.flags["renuncio_handling"] != "lose_point"
            or self.flags["renuncio_faults"] != "out_of_turn_and_cante"
            or self.phase != "arrastre"
        ):
            return []
        if self.last_winner is not None and side_of(seat) == side_of(self.last_winner) and not self.trick:
            return []
        events: list[dict[str, Any]] = [{"type": "renuncio", "seat": seat, "suit": suit_}]
        return events + self._end_hand(1 - side_of(seat), "renuncio")

    def _refuse_claim(self, seat: int) -> None:
        """S000 (Puntuación por las bazas): in a hand de vueltas, the winner of a trick may
        announce that his side has passed 100, which ends the hand."""
        if self.over:
            raise Refused("HAND_OVER", "the hand is over")
        if self.flags["vueltas_end"] != "claim" or self.hand_in_point == 0:
            raise Refused("CLAIM_NOT_ALLOWED", "a claim is made only in a hand de vueltas, where claims are used")
        if self.last_winner is None or self.trick:
            raise Refused("CLAIM_NOT_NOW", "a claim follows a won trick, before the next lead")
        if seat != self.last_winner:
            raise Refused("CLAIM_NOT_TRICK_WINNER", f"seat {seat} did not take the trick just played")

    def _claim(self, seat: int) -> list[dict[str, Any]]:
        """Right, the point is the claimer's side; wrong, the opponents' (S000)."""
        side = side_of(seat)
        valid = self.total(side) >= TARGET
        events: list[dict[str, Any]] = [{"type": "claim", "seat": seat, "side": side, "valid": valid}]
        if valid:
            return events + self._end_hand(side, "claim_correct")
        return events + self._end_hand(1 - side, "claim_false")

    def _deal_action(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        if not self.over:
            raise Refused("HAND_IN_PROGRESS", "the hand is still being played")
        order = action.get("deck")
        if not isinstance(order, list) or any(key in action for key in ("hands", "muestra", "stock")):
            raise Refused("BAD_ACTION", "a deal of this engine is a deck order")
        if order and not TAKE_DEALS:
            raise Refused("BAD_ACTION", "this engine deals from its own shuffle: send the deal with no cards")
        if order and sorted(order) != sorted(DECK):
            raise Refused("BAD_ACTION", "the deck order is not the 40 cards of the Spanish deck, each once")
        return self._deal_next(order)

    def _play(self, seat: int, card: str) -> list[dict[str, Any]]:
        self.hands[seat].remove(card)
        if not self.trick:
            self.leader = seat
            self.cante_used = False  # the window of the last trick closes with the next lead
        self.trick.append((seat, card))
        events: list[dict[str, Any]] = [{"type": "card_played", "seat": seat, "card": card}]
        if len(self.trick) < PLAYERS:
            self.turn = (seat + 1) % PLAYERS
            return events
        best = self.winning()
        assert best is not None
        winner, cards = best[0], [played for _, played in self.trick]
        side = side_of(winner)
        self.won[side] += cards
        self.tricks_won[side] += 1
        self.last_won[side] = cards
        self.last_trick, self.trick = self.trick, []
        self.last_winner = self.turn = self.leader = winner  # the winner leads next (S000 Recoger las bazas)
        self.tricks_played += 1
        self.cante_used = False
        events.append({"type": "trick_won", "seat": winner, "side": side, "points": points(cards), "cards": cards})
        if not any(self.hands):  # the final trick: the diez de últimas, and the count
            self.ultimas = side
            self.turn = None
            events.append({"type": "ultimas", "side": side, "points": ULTIMAS})
            return events + self._count_hand()
        reached = self._reached(side)
        if reached:
            return events + reached
        if self.muestra is not None:
            events += self._draw(winner)
        return events

    def _draw(self, winner: int) -> list[dict[str, Any]]:
        """Each player takes the top card of the stock, the winner first (S000 Recoger las
        bazas; S002 paso 3); the last to draw takes the muestra (S002 paso 3)."""
        draws: list[list[Any]] = []
        for step in range(PLAYERS):
            seat = (winner + step) % PLAYERS
            if self.stock:
                card = self.stock.pop(0)
            else:
                assert self.muestra is not None
                card, self.muestra = self.muestra, None
            self.hands[seat].append(card)
            draws.append([seat, card])
        events: list[dict[str, Any]] = [{"type": "cards_drawn", "draws": draws}]
        if self.muestra is None:
            events.append({"type": "arrastre_begins"})
        return events

    def _cante(self, seat: int, suit_: str) -> list[dict[str, Any]]:
        value = 40 if suit_ == self.trump else 20  # S002 paso 4: twenty, forty in trumps
        side = side_of(seat)
        self.cantes.append(
            {"seat": seat, "side": side, "suit": suit_, "value": value, "arrastre": self.phase == "arrastre"}
        )
        self.cante_used = True
        events: list[dict[str, Any]] = [{"type": "cante", "seat": seat, "side": side, "suit": suit_, "value": value}]
        return events + self._reached(side)

    def _reached(self, side: int) -> list[dict[str, Any]]:
        """De vueltas, a side reaching 101 takes the point at once (S002 Puntuación y final,
        S004 La partida); where claims are used it must claim, and the first side past 100 is
        remembered for a hand played out without a claim (S000)."""
        if not self.hand_in_point or self.total(side) < TARGET:
            return []
        if self.flags["vueltas_end"] == "claim":
            if self.first_over is None:
                self.first_over = side
            return []
        return self._end_hand(side, "vueltas_reached_101")

    def _tute(self, seat: int, rank_: str) -> list[dict[str, Any]]:
        """The four Reyes or the four Sotas, sung after a won trick, win the point at once
        (S002 Puntuación y final)."""
        self.cante_used = True
        side = side_of(seat)
        return [{"type": "tute", "seat": seat, "side": side, "rank": rank_}, *self._end_hand(side, "tute")]

    def _count_hand(self) -> list[dict[str, Any]]:
        """The count after the last trick (S002 Puntuación y final de la partida): a side at
        101 wins the point; both there, the side of the diez de últimas; in the first hand of
        a point the winner needs thirty with cards and últimas, or the hand goes de vueltas;
        nobody at 101, de vueltas."""
        over = [side for side in (0, 1) if self.total(side) >= TARGET]
        if not over:
            return self._end_hand(None, "vueltas")
        if self.hand_in_point:  # de vueltas: the first side past 100 (S000; S002 at once)
            first = self.first_over if self.first_over is not None else over[0]
            reason = "over_100" if self.flags["vueltas_end"] == "claim" else "vueltas_reached_101"
            return self._end_hand(first, reason)
        side = over[0] if len(over) == 1 else self.ultimas
        assert side is not None
        checked = self.flags["thirty_malas_trigger"] == "any_winner" or len(over) == 2
        if checked and self.malas(side) < 30:
            if self.flags["thirty_malas"] == "lose":  # S000: that side loses the point
                return self._end_hand(1 - side, "thirty_malas_lose")
            return self._end_hand(None, "thirty_malas_vueltas")  # S002: de vueltas instead
        return self._end_hand(side, "over_100")

    def _end_hand(self, side: int | None, reason: str) -> list[dict[str, Any]]:
        self.over = True
        self.turn = None
        self.winner, self.reason = side, reason
        totals = [self.total(0), self.total(1)]
        events: list[dict[str, Any]] = [
            {
                "type": "hand_over",
                "scores": [self.score(0), self.score(1)],
                "totals": totals,
                "card_points": [points(self.won[0]), points(self.won[1])],
                "winner": side,
                "reason": reason,
            }
        ]
        if side is None:
            self.carry_next = totals
            return [*events, {"type": "de_vueltas", "totals": totals}]
        self.carry_next = None
        self.points_won[side] += 1
        point: dict[str, Any] = {"type": "point_won", "side": side}
        events.append(point)
        if self.points_won[side] == POINTS_PER_COTO:  # the next coto starts from zero (S004 Los cotos)
            self.points_won = [0, 0]
            self.cotos[side] += 1
            events.append({"type": "coto_won", "side": side})
            if self.cotos[side] == int(self.flags["cotos_to_win"]):
                self.match_over = True
                self.match_winner = side
                events.append({"type": "match_won", "side": side})
        point.update(points=list(self.points_won), cotos=list(self.cotos))
        return events

    # ------------------------------------------------------------------------------ the state
    def state(self, field: str) -> Any:
        name, _, index_text = field.rpartition(".") if field.startswith("match.") else field.partition(".")
        if index_text and field != "match.winner":
            return self._indexed(name, index_text)
        simple: dict[str, Callable[[], Any]] = {
            "phase": lambda: self.phase,
            "players": lambda: PLAYERS,
            "turn": lambda: self.turn,
            "leader": lambda: self.leader,
            "dealer": lambda: self.dealer,
            "mano": lambda: self.mano,
            "trump": lambda: self.trump,
            "muestra": lambda: self.muestra,
            "stock_count": lambda: len(self.stock) + (self.muestra is not None),
            "trick": lambda: [card for _, card in self.trick],
            "trick_seats": lambda: [seat for seat, _ in self.trick],
            "last_trick": lambda: [card for _, card in self.last_trick],
            "last_trick_winner": lambda: self.last_winner,
            "draw_pending": lambda: False,  # this engine draws as the trick ends
            "tricks_played": lambda: self.tricks_played,
            "ultimas": lambda: self.ultimas,
            "cantes": lambda: [dict(cante) for cante in self.cantes],
            "sung_suits": lambda: [cante["suit"] for cante in self.cantes],
            "exchange_done": lambda: self.exchanged,
            "de_vueltas": lambda: self.hand_in_point > 0,
            "hand_in_point": lambda: self.hand_in_point,
            "hand_winner": lambda: self.winner,
            "hand_reason": lambda: self.reason,
        }
        if MATCH:
            simple["match.winner"] = lambda: self.match_winner
        if field not in simple:
            raise UnknownField(f"no field {field!r}")
        return simple[field]()

    def _indexed(self, name: str, index_text: str) -> Any:
        if not index_text.isdigit():
            raise UnknownField(f"no field {name}.{index_text}")
        index = int(index_text)
        per_seat: dict[str, Callable[[], Any]] = {
            "hand": lambda: list(self.hands[index]),
            "hand_size": lambda: len(self.hands[index]),
        }
        per_side: dict[str, Callable[[], Any]] = {
            "card_points": lambda: points(self.won[index]),
            "cante_points": lambda: self.cante_points(index),
            "score": lambda: self.score(index),
            "total": lambda: self.total(index),
            "tricks_won": lambda: self.tricks_won[index],
            "won_cards": lambda: list(self.won[index]),
            "last_trick_won": lambda: list(self.last_won[index]),
        }
        if MATCH:
            per_side["match.points"] = lambda: self.points_won[index]
            per_side["match.cotos"] = lambda: self.cotos[index]
        if name in per_seat and index < PLAYERS:
            return per_seat[name]()
        if name in per_side and index < 2:
            return per_side[name]()
        raise UnknownField(f"no field {name}.{index_text}")


# ----------------------------------------------------------------------- the protocol loop
# As in kits/python/skeleton_engine.py: one JSON request per line in, one answer per line out.


class Failure(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


class Server:
    def __init__(self) -> None:
        self.games: dict[str, Game] = {}
        self.started = 0

    def game_of(self, request: dict[str, Any]) -> Game:
        game = self.games.get(str(request.get("game")))
        if game is None:
            raise Failure("unknown_game", f"no game {request.get('game')!r}")
        return game

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        cmd = request.get("cmd")
        if cmd == "hello":
            if not isinstance(request.get("protocol"), int) or request["protocol"] < PROTOCOL:
                raise Failure("unsupported_protocol", f"this engine speaks protocol {PROTOCOL}")
            engine = {**ENGINE, "profiles": PROFILES, "flags": FLAGS, "capabilities": CAPABILITIES}
            return {"protocol": PROTOCOL, "engine": engine}
        if cmd == "start":
            return self.start(request.get("setup"))
        if cmd == "legal":
            return {"actions": self.game_of(request).legal()}
        if cmd == "apply":
            game = self.game_of(request)
            try:
                return {"accepted": True, "events": game.apply(request.get("action"))}
            except Refused as refusal:
                return {"accepted": False, "code": refusal.code, "message": str(refusal)}
        if cmd == "state":
            try:
                return {"value": self.game_of(request).state(str(request.get("field")))}
            except UnknownField as error:
                raise Failure("unknown_field", str(error)) from None
        if cmd == "end":
            self.game_of(request)
            del self.games[request["game"]]
            return {}
        if cmd == "stop":
            return {}
        raise Failure("bad_request", f"unknown command {cmd!r}")

    def start(self, setup: Any) -> dict[str, Any]:
        if not isinstance(setup, dict) or not isinstance(setup.get("flags"), dict):
            raise Failure("bad_request", "start needs a setup with its flags")
        missing = [f"{flag}={value}" for flag, value in setup["flags"].items() if value not in FLAGS.get(flag, [])]
        if "position" in setup:
            missing.append("positions")
        if missing:
            raise Failure("unsupported", "this engine does not play " + ", ".join(missing), unsupported=missing)
        try:
            game = Game(setup)
        except BadSetup as error:
            raise Failure("bad_setup", str(error)) from None
        self.started += 1
        self.games[f"g{self.started}"] = game
        return {"game": f"g{self.started}"}

    def answer(self, line: str) -> tuple[dict[str, Any], bool]:
        """The answer to one request line, and whether to stop."""
        try:
            request = json.loads(line)
        except ValueError as error:
            return {"id": None, "ok": False, "error": "bad_request", "message": f"not JSON: {error}"}, False
        if not isinstance(request, dict):
            return {"id": None, "ok": False, "error": "bad_request", "message": "not a JSON object"}, False
        request_id = request.get("id")
        try:
            return {"id": request_id, "ok": True, **self.handle(request)}, request.get("cmd") == "stop"
        except Failure as failure:
            reply = {"id": request_id, "ok": False, "error": failure.code, "message": failure.message}
            return {**reply, **failure.extra}, False
        except Exception as error:  # a bug: say so and keep serving
            traceback.print_exc(file=sys.stderr)
            return {"id": request_id, "ok": False, "error": "engine_error", "message": f"{error!r}"}, False


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    server = Server()
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, stop = server.answer(line)
        out.write(json.dumps(reply) + "\n")
        out.flush()
        if stop:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
