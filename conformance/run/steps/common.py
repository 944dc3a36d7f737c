"""The step definitions shared by every area: the closed vocabulary of the scenarios.

Each step translates its text into one call on :class:`conformance.run.driver.ScenarioRun`, which
talks to the engine only through the engine interface. Seats are numbers in playing order
(seat 1 plays after seat 0); sides are 0 (seats 0 and 2) and 1 (seats 1 and 3), or the seat
itself mano a mano. Suits are written oros, copas, espadas, bastos; cards in the notation of
``adapters.vocabulary`` (``Ao``, ``Sc``, ``7b``...).
"""

from __future__ import annotations

import json
from typing import Any

from pytest_bdd import given, parsers, then, when

from adapters.vocabulary import HAND_END_REASONS, deck_codes
from conformance.run.driver import ScenarioRun

SEAT = r"seat (?P<seat>\d+)"
SUIT = r"(?P<suit>oros|copas|espadas|bastos)"
Table = list[list[str]]


# ---------------------------------------------------------------------------------- Given


@given(parsers.re(r"the deck, top card first, dealt by seat (?P<dealer>\d+):"))
def deck_order(guinote_run: ScenarioRun, dealer: str, datatable: Table) -> None:
    guinote_run.deal_from_deck(int(dealer), datatable)


@given(parsers.re(r"a deal by seat (?P<dealer>\d+):"))
def explicit_deal(guinote_run: ScenarioRun, dealer: str, datatable: Table) -> None:
    guinote_run.explicit_deal(int(dealer), datatable)


@given(parsers.re(r"a hand in the arrastre, trumps in (?P<suit>\w+), seat (?P<leader>\d+) to lead:"))
def arrastre_position(guinote_run: ScenarioRun, suit: str, leader: str, datatable: Table) -> None:
    guinote_run.position_hands(datatable, int(leader), muestra=None, trump=guinote_run.suit(suit))


@given(parsers.re(r"a hand in the free phase, muestra (?P<muestra>\w+), seat (?P<leader>\d+) to lead:"))
def free_position(guinote_run: ScenarioRun, muestra: str, leader: str, datatable: Table) -> None:
    guinote_run.position_hands(datatable, int(leader), muestra=guinote_run.card(muestra), trump=None)


@given(parsers.re(r"the trick so far is (?P<cards>.+)"))
def trick_so_far(guinote_run: ScenarioRun, cards: str) -> None:
    assert guinote_run.position is not None, guinote_run.fail_input("describe the hands first")
    seat = int(guinote_run.position["leader"])
    trick = []
    for card in guinote_run.cards(cards):
        trick.append([seat, card])
        seat = (seat + 1) % guinote_run.players
    guinote_run.position_set("trick", trick)


@given(parsers.re(rf"{SEAT} won the last trick(?P<before_draw> and the cards are not drawn yet)?"))
def won_last_trick(guinote_run: ScenarioRun, seat: str, before_draw: str | None) -> None:
    guinote_run.position_set("last_trick_winner", guinote_run.seat(int(seat)))
    if before_draw:
        guinote_run.position_set("draw_pending", True)


@given(parsers.re(r"the card points so far are (?P<a>\d+) for side 0 and (?P<b>\d+) for side 1"))
def card_points_so_far(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("card_points", [int(a), int(b)])


@given(parsers.re(r"the tricks won so far are (?P<a>\d+) for side 0 and (?P<b>\d+) for side 1"))
def tricks_so_far(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("tricks_won", [int(a), int(b)])


@given(parsers.re(rf"{SEAT} has already sung {SUIT}"))
def already_sung(guinote_run: ScenarioRun, seat: str, suit: str) -> None:
    assert guinote_run.position is not None, guinote_run.fail_input("describe the hands first")
    sung = list(guinote_run.position.get("sung", []))
    sung.append({"seat": guinote_run.seat(int(seat)), "suit": guinote_run.suit(suit)})
    guinote_run.position_set("sung", sung)


@given("the muestra has already been exchanged")
def already_exchanged(guinote_run: ScenarioRun) -> None:
    guinote_run.position_set("exchange_done", True)


@given(parsers.re(r"the hand is de vueltas, with (?P<a>\d+) carried by side 0 and (?P<b>\d+) by side 1"))
def de_vueltas(guinote_run: ScenarioRun, a: str, b: str) -> None:
    guinote_run.position_set("hand_in_point", 1)
    guinote_run.position_set("carried", [int(a), int(b)])


@given(parsers.re(r"the match stands at (?P<a>\d+) points to (?P<b>\d+) and (?P<c>\d+) cotos to (?P<d>\d+)"))
def match_stands(guinote_run: ScenarioRun, a: str, b: str, c: str, d: str) -> None:
    guinote_run.position_set("match_points", [int(a), int(b)])
    guinote_run.position_set("cotos", [int(c), int(d)])


# ---------------------------------------------------------------------------------- When


@when(parsers.re(rf"{SEAT} (?P<attempt>plays|tries to play) (?P<card>\w+)$"))
def play(guinote_run: ScenarioRun, seat: str, attempt: str, card: str) -> None:
    action = {"type": "play", "seat": guinote_run.seat(int(seat)), "card": guinote_run.card(card)}
    guinote_run.must(action) if attempt == "plays" else guinote_run.act(action)


@when(parsers.re(r"the cards are drawn$"))
def draw(guinote_run: ScenarioRun) -> None:
    guinote_run.must({"type": "draw"})


@when(parsers.re(r"a draw is attempted$"))
def draw_early(guinote_run: ScenarioRun) -> None:
    guinote_run.act({"type": "draw"})


@when(parsers.re(rf"{SEAT} (?P<attempt>sings|tries to sing) {SUIT}$"))
def sing(guinote_run: ScenarioRun, seat: str, attempt: str, suit: str) -> None:
    action = {"type": "cante", "seat": guinote_run.seat(int(seat)), "suit": guinote_run.suit(suit)}
    guinote_run.must(action) if attempt == "sings" else guinote_run.act(action)


@when(parsers.re(rf"{SEAT} (?P<attempt>exchanges|tries to exchange) for the muestra$"))
def exchange(guinote_run: ScenarioRun, seat: str, attempt: str) -> None:
    action = {"type": "exchange", "seat": guinote_run.seat(int(seat))}
    guinote_run.must(action) if attempt == "exchanges" else guinote_run.act(action)


@when(parsers.re(rf"{SEAT} (?P<attempt>claims|tries to claim) 101$"))
def claim(guinote_run: ScenarioRun, seat: str, attempt: str) -> None:
    action = {"type": "claim", "seat": guinote_run.seat(int(seat))}
    guinote_run.must(action) if attempt == "claims" else guinote_run.act(action)


@when(parsers.re(rf"{SEAT} (?P<attempt>sings|tries to sing) tute of (?P<rank>reyes|sotas)$"))
def tute(guinote_run: ScenarioRun, seat: str, attempt: str, rank: str) -> None:
    action = {"type": "tute", "seat": guinote_run.seat(int(seat)), "rank": "R" if rank == "reyes" else "S"}
    guinote_run.must(action) if attempt == "sings" else guinote_run.act(action)


@when("these tricks are played:")
def tricks(guinote_run: ScenarioRun, datatable: Table) -> None:
    guinote_run.play_tricks(datatable)


@when("the rest of the hand is played, each seat playing its first legal card in deck order")
def play_out(guinote_run: ScenarioRun) -> None:
    guinote_run.play_out()


@when("the next hand is dealt from the deck, top card first:")
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


@when("a deal of the next hand is attempted")
def deal_attempt(guinote_run: ScenarioRun) -> None:
    """The next hand's deal asked for (the deck in its usual order), accepted or not."""
    guinote_run.attempt_deal_next(deck_codes(guinote_run.deck_size))


@when("the next hand is dealt:")
def next_explicit_deal(guinote_run: ScenarioRun, datatable: Table) -> None:
    """The explicit form of the deal (rows per seat, the muestra, the stock): what an engine that
    deals its own way is given, and what compare writes for it."""
    guinote_run.must({"type": "deal", **guinote_run.dealt_cards(datatable)})


# ---------------------------------------------------------------------------------- Then


@then("the action is accepted")
def accepted(guinote_run: ScenarioRun) -> None:
    guinote_run.expect_accepted()


@then(parsers.re(r"the action is refused(?: as (?P<code>[A-Z_]+))?(?: under rule (?P<rule>[A-Z]+-\d+))?$"))
def refused(guinote_run: ScenarioRun, code: str | None, rule: str | None) -> None:
    guinote_run.expect_refused(code, rule)


@then(parsers.re(rf"{SEAT} may play (?P<what>any card|exactly .+|.+)$"))
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


@then(parsers.re(rf"{SEAT} may not play (?P<cards>.+)$"))
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


@then(parsers.re(rf"{SEAT} (?P<modal>may|may not) sing {SUIT}$"))
def may_sing(guinote_run: ScenarioRun, seat: str, modal: str, suit: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(
        guinote_run,
        modal == "may",
        {"type": "cante", "seat": number, "suit": guinote_run.suit(suit)},
        f"seat {number} singing {suit}",
    )


@then(parsers.re(rf"{SEAT} (?P<modal>may|may not) exchange for the muestra$"))
def may_exchange(guinote_run: ScenarioRun, seat: str, modal: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(guinote_run, modal == "may", {"type": "exchange", "seat": number}, f"seat {number} exchanging for the muestra")


@then(parsers.re(rf"{SEAT} (?P<modal>may|may not) claim 101$"))
def may_claim(guinote_run: ScenarioRun, seat: str, modal: str) -> None:
    number = guinote_run.seat(int(seat))
    _may(guinote_run, modal == "may", {"type": "claim", "seat": number}, f"seat {number} claiming 101")


@then(parsers.re(rf"{SEAT} (?P<modal>may|may not) sing tute of (?P<rank>reyes|sotas)$"))
def may_tute(guinote_run: ScenarioRun, seat: str, modal: str, rank: str) -> None:
    number = guinote_run.seat(int(seat))
    action = {"type": "tute", "seat": number, "rank": "R" if rank == "reyes" else "S"}
    _may(guinote_run, modal == "may", action, f"seat {number} singing tute of {rank}")


@then(parsers.re(r"the next hand (?P<modal>may|may not) be dealt$"))
def may_deal(guinote_run: ScenarioRun, modal: str) -> None:
    _may(guinote_run, modal == "may", {"type": "deal"}, "dealing the next hand")


@then(parsers.re(r"the cards (?P<modal>must|need not) be drawn before the next lead$"))
def draw_due(guinote_run: ScenarioRun, modal: str) -> None:
    guinote_run.expect_equal("a draw is pending", modal == "must", guinote_run.state("draw_pending"))


@then(parsers.re(rf"{SEAT} wins the trick$"))
def wins_trick(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal(
        "winner of the trick", guinote_run.seat(int(seat)), guinote_run.last_event("trick_won").get("seat")
    )


@then(parsers.re(r"the trick carries (?P<points>\d+) points$"))
def trick_points(guinote_run: ScenarioRun, points: str) -> None:
    guinote_run.expect_equal("points of the trick", int(points), guinote_run.last_event("trick_won").get("points"))


@then(parsers.re(rf"{SEAT} holds (?P<cards>.+)$"))
def holds(guinote_run: ScenarioRun, seat: str, cards: str) -> None:
    number = guinote_run.seat(int(seat))
    guinote_run.expect_equal(f"hand of seat {number}", guinote_run.cards(cards), guinote_run.state(f"hand.{number}"))


@then(parsers.re(rf"{SEAT} draws (?P<card>\w+)$"))
def draws(guinote_run: ScenarioRun, seat: str, card: str) -> None:
    number = guinote_run.seat(int(seat))
    draws_made = guinote_run.last_event("cards_drawn").get("draws") or []
    got = [c for s, c in draws_made if s == number]
    guinote_run.expect_equal(f"card drawn by seat {number}", [guinote_run.card(card)], got)


@then(parsers.re(r"the draw order is seats (?P<seats>[\d, ]+)$"))
def draw_order(guinote_run: ScenarioRun, seats: str) -> None:
    draws_made = guinote_run.last_event("cards_drawn").get("draws") or []
    expected = [int(s) for s in seats.replace(",", " ").split()]
    got = [s for s, _ in draws_made]
    if got != expected:
        raise AssertionError(f"draw order: expected seats {expected}, got {got}")


@then(parsers.re(r"the trump suit is (?P<suit>\w+)$"))
def trump_is(guinote_run: ScenarioRun, suit: str) -> None:
    guinote_run.expect_equal("trump suit", guinote_run.suit(suit), guinote_run.state("trump"))


@then(parsers.re(r"the muestra is (?P<card>\w+)$"))
def muestra_is(guinote_run: ScenarioRun, card: str) -> None:
    expected = None if card == "gone" else guinote_run.card(card)
    guinote_run.expect_equal("muestra", expected, guinote_run.state("muestra"))


@then(parsers.re(r"the phase is (?P<phase>free|arrastre|hand_over|match_over)$"))
def phase_is(guinote_run: ScenarioRun, phase: str) -> None:
    guinote_run.expect_equal("phase", phase, guinote_run.state("phase"))


@then(parsers.re(r"(?P<count>\d+) cards? (?:is|are) left to draw$"))
def stock_count(guinote_run: ScenarioRun, count: str) -> None:
    guinote_run.expect_equal("cards left to draw", int(count), guinote_run.state("stock_count"))


@then(parsers.re(rf"it is {SEAT}'s turn$"))
def turn_is(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal("seat to play", guinote_run.seat(int(seat)), guinote_run.state("turn"))


@then(
    parsers.re(
        r"side (?P<side>[01]) has (?P<value>\d+) (?P<what>card points|cante points|points in the hand|points in total)$"
    )
)
def side_points(guinote_run: ScenarioRun, side: str, value: str, what: str) -> None:
    field = {
        "card points": "card_points",
        "cante points": "cante_points",
        "points in the hand": "score",
        "points in total": "total",
    }[what]
    guinote_run.expect_equal(f"{what} of side {side}", int(value), guinote_run.state(f"{field}.{side}"))


@then(parsers.re(r"side (?P<side>[01]) wins the diez de últimas$"))
def wins_ultimas(guinote_run: ScenarioRun, side: str) -> None:
    guinote_run.expect_equal("side with the diez de últimas", int(side), guinote_run.state("ultimas"))


@then(parsers.re(r"side (?P<side>[01]) wins the (?P<what>point|coto|match)$"))
def wins(guinote_run: ScenarioRun, side: str, what: str) -> None:
    if what != "point":
        guinote_run.need_match(f"checks who wins the {what}")
    event = guinote_run.last_event(f"{what}_won")
    guinote_run.expect_equal(f"side winning the {what}", int(side), event.get("side"))


@then(parsers.re(r"no side wins the (?P<what>coto|match)$"))
def no_win(guinote_run: ScenarioRun, what: str) -> None:
    guinote_run.need_match(f"checks that no side wins the {what}")
    kinds = [e.get("type") for e in guinote_run.events]
    assert f"{what}_won" not in kinds, f"no {what} should be won, but the events include {what}_won"


@then("the hand goes de vueltas")
def goes_de_vueltas(guinote_run: ScenarioRun) -> None:
    event = guinote_run.last_event("hand_over")
    guinote_run.expect_equal("winner of the hand (null: de vueltas)", None, event.get("winner"))
    guinote_run.last_event("de_vueltas")


@then(parsers.re(r"the hand is over(?: because of (?P<reason>\w+))?(?: under rule (?P<rule>[A-Z]+-\d+))?$"))
def hand_over(guinote_run: ScenarioRun, reason: str | None, rule: str | None) -> None:
    if reason and reason not in HAND_END_REASONS:
        raise guinote_run.fail_input(f"unknown reason {reason!r}; reasons: {', '.join(HAND_END_REASONS)}")
    guinote_run.expect_hand_end(reason, rule)


@then("the hand is not over")
def hand_not_over(guinote_run: ScenarioRun) -> None:
    phase = guinote_run.state("phase")
    assert phase in ("free", "arrastre"), f"the hand should still be in play, but the phase is {phase}"


@then(parsers.re(rf"{SEAT} deals the next hand$"))
def next_dealer(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal("dealer of the new hand", guinote_run.seat(int(seat)), guinote_run.state("dealer"))


@then(parsers.re(r'the state field "(?P<name>[\w.]+)" is (?P<value>.+)$'))
def state_field(guinote_run: ScenarioRun, name: str, value: str) -> None:
    guinote_run.expect_field(name, _json(guinote_run, value))


@then(parsers.re(rf'{SEAT} sees "(?P<name>[\w.]+)" as (?P<value>.+)$'))
def observation_field(guinote_run: ScenarioRun, seat: str, name: str, value: str) -> None:
    number = guinote_run.seat(int(seat))
    expected = _json(guinote_run, value)
    what = f"field {name} as seen by seat {number}"
    why = guinote_run.obligations.field(name, expected)
    if why is not None and "observations" in guinote_run.info.capabilities:
        # a field the protocol does not require of this engine (added after its version, or of a
        # capability it lacks) is not compared, seen by a seat as in the state (expect_field)
        guinote_run.ensure_game()
        guinote_run.not_checked(what, why)
        return
    guinote_run.expect_equal(what, expected, guinote_run.observation(number, name))


@then(parsers.re(r"an? (?P<kind>[a-z_]+) event (?P<modal>happens|does not happen)$"))
def event_happens(guinote_run: ScenarioRun, kind: str, modal: str) -> None:
    kinds = [e.get("type") for e in guinote_run.events]
    if modal == "happens":
        assert kind in kinds, f"expected a {kind} event; events: {kinds}"
    else:
        assert kind not in kinds, f"expected no {kind} event; events: {kinds}"


@then(parsers.re(r'the (?P<kind>[a-z_]+) event has "(?P<member>\w+)" (?P<value>.+)$'))
def event_member(guinote_run: ScenarioRun, kind: str, member: str, value: str) -> None:
    guinote_run.expect_member(kind, member, _json(guinote_run, value))


def _json(guinote_run: ScenarioRun, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise guinote_run.fail_input(f"{text!r} is not a JSON value (write strings in double quotes)") from None
