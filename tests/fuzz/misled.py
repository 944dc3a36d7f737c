"""A double whose every hand is led by the seat before the dealer (PRE-09 broken), in process.

The reference, with each hand set (from its position just after the deal) to the seat before the
dealer as mano, its ``hand_dealt`` event naming that seat. Optionally it deals the next hand from
its own shuffle (``own_shuffle``: a deal with no cards, any other refused) and gives the diez de
últimas 0 points in its event (a second bug, of the count, that play must still reach).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from guinote_conformance.adapters.interface import JSON, Accepted, Action, EngineInfo, Outcome, Rejected, Setup
from guinote_conformance.adapters.reference import ReferenceEngine, ReferenceGame
from guinote_conformance.adapters.vocabulary import deck_codes


class MisledGame:
    def __init__(self, engine: MisledEngine, game: ReferenceGame, flags: dict[str, Any]) -> None:
        self.engine, self.game, self.flags = engine, game, flags
        self.shuffle = random.Random(7)
        self._mislead()

    def _mislead(self) -> None:
        hand = self.game.game.hand
        leader = (hand.dealer - 1) % hand.players
        position = {**self.game.game.position(), "leader": leader}
        self.game = self.engine.inner.start({"flags": self.flags, "position": position})

    def legal_actions(self) -> list[dict[str, JSON]]:
        actions = list(self.game.legal_actions())
        if self.engine.own_shuffle:
            actions = [{"type": "deal", "deck": []} if a.get("type") == "deal" else a for a in actions]
        return actions

    def apply(self, action: Action) -> Outcome:
        if action.get("type") == "deal" and self.engine.own_shuffle:
            if action.get("deck") or "hands" in action:
                return Rejected("BAD_ACTION", "", "this engine shuffles the next hand itself")
            deck = deck_codes(int(self.flags.get("deck", "40")))
            self.shuffle.shuffle(deck)
            players = int(self.flags.get("players", "4"))
            hands: list[JSON] = [list(deck[seat * 6 : seat * 6 + 6]) for seat in range(players)]
            rest: list[JSON] = list(deck[players * 6 :])
            action = {"type": "deal", "hands": hands, "muestra": rest[0], "stock": rest[1:]}
        outcome = self.game.apply(action)
        if not isinstance(outcome, Accepted):
            return outcome
        events = list(outcome.events)
        if action.get("type") == "deal":
            self._mislead()
            mano = self.game.game.hand.leader
            events = [{**e, "mano": mano} if e.get("type") == "hand_dealt" else e for e in events]
        if self.engine.ultimas_zero:
            events = [{**e, "points": 0} if e.get("type") == "ultimas" else e for e in events]
        return Accepted(events)

    def state(self, name: str) -> JSON:
        return self.game.state(name)

    def observation(self, seat: int, name: str) -> JSON:
        return self.game.observation(seat, name)


class MisledEngine:
    def __init__(self, *, own_shuffle: bool = False, ultimas_zero: bool = False) -> None:
        self.inner = ReferenceEngine()
        self.own_shuffle, self.ultimas_zero = own_shuffle, ultimas_zero

    def info(self) -> EngineInfo:
        info = self.inner.info()
        added = {"own_shuffle"} if self.own_shuffle else set()
        return replace(info, name="misled", capabilities=info.capabilities | added)

    def start(self, setup: Setup) -> MisledGame:
        return MisledGame(self, self.inner.start(setup), dict(setup.get("flags", {})))

    def close(self) -> None:
        return None


__all__ = ["MisledEngine"]
