"""Cards, decks, ranks and points (rule area DECK).

Card notation
-------------
The canonical notation is two characters: an upper-case **rank** and a lower-case **suit**.

======  =========================  ======  ==========
rank    card                       suit    palo
======  =========================  ======  ==========
``A``   As (ace)                   ``o``   oros
``3``   Tres                       ``c``   copas
``R``   Rey (king, 12)             ``e``   espadas
``S``   Sota (jack, 10)            ``b``   bastos
``C``   Caballo (knight, 11)
``9``   Nueve (48-card deck only)
``8``   Ocho (48-card deck only)
``7`` ``6`` ``5`` ``4`` ``2``
======  =========================  ======  ==========

So ``Ao`` is the as de oros, ``Sc`` the sota de copas, ``Cb`` the caballo de bastos and
``7e`` the siete de espadas. :func:`parse_card` also reads the readable Spanish form
(``"as de oros"``, ``"rey de bastos"``, ``"7 de copas"``) and the printed numbers of the
Spanish deck (``"12o"`` for the rey de oros, ``"1e"`` for the as de espadas).
"""

from __future__ import annotations

import enum
import random
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class CardError(ValueError):
    """Raised for text that is not a card, or a deck that breaks the deal rules."""


class Suit(enum.Enum):
    """The four palos of the Spanish deck (DECK-01)."""

    OROS = "o"
    COPAS = "c"
    ESPADAS = "e"
    BASTOS = "b"

    @property
    def spanish(self) -> str:
        return self.name.lower()


class Rank(enum.Enum):
    """Card ranks; ``strength`` orders them inside a suit (DECK-05, DECK-06)."""

    AS = "A"
    TRES = "3"
    REY = "R"
    SOTA = "S"
    CABALLO = "C"
    NUEVE = "9"
    OCHO = "8"
    SIETE = "7"
    SEIS = "6"
    CINCO = "5"
    CUATRO = "4"
    DOS = "2"

    @property
    def points(self) -> int:
        """DECK-07/DECK-08: As 11, Tres 10, Rey 4, Sota 3, Caballo 2, the rest 0."""
        return _POINTS.get(self, 0)

    @property
    def spanish(self) -> str:
        return _SPANISH_RANK[self]


_POINTS = {Rank.AS: 11, Rank.TRES: 10, Rank.REY: 4, Rank.SOTA: 3, Rank.CABALLO: 2}
_SPANISH_RANK = {
    Rank.AS: "as",
    Rank.TRES: "tres",
    Rank.REY: "rey",
    Rank.SOTA: "sota",
    Rank.CABALLO: "caballo",
    Rank.NUEVE: "nueve",
    Rank.OCHO: "ocho",
    Rank.SIETE: "siete",
    Rank.SEIS: "seis",
    Rank.CINCO: "cinco",
    Rank.CUATRO: "cuatro",
    Rank.DOS: "dos",
}

#: DECK-05: As, 3, Rey, Sota, Caballo, 7, 6, 5, 4, 2 (highest first). DECK-03 / B-39:
#: in the 48-card deck the 9 and 8 sit just below the Caballo (``rank_8_9=below_caballo``)
#: or just below the 7 (``rank_8_9=below_seven``).
RANK_ORDER_BELOW_CABALLO: tuple[Rank, ...] = (
    Rank.AS,
    Rank.TRES,
    Rank.REY,
    Rank.SOTA,
    Rank.CABALLO,
    Rank.NUEVE,
    Rank.OCHO,
    Rank.SIETE,
    Rank.SEIS,
    Rank.CINCO,
    Rank.CUATRO,
    Rank.DOS,
)
RANK_ORDER_BELOW_SEVEN: tuple[Rank, ...] = (
    Rank.AS,
    Rank.TRES,
    Rank.REY,
    Rank.SOTA,
    Rank.CABALLO,
    Rank.SIETE,
    Rank.NUEVE,
    Rank.OCHO,
    Rank.SEIS,
    Rank.CINCO,
    Rank.CUATRO,
    Rank.DOS,
)


def strength_table(rank_8_9: str = "below_caballo") -> dict[Rank, int]:
    """Map each rank to its strength inside a suit (higher wins), per the ``rank_8_9`` flag."""
    order = RANK_ORDER_BELOW_SEVEN if rank_8_9 == "below_seven" else RANK_ORDER_BELOW_CABALLO
    return {rank: len(order) - index for index, rank in enumerate(order)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the Spanish deck."""

    rank: Rank
    suit: Suit

    @property
    def code(self) -> str:
        """The canonical two-character notation, e.g. ``"Ao"``."""
        return self.rank.value + self.suit.value

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def spanish(self) -> str:
        return f"{self.rank.spanish} de {self.suit.spanish}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


#: DECK-01/02: the 40-card deck has As, 2-7, Sota, Caballo and Rey in each suit.
_RANKS_40 = (Rank.AS, Rank.DOS, Rank.TRES, Rank.CUATRO, Rank.CINCO, Rank.SEIS, Rank.SIETE,
             Rank.SOTA, Rank.CABALLO, Rank.REY)
_RANKS_BY_DECK: dict[int, tuple[Rank, ...]] = {
    40: _RANKS_40,
    48: _RANKS_40 + (Rank.OCHO, Rank.NUEVE),  # DECK-03: Rincón de Ademuz
    36: tuple(rank for rank in _RANKS_40 if rank is not Rank.DOS),  # DECK-04: Castellón
}
DECK_SIZES: tuple[int, ...] = tuple(sorted(_RANKS_BY_DECK))

ALL_CARDS: dict[str, Card] = {
    rank.value + suit.value: Card(rank, suit) for suit in Suit for rank in Rank
}


def deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a deck of ``size`` cards (40, 48 or 36), suit by suit (DECK-01/03/04)."""
    try:
        ranks = _RANKS_BY_DECK[size]
    except KeyError:
        raise CardError(f"unknown deck size {size}; valid sizes: {', '.join(map(str, DECK_SIZES))}") from None
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


def shuffled_deck(size: int, seed: int) -> list[Card]:
    """A reproducible shuffle of the deck for random play (the same seed gives the same order)."""
    cards = list(deck(size))
    random.Random(seed).shuffle(cards)
    return cards


_SPANISH_RANK_WORDS = {
    **{name: rank for rank, name in _SPANISH_RANK.items()},
    "1": Rank.AS,
    "10": Rank.SOTA,
    "11": Rank.CABALLO,
    "12": Rank.REY,
    **{rank.value: rank for rank in Rank if rank.value.isdigit()},
}
_NUMBER_RANKS = {"1": Rank.AS, "10": Rank.SOTA, "11": Rank.CABALLO, "12": Rank.REY}
_SPANISH_SUIT_WORDS = {suit.spanish: suit for suit in Suit}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).strip().lower()


def parse_card(text: str) -> Card:
    """Read a card in canonical (``"Ao"``), number (``"12o"``) or Spanish (``"as de oros"``) form.

    Raises :class:`CardError` naming the text when it is not a card.
    """
    raw = text.strip()
    if raw in ALL_CARDS:
        return ALL_CARDS[raw]
    if len(raw) in (2, 3) and raw[:-1] in _NUMBER_RANKS and raw[-1] in "ocebOCEB":
        return Card(_NUMBER_RANKS[raw[:-1]], Suit(raw[-1].lower()))
    folded = _fold(raw)
    words = folded.split()
    if len(words) == 3 and words[1] == "de":
        rank = _SPANISH_RANK_WORDS.get(words[0])
        suit = _SPANISH_SUIT_WORDS.get(words[2])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(
        f"unknown card {text!r}: write a rank (A 3 R S C 9 8 7 6 5 4 2) then a suit "
        f"(o c e b), e.g. 'Ao', or the Spanish form, e.g. 'as de oros'"
    )


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(text) for text in texts]


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def check_deck(cards: Sequence[Card], size: int) -> None:
    """DEAL: a deck order must hold each card of the ``size``-card deck exactly once."""
    expected = set(deck(size))
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"card {card.code} appears twice in the deck")
        if card not in expected:
            raise CardError(f"card {card.code} is not in the {size}-card deck")
        seen.add(card)
    if len(cards) != size:
        missing = sorted(card.code for card in expected - seen)
        raise CardError(f"the deck has {len(cards)} cards, expected {size}; missing: {' '.join(missing)}")
