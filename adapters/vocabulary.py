"""The shared vocabulary of the interface: cards, actions, events, fields and reason codes.

This is the data any engine has to speak; it does not depend on the reference engine.
"""

from __future__ import annotations

import re

SUITS = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
RANKS = {
    "A": "as",
    "3": "tres",
    "R": "rey",
    "S": "sota",
    "C": "caballo",
    "9": "nueve",
    "8": "ocho",
    "7": "siete",
    "6": "seis",
    "5": "cinco",
    "4": "cuatro",
    "2": "dos",
}
DECK_RANKS = {
    40: ["A", "2", "3", "4", "5", "6", "7", "S", "C", "R"],
    48: ["A", "2", "3", "4", "5", "6", "7", "8", "9", "S", "C", "R"],
    36: ["A", "3", "4", "5", "6", "7", "S", "C", "R"],
}
_SPANISH = re.compile(r"^\s*(\w+)\s+de\s+(\w+)\s*$", re.IGNORECASE)
_NUMBERS = {"1": "A", "10": "S", "11": "C", "12": "R"}


class NotationError(ValueError):
    """Text that is not a card of the notation."""


def deck_codes(size: int) -> list[str]:
    """Every card code of the ``size``-card deck, suit by suit."""
    return [rank + suit for suit in SUITS for rank in DECK_RANKS[size]]


def card_code(text: str) -> str:
    """Normalise a card written as ``Ao``, ``12o`` or ``as de oros`` to its code."""
    raw = text.strip()
    if len(raw) == 2 and raw[0] in RANKS and raw[1] in SUITS:
        return raw
    if raw[:-1] in _NUMBERS and raw[-1:] in SUITS:
        return _NUMBERS[raw[:-1]] + raw[-1]
    match = _SPANISH.match(raw.lower())
    if match:
        rank_word, suit_word = match.groups()
        ranks = {name: code for code, name in RANKS.items()} | _NUMBERS | {d: d for d in "2345679" if d in RANKS}
        suits = {name: code for code, name in SUITS.items()}
        if rank_word in ranks and suit_word in suits:
            return ranks[rank_word] + suits[suit_word]
    raise NotationError(
        f"unknown card {text!r}: write a rank (A 3 R S C 9 8 7 6 5 4 2) and a suit (o c e b), "
        "e.g. 'Ao', or the Spanish form, e.g. 'as de oros'"
    )


ACTION_TYPES = {
    "play": "play a card: seat, card",
    "cante": "sing the Rey and Sota of a suit (20, or 40 in trumps): seat, suit",
    "exchange": "exchange the seven of trumps (or the dos) for the muestra: seat",
    "draw": "every player draws after a free-phase trick, winner first",
    "claim": "claim 101 in a hand de vueltas: seat",
    "tute": "sing four Reyes (rank R) or four Sotas (rank S): seat, rank",
    "deal": (
        "deal the next hand from a deck order (deck, top card first), or, to an engine that deals its own "
        "way, as an explicit deal (hands in seat order, muestra, stock top first)"
    ),
}
#: The members of the explicit form of the ``deal`` action, which an engine that refuses deck
#: orders is given instead of ``deck`` (protocol.md, "the next hand").
EXPLICIT_DEAL = ("hands", "muestra", "stock")

EVENT_TYPES = {
    "card_played": "seat, card",
    "trick_won": "seat, side, points, cards",
    "cards_drawn": "draws: [[seat, card], ...] in drawing order",
    "arrastre_begins": "the stock and the muestra are exhausted",
    "cante": "seat, side, suit, value",
    "exchange": "seat, gave, took",
    "ultimas": "side, points (the diez de últimas)",
    "renuncio": "seat, card (or suit, for a cante), code, rule (renuncio_handling=lose_point; renuncio_faults)",
    "claim": "seat, side, valid",
    "tute": "seat, side, rank",
    "hand_over": "scores, totals, card_points, winner (side or null), reason, rule",
    "de_vueltas": "totals carried into the next hand",
    "point_won": "side, points, cotos",
    "coto_won": "side",
    "match_won": "side",
    "hand_dealt": "dealer, mano, muestra",
}

#: The rule each event carries out (``hand_over`` names its own in its ``rule`` field).
EVENT_RULES = {
    "card_played": "PLAY-02",
    "trick_won": "PLAY-05",
    "cards_drawn": "PLAY-08",
    "arrastre_begins": "PLAY-13",
    "cante": "CANTE-01",
    "exchange": "SEVEN-01",
    "ultimas": "SCORE-01",
    "renuncio": "RENUNCIO-07",
    "claim": "VUELTAS-06",
    "tute": "CANTE-22",
    "hand_over": "SCORE-02",
    "de_vueltas": "VUELTAS-02",
    "point_won": "MATCH-01",
    "coto_won": "MATCH-03",
    "match_won": "MATCH-05",
    "hand_dealt": "PRE-10",
}


#: Rule areas in rulebook order: (area id, the rule-ID prefixes it holds). The capability
#: ``reason_codes_<area>`` names one; the rule index (``features/index/``) has the same areas.
RULE_AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("deck", ("DECK",)),
    ("deal", ("PRE", "DEAL")),
    ("free_phase", ("PLAY",)),
    ("arrastre", ("ARR",)),
    ("cantes", ("CANTE",)),
    ("seven", ("SEVEN",)),
    ("scoring", ("SCORE",)),
    ("vueltas", ("VUELTAS",)),
    ("match", ("MATCH",)),
    ("renuncio", ("RENUNCIO",)),
    ("conduct", ("ETIQ",)),
    ("two_players", ("TWO",)),
    ("regional_decks", ("REGION",)),
)


def area_of_rule(rule: str) -> str | None:
    """The area of a rule ID (``ARR-03`` -> ``arrastre``), or ``None`` for no rule of the index."""
    prefix = rule.partition("-")[0]
    return next((area for area, prefixes in RULE_AREAS if prefix in prefixes), None)


#: Reason codes of a rejected action, with the rule each one enforces.
REASON_CODES = {
    "NOT_YOUR_TURN": "PLAY-02 / RENUNCIO-04",
    "CARD_NOT_IN_HAND": "PLAY-02",
    "MUST_DRAW_FIRST": "PLAY-09",
    "NOTHING_TO_DRAW": "PLAY-08",
    "MUST_FOLLOW_SUIT": "ARR-01",
    "MUST_BEAT": "ARR-02 / ARR-10",
    "MUST_TRUMP": "ARR-03",
    "MUST_OVERTRUMP": "ARR-04 (also a non-trump played onto a trumped trick while holding a higher trump)",
    "CANTE_NO_WON_TRICK": "CANTE-05",
    "CANTE_SUIT_ALREADY_SUNG": "CANTE-11",
    "CANTE_NO_PAIR": "CANTE-19",
    "CANTE_ONE_PER_TRICK": "CANTE-10",
    "CANTE_FORTY_FIRST": "CANTE-12",
    "TUTE_NOT_PLAYED": "CANTE-21",
    "TUTE_NOT_HELD": "CANTE-22",
    "EXCHANGE_NO_MUESTRA": "SEVEN-06",
    "EXCHANGE_MUESTRA_NOT_ELIGIBLE": "SEVEN-02 / SEVEN-09",
    "EXCHANGE_CARD_NOT_HELD": "SEVEN-01",
    "EXCHANGE_NO_WON_TRICK": "SEVEN-03 / SEVEN-04 / SEVEN-05",
    "EXCHANGE_WINDOW_CLOSED": "SEVEN-03",
    "CLAIM_NOT_ALLOWED": "VUELTAS-05",
    "CLAIM_NOT_NOW": "VUELTAS-05",
    "CLAIM_NOT_TRICK_WINNER": "VUELTAS-05",
    "HAND_OVER": "SCORE-02",
    "HAND_IN_PROGRESS": "PRE-10",
    "MATCH_OVER": "MATCH-05",
    "NO_SUCH_SEAT": "PRE-01",
}

#: State fields: ``<seat>`` and ``<side>`` stand for an index (``hand.0``, ``score.1``).
STATE_FIELDS = {
    "phase": "free, arrastre, hand_over or match_over",
    "players": "number of players",
    "turn": "seat to play a card, or null",
    "leader": "seat that leads (or led) the current trick",
    "dealer": "seat that dealt this hand",
    "mano": "seat to the dealer's right, first to lead",
    "trump": "trump suit letter",
    "muestra": "the face-up card under the stock, or null once drawn",
    "stock_count": "cards left to draw, the muestra included",
    "trick": "cards of the current trick, in playing order",
    "trick_seats": "seats that played them",
    "last_trick": "cards of the last completed trick",
    "last_trick_winner": "seat that won the last completed trick",
    "draw_pending": "true between a free-phase trick and its draw",
    "tricks_played": "completed tricks in this hand",
    "ultimas": "side that won the diez de últimas, or null",
    "cantes": "list of {seat, side, suit, value, arrastre}",
    "sung_suits": "suits already sung this hand",
    "exchange_done": "whether the muestra has been exchanged",
    "de_vueltas": "whether this hand is a hand de vueltas",
    "hand_in_point": "0 for the first hand of a point, 1+ de vueltas",
    "hand_winner": "side that won the point with this hand, or null",
    "hand_reason": "why the hand ended as it did",
    "hand_rule": "rule ID that decided the hand",
    "match.winner": "side that won the match, or null",
    "hand.<seat>": "cards in a seat's hand, in any order (compared as a set)",
    "hand_size.<seat>": "number of cards in a seat's hand",
    "card_points.<side>": "card points won this hand",
    "cante_points.<side>": "cante points this hand",
    "score.<side>": "card points + cantes + últimas this hand",
    "total.<side>": "running total of the point: what earlier hands de vueltas carried plus this hand's score",
    "tricks_won.<side>": "tricks won this hand",
    "won_cards.<side>": "cards won this hand, in any order (compared as a set)",
    "last_trick_won.<side>": "cards of the most recent trick the side won, in playing order (open to view, ETIQ-02)",
    "match.points.<side>": "points won in the current coto",
    "match.cotos.<side>": "cotos won",
}

#: Why a hand ended (``hand_over.reason`` and the ``hand_reason`` field).
HAND_END_REASONS = {
    "over_100": "a side passed 100 (in a hand de vueltas played out: the first side past 100)",
    "vueltas": "neither side passed 100: the hand goes de vueltas",
    "thirty_malas_lose": "the would-be winner lacked thirty malas and lost the point (thirty_malas=lose)",
    "thirty_malas_cannot_win": "the would-be winner lacked thirty malas; the opponents, past 100, win",
    "thirty_malas_vueltas": "the would-be winner lacked thirty malas: the hand goes de vueltas",
    "vueltas_reached_101": "de vueltas, a side reached 101 and the hand stopped (vueltas_end=automatic)",
    "claim_correct": "a claim of 101 was right",
    "claim_false": "a claim of 101 was wrong: the point goes to the opponents",
    "tute": "a tute won the point at once",
    "renuncio": "a renuncio cost the offending side the point (renuncio_handling=lose_point)",
}
