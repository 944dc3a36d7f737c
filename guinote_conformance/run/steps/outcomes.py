"""The steps that check how a hand ends and what the engine says of it: scores, wins, fields and events.

Split from :mod:`guinote_conformance.run.steps.common` (the closed vocabulary of the scenarios), by
the same conventions: seats in playing order, sides 0 (seats 0 and 2) and 1, JSON values as the
protocol writes them.
"""

from __future__ import annotations

import json
from typing import Any

from guinote_conformance.adapters.vocabulary import HAND_END_REASONS
from guinote_conformance.catalogue.player_facts import FieldValue
from guinote_conformance.catalogue.player_phrasing import Words
from guinote_conformance.run.driver import ScenarioRun
from guinote_conformance.run.steps.common import SEAT, WON
from guinote_conformance.run.steps.phrasebook import then


@then(
    r"side (?P<side>[01]) has (?P<value>\d+) (?P<what>card points|cante points|points in the hand|points in total)$",
    "el bando {side} tiene {value} {what}",
    {
        "what": {
            "card points": "tantos de cartas",
            "cante points": "tantos de cante",
            "points in the hand": "tantos en la mano",
            "points in total": "tantos en total",
        }
    },
    players=("{side} has {value} {what}", "{side} tiene {value} {what}"),
)
def side_points(guinote_run: ScenarioRun, side: str, value: str, what: str) -> None:
    field = {
        "card points": "card_points",
        "cante points": "cante_points",
        "points in the hand": "score",
        "points in total": "total",
    }[what]
    guinote_run.expect_equal(f"{what} of side {side}", int(value), guinote_run.state(f"{field}.{side}"))


@then(
    r"side (?P<side>[01]) wins the diez de últimas$",
    "el bando {side} gana las diez de últimas",
    players=("{side} wins the diez de últimas", "{side} gana las diez de últimas"),
)
def wins_ultimas(guinote_run: ScenarioRun, side: str) -> None:
    guinote_run.expect_equal("side with the diez de últimas", int(side), guinote_run.state("ultimas"))


@then(
    r"side (?P<side>[01]) wins the (?P<what>point|coto|match)$",
    "el bando {side} gana {what}",
    {"what": WON},
    players=("{side} wins {what}", "{side} gana {what}"),
    kinds={"what": Words({en: (f"the {en}", es) for en, es in WON.items()})},
)
def wins(guinote_run: ScenarioRun, side: str, what: str) -> None:
    if what != "point":
        guinote_run.need_match(f"checks who wins the {what}")
    event = guinote_run.last_event(f"{what}_won")
    guinote_run.expect_equal(f"side winning the {what}", int(side), event.get("side"))


@then(
    r"no side wins the (?P<what>coto|match)$",
    "ningún bando gana {what}",
    {"what": WON},
    players=("nobody wins {what}", "nadie gana {what}"),
    kinds={"what": Words({en: (f"the {en}", es) for en, es in WON.items()})},
)
def no_win(guinote_run: ScenarioRun, what: str) -> None:
    guinote_run.need_match(f"checks that no side wins the {what}")
    kinds = [e.get("type") for e in guinote_run.events]
    assert f"{what}_won" not in kinds, f"no {what} should be won, but the events include {what}_won"


@then("the hand goes de vueltas", "la mano va de vueltas", players=("the hand goes de vueltas", "se va de vueltas"))
def goes_de_vueltas(guinote_run: ScenarioRun) -> None:
    event = guinote_run.last_event("hand_over")
    guinote_run.expect_equal("winner of the hand (null: de vueltas)", None, event.get("winner"))
    guinote_run.last_event("de_vueltas")


@then(
    r"the hand is over(?: because of (?P<reason>\w+))?(?: under rule (?P<rule>[A-Z]+-\d+))?$",
    "la mano ha terminado[ por {reason}][ según la regla {rule}]",
    players=("the hand ends[: {reason}][ (rule {rule})]", "se acaba la mano[: {reason}][ (regla {rule})]"),
)
def hand_over(guinote_run: ScenarioRun, reason: str | None, rule: str | None) -> None:
    if reason and reason not in HAND_END_REASONS:
        raise guinote_run.fail_input(f"unknown reason {reason!r}; reasons: {', '.join(HAND_END_REASONS)}")
    guinote_run.expect_hand_end(reason, rule)


@then("the hand is not over", "la mano no ha terminado", players=("the hand goes on", "la mano sigue"))
def hand_not_over(guinote_run: ScenarioRun) -> None:
    phase = guinote_run.state("phase")
    assert phase in ("free", "arrastre"), f"the hand should still be in play, but the phase is {phase}"


@then(
    rf"{SEAT} deals the next hand$",
    "el jugador {seat} reparte la mano siguiente",
    players=("{seat} deals the next hand", "{seat} reparte la mano siguiente"),
)
def next_dealer(guinote_run: ScenarioRun, seat: str) -> None:
    guinote_run.expect_equal("dealer of the new hand", guinote_run.seat(int(seat)), guinote_run.state("dealer"))


@then(
    r'the state field "(?P<name>[\w.]+)" is (?P<value>.+)$',
    'el campo de estado "{name}" es {value}',
    players=("{name}: {value}", "{name}: {value}"),
    kinds={"value": FieldValue()},
)
def state_field(guinote_run: ScenarioRun, name: str, value: str) -> None:
    guinote_run.expect_field(name, _json(guinote_run, value))


@then(
    rf'{SEAT} sees "(?P<name>[\w.]+)" as (?P<value>.+)$',
    'el jugador {seat} ve "{name}" como {value}',
    players=("what {seat} sees of {name}: {value}", "lo que ve {seat} de {name}: {value}"),
    kinds={"value": FieldValue()},
)
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


@then(
    r"an? (?P<kind>[a-z_]+) event (?P<modal>happens|does not happen)$",
    "{modal} un evento {kind}",
    {"modal": {"happens": "se produce", "does not happen": "no se produce"}},
    players=("{kind} {modal}", "{modal} {kind}"),
    kinds={"modal": Words({"happens": ("happens", "hay"), "does not happen": ("does not happen", "no hay")})},
)
def event_happens(guinote_run: ScenarioRun, kind: str, modal: str) -> None:
    kinds = [e.get("type") for e in guinote_run.events]
    if modal == "happens":
        assert kind in kinds, f"expected a {kind} event; events: {kinds}"
    else:
        assert kind not in kinds, f"expected no {kind} event; events: {kinds}"


@then(
    r'the (?P<kind>[a-z_]+) event has "(?P<member>\w+)" (?P<value>.+)$',
    'el evento {kind} tiene "{member}" {value}',
    players=("{kind}, {member}: {value}", "{kind}, {member}: {value}"),
    kinds={"value": FieldValue(member=True)},
)
def event_member(guinote_run: ScenarioRun, kind: str, member: str, value: str) -> None:
    guinote_run.expect_member(kind, member, _json(guinote_run, value))


def _json(guinote_run: ScenarioRun, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise guinote_run.fail_input(f"{text!r} is not a JSON value (write strings in double quotes)") from None
