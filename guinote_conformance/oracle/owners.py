"""Which rule decides which part of an answer: the one owner a divergence is named by.

Where an engine's answer differs from the reference's, the rule to name is the one that decides the
thing that differs, not whichever rule the reference happened to apply at that step: a trick given to
the wrong seat breaks the trick-winning rule (PLAY-05), even if the step also ended the hand by a
decision rule; a hand left wrong by the exchange of the seven breaks the exchange (SEVEN-01), not the
draw; a missing diez de últimas breaks SCORE-01, not the rules that read the totals afterwards.

In: the subject that differs, as :func:`guinote_conformance.oracle.steps.subject_key` writes it (``event
trick_won.seat``, ``event ultimas`` for a missing or extra event, ``state hand.0``), the type of the
action just applied, and what the reference itself says there (the ``rule`` of its event, the rule
that decided its hand, the cards of the trick). Out: :func:`owner_of`, the rule and the basis for it.

The rule: :data:`OWNERS` declares, once, the owner of every event member and state field the
comparisons read; an event type with no entry of its own is owned by the rule the vocabulary says it
carries out (:data:`guinote_conformance.adapters.vocabulary.EVENT_RULES`). An owner may hand the naming on:

* to the action that changed it (``after``): a hand read after an exchange is the exchange's (for a
  hand, the first action that moved one of the cards that differ: :func:`cards_moved`);
* to the reference (``deferred``): the decision of a hand (its winner, its reason) is named by the
  rule that decided it on the reference (the ``rule`` of its ``hand_over`` event, its ``hand_rule``);
* to the trick (``by_trick``): between two cards of one suit the card ranking decides (DECK-05, or
  DECK-06 for the Sota and the Caballo); a card of a third suit given the trick breaks DECK-11, the
  suit led preferred to a trump DECK-10; otherwise the trick-winning rule itself (PLAY-05).

The first divergence of a run's transcript (:mod:`guinote_conformance.oracle.transcript`) and the cause of a
``compare`` divergence (:func:`guinote_conformance.oracle.divergence.cause_of`) are both named here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from guinote_conformance.adapters.vocabulary import EVENT_RULES as VOCABULARY_EVENT_RULES


@dataclass(frozen=True)
class Owner:
    """The rule that decides one event member or state field, and who may name it more finely."""

    rule: str
    #: the action just applied -> the rule that decides the subject after it
    after: Mapping[str, str] = field(default_factory=dict)
    #: the reference names the rule itself: its event's ``rule`` member, or the rule that decided its hand
    deferred: bool = False
    #: the cards of the trick tell which part of the trick-winning rule decides (:func:`trick_owner`)
    by_trick: bool = False
    #: the seats and cards of a draw tell which rule of the draw decides (:func:`draws_owner`)
    by_draws: bool = False
    #: the reference's value -> the rule that decides it (a cante worth 40 is the forty's, CANTE-03)
    by_expected: Mapping[object, str] = field(default_factory=dict)
    #: a side's points off by what one part of the count is worth tell which part is wrong
    #: (:func:`points_owner`), before the reference names the rule that decided the hand
    by_points: bool = False


#: The rule that decides the members of a hand's hand (who holds what): the action that changed it.
_HOLDINGS = {"exchange": "SEVEN-01", "draw": "PLAY-08", "play": "PLAY-02", "deal": "PRE-10"}

#: The owner of every subject the comparisons read: ``event TYPE`` (missing, extra or out of
#: order), ``event TYPE.MEMBER``, ``state FIELD`` (the field's name before its first dot).
OWNERS: dict[str, Owner] = {
    # --- events (a type without an entry: the vocabulary's rule for it)
    "event trick_won.seat": Owner("PLAY-05", by_trick=True),
    "event trick_won.side": Owner("PLAY-16"),
    "event trick_won.points": Owner("DECK-07"),
    "event trick_won.cards": Owner("PLAY-02"),
    "event cards_drawn.draws": Owner("PLAY-08", by_draws=True),
    "event cante.value": Owner("CANTE-02", by_expected={40: "CANTE-03"}),
    "event cante.side": Owner("CANTE-04"),
    "event hand_over": Owner("SCORE-02", deferred=True),
    "event hand_over.winner": Owner("SCORE-02", deferred=True),
    "event hand_over.reason": Owner("SCORE-02", deferred=True),
    "event hand_over.rule": Owner("SCORE-02", deferred=True),
    "event hand_over.scores": Owner("SCORE-02", by_points=True),
    "event hand_over.card_points": Owner("DECK-07"),
    "event hand_over.totals": Owner("VUELTAS-02", by_points=True),
    "event renuncio": Owner("RENUNCIO-07", deferred=True),
    "event de_vueltas": Owner("SCORE-13"),
    "event de_vueltas.totals": Owner("VUELTAS-02", by_points=True),
    # --- state fields
    "state phase": Owner("PLAY-13", deferred=True),
    "state players": Owner("PRE-01"),
    "state turn": Owner("PLAY-02"),
    "state leader": Owner("PLAY-04"),
    "state dealer": Owner("PRE-10"),
    "state mano": Owner("PRE-09"),
    "state trump": Owner("DECK-10"),
    "state muestra": Owner("PLAY-10", after={"exchange": "SEVEN-11"}),
    "state stock_count": Owner("PLAY-08"),
    "state trick": Owner("PLAY-02"),
    "state trick_seats": Owner("PRE-22"),
    "state last_trick": Owner("PLAY-05"),
    "state last_trick_winner": Owner("PLAY-05"),
    "state draw_pending": Owner("PLAY-09"),
    "state tricks_played": Owner("PLAY-01"),
    "state ultimas": Owner("SCORE-01"),
    "state cantes": Owner("CANTE-01"),
    "state sung_suits": Owner("CANTE-11"),
    "state exchange_done": Owner("SEVEN-01"),
    "state de_vueltas": Owner("SCORE-13"),
    "state hand_in_point": Owner("SCORE-13"),
    "state hand_winner": Owner("SCORE-02", deferred=True),
    "state hand_reason": Owner("SCORE-02", deferred=True),
    "state hand_rule": Owner("SCORE-02", deferred=True),
    "state match": Owner("MATCH-01"),
    "state hand": Owner("PLAY-08", after=_HOLDINGS),
    "state hand_size": Owner("PLAY-08", after=_HOLDINGS),
    "state card_points": Owner("DECK-07"),
    "state cante_points": Owner("CANTE-04"),
    "state score": Owner("SCORE-02", by_points=True),
    "state total": Owner("VUELTAS-02", deferred=True, by_points=True),
    "state tricks_won": Owner("PLAY-16"),
    "state won_cards": Owner("PLAY-16"),
    "state last_trick_won": Owner("ETIQ-02"),
}

_INDEX = re.compile(r"\.\d+$")


def subject_owner(subject: str) -> Owner | None:
    """The declared owner of ``subject`` (``event trick_won.seat``, ``state hand.0``,
    ``event ultimas (order)``), or ``None`` for a subject the comparisons never read."""
    subject = subject.replace(" (order)", "")
    kind, _, name = subject.partition(" ")
    if kind == "state":
        return OWNERS.get(f"state {name.split('.')[0]}")
    if kind != "event":
        return None
    # an index inside a member (draws.0) is the member's
    found = OWNERS.get(f"event {_INDEX.sub('', name)}") or OWNERS.get(f"event {name.split('.')[0]}")
    if found is not None:
        return found
    rule = VOCABULARY_EVENT_RULES.get(name.split(".")[0])
    return Owner(rule) if rule else None


def cards_moved(action: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seat: int | None = None) -> set[str]:
    """The cards an action moved in or out of a hand (of ``seat``, or of any): the card played,
    the seven and the muestra exchanged, the cards drawn, the cards of an explicit deal (read off
    the action and its events)."""
    mine = (lambda who: True) if seat is None else (lambda who: who == seat)
    moved: set[str] = set()
    if action.get("type") == "play" and mine(action.get("seat")):
        moved.add(str(action.get("card")))
    for event in events:
        kind = event.get("type")
        if kind == "exchange" and mine(event.get("seat")):
            moved.update(str(event.get(name)) for name in ("gave", "took"))
        elif kind == "cards_drawn" and isinstance(event.get("draws"), list):
            draws = [draw for draw in event["draws"] if isinstance(draw, list) and len(draw) == 2]
            moved.update(str(card) for who, card in draws if mine(who))
    # an explicit deal says who got what; a deck order leaves it to the engine's dealing
    hands = action.get("hands") if action.get("type") == "deal" else None
    if isinstance(hands, list):
        dealt = [hands[seat]] if seat is not None and seat < len(hands) else hands
        moved.update(str(card) for hand in dealt if isinstance(hand, list) for card in hand)
    return moved


@dataclass(frozen=True)
class Trick:
    """A trick as the reference saw it at a divergence: each seat's card, and the seat each
    engine says won it."""

    cards: Mapping[int, str]
    reference_seat: object
    engine_seat: object

    def card_of(self, seat: object) -> str | None:
        """The card ``seat`` played to the trick (``None``: no such seat, or an engine's garbage)."""
        return self.cards.get(seat) if isinstance(seat, int) else None


#: The ranking inside a suit (DECK-05), and its part that differs from Tute's (DECK-06).
RANKING, SOTA_OVER_CABALLO = "DECK-05", "DECK-06"


#: A card of a third suit (neither the suit led nor trumps) never takes the trick (DECK-11); a trump
#: beats every card of another suit (DECK-10).
THIRD_SUIT, TRUMP_BEATS_OTHERS = "DECK-11", "DECK-10"


def trick_owner(trick: Trick, rule: str = "PLAY-05") -> str:
    """Which part of the trick-winning ``rule`` decides between the card the reference says took
    the trick and the card the engine says did: the ranking inside a suit for two cards of one
    suit (:data:`SOTA_OVER_CABALLO` for the Sota and the Caballo, :data:`RANKING` otherwise); for
    cards of two suits, :data:`THIRD_SUIT` when the engine's card is of neither the suit led nor
    the winning card's suit, :data:`TRUMP_BEATS_OTHERS` when a trump took the trick and the engine
    gave it to the suit led; the trick-winning rule itself for a seat that played no card of the
    trick. (``trick.cards`` is in the order played: its first card is the one led.)"""
    ours, theirs = trick.card_of(trick.reference_seat), trick.card_of(trick.engine_seat)
    if not ours or not theirs:
        return rule
    if ours[-1] == theirs[-1]:
        return SOTA_OVER_CABALLO if {ours[:-1], theirs[:-1]} == {"S", "C"} else RANKING
    led = next(iter(trick.cards.values()))[-1]
    if theirs[-1] not in (led, ours[-1]):
        return THIRD_SUIT
    if ours[-1] != led and theirs[-1] == led:
        return TRUMP_BEATS_OTHERS
    return rule


#: The draw: its order (the winner first, then in turn), the muestra to the last to draw at the
#: final draw, the cards from the top of the stock.
DRAW_ORDER, MUESTRA_LAST, FROM_THE_TOP = "PLAY-08", "PLAY-10", "PLAY-18"


def draws_owner(expected: object, got: object, *, final: bool) -> str:
    """Which rule of the draw decides between the reference's draws and the engine's (each a list
    of ``[seat, card]`` in drawing order): the order of the seats (:data:`DRAW_ORDER`); with the
    seats in order, at the final draw, the muestra taken by another than the last to draw
    (:data:`MUESTRA_LAST`); otherwise cards not taken from the top of the stock in turn
    (:data:`FROM_THE_TOP`)."""

    def pairs(draws: object) -> list[tuple[object, object]]:
        if not isinstance(draws, list):
            return []
        return [(d[0], d[1]) for d in draws if isinstance(d, (list, tuple)) and len(d) == 2]

    ours, theirs = pairs(expected), pairs(got)
    if not ours or [seat for seat, _ in ours] != [seat for seat, _ in theirs]:
        return DRAW_ORDER
    muestra = ours[-1][1]
    if final and theirs[-1][1] != muestra and muestra in {card for _, card in theirs}:
        return MUESTRA_LAST
    return FROM_THE_TOP


#: The parts of a side's count: the cantes (CANTE-04), the diez de últimas (SCORE-01), and the
#: score made of them once each (SCORE-02).
CANTES_COUNTED, ULTIMAS, SCORE_PARTS = "CANTE-04", "SCORE-01", "SCORE-02"


def points_owner(expected: object, got: object, cantes: Sequence[object] = (), side: int | None = None) -> str | None:
    """Which part of the count decides between the reference's points and the engine's (a side's
    number, or a list of both sides'), when the engine is off by exactly one part: its cantes
    left out (:data:`CANTES_COUNTED`, ``cantes`` the reference's cante points by side), the
    diez de últimas left out (:data:`ULTIMAS`) or counted twice (:data:`SCORE_PARTS`); ``None``
    otherwise."""
    if isinstance(expected, list) and isinstance(got, list):
        pairs = list(enumerate(zip(expected, got, strict=False)))
    elif side is not None:
        pairs = [(side, (expected, got))]
    else:
        return None
    for index, (ours, theirs) in pairs:
        if not isinstance(ours, int) or not isinstance(theirs, int) or ours == theirs:
            continue
        sung = cantes[index] if index < len(cantes) else 0
        if isinstance(sung, int) and sung and theirs - ours == -sung:
            return CANTES_COUNTED
        if theirs - ours == -10:
            return ULTIMAS
        if theirs - ours == 10:
            return SCORE_PARTS
    return None


def owner_of(
    subject: str,
    *,
    action: str | None = None,
    named: str | None = None,
    trick: Trick | None = None,
    draws: tuple[object, object, bool] | None = None,
    points: tuple[object, object, Sequence[object]] | None = None,
    expected: object = None,
) -> tuple[str | None, str]:
    """The rule that decides ``subject`` and how it was found (the basis), or ``(None, "")``.

    ``action`` is the type of the action just applied; ``named`` the rule the reference names
    there itself (the ``rule`` of its event, the rule that decided its hand), for an owner that
    defers to it; ``trick`` the trick, for the owner of a trick's winner; ``draws`` the reference's
    draws, the engine's and whether it was the final draw, for the owner of a draw; ``points``
    the reference's points, the engine's and the reference's cante points by side, for the owner
    of a count; ``expected`` the reference's value, for an owner that tells by it."""
    owner = subject_owner(subject)
    if owner is None:
        return None, ""
    plain = subject.replace(" (order)", "")
    if owner.by_points and points is not None:
        index = plain.rsplit(".", 1)[-1]
        part = points_owner(points[0], points[1], points[2], int(index) if index.isdigit() else None)
        if part is not None:
            return part, {
                CANTES_COUNTED: "the engine's count leaves out the side's cantes",
                ULTIMAS: "the engine's count leaves out the diez de últimas",
                SCORE_PARTS: "the engine's count has ten points too many: the diez de últimas counted twice",
            }[part]
    if expected is not None and expected in owner.by_expected:
        return owner.by_expected[expected], f"the rule that decides {plain} where it is {expected}"
    if owner.deferred and named:
        return named, f"the rule the reference names for {plain}"
    if action is not None and action in owner.after:
        return owner.after[action], f"the rule that decides {plain} after the {action}"
    if owner.by_draws and draws is not None:
        rule = draws_owner(draws[0], draws[1], final=draws[2])
        return rule, {
            DRAW_ORDER: "the rule that decides the order of the draw",
            MUESTRA_LAST: "the muestra goes to the last to draw at the final draw",
            FROM_THE_TOP: "the seats drew in turn, but not the cards from the top of the stock",
        }[rule]
    if owner.by_trick and trick is not None:
        rule = trick_owner(trick, owner.rule)
        if rule != owner.rule:
            ours, theirs = trick.card_of(trick.reference_seat), trick.card_of(trick.engine_seat)
            decides = {
                THIRD_SUIT: f"a card of a third suit never takes the trick: {theirs} cannot beat {ours}",
                TRUMP_BEATS_OTHERS: f"a trump beats every other suit: {ours} beats {theirs}",
            }.get(rule, f"the ranking inside a suit decides between {ours} and {theirs}")
            return rule, decides
        return rule, "the rule that decides the trick's winner"
    return owner.rule, f"the rule that decides {plain}"


__all__ = [
    "CANTES_COUNTED",
    "DRAW_ORDER",
    "FROM_THE_TOP",
    "MUESTRA_LAST",
    "OWNERS",
    "RANKING",
    "SCORE_PARTS",
    "SOTA_OVER_CABALLO",
    "ULTIMAS",
    "Owner",
    "Trick",
    "cards_moved",
    "draws_owner",
    "owner_of",
    "points_owner",
    "subject_owner",
    "trick_owner",
]
