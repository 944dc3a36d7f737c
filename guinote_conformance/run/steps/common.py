"""The step definitions shared by every area: the closed vocabulary of the scenarios.

Each step translates its text into one call on :class:`guinote_conformance.run.driver.ScenarioRun`, which
talks to the engine only through the engine interface. Seats are numbers in playing order
(seat 1 plays after seat 0); sides are 0 (seats 0 and 2) and 1 (seats 1 and 3), or the seat
itself mano a mano. Suits are written oros, copas, espadas, bastos; cards in the notation of
``guinote_conformance.adapters.vocabulary`` (``Ao``, ``Sc``, ``7b``...).
"""

from __future__ import annotations

from typing import Any

from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.catalogue.player_phrasing import CardKind, PlayableKind
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.steps.phrasebook import given, then, when

SEAT = r"seat (?P<seat>\d+)"
SUIT = r"(?P<suit>oros|copas|espadas|bastos)"
Table = list[list[str]]

# Each step is declared in English and in Spanish (guinote_conformance.run.steps.phrasebook): the Spanish
# template's {fields} are the English pattern's groups; these are the English words of a group
# with their Spanish ones (a Spanish step hands the function the English words).
SING = {"sings": "canta", "tries to sing": "intenta cantar"}
MAY = {"may": "puede", "may not": "no puede"}
WON = {"point": "el punto", "coto": "el coto", "match": "el encuentro"}  # the match: «el encuentro», as in the rulebook


# ---------------------------------------------------------------------------------- Given


@given(
    r"the deck, top card first, dealt by seat (?P<dealer>\d+):",
    "el mazo, de arriba abajo, lo reparte el jugador {dealer}:",
    players=("{dealer} deals from this deck, top card first:", "{dealer} da las cartas de este mazo, de arriba abajo:"),
)
def deck_order(guinote_run: ScenarioRun, dealer: str, datatable: Table) -> None:
    guinote_run.deal_from_deck(int(dealer), datatable)


@given(
    r"a deal by seat (?P<dealer>\d+):",
    "un reparto del jugador {dealer}:",
    players=("{dealer} deals:", "{dealer} da las cartas así:"),
)
def explicit_deal(guinote_run: ScenarioRun, dealer: str, datatable: Table) -> None:
    guinote_run.explicit_deal(int(dealer), datatable)


@given(
    r"a hand in the arrastre, trumps in (?P<suit>\w+), seat (?P<leader>\d+) to lead:",
    "una mano en el arrastre, pintan {suit}, sale el jugador {leader}:",
    players=(
        "a hand in the arrastre, trumps in {suit}, {leader} to lead the trick:",
        "una mano en el arrastre; pintan {suit} y {leader} abre la baza:",
    ),
)
def arrastre_position(guinote_run: ScenarioRun, suit: str, leader: str, datatable: Table) -> None:
    guinote_run.position_hands(datatable, int(leader), muestra=None, trump=guinote_run.suit(suit))


@given(
    r"a hand in the free phase, muestra (?P<muestra>\w+), seat (?P<leader>\d+) to lead:",
    "una mano en la fase libre, muestra {muestra}, sale el jugador {leader}:",
    players=(
        "a hand in the free phase, the muestra {muestra}, {leader} to lead the trick:",
        "una mano en la fase libre; la muestra es {muestra} y {leader} abre la baza:",
    ),
)
def free_position(guinote_run: ScenarioRun, muestra: str, leader: str, datatable: Table) -> None:
    guinote_run.position_hands(datatable, int(leader), muestra=guinote_run.card(muestra), trump=None)


@given(
    r"the trick so far is (?P<cards>.+)",
    "en la baza ya se ha jugado {cards}",
    players=("the trick so far is {cards}", "en la baza ya se ha jugado {cards}"),
)
def trick_so_far(guinote_run: ScenarioRun, cards: str) -> None:
    assert guinote_run.position is not None, guinote_run.fail_input("describe the hands first")
    seat = int(guinote_run.position["leader"])
    trick = []
    for card in guinote_run.cards(cards):
        trick.append([seat, card])
        seat = (seat + 1) % guinote_run.players
    guinote_run.position_set("trick", trick)


@given(
    rf"{SEAT} won the last trick(?P<before_draw> and the cards are not drawn yet)?",
    "el jugador {seat} ganó la última baza[{before_draw}]",
    {"before_draw": {" and the cards are not drawn yet": " y aún no se ha robado"}},
    players=("{seat} won the last trick[{before_draw}]", "{seat} ganó la última baza[{before_draw}]"),
)
def won_last_trick(guinote_run: ScenarioRun, seat: str, before_draw: str | None) -> None:
    guinote_run.position_set("last_trick_winner", guinote_run.seat(int(seat)))
    if before_draw:
        guinote_run.position_set("draw_pending", True)


@given(
    r"the card points so far are (?P<a>\d+) for side 0 and (?P<b>\d+) for side 1",
    "los tantos de cartas hasta ahora son {a} del bando 0 y {b} del bando 1",
    players=(
        "so far {@side0} has {a} card points and {@side1} has {b}",
        "hasta ahora {@side0} lleva {a} tantos de cartas y {@side1}, {b}",
    ),
)
def card_points_so_far(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("card_points", [int(a), int(b)])


@given(
    r"the tricks won so far are (?P<a>\d+) for side 0 and (?P<b>\d+) for side 1",
    "las bazas ganadas hasta ahora son {a} del bando 0 y {b} del bando 1",
    players=(
        "so far {@side0} has won {a} tricks and {@side1} has won {b}",
        "hasta ahora {@side0} ha ganado {a} bazas y {@side1}, {b}",
    ),
)
def tricks_so_far(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("tricks_won", [int(a), int(b)])


@given(
    rf"{SEAT} has already sung {SUIT}",
    "el jugador {seat} ya ha cantado en {suit}",
    players=("{seat} has already sung in {suit}", "{seat} ya ha cantado en {suit}"),
)
def already_sung(guinote_run: ScenarioRun, seat: str, suit: str) -> None:
    assert guinote_run.position is not None, guinote_run.fail_input("describe the hands first")
    sung = list(guinote_run.position.get("sung", []))
    sung.append({"seat": guinote_run.seat(int(seat)), "suit": guinote_run.suit(suit)})
    guinote_run.position_set("sung", sung)


@given(
    "the muestra has already been exchanged",
    "ya se ha cambiado el siete por la muestra",
    players=("the muestra has already been exchanged", "ya se ha cambiado el siete por la muestra"),
)
def already_exchanged(guinote_run: ScenarioRun) -> None:
    guinote_run.position_set("exchange_done", True)


@given(
    r"the hand is de vueltas, with (?P<a>\d+) carried by side 0 and (?P<b>\d+) by side 1",
    "la mano es de vueltas, con {a} acumulados por el bando 0 y {b} por el bando 1",
    players=(
        "the hand is de vueltas, {@side0} bringing {a} points and {@side1} bringing {b}",
        "la mano es de vueltas: {@side0} trae {a} tantos y {@side1}, {b}",
    ),
)
def de_vueltas(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("hand_in_point", 1)
    guinote_run.position_set("carried", [int(a), int(b)])


@given(
    r"the match stands at (?P<a>\d+) points to (?P<b>\d+) and (?P<c>\d+) cotos to (?P<d>\d+)",
    "el encuentro va {a} puntos a {b} y {c} cotos a {d}",
    players=(
        "the match stands at {a} points and {c} cotos for {@side0}, {b} points and {d} cotos for {@side1}",
        "el encuentro va así: {@side0}, {a} puntos y {c} cotos; {@side1}, {b} puntos y {d} cotos",
    ),
)
def match_stands(guinote_run: ScenarioRun, a: str, b: str, c: str, d: str) -> None:
    guinote_run.position_set("match_points", [int(a), int(b)])
    guinote_run.position_set("cotos", [int(c), int(d)])


# ---------------------------------------------------------------------------------- When


@when(
    rf"{SEAT} (?P<attempt>plays|tries to play) (?P<card>\w+)$",
    "el jugador {seat} {attempt} {card}",
    {"attempt": {"plays": "juega", "tries to play": "intenta jugar"}},
    players=("{seat} {attempt} {card}", "{seat} {attempt} {card}"),
)
def play(guinote_run: ScenarioRun, seat: str, attempt: str, card: str) -> None:
    action = {"type": "play", "seat": guinote_run.seat(int(seat)), "card": guinote_run.card(card)}
    guinote_run.must(action) if attempt == "plays" else guinote_run.act(action)


@when(r"the cards are drawn$", "se roba", players=("the cards are drawn", "se roba"))
def draw(guinote_run: ScenarioRun) -> None:
    guinote_run.must({"type": "draw"})


@when(r"a draw is attempted$", "se intenta robar", players=("someone tries to draw", "se intenta robar"))
def draw_early(guinote_run: ScenarioRun) -> None:
    guinote_run.act({"type": "draw"})


@when(
    rf"{SEAT} (?P<attempt>sings|tries to sing) {SUIT}$",
    "el jugador {seat} {attempt} en {suit}",
    {"attempt": SING},
    players=("{seat} {attempt} in {suit}", "{seat} {attempt} en {suit}"),
)
def sing(guinote_run: ScenarioRun, seat: str, attempt: str, suit: str) -> None:
    action = {"type": "cante", "seat": guinote_run.seat(int(seat)), "suit": guinote_run.suit(suit)}
    guinote_run.must(action) if attempt == "sings" else guinote_run.act(action)


@when(
    rf"{SEAT} (?P<attempt>exchanges|tries to exchange) for the muestra$",
    "el jugador {seat} {attempt} el siete por la muestra",
    {"attempt": {"exchanges": "cambia", "tries to exchange": "intenta cambiar"}},
    players=("{seat} {attempt} the seven for the muestra", "{seat} {attempt} el siete por la muestra"),
)
def exchange(guinote_run: ScenarioRun, seat: str, attempt: str) -> None:
    action = {"type": "exchange", "seat": guinote_run.seat(int(seat))}
    guinote_run.must(action) if attempt == "exchanges" else guinote_run.act(action)


@when(
    rf"{SEAT} (?P<attempt>claims|tries to claim) 101$",
    "el jugador {seat} {attempt} 101",
    {"attempt": {"claims": "reclama", "tries to claim": "intenta reclamar"}},
    players=("{seat} {attempt} 101", "{seat} {attempt} las 101"),
)
def claim(guinote_run: ScenarioRun, seat: str, attempt: str) -> None:
    action = {"type": "claim", "seat": guinote_run.seat(int(seat))}
    guinote_run.must(action) if attempt == "claims" else guinote_run.act(action)


@when(
    rf"{SEAT} (?P<attempt>sings|tries to sing) tute of (?P<rank>reyes|sotas)$",
    "el jugador {seat} {attempt} tute de {rank}",
    {"attempt": SING},
    players=("{seat} {attempt} tute of {rank}", "{seat} {attempt} tute de {rank}"),
)
def tute(guinote_run: ScenarioRun, seat: str, attempt: str, rank: str) -> None:
    action = {"type": "tute", "seat": guinote_run.seat(int(seat)), "rank": "R" if rank == "reyes" else "S"}
    guinote_run.must(action) if attempt == "sings" else guinote_run.act(action)


@when(
    "these tricks are played:", "se juegan estas bazas:", players=("these tricks are played:", "se juegan estas bazas:")
)
def tricks(guinote_run: ScenarioRun, datatable: Table) -> None:
    guinote_run.play_tricks(datatable)


@when(
    "the rest of the hand is played, each seat playing its first legal card in deck order",
    "se juega el resto de la mano, cada jugador con su primera carta legal en el orden del mazo",
    players=(
        "the rest of the hand is played, each player playing his first allowed card in deck order",
        "se juega el resto de la mano: cada uno echa su primera carta permitida en el orden del mazo",
    ),
)
def play_out(guinote_run: ScenarioRun) -> None:
    guinote_run.play_out()


@when(
    "the next hand is dealt from the deck, top card first:",
    "la mano siguiente se reparte del mazo, de arriba abajo:",
    players=(
        "the next hand is dealt from this deck, top card first:",
        "la mano siguiente se reparte de este mazo, de arriba abajo:",
    ),
)
def next_deal(guinote_run: ScenarioRun, datatable: Table) -> None:
    order: list[str] = []
    rest = False
    for row in datatable:
        for word in " ".join(row).split():
            if word == "...":
                rest = True
            else:
                order.append(guinote_run.card(word))
    if rest:
        order += [code for code in deck_codes(guinote_run.deck_size) if code not in set(order)]
    guinote_run.deal_next(order)


@when(
    "a deal of the next hand is attempted",
    "se intenta repartir la mano siguiente",
    players=("someone tries to deal the next hand", "se intenta repartir la mano siguiente"),
)
def deal_attempt(guinote_run: ScenarioRun) -> None:
    """The next hand's deal asked for (the deck in its usual order), accepted or not."""
    guinote_run.attempt_deal_next(deck_codes(guinote_run.deck_size))


@when(
    "the next hand is dealt:",
    "la mano siguiente se reparte así:",
    players=("the next hand is dealt:", "la mano siguiente se reparte así:"),
)
def next_explicit_deal(guinote_run: ScenarioRun, datatable: Table) -> None:
    """The explicit form of the deal (rows per seat, the muestra, the stock): what an engine that
    deals its own way is given, and what compare writes for it."""
    guinote_run.deal_next_explicit(guinote_run.dealt_cards(datatable))


# ---------------------------------------------------------------------------------- Then


@then("the action is accepted", "la acción se acepta", players=("it is allowed", "se permite"))
def accepted(guinote_run: ScenarioRun) -> None:
    guinote_run.expect_accepted()


@then(
    r"the action is refused(?: as (?P<code>[A-Z_]+))?(?: under rule (?P<rule>[A-Z]+-\d+))?$",
    "la acción se rechaza[ como {code}][ según la regla {rule}]",
    players=("it is not allowed[: {code}][ (rule {rule})]", "no se permite[: {code}][ (regla {rule})]"),
)
def refused(guinote_run: ScenarioRun, code: str | None, rule: str | None) -> None:
    guinote_run.expect_refused(code, rule)


@then(
    rf"{SEAT} may play (?P<what>any card|exactly .+|.+)$",
    "el jugador {seat} puede jugar {what}",
    {"what": {"any card": "cualquier carta", "exactly *": "exactamente *", "*": "*"}},
    players=("{seat} may play {what}", "{seat} puede jugar {what}"),
    kinds={"what": PlayableKind()},
)
def may_play(guinote_run: ScenarioRun, seat: str, what: str) -> None:
    number = guinote_run.seat(int(seat))
    playable = guinote_run.playable(number)
    if what == "any card":
        guinote_run.expect_equal(
            f"cards seat {number} may play (its whole hand)", guinote_run.state(f"hand.{number}"), playable
        )
    elif what.startswith("exactly "):
        guinote_run.expect_equal(f"cards seat {number} may play", guinote_run.cards(what[8:]), playable)
    else:
        for card in guinote_run.cards(what):
            assert card in playable, (
                f"seat {number} may play {card}, but the engine allows only {' '.join(playable) or 'nothing'}"
            )


@then(
    rf"{SEAT} may not play (?P<cards>.+)$",
    "el jugador {seat} no puede jugar {cards}",
    players=("{seat} may not play {cards}", "{seat} no puede jugar {cards}"),
)
def may_not_play(guinote_run: ScenarioRun, seat: str, cards: str) -> None:
    number = guinote_run.seat(int(seat))
    playable = guinote_run.playable(number)
    for card in guinote_run.cards(cards):
        assert card not in playable, f"seat {number} may not play {card}, but the engine allows it"


def _may(guinote_run: ScenarioRun, allowed: bool, action: dict[str, Any], description: str) -> None:
    present = guinote_run.has_action(action)
    if allowed:
        assert present, f"{description} should be a legal action, but it is not among {guinote_run.legal()}"
    else:
        assert not present, f"{description} should not be a legal action, but the engine offers it"


@then(
    rf"{SEAT} (?P<modal>may|may not) sing {SUIT}$",
    "el jugador {seat} {modal} cantar en {suit}",
    {"modal": MAY},
    players=("{seat} {modal} sing in {suit}", "{seat} {modal} cantar en {suit}"),
)
def may_sing(guinote_run: ScenarioRun, seat: str, modal: str, suit: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(
        guinote_run,
        modal == "may",
        {"type": "cante", "seat": number, "suit": guinote_run.suit(suit)},
        f"seat {number} singing {suit}",
    )


@then(
    rf"{SEAT} (?P<modal>may|may not) exchange for the muestra$",
    "el jugador {seat} {modal} cambiar el siete por la muestra",
    {"modal": MAY},
    players=("{seat} {modal} exchange the seven for the muestra", "{seat} {modal} cambiar el siete por la muestra"),
)
def may_exchange(guinote_run: ScenarioRun, seat: str, modal: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(guinote_run, modal == "may", {"type": "exchange", "seat": number}, f"seat {number} exchanging for the muestra")


@then(
    rf"{SEAT} (?P<modal>may|may not) claim 101$",
    "el jugador {seat} {modal} reclamar 101",
    {"modal": MAY},
    players=("{seat} {modal} claim 101", "{seat} {modal} reclamar las 101"),
)
def may_claim(guinote_run: ScenarioRun, seat: str, modal: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(guinote_run, modal == "may", {"type": "claim", "seat": number}, f"seat {number} claiming 101")


@then(
    rf"{SEAT} (?P<modal>may|may not) sing tute of (?P<rank>reyes|sotas)$",
    "el jugador {seat} {modal} cantar tute de {rank}",
    {"modal": MAY},
    players=("{seat} {modal} sing tute of {rank}", "{seat} {modal} cantar tute de {rank}"),
)
def may_tute(guinote_run: ScenarioRun, seat: str, modal: str, rank: str) -> None:
    number = guinote_run.seat(int(seat))
    action = {"type": "tute", "seat": number, "rank": "R" if rank == "reyes" else "S"}
    _may(guinote_run, modal == "may", action, f"seat {number} singing tute of {rank}")


@then(
    r"the next hand (?P<modal>may|may not) be dealt$",
    "la mano siguiente {modal} repartirse",
    {"modal": MAY},
    players=("the next hand {modal} be dealt", "la mano siguiente {modal} repartirse"),
)
def may_deal(guinote_run: ScenarioRun, modal: str) -> None:
    _may(guinote_run, modal == "may", {"type": "deal"}, "dealing the next hand")


@then(
    r"the cards (?P<modal>must|need not) be drawn before the next lead$",
    "{modal} robar antes de la próxima salida",
    {"modal": {"must": "hay que", "need not": "no hace falta"}},
    players=("the cards {modal} be drawn before the next lead", "{modal} robar antes de volver a salir"),
)
def draw_due(guinote_run: ScenarioRun, modal: str) -> None:
    guinote_run.expect_equal("a draw is pending", modal == "must", guinote_run.state("draw_pending"))


@then(
    rf"{SEAT} wins the trick$",
    "el jugador {seat} gana la baza",
    players=("{seat} wins the trick", "{seat} gana la baza"),
)
def wins_trick(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal(
        "winner of the trick", guinote_run.seat(int(seat)), guinote_run.last_event("trick_won").get("seat")
    )


@then(
    r"the trick carries (?P<points>\d+) points$",
    "la baza vale {points} tantos",
    players=("the trick is worth {points} points", "la baza vale {points} tantos"),
)
def trick_points(guinote_run: ScenarioRun, points: str) -> None:
    guinote_run.expect_equal("points of the trick", int(points), guinote_run.last_event("trick_won").get("points"))


@then(
    rf"{SEAT} holds (?P<cards>.+)$",
    "el jugador {seat} tiene en la mano {cards}",
    players=("{seat} holds {cards}", "{seat} tiene en la mano {cards}"),
)
def holds(guinote_run: ScenarioRun, seat: str, cards: str) -> None:
    number = guinote_run.seat(int(seat))
    guinote_run.expect_equal(f"hand of seat {number}", guinote_run.cards(cards), guinote_run.state(f"hand.{number}"))


@then(
    rf"{SEAT} draws (?P<card>\w+)$",
    "el jugador {seat} roba {card}",
    players=("{seat} draws {card}", "{seat} roba {card}"),
)
def draws(guinote_run: ScenarioRun, seat: str, card: str) -> None:
    number = guinote_run.seat(int(seat))
    draws_made = guinote_run.last_event("cards_drawn").get("draws") or []
    got = [c for s, c in draws_made if s == number]
    guinote_run.expect_equal(f"card drawn by seat {number}", [guinote_run.card(card)], got)


@then(
    r"the draw order is seats (?P<seats>[\d, ]+)$",
    "roban por este orden los jugadores {seats}",
    players=("the order of drawing is {seats}", "roban por este orden: {seats}"),
)
def draw_order(guinote_run: ScenarioRun, seats: str) -> None:
    draws_made = guinote_run.last_event("cards_drawn").get("draws") or []
    expected = [int(s) for s in seats.replace(",", " ").split()]
    got = [s for s, _ in draws_made]
    if got != expected:
        raise AssertionError(f"draw order: expected seats {expected}, got {got}")


@then(r"the trump suit is (?P<suit>\w+)$", "pintan {suit}", players=("{suit} are trumps", "pintan {suit}"))
def trump_is(guinote_run: ScenarioRun, suit: str) -> None:
    guinote_run.expect_equal("trump suit", guinote_run.suit(suit), guinote_run.state("trump"))


@then(
    r"the muestra is (?P<card>\w+)$",
    "la muestra {card}",
    {"card": {"gone": "ya no está en la mesa", "*": "es *"}},
    players=("the muestra {card}", "la muestra {card}"),
    kinds={"card": CardKind({"gone": ("is gone", "ya no está en la mesa")}, ("is ", "es "))},
)
def muestra_is(guinote_run: ScenarioRun, card: str) -> None:
    expected = None if card == "gone" else guinote_run.card(card)
    guinote_run.expect_equal("muestra", expected, guinote_run.state("muestra"))


@then(
    r"the phase is (?P<phase>free|arrastre|hand_over|match_over)$",
    "la fase es {phase}",
    players=("play is {phase}", "se está {phase}"),
)
def phase_is(guinote_run: ScenarioRun, phase: str) -> None:
    guinote_run.expect_equal("phase", phase, guinote_run.state("phase"))


@then(
    r"(?P<count>\d+) cards? (?:is|are) left to draw$",
    "cartas que quedan por robar: {count}",
    players=("{count} cards are left to draw", "quedan {count} cartas por robar"),
)
def stock_count(guinote_run: ScenarioRun, count: str) -> None:
    guinote_run.expect_equal("cards left to draw", int(count), guinote_run.state("stock_count"))


@then(rf"it is {SEAT}'s turn$", "es el turno del jugador {seat}", players=("it is {seat}'s turn", "le toca a {seat}"))
def turn_is(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal("seat to play", guinote_run.seat(int(seat)), guinote_run.state("turn"))
