"""Likely causes name a rule: every state field and event has one owner, a forced cante is CANTE-07,
the replay of an engine that was given an explicit deal starts from the deal it took, and a
divergence is named by the rule that decides what differs (a trick's winner: the trick-winning
rule; a hand after an exchange: the exchange; a missing diez de últimas: SCORE-01)."""

from __future__ import annotations

import re
from typing import Any

from guinote_conformance.adapters.interface import Accepted, Rejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import EVENT_TYPES, STATE_FIELDS
from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.engines.recording import Call, outcome_json
from guinote_conformance.oracle.divergence import COURSE_FIELDS, cause_of, course_rule, with_fields
from guinote_conformance.oracle.legality import DECLINE_RULE, declines, ranking_rule, refusal_rule
from guinote_conformance.oracle.owners import (
    OWNERS,
    Trick,
    draws_owner,
    owner_of,
    points_owner,
    subject_owner,
    trick_owner,
)
from guinote_conformance.oracle.steps import Difference, Step
from guinote_conformance.oracle.transcript import find_divergence, from_taken_setup
from guinote_conformance.reference_engine.flags import rules_for


def test_every_state_field_and_event_has_one_owner_a_rule_of_the_index() -> None:
    """A field or an event that differs is never 'no single rule: state X': each has its owner."""
    rules = load_rules()
    for name in STATE_FIELDS:
        owner = subject_owner(f"state {name.replace('<seat>', '0').replace('<side>', '1')}")
        assert owner is not None, name
        assert owner.rule in rules, (name, owner.rule)
    for kind, members in EVENT_TYPES.items():
        for member in ["", *re.findall(r"\b[a-z_]+\b", members.split("(")[0])]:
            owner = subject_owner(f"event {kind}.{member}" if member else f"event {kind}")
            assert owner is not None and owner.rule in rules, (kind, member)
    named = {rule for owner in OWNERS.values() for rule in (owner.rule, *owner.after.values())}
    assert named <= set(rules), sorted(named - set(rules))
    assert DECLINE_RULE in rules


def test_an_engine_that_offers_only_the_cante_where_the_reference_lets_it_be_declined_breaks_cante_07() -> None:
    cante = {"type": "cante", "seat": 0, "suit": "o"}
    assert declines([{"type": "draw"}], [cante])
    assert declines([{"type": "play", "seat": 1, "card": "Ao"}], [cante, {"type": "tute", "seat": 0, "rank": "R"}])
    assert not declines([{"type": "draw"}], [cante, {"type": "play", "seat": 0, "card": "Ao"}])
    assert not declines([{"type": "draw"}], [])
    assert declines([{"type": "claim", "seat": 0}, {"type": "draw"}], [cante])  # a claim hidden as well
    assert not declines([{"type": "claim", "seat": 0}], [cante])  # a claim is no way to decline a cante


def test_the_replay_starts_from_the_setup_the_engine_took() -> None:
    refused = Call("start", {"flags": {}, "deck": ["Ao"]}, 3, error="SetupRejected: deals its own way")
    taken = Call("start", {"flags": {}, "hands": [["Ao"]]}, 3, answer="g1")
    legal = Call("legal", None, 4, answer=[])
    assert list(from_taken_setup([refused, taken, legal])) == [taken, legal]
    assert list(from_taken_setup([taken, legal])) == [taken, legal]
    assert list(from_taken_setup([refused])) == [refused]  # nothing was taken: the refusal is the evidence


# ---------------------------------------------------------------------------------- naming by the owner


def _transcript(
    position: dict[str, Any],
    actions: list[dict[str, Any]],
    reads: list[str] = (),  # type: ignore[assignment]
) -> list[Call]:
    """What an engine playing exactly as the reference would have answered: ``actions`` from
    ``position`` under lascuarenta, then the state fields ``reads``."""
    setup = {"flags": rules_for("lascuarenta").as_dict(), "position": position}
    game = ReferenceEngine().start(setup)
    calls = [Call("start", setup, 3, answer="started")]
    for number, action in enumerate(actions, 4):
        outcome = game.apply(action)
        calls.append(Call("apply", action, number, answer=outcome_json(outcome), raw=outcome))
    for name in reads:
        value = game.state(name)
        calls.append(Call("state", name, 20, answer=value, raw=value))
    return calls


def _won_by(calls: list[Call], seat: int) -> list[Call]:
    """The transcript of an engine that gives the trick of the last play to ``seat``."""
    last = calls[-1]
    events = [dict(e, seat=seat) if e.get("type") == "trick_won" else e for e in last.raw.events]
    return [*calls[:-1], Call("apply", last.args, last.step, answer={"accepted": events}, raw=Accepted(events))]


#: An arrastre trick begun in the position (seat 0 led the 4 of oros), trumps in bastos.
_TRICK = {
    "hands": [["2e"], ["Ac", "Sc"], ["So", "Rc"], ["Co", "Ce"]],
    "trick": [[0, "4o"]],
    "leader": 0,
    "trump": "b",
}
_PLAYS = [
    {"type": "play", "seat": 1, "card": "Ac"},
    {"type": "play", "seat": 2, "card": "So"},
    {"type": "play", "seat": 3, "card": "Co"},
]


def test_a_trick_given_to_a_card_of_a_third_suit_breaks_the_third_suit_rule() -> None:
    """Not the card ranking (the engine may rank every suit right): DECK-11, a card of neither the
    suit led nor trumps never takes the trick; a trump passed over for the suit led is DECK-10."""
    divergence = find_divergence(_won_by(_transcript(_TRICK, _PLAYS), 1))  # the As of copas, a third suit
    assert divergence is not None and divergence.what == "event trick_won.seat"
    assert divergence.rule == "DECK-11", divergence
    assert trick_owner(Trick({0: "4o", 1: "2b", 2: "Ao"}, 1, 2)) == "DECK-10"  # bastos trumps, oros led
    assert trick_owner(Trick({0: "4o", 1: "2b", 2: "Ac"}, 1, 2)) == "DECK-11"


def test_between_two_cards_of_one_suit_the_ranking_decides_even_in_a_trick_begun_in_the_position() -> None:
    """The trick's cards are the reference's, the one led before the transcript began included."""
    divergence = find_divergence(_won_by(_transcript(_TRICK, _PLAYS), 3))  # the Caballo over the Sota
    assert divergence is not None and divergence.rule == "DECK-06"
    assert "So" in divergence.basis and "Co" in divergence.basis
    led = find_divergence(_won_by(_transcript(_TRICK, _PLAYS), 0))  # the 4 led, over the Sota
    assert led is not None and led.rule == "DECK-05"
    owner = Trick({0: "4o", 1: "Ac"}, 0, 7)  # a seat that played no card of the trick
    assert trick_owner(owner) == "PLAY-05"


def test_a_hand_left_wrong_by_the_exchange_breaks_the_exchange_not_the_draw() -> None:
    """The hand is first read after the draw that follows the exchange: the card that differs,
    the seven the engine kept, was last moved by the exchange (SEVEN-01)."""
    position = {
        "hands": [["7o", "2c", "4c", "5c", "6c"], ["2e", "4e", "5e", "6e", "7e"], ["2b", "4b", "5b", "6b", "7b"],
                  ["3c", "Cc", "3e", "Ce", "3b"]],
        "stock": ["Sc", "Rc", "Se"], "muestra": "Ao", "leader": 1, "last_trick_winner": 0, "draw_pending": True,
        "won_cards": [["Ro", "Re", "Rb", "Ab"], []],
    }  # fmt: skip
    calls = _transcript(position, [{"type": "exchange", "seat": 0}, {"type": "draw"}], ["hand.0"])
    hand = list(calls[-1].raw)
    assert "Ao" in hand and "7o" not in hand
    kept = [*calls[:-1], Call("state", "hand.0", 20, answer=[*hand, "7o"], raw=[*hand, "7o"])]
    divergence = find_divergence(kept)
    assert divergence is not None and divergence.call == "state hand.0", divergence
    assert divergence.rule == "SEVEN-01" and "after the exchange" in divergence.basis
    # a hand the draw left wrong (another card than the Sota drawn) is the draw's
    other_card = [card for card in hand if card != "Sc"] + ["2o"]
    drawn = find_divergence([*calls[:-1], Call("state", "hand.0", 20, answer=other_card, raw=other_card)])
    assert drawn is not None and drawn.rule == "PLAY-08"


def test_compare_names_a_missing_diez_de_ultimas_score_01_not_the_rule_that_decided_the_hand() -> None:
    """The reference's step ends the hand by a decision rule (SCORE-06): what differs is the últimas."""
    step = Step(
        {"type": "play", "seat": 3, "card": "5c"},
        events=[
            {"type": "card_played", "seat": 3, "card": "5c"},
            {"type": "trick_won", "seat": 0, "side": 0, "points": 11, "cards": ["Ac", "2c", "4c", "5c"]},
            {"type": "ultimas", "side": 0, "points": 10},
            {"type": "hand_over", "winner": 0, "reason": "over_100", "rule": "SCORE-06"},
        ],
    )
    reference = ReferenceEngine()
    assert cause_of(reference, {}, [], Difference("event", "ultimas.points", 10, 0), step).rule == "SCORE-01"
    assert cause_of(reference, {}, [], Difference("event", "ultimas", [], []), step).rule == "SCORE-01"
    # the decision itself is named by the rule the reference names for it
    assert cause_of(reference, {}, [], Difference("event", "hand_over.winner", 0, 1), step).rule == "SCORE-06"
    assert owner_of("state total.0", named="SCORE-06") == ("SCORE-06", "the rule the reference names for state total.0")


# ------------------------------------------------------------------ legal actions that differ


def _legal_cause(position: dict[str, Any], missing: list[str], extra: list[str], seat: int = 2) -> str:
    """The rule ``compare`` names where an engine, at ``position`` (lascuarenta), lacks the cards
    ``missing`` the reference lets ``seat`` play and offers ``extra`` besides."""
    setup = {"flags": rules_for("lascuarenta").as_dict(), "position": position}
    reference = ReferenceEngine()
    game = reference.start(setup)
    step = Step(None, legal=game.legal_actions())
    plays = (
        [{"type": "play", "seat": seat, "card": card} for card in missing],
        [{"type": "play", "seat": seat, "card": card} for card in extra],
    )
    subject = "play (missing)" if missing else "play (extra)"
    return cause_of(reference, setup, [], Difference("legal", subject, plays[0], plays[1]), step).rule


def _arrastre(hands: list[str], trick: str, leader: int = 0, trump: str = "b") -> dict[str, Any]:
    return {
        "hands": [hand.split() for hand in hands],
        "trick": [[int(seat), card] for seat, card in (item.split(":") for item in trick.split())],
        "leader": leader,
        "trump": trump,
    }


def test_a_card_the_engine_refuses_is_named_by_the_rule_that_allows_it() -> None:
    """Not by the card's suit: a card the partner's winning frees is ARR-06, even though it follows
    suit; a discard while holding only losing trumps is ARR-05 (no under-trumping), not ARR-08."""
    partner_wins = _arrastre(["3c 4c", "7c 7e", "Ro 2o Ab", "Co 7o 6c"], "0:5o 1:4o")
    assert _legal_cause(partner_wins, ["2o"], []) == "ARR-06"
    void_partner_wins = _arrastre(["3c 4c", "7c 7e", "2b Ac 5e", "Co 2o 6c"], "0:5o 1:4o")
    assert _legal_cause(void_partner_wins, ["Ac", "5e"], []) == "ARR-07"
    losing_trumps = _arrastre(["3c 4c", "7c 7e", "2b Ac 5e", "Co 4o 6c"], "0:5o 1:4b")
    assert _legal_cause(losing_trumps, ["Ac", "5e"], []) == "ARR-05"


def test_a_card_the_engine_offers_besides_is_named_by_the_reference_refusal() -> None:
    """The duty to beat on a trump lead is ARR-09; a trump offered instead of the suit led ARR-01
    even where the engine also lacks a card of the suit (the refusal says more)."""
    trump_lead = _arrastre(["3c 4c", "6b 2b Ao", "So 6o 6c", "Co 4o 7c"], "0:4b", trump="b")
    assert _legal_cause(trump_lead, [], ["2b"], seat=1) == "ARR-09"
    plain_lead = _arrastre(["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], "0:5o")
    assert _legal_cause(plain_lead, [], ["2o"], seat=1) == "ARR-02"
    assert _legal_cause(plain_lead, ["Ro"], ["Ac"], seat=1) == "ARR-01"


def test_cards_of_one_suit_swapped_are_the_ranking() -> None:
    """An engine that offers a lower card of the suit instead of the higher one ranks them the
    other way round: DECK-06 between the Sota and the Caballo, DECK-05 otherwise."""
    ranked = _arrastre(["3c 4c", "Ao 2o 2c", "6o 6c Rc", "7o 4o 7c"], "0:Ro")
    assert _legal_cause(ranked, ["Ao"], ["2o"], seat=1) == "DECK-05"
    sota, caballo = {"type": "play", "seat": 1, "card": "So"}, {"type": "play", "seat": 1, "card": "Co"}
    assert ranking_rule([sota], [caballo]) == "DECK-06"
    assert ranking_rule([sota], [{"type": "play", "seat": 1, "card": "Cc"}]) == ""  # another suit
    assert ranking_rule([sota], [{"type": "play", "seat": 2, "card": "Co"}]) == ""  # another seat


def test_an_engine_that_plays_the_first_arrastre_trick_free_breaks_play_13() -> None:
    """Every card of a full hand offered, the suit led held: the arrastre started a trick late."""
    hands = ["Ao 3o Ro Co So 7o", "6o 5o Ac 3c Rc Cc", "4o 2o Sc 7c 6c 5c", "Ab 3b Rb Cb Sb 7b"]
    first = _arrastre(hands, "", leader=0)
    first["trick"] = []
    setup_hands = [hand.split() for hand in hands]
    led = {**first, "hands": [setup_hands[0][1:], *setup_hands[1:]], "trick": [[0, "Ao"]]}
    assert _legal_cause(led, [], ["Ac", "3c", "Rc", "Cc"], seat=1) == "PLAY-13"
    later = {**led, "hands": [hand[1:] for hand in led["hands"]]}
    later["hands"][0] = setup_hands[0][2:]
    assert _legal_cause(later, [], ["3c", "Rc", "Cc"], seat=1) == "ARR-01"  # a later trick: the duty to follow


def test_a_draw_that_differs_is_named_by_the_rule_of_the_draw_it_breaks() -> None:
    """The order of the seats is PLAY-08; with the seats in turn, the muestra taken by another than
    the last at the final draw is PLAY-10, and cards not from the top of the stock PLAY-18."""
    ours = [[3, "6o"], [0, "6b"], [1, "2b"], [2, "2o"]]
    assert draws_owner(ours, [[0, "6o"], [3, "6b"], [1, "2b"], [2, "2o"]], final=False) == "PLAY-08"
    assert draws_owner(ours, [[3, "Rb"], [0, "6o"], [1, "6b"], [2, "2b"]], final=False) == "PLAY-18"
    muestra_first = [[3, "2o"], [0, "6o"], [1, "6b"], [2, "2b"]]
    assert draws_owner(ours, muestra_first, final=True) == "PLAY-10"
    assert draws_owner(ours, muestra_first, final=False) == "PLAY-18"
    assert draws_owner(ours, "garbage", final=True) == "PLAY-08"
    rule, basis = owner_of("event cards_drawn.draws", action="draw", draws=(ours, muestra_first, True))
    assert rule == "PLAY-10" and "muestra" in basis


def test_a_refusal_is_named_by_what_its_code_covers_there() -> None:
    """An exchange out of its window breaks the window (SEVEN-16) whatever reading the rules play;
    a second exchange SEVEN-13; the other refusals keep their rule."""
    assert refusal_rule(Rejected("EXCHANGE_WINDOW_CLOSED", "SEVEN-03")) == "SEVEN-16"
    assert refusal_rule(Rejected("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02"), exchanged=True) == "SEVEN-13"
    assert refusal_rule(Rejected("EXCHANGE_MUESTRA_NOT_ELIGIBLE", "SEVEN-02 / SEVEN-09")) == "SEVEN-02"
    assert refusal_rule(Rejected("CANTE_NO_WON_TRICK", "CANTE-05"), after_lead=True) == "CANTE-06"
    assert refusal_rule(Rejected("MUST_BEAT", "ARR-02"), led_trump=True) == "ARR-09"
    assert refusal_rule(Rejected("MUST_BEAT", "ARR-10"), led_trump=True) == "ARR-10"


def test_points_off_by_one_part_of_the_count_are_named_by_that_part() -> None:
    """Off by the side's cantes: CANTE-04; ten short: the diez de últimas (SCORE-01); ten over:
    it counted twice (SCORE-02); otherwise the field's own owner."""
    assert points_owner(24, 4, [20, 0], side=0) == "CANTE-04"
    assert points_owner([16, 114], [16, 124], [0, 0]) == "SCORE-02"
    assert points_owner([16, 114], [16, 104], [0, 0]) == "SCORE-01"
    assert points_owner([16, 114], [16, 113], [0, 0]) is None
    assert owner_of("state total.0", named="SCORE-06", points=(24, 4, [20, 0]))[0] == "CANTE-04"
    assert owner_of("state total.0", named="SCORE-06", points=(24, 5, [20, 0]))[0] == "SCORE-06"
    step = Step({"type": "play", "seat": 3, "card": "2o"}, state={"total.0": 100, "total.1": 20})
    ended = Difference("event", "hand_over", ["card_played", "trick_won"], ["card_played", "trick_won", "hand_over"])
    assert cause_of(ReferenceEngine(), {}, [], ended, step).rule == "SCORE-04"


def test_a_cante_worth_the_wrong_value_is_named_by_the_value_it_should_have() -> None:
    """A forty scored as a twenty breaks the forty's rule (CANTE-03), a twenty scored otherwise CANTE-02."""
    assert owner_of("event cante.value", action="cante", expected=40)[0] == "CANTE-03"
    assert owner_of("event cante.value", action="cante", expected=20)[0] == "CANTE-02"
    step = Step({"type": "cante", "seat": 0, "suit": "c"}, events=[{"type": "cante", "value": 40}])
    assert cause_of(ReferenceEngine(), {}, [], Difference("event", "cante.value", 40, 20), step).rule == "CANTE-03"


def test_where_the_course_of_the_match_parts_the_rule_is_read_off_the_reference_state() -> None:
    """A first hand the engine stops past 100 (VUELTAS-12); a total carried into a new point
    (MATCH-02); match points kept once a coto is won (MATCH-12)."""
    ended = Difference("event", "hand_over", ["card_played", "trick_won"], ["card_played", "trick_won", "hand_over"])
    first_hand = Step({"type": "play", "seat": 0, "card": "2o"}, state={"total.0": 104, "hand_in_point": 0})
    assert course_rule("event hand_over", ended, first_hand) == "VUELTAS-12"
    de_vueltas = Step({"type": "play", "seat": 0, "card": "2o"}, state={"total.0": 104, "hand_in_point": 1})
    assert course_rule("event hand_over", ended, de_vueltas) == ""
    dealt = Step({"type": "deal"}, state={"total.0": 0, "hand_in_point": 0})
    assert course_rule("state total.0", Difference("state", "total.0", 0, 64), dealt) == "MATCH-02"
    coto = Step({"type": "play", "seat": 0, "card": "2o"}, events=[{"type": "coto_won", "side": 0}])
    assert course_rule("state match.points.0", Difference("state", "match.points.0", 0, 3), coto) == "MATCH-12"


def test_a_field_the_step_did_not_read_is_read_off_the_reference() -> None:
    """A step reads only the fields its events may change: the hand in the point is read off the
    reference replayed to it, so a first hand stopped past 100 is still VUELTAS-12."""
    setup = {"flags": rules_for("lascuarenta").as_dict(), "position": _TRICK}
    step = Step(_PLAYS[0], state={"total.0": 104})
    filled = with_fields(ReferenceEngine(), setup, _PLAYS[:1], step, COURSE_FIELDS)
    assert filled.state["hand_in_point"] == 0 and filled.state["total.0"] == 104


def test_a_point_given_to_the_side_short_of_the_thirty_malas_breaks_score_09_not_vueltas_12() -> None:
    """The reference ends the first hand de vueltas (the side past 100 lacks the thirty malas);
    an engine that gives that side the point breaks SCORE-09, though the first hand ended past 100.
    One that agrees the side lacks them but gives the point to the other side breaks the rule the
    reference's event names."""
    over = {"type": "hand_over", "winner": None, "reason": "thirty_malas_vueltas", "rule": "SCORE-12"}
    step = Step({"type": "play", "seat": 3, "card": "4b"}, events=[over], state={"total.0": 112, "hand_in_point": 0})
    assert course_rule("event hand_over.winner", Difference("event", "hand_over.winner", None, 0), step) == "SCORE-09"
    lose = {**over, "winner": 1, "reason": "thirty_malas_lose"}
    step_lose = Step(step.action, events=[lose], state=step.state)
    assert course_rule("event hand_over.winner", Difference("event", "hand_over.winner", 1, 0), step_lose) == "SCORE-09"
    gives_it_away = Difference("event", "hand_over.winner", None, 1)  # thirty_malas=lose played for vueltas
    assert course_rule("event hand_over.winner", gives_it_away, step) == "SCORE-12"
    decided = {**over, "winner": 0, "reason": "over_100", "rule": "SCORE-06"}
    step_decided = Step(step.action, events=[decided], state=step.state)
    assert course_rule("event hand_over.winner", Difference("event", "hand_over.winner", 0, 1), step_decided) == ""
