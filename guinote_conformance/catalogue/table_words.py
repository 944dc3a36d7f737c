"""The table's words: how players name the seats, the cards and what a scenario checks, in English and Spanish.

The interface's vocabulary (:mod:`guinote_conformance.adapters.vocabulary`) names things for engines:
seat numbers, card codes (``5c``), reason codes (``MUST_FOLLOW_SUIT``), hand-end reasons
(``over_100``), phases, state fields and event members. A player says «el 5 de copas», «tiene que
asistir», «una pareja pasa de 100». This module holds the players' words for every one of those
codes, keyed by the vocabulary's own keys (``tests/harness/test_player_phrasing.py`` checks that
none is missing), and the names of the seats as at the table (:class:`Seating`): a scenario that
shows a deal names its players from the dealer (the mano is the player after the dealer in the
order of play, on his right: PRE-09); one that starts from a hand under way names them from the
player who leads its first trick.

Each entry is ``(english, spanish)``. The Spanish is club Spanish: «pareja» only for two partners,
«el rey y la sota» for the cards of a cante, no code and no English word.

In: the vocabulary's keys. Out: the word tables and :class:`Seating`.
"""

from __future__ import annotations

from dataclasses import dataclass

from guinote_conformance.adapters.vocabulary import SUITS

#: a language of the players' phrasing: 0 English, 1 Spanish (the index into a word pair)
LANGUAGE_INDEX = {"en": 0, "es": 1}

#: the names of the seats, in playing order from the one they are named after (the dealer or the leader)
SEAT_NAMES: dict[tuple[str, int], tuple[tuple[str, str], ...]] = {
    ("dealer", 4): (
        ("the dealer", "el que reparte"),
        ("the mano", "el mano"),
        ("the dealer's partner", "el compañero del que reparte"),
        ("the mano's partner", "el compañero del mano"),
    ),
    ("dealer", 2): (("the dealer", "el que reparte"), ("the mano", "el mano")),
    ("leader", 4): (
        ("the leader", "el que sale"),
        ("the second player", "el segundo"),
        ("the leader's partner", "el compañero del que sale"),
        ("the last player", "el último"),
    ),
    ("leader", 2): (("the leader", "el que sale"), ("the other player", "el otro")),
}
#: the two sides of four players: the side of the seat named first (the dealer's, the leader's), the other
SIDE_NAMES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "dealer": (("the dealer's side", "la pareja del que reparte"), ("the mano's side", "la pareja del mano")),
    "leader": (("the leader's side", "la pareja del que sale"), ("the other side", "la otra pareja")),
}
#: the sentence that says on the page how the players are named
CONVENTIONS: dict[str, tuple[str, str]] = {
    "dealer": (
        "The players are named from the dealer of the scenario's first hand: the mano is the player on "
        "his right, who plays first; play goes to the right.",
        "Los jugadores se nombran a partir del que reparte la primera mano del escenario: el mano es el de "
        "su derecha, que juega primero; se juega hacia la derecha.",
    ),
    "leader": (
        "The hand is already under way: the players are named from the one who leads the scenario's "
        "first trick (the leader), in the order of play, to the right.",
        "La mano ya está empezada: los jugadores se nombran a partir del que sale en la primera baza del "
        "escenario, por orden de juego, hacia la derecha.",
    ),
}


@dataclass(frozen=True)
class Seating:
    """Who is who at a scenario's table: named from the dealer if it shows one, else from the leader."""

    players: int = 4
    dealer: int | None = None
    leader: int | None = None

    @property
    def by(self) -> str:
        return "dealer" if self.dealer is not None else "leader"

    @property
    def anchor(self) -> int:
        return self.dealer if self.dealer is not None else (self.leader or 0)

    def seat(self, seat: int, language: str) -> str:
        names = SEAT_NAMES[(self.by, self.players)]
        return names[(seat - self.anchor) % self.players][LANGUAGE_INDEX[language]]

    def side(self, side: int, language: str) -> str:
        if self.players == 2:  # mano a mano, each player is his own side
            return self.seat(side, language)
        own = self.anchor % 2
        return SIDE_NAMES[self.by][0 if side == own else 1][LANGUAGE_INDEX[language]]

    def convention(self, language: str) -> str:
        return CONVENTIONS[self.by][LANGUAGE_INDEX[language]]


#: the rank of a card as a player names it (the pips by their number); the Spanish article of the name
RANK_WORDS = {"A": ("As", "As"), "S": ("Sota", "Sota"), "C": ("Caballo", "Caballo"), "R": ("Rey", "Rey")}
FEMININE = {"S"}


def card_words(code: str, language: str) -> str:
    """``5c`` -> ``the 5 de copas`` / «el 5 de copas»; ``Sc`` -> «la sota de copas»."""
    rank, suit = code[0], SUITS[code[1]]
    index = LANGUAGE_INDEX[language]
    word = RANK_WORDS[rank][index] if rank in RANK_WORDS else rank
    article = "the" if index == 0 else ("la" if rank in FEMININE else "el")
    return f"{article} {word} de {suit}"


#: why an action is refused (``REASON_CODES``), as a player says it after «no se permite:»
REASON_WORDS: dict[str, tuple[str, str]] = {
    "NOT_YOUR_TURN": ("it is not his turn", "no es su turno"),
    "CARD_NOT_IN_HAND": ("he does not hold that card", "no tiene esa carta"),
    "MUST_DRAW_FIRST": ("the cards must be drawn first", "antes hay que robar"),
    "NOTHING_TO_DRAW": ("there is nothing left to draw", "no queda nada por robar"),
    "MUST_FOLLOW_SUIT": ("he must follow suit", "tiene que asistir"),
    "MUST_BEAT": ("he must beat the trick (montar)", "tiene que montar"),
    "MUST_TRUMP": ("he must trump (fallar)", "tiene que fallar"),
    "MUST_OVERTRUMP": ("he must overtrump (pisar)", "tiene que pisar el triunfo"),
    "CANTE_NO_WON_TRICK": ("one sings only after winning a trick", "solo se canta después de ganar una baza"),
    "CANTE_SUIT_ALREADY_SUNG": ("that suit has been sung already", "ese palo ya está cantado"),
    "CANTE_NO_PAIR": ("he does not hold the Rey and Sota of that suit", "no tiene el Rey y la Sota de ese palo"),
    "CANTE_ONE_PER_TRICK": ("only one cante after each trick", "solo se canta una vez en cada baza"),
    "CANTE_FORTY_FIRST": ("the forty are sung first", "primero se cantan las cuarenta"),
    "TUTE_NOT_PLAYED": ("tute is not sung in this game", "en este juego no se canta tute"),
    "TUTE_NOT_HELD": ("he does not hold the four cards of the tute", "no tiene las cuatro cartas del tute"),
    "EXCHANGE_NO_MUESTRA": ("there is no muestra left", "ya no hay muestra"),
    "EXCHANGE_MUESTRA_NOT_ELIGIBLE": ("that muestra cannot be exchanged", "esa muestra no se puede cambiar"),
    "EXCHANGE_CARD_NOT_HELD": ("he does not hold the card to exchange", "no tiene la carta para cambiar"),
    "EXCHANGE_NO_WON_TRICK": ("one exchanges only after winning a trick", "solo se cambia después de ganar una baza"),
    "EXCHANGE_WINDOW_CLOSED": ("it is too late to exchange", "ya no es momento de cambiar"),
    "CLAIM_NOT_ALLOWED": ("these rules have no claim of 101", "con estas reglas no se reclaman las 101"),
    "CLAIM_NOT_NOW": ("it is not the moment to claim", "no es momento de reclamar"),
    "CLAIM_NOT_TRICK_WINNER": ("only the winner of the last trick claims", "solo reclama quien ganó la última baza"),
    "HAND_OVER": ("the hand is over", "la mano ya se ha acabado"),
    "HAND_IN_PROGRESS": ("the hand is still being played", "la mano aún se está jugando"),
    "MATCH_OVER": ("the match is over", "el encuentro ya se ha acabado"),
    "NO_SUCH_SEAT": ("there is no such player", "no hay tal jugador"),
}

#: why a hand ends (``HAND_END_REASONS``), after «se acaba la mano:»
HAND_END_WORDS: dict[str, tuple[str, str]] = {
    "over_100": ("a side passes 100", "una pareja pasa de 100"),
    "vueltas": ("no side passes 100, the hand goes de vueltas", "nadie pasa de 100, se va de vueltas"),
    "thirty_malas_lose": (
        "the winner lacks the thirty malas and loses the point",
        "al ganador le faltan las treinta malas y pierde el punto",
    ),
    "thirty_malas_cannot_win": (
        "the winner lacks the thirty malas and the other side, past 100, wins",
        "al ganador le faltan las treinta malas y gana la otra pareja, que pasa de 100",
    ),
    "thirty_malas_vueltas": (
        "the winner lacks the thirty malas and the hand goes de vueltas",
        "al ganador le faltan las treinta malas y se va de vueltas",
    ),
    "vueltas_reached_101": (
        "de vueltas, a side reaches 101 and play stops",
        "de vueltas, una pareja llega a 101 y se para",
    ),
    "claim_correct": ("the claim of 101 was right", "las 101 estaban bien reclamadas"),
    "claim_false": ("the claim of 101 was wrong", "las 101 estaban mal reclamadas"),
    "tute": ("a tute wins the point", "un tute gana el punto"),
    "renuncio": ("a renuncio costs the point", "un renuncio cuesta el punto"),
}

#: the phases of a hand (the ``phase`` field), after «se está»
PHASE_WORDS: dict[str, tuple[str, str]] = {
    "free": ("in the free phase, drawing after each trick", "en la fase libre, robando tras cada baza"),
    "arrastre": ("in the arrastre", "en el arrastre"),
    "hand_over": ("at the end of the hand", "al final de la mano"),
    "match_over": ("at the end of the match", "al final del encuentro"),
}

#: the events (``EVENT_TYPES``), after «hay» / «no hay»
EVENT_WORDS: dict[str, tuple[str, str]] = {
    "card_played": ("a card played", "carta jugada"),
    "trick_won": ("a trick won", "baza ganada"),
    "cards_drawn": ("a draw", "robo"),
    "arrastre_begins": ("the start of the arrastre", "comienzo del arrastre"),
    "cante": ("a cante", "cante"),
    "exchange": ("an exchange of the muestra", "cambio de la muestra"),
    "ultimas": ("the diez de últimas", "diez de últimas"),
    "renuncio": ("a renuncio", "renuncio"),
    "claim": ("a claim of 101", "reclamación de las 101"),
    "tute": ("a tute", "tute"),
    "hand_over": ("an end of the hand", "final de la mano"),
    "de_vueltas": ("a hand de vueltas", "mano de vueltas"),
    "point_won": ("a point won", "punto ganado"),
    "coto_won": ("a coto won", "coto ganado"),
    "match_won": ("a match won", "encuentro ganado"),
    "hand_dealt": ("a deal", "reparto"),
}

#: an event's members that scenarios check: (what the member holds, its words)
MEMBER_WORDS: dict[str, tuple[str, tuple[str, str]]] = {
    "seat": ("seat", ("who", "quién")),
    "side": ("side", ("the side", "la pareja")),
    "rank": ("rank", ("of", "de")),
    "valid": ("bool", ("right", "bien hecho")),
    "card": ("card", ("the card", "la carta")),
    "suit": ("suit", ("the suit", "el palo")),
}

#: the state fields and what a seat sees that scenarios check: (what the field holds, its words).
#: ``{seat}`` and ``{side}`` in the words stand for the field's index, named as at the table.
FIELD_WORDS: dict[str, tuple[str, tuple[str, str]]] = {
    "phase": ("phase", ("the phase", "la fase")),
    "players": ("number", ("the players", "los jugadores")),
    "turn": ("seat", ("whose turn it is", "a quién le toca")),
    "leader": ("seat", ("who leads", "quién sale")),
    "dealer": ("seat", ("who deals", "quién reparte")),
    "mano": ("seat", ("who is mano", "quién es mano")),
    "trump": ("suit", ("the trump suit", "el palo que pinta")),
    "muestra": ("card", ("the muestra", "la muestra")),
    "stock_count": ("number", ("the cards left to draw", "las cartas por robar")),
    "trick": ("cards", ("the trick in play", "la baza en juego")),
    "trick_seats": ("seats", ("who played to the trick", "quién ha jugado a la baza")),
    "last_trick": ("cards", ("the last trick", "la última baza")),
    "last_trick_winner": ("seat", ("who won the last trick", "quién ganó la última baza")),
    "draw_pending": ("bool", ("a draw to come", "robo pendiente")),
    "tricks_played": ("number", ("the tricks played", "las bazas jugadas")),
    "ultimas": ("side", ("who has the diez de últimas", "quién tiene las diez de últimas")),
    "cantes": ("cantes", ("the cantes", "los cantes")),
    "sung_suits": ("suits", ("the suits sung", "los palos cantados")),
    "exchange_done": ("bool", ("the muestra exchanged", "muestra cambiada")),
    "de_vueltas": ("bool", ("a hand de vueltas", "mano de vueltas")),
    "hand_in_point": ("number", ("the hands already played in this point", "las manos ya jugadas en este punto")),
    "hand_winner": ("side", ("who won the point with this hand", "quién ganó el punto con esta mano")),
    "hand_reason": ("reason", ("why the hand ended", "por qué se acabó la mano")),
    "hand_rule": ("rule", ("the rule that ends the hand", "la regla que acaba la mano")),
    "match.winner": ("side", ("who won the match", "quién ha ganado el encuentro")),
    "hand.{seat}": ("cards", ("the cards of {seat}", "las cartas de {seat}")),
    "hand_size.{seat}": ("number", ("the cards in the hand of {seat}", "las cartas que tiene {seat}")),
    "card_points.{side}": ("number", ("the card points of {side}", "los tantos de cartas de {side}")),
    "cante_points.{side}": ("number", ("the cante points of {side}", "los tantos de cante de {side}")),
    "score.{side}": ("number", ("the points of {side} in the hand", "los tantos de {side} en la mano")),
    "total.{side}": ("number", ("the points of {side} in total", "los tantos de {side} en total")),
    "tricks_won.{side}": ("number", ("the tricks won by {side}", "las bazas ganadas por {side}")),
    "won_cards.{side}": ("cards", ("the cards won by {side}", "las cartas ganadas por {side}")),
    "last_trick_won.{side}": ("cards", ("the last trick won by {side}", "la última baza ganada por {side}")),
    "match.points.{side}": ("number", ("the points of {side} in the coto", "los puntos de {side} en el coto")),
    "match.cotos.{side}": ("number", ("the cotos of {side}", "los cotos de {side}")),
}

#: values that are not codes: nothing, yes and no, nobody
NOTHING = ("nothing", "nada")
NOBODY = ("nobody", "nadie")
NONE = ("none", "ninguno")
YES_NO = (("yes", "sí"), ("no", "no"))
NO_CARD = ("no card", "ninguna carta")
#: the Rey and Sota of a cante: twenty or forty; a cante in the arrastre; a cante whose suit is hidden
CANTE_VALUES = {20: ("the twenty", "las veinte"), 40: ("the forty", "las cuarenta")}
IN_ARRASTRE = ("in the arrastre", "en el arrastre")
HIDDEN_SUIT = ("in a suit not shown", "sin enseñar el palo")
#: a tute's rank (``reyes``, ``sotas`` in the steps; ``R``, ``S`` in events)
TUTE_RANKS = {"reyes": ("Reyes", "reyes"), "sotas": ("Sotas", "sotas")}
#: the labels of a deal's rows other than seats
ROW_WORDS = {"muestra": ("the muestra", "la muestra"), "stock": ("the stock", "el mazo")}
REST_OF_DECK = ("the rest of the deck", "el resto del mazo")
