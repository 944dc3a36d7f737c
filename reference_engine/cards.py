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
``7``   Siete
``6``   Seis
``5``   Cinco
``4``   Cuatro
``2``   Dos (not with 36 cards)
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
from collections.abc import Iterable, Mapping, Sequence
from functools import cache


class CardError(ValueError):
    """Raised for text that is not a card, or a deck that breaks the deal rules."""


class Suit(enum.Enum):
    """The four palos of the Spanish deck (DECK-01)."""

    OROS = "o"
    COPAS = "c"
    ESPADAS = "e"
    BASTOS = "b"

    # Each member is the one object of its palo (also when unpickled), so it hashes by identity:
    # the engine keys its tables by suit, and Enum's own hash is a Python call on the name.
    __hash__ = object.__hash__

    @property
    def spanish(self) -> str:
        """The palo's Spanish name, e.g. ``"oros"``."""
        return self.name.lower()


class Rank(enum.Enum):
    """Card ranks; :func:`strength_table` orders them inside a suit (DECK-05, DECK-06)."""

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

    __hash__ = object.__hash__  # one object per rank, as for Suit

    @property
    def points(self) -> int:
        """DECK-07/DECK-08: As 11, Tres 10, Rey 4, Sota 3, Caballo 2, the rest 0."""
        return _POINTS.get(self, 0)

    @property
    def spanish(self) -> str:
        """The rank's Spanish name, e.g. ``"sota"``."""
        return _SPANISH_RANK[self]


# DECK-07/DECK-08. interpretation (REGION-05, B-39): the 9 and 8 of the 48-card deck are worth
# 0 points, like the other low cards, so the cards still total 120.
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

#: DECK-05: As, 3, Rey, Sota, Caballo, 7, 6, 5, 4, 2 (highest first).
#: interpretation (REGION-03/04, B-39): no source ranks the 9 and 8 of the 48-card deck
#: (DECK-03); they sit just below the Caballo (``rank_8_9=below_caballo``) or just below the 7
#: (``below_seven``), the 9 above the 8.
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


class Card:
    """One card of the Spanish deck: a rank and a suit.

    Cards are interned: ``Card(rank, suit)`` returns the one object that stands for that card,
    so cards compare and hash by identity, which keeps the engine's inner loops cheap. A card
    cannot be changed. ``code`` is the canonical notation (``"Ao"``) and ``points`` its value
    in the count (DECK-07/08).
    """

    __slots__ = ("code", "points", "rank", "suit")
    rank: Rank
    suit: Suit
    code: str
    points: int

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return _INTERNED[rank, suit]
        except (KeyError, TypeError):
            raise CardError(f"no card has rank {rank!r} and suit {suit!r}") from None

    @classmethod
    def _intern(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        for name, value in (("rank", rank), ("suit", suit), ("code", rank.value + suit.value), ("points", rank.points)):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cards cannot be changed (tried to set {name!r} of {self.code})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cards cannot be changed (tried to delete {name!r} of {self.code})")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))  # unpickling and copying return the interned card

    @property
    def spanish(self) -> str:
        """The readable Spanish name, e.g. ``"as de oros"``."""
        return f"{self.rank.spanish} de {self.suit.spanish}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


_INTERNED: dict[tuple[Rank, Suit], Card] = {(rank, suit): Card._intern(rank, suit) for suit in Suit for rank in Rank}

#: Every card of the 48-card deck by its code, e.g. ``ALL_CARDS["Ao"]``.
ALL_CARDS: dict[str, Card] = {card.code: card for card in _INTERNED.values()}


@cache
def strength_table(rank_8_9: str = "below_caballo") -> Mapping[Card, int]:
    """Map each card to its strength inside its suit (higher wins), per the ``rank_8_9`` flag
    (DECK-05, DECK-06, B-39). Treat the mapping as read-only: it is shared."""
    order = RANK_ORDER_BELOW_SEVEN if rank_8_9 == "below_seven" else RANK_ORDER_BELOW_CABALLO
    by_rank = {rank: len(order) - index for index, rank in enumerate(order)}
    return {card: by_rank[card.rank] for card in ALL_CARDS.values()}


#: DECK-01/02: the 40-card deck has As, 2-7, Sota, Caballo and Rey in each suit.
_RANKS_40 = (
    Rank.AS,
    Rank.DOS,
    Rank.TRES,
    Rank.CUATRO,
    Rank.CINCO,
    Rank.SEIS,
    Rank.SIETE,
    Rank.SOTA,
    Rank.CABALLO,
    Rank.REY,
)
_RANKS_BY_DECK: dict[int, tuple[Rank, ...]] = {
    40: _RANKS_40,
    48: (*_RANKS_40, Rank.OCHO, Rank.NUEVE),  # DECK-03: Rincón de Ademuz
    36: tuple(rank for rank in _RANKS_40 if rank is not Rank.DOS),  # DECK-04: Castellón
}
DECK_SIZES: tuple[int, ...] = tuple(sorted(_RANKS_BY_DECK))
_DECKS: dict[int, tuple[Card, ...]] = {
    size: tuple(Card(rank, suit) for suit in Suit for rank in ranks) for size, ranks in _RANKS_BY_DECK.items()
}
_DECK_SETS: dict[int, frozenset[Card]] = {size: frozenset(cards) for size, cards in _DECKS.items()}


def deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a deck of ``size`` cards (40, 48 or 36), suit by suit (DECK-01/03/04)."""
    try:
        return _DECKS[size]
    except KeyError:
        raise CardError(f"unknown deck size {size}; valid sizes: {', '.join(map(str, DECK_SIZES))}") from None


def deck_set(size: int) -> frozenset[Card]:
    """The cards of the ``size``-card deck as a set."""
    deck(size)  # names the valid sizes on a bad one
    return _DECK_SETS[size]


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
    if not isinstance(text, str):
        raise CardError(f"unknown card {text!r}: a card is written as text, e.g. 'Ao'")
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


def codes(cards: Iterable[Card]) -> list[str]:
    """The canonical codes of ``cards``, in order."""
    return [card.code for card in cards]


def check_deck(cards: Sequence[Card], size: int) -> None:
    """DEAL-01/DECK-01: a deck order must hold each card of the ``size``-card deck exactly once."""
    expected = deck_set(size)
    if len(cards) == size and expected.issuperset(cards) and len(set(cards)) == size:
        return
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
