"""What both checks of an engine's harness set up and ask.

The deck of a game, shuffled by the seed (or the same cards as an explicit deal, for an engine
that deals its own way), and the names of the state fields of the vocabulary for a number of
players.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from guinote_conformance.adapters.vocabulary import DECK_RANKS, STATE_FIELDS, deck_codes


def explicit_deal(flags: Mapping[str, str], seed: int) -> dict[str, Any]:
    """The same shuffle as :func:`deck`, dealt as an explicit deal: six cards each, the muestra, the stock.

    For an engine that deals its own way and refuses deck orders (``deal`` flag values it lacks).
    """
    cards = deck(flags, seed)
    players = int(flags["players"]) if flags.get("players", "").isdigit() else 4
    hands = [cards[6 * seat : 6 * seat + 6] for seat in range(players)]
    return {"hands": hands, "muestra": cards[6 * players], "stock": cards[6 * players + 1 :]}


def deck(flags: Mapping[str, str], seed: int) -> list[str]:
    size = int(flags["deck"]) if flags.get("deck", "").isdigit() and int(flags["deck"]) in DECK_RANKS else 40
    cards = deck_codes(size)
    random.Random(seed).shuffle(cards)
    return cards


def field_names(players: int) -> list[str]:
    names: list[str] = []
    for name in STATE_FIELDS:
        if name.endswith(".<seat>"):
            names.extend(f"{name[:-7]}.{seat}" for seat in range(players))
        elif name.endswith(".<side>"):
            names.extend(f"{name[:-7]}.{side}" for side in range(2))
        else:
            names.append(name)
    return names
