"""Test doubles: engines that deal the next hand themselves, as every real engine does, and so
refuse the cards the harness gives for it.

Each wraps the reference engine (its rules are right; or a broken one, ``inner``: the catalogue's
``own_shuffle`` shape, :mod:`tests.broken_engines.shapes`) and changes only the deal of the next hand
(a hand de vueltas, or the first hand of a new point), in the ``hand_over`` phase:

* :func:`make`: refuses a next deal with cards in either form (a deck order, or the explicit
  hands, muestra and stock) and deals from its own shuffle when given none; it does not declare
  ``own_shuffle`` (the mistake the run's hint is about);
* :func:`declared`: the same, declaring ``own_shuffle``;
* :func:`deck_orders_only`: takes the next hand as a deck order, refuses its explicit form (an
  engine that takes deck orders is never owed the explicit form: protocol.md, Versioning);
* :func:`explicit_only`: takes the next hand as its explicit form, refuses a deck order (and a
  deck-order setup, as :mod:`tests.harness.explicit_deal_engine`);
* :func:`deals_mid_hand`: :func:`declared` with a rule bug (PRE-10): it takes a deal with no
  cards while a hand is being played.

Their first hand is set up as the reference's is: only the next deal differs.
"""

from __future__ import annotations

import random
from dataclasses import replace

from guinote_conformance.adapters.interface import (
    JSON,
    OWN_SHUFFLE,
    Accepted,
    Action,
    Engine,
    EngineInfo,
    GameHandle,
    Outcome,
    Rejected,
    Setup,
    SetupRejected,
)
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import EXPLICIT_DEAL, deck_codes

#: the forms of the next deal each double refuses: "deck" (a deck order), "explicit" (hands, muestra, stock)
REFUSE_ALL = frozenset({"deck", "explicit"})


class NextDealGame:
    def __init__(self, game: GameHandle, refused: frozenset[str], deck_size: int, *, mid_hand: bool = False) -> None:
        self.game = game
        self.refused = refused
        self.mid_hand = mid_hand
        self.deck_size = deck_size
        self.shuffle = random.Random(deck_size)

    def legal_actions(self) -> list[dict[str, JSON]]:
        return self.game.legal_actions()

    def apply(self, action: Action) -> Outcome:
        if action.get("type") != "deal":
            return self.game.apply(action)
        if self.game.state("phase") != "hand_over":
            if self.mid_hand and not action.get("deck") and "hands" not in action:
                return Accepted([])  # the bug: the deal is taken while the hand is played
            return self.game.apply(action)  # a deal asked for too soon is refused by the rules
        form = "explicit" if any(key in action for key in EXPLICIT_DEAL) else "deck" if action.get("deck") else ""
        if form in self.refused:
            return Rejected("BAD_ACTION", "", f"this engine deals the next hand itself: no {form} form of it")
        if not form:  # no cards: the engine's own shuffle
            deck = deck_codes(self.deck_size)
            self.shuffle.shuffle(deck)
            action = {"type": "deal", "deck": deck}
        return self.game.apply(action)

    def state(self, name: str) -> JSON:
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.game.observation(seat, name)


class NextDealEngine:
    def __init__(
        self,
        refused: frozenset[str],
        *,
        own_shuffle: bool = False,
        deck_setups: bool = True,
        mid_hand: bool = False,
        inner: Engine | None = None,
    ) -> None:
        self.inner: Engine = inner or ReferenceEngine()
        self.refused = refused
        self.mid_hand = mid_hand
        self.own_shuffle = own_shuffle
        self.deck_setups = deck_setups
        self.inner_is_reference = inner is None

    def info(self) -> EngineInfo:
        info = self.inner.info()
        capabilities = info.capabilities | {OWN_SHUFFLE} if self.own_shuffle else info.capabilities - {OWN_SHUFFLE}
        name = "next-deal" if self.inner_is_reference else f"{info.name}-own_shuffle"
        return replace(info, name=name, capabilities=frozenset(capabilities))

    def start(self, setup: Setup) -> NextDealGame:
        if "deck" in setup and not self.deck_setups:
            raise SetupRejected("this engine deals its own way: give the hands", ["deal=deck order"])
        flags = setup.get("flags")
        deck_size = int(str(flags.get("deck", 40))) if isinstance(flags, dict) else 40
        return NextDealGame(self.inner.start(setup), self.refused, deck_size, mid_hand=self.mid_hand)

    def close(self) -> None:
        self.inner.close()


def make() -> NextDealEngine:
    return NextDealEngine(REFUSE_ALL)


def declared() -> NextDealEngine:
    return NextDealEngine(REFUSE_ALL, own_shuffle=True)


def deck_orders_only() -> NextDealEngine:
    return NextDealEngine(frozenset({"explicit"}))


def explicit_only() -> NextDealEngine:
    return NextDealEngine(frozenset({"deck"}), deck_setups=False)


def deals_mid_hand() -> NextDealEngine:
    return NextDealEngine(REFUSE_ALL, own_shuffle=True, mid_hand=True)
