"""The rule behind a difference in what an engine allows: what it offers, refuses or answers.

In: the reference (its game replayed to where the engines parted), the action one engine offers and
the other does not, or the refusal both made for different reasons. Out: the rule the engine's
answer breaks there, for :func:`guinote_conformance.oracle.divergence.cause_of` (``compare``) and the first
divergence of a run's transcript (:mod:`guinote_conformance.oracle.transcript`).

The rule: a card or a cante the engine does not offer is named by what lets the reference allow it
(:func:`allowed_by`: the partner's exemption, no under-trumping, the window through the draw...,
asked of the reference itself); one it offers besides by the reference's refusal, made precise
where its code covers more than its rule (:func:`refusal_rule`); two cards of one suit swapped by the
ranking (:func:`ranking_rule`); a first trick of the arrastre played as free by PLAY-13
(:func:`plays_as_free`); an engine that offers only a declaration where the reference lets it be
declined by CANTE-07 (:func:`declines`); a cante refused as out of a window the reference keeps open
by what keeps it open (:func:`code_rule`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from guinote_conformance.adapters.interface import JSON, Engine, GameHandle, Rejected
from guinote_conformance.oracle.owners import RANKING, SOTA_OVER_CABALLO
from guinote_conformance.oracle.rules import rules_of_events
from guinote_conformance.oracle.steps import Difference, Step, action_key, snapshot
from guinote_conformance.reference_engine.deal import HAND_SIZE


def rule_of_step(step: Step) -> str:
    """The rule the reference applied at ``step``: its refusal's rule, or the rule behind the
    most telling of its events (see :func:`guinote_conformance.oracle.rules.rules_of_events`)."""

    if not step.accepted:
        return step.rule
    rules = rules_of_events(step.events, step.state)
    return rules[0] if rules else ""


def legal_rule(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    extra: JSON,
    engine_plays: Sequence[Mapping[str, JSON]] | None = None,
) -> str:
    """The rule behind a legal-actions difference: the reference's refusal of an action the
    engine offers besides (:func:`refusal_rule`), or what lets the reference accept an action the
    engine does not offer (:func:`allowed_by`, else the rule of its events).

    ``engine_plays`` are the cards the engine offers there, when known: an engine that offers
    every card of the hand in the first trick of the arrastre still plays it as free (PLAY-13)."""
    if not isinstance(extra, list) and not isinstance(extra, dict):
        return ""
    game = reference.start(setup)
    for previous in actions:
        game.apply(previous)
    action = telling_action(game, extra)
    if action is None or action.get("type") == "deal":
        return ""
    if action_key(action) in {action_key(legal) for legal in game.legal_actions()}:
        allowing = allowed_by(game, action)
        if allowing:
            return allowing
    elif action.get("type") == "play" and engine_plays is not None and plays_as_free(game, action, engine_plays):
        return ARRASTRE_STARTS
    refused = refusal_facts(game, action)
    outcome = game.apply(action)
    if isinstance(outcome, Rejected):
        return refusal_rule(outcome, **refused)
    return rule_of_step(Step(action, events=list(outcome.events), state=snapshot(game, None).state))


def telling_action(game: GameHandle, offered: JSON) -> dict[str, JSON] | None:
    """The action of ``offered`` whose rule says most: the first, except that a cante of the
    player who won the trick goes before his partner's (the partner's tells the side's right to
    sing apart only where the winner's differs too)."""
    actions = [a for a in (offered if isinstance(offered, list) else [offered]) if isinstance(a, dict)]
    if not actions:
        return None
    if actions[0].get("type") == "cante":
        winner = game.state("last_trick_winner")
        actions.sort(key=lambda action: action.get("seat") != winner)
    return actions[0]


def allowed_by(game: GameHandle, action: Mapping[str, JSON]) -> str:
    """The rule that lets the reference accept ``action`` where the engine does not offer it: for
    a card, :func:`play_allowed_by`; for a cante, what the reference says
    (:func:`guinote_conformance.reference_engine.cantes.cante_allowance`), ``""`` from another engine."""
    if action.get("type") == "play":
        return play_allowed_by(game, action)
    explain = getattr(game, "allowed_by", None)
    rule = explain(action) if callable(explain) else ""
    return rule if isinstance(rule, str) else ""


def refusal_facts(game: GameHandle, action: Mapping[str, JSON]) -> dict[str, bool]:
    """What :func:`refusal_rule` needs of the table before ``action`` is refused there."""
    kind = action.get("type")
    if kind == "play":
        return {"led_trump": trump_led(game)}
    if kind in ("cante", "tute"):
        return {"after_lead": after_lead(game, action.get("seat"))}
    if kind == "exchange":
        return {"exchanged": game.state("exchange_done") is True}
    return {}


#: The arrastre starts once the muestra is drawn: an engine still playing free breaks this rule.
ARRASTRE_STARTS = "PLAY-13"


def refusal_rule(
    refused: Rejected, *, led_trump: bool = False, after_lead: bool = False, exchanged: bool = False
) -> str:
    """The rule of the reference's refusal, its first if it names several, made precise where the
    refusal's code covers more than its rule: the duty to beat on a trump lead is ARR-09
    (MUST_BEAT is ARR-02 for every suit led); a cante refused because a card has been led since
    the side won the trick is the close of the window at the lead, CANTE-06 (CANTE_NO_WON_TRICK
    is CANTE-05); an exchange out of its window breaks the window, SEVEN-16 (whichever reading
    of it the rules play), and a second exchange in the hand SEVEN-13."""
    first = refused.rule.replace(",", "/").split("/")[0].strip()
    if led_trump and refused.code == "MUST_BEAT" and first == "ARR-02":
        return "ARR-09"
    if after_lead and refused.code == "CANTE_NO_WON_TRICK":
        return "CANTE-06"
    if refused.code == "EXCHANGE_WINDOW_CLOSED":
        return "SEVEN-16"
    if exchanged and refused.code == "EXCHANGE_MUESTRA_NOT_ELIGIBLE":
        return "SEVEN-13"
    return first


def trump_led(game: GameHandle) -> bool:
    """Whether the trick on the reference's table was led with a trump."""
    trick, trump = game.state("trick"), game.state("trump")
    return isinstance(trick, list) and bool(trick) and str(trick[0])[1:] == trump


def after_lead(game: GameHandle, seat: JSON) -> bool:
    """Whether ``seat``'s side won the last trick and a card has been led to the next since."""
    trick, winner, players = game.state("trick"), game.state("last_trick_winner"), game.state("players")
    if not trick or not isinstance(winner, int) or not isinstance(seat, int) or not isinstance(players, int):
        return False
    return seat % 2 == winner % 2 if players == 4 else seat == winner


def plays_as_free(game: GameHandle, refused: Mapping[str, JSON], engine_plays: Sequence[Mapping[str, JSON]]) -> bool:
    """Whether the engine, offering ``engine_plays`` where the reference refuses ``refused``,
    plays the first trick of the arrastre as a free one: the player still holds the full hand
    every player has after the last draw (DEAL-01), holds the suit led and a third suit, and the
    engine offers all of it where the duties allow fewer."""
    seat = refused.get("seat")
    if game.state("phase") != "arrastre" or not isinstance(seat, int):
        return False
    hand, trick = game.state(f"hand.{seat}"), game.state("trick")
    if not isinstance(hand, list) or len(hand) != HAND_SIZE or not isinstance(trick, list) or not trick:
        return False
    offered = {str(play.get("card")) for play in engine_plays if play.get("seat") == seat}
    # a hand of the suit led and trumps alone cannot tell free play from a duty to trump instead
    led, trump, suits = str(trick[0])[1:], game.state("trump"), {str(card)[1:] for card in hand}
    return offered >= {str(card) for card in hand} and led in suits and bool(suits - {led, trump})


def play_allowed_by(game: GameHandle, action: Mapping[str, JSON]) -> str:
    """The rule that lets the reference accept a card the engine does not offer. The reference
    says it itself (``allowed_by``: free play PLAY-07 or ARR-11, a lead ARR-14, the duty to beat
    ARR-02/09, the partner's exemption ARR-06/07, a trumped trick ARR-13, trumping ARR-03/04, no
    winning trump ARR-05, no trump ARR-08: :func:`guinote_conformance.reference_engine.arrastre.allowance`); another
    engine as reference is read by the card's suit: free play, a lead, following suit (ARR-01),
    a trump (ARR-03) or a discard (ARR-08)."""
    explain = getattr(game, "allowed_by", None)
    if callable(explain):
        rule = explain(action)
        if isinstance(rule, str) and rule:
            return rule
    if game.state("phase") == "free":
        return "PLAY-07"
    trick = game.state("trick")
    card = str(action.get("card", ""))
    if not trick:
        return "ARR-14"
    if card[1:] == str(trick[0])[1:]:
        return "ARR-01"
    return "ARR-03" if card[1:] == game.state("trump") else "ARR-08"


#: Where the engine offers only cantes (or tutes, or a claim) and not the draw or the next card
#: the reference allows too, it does not let the player decline them: singing is optional.
DECLINE_RULE = "CANTE-07"
_DECLARATIONS = frozenset({"cante", "tute", "claim"})
#: What a player does instead of singing: draw, play on, or exchange the seven.
_DECLINED_BY = frozenset({"draw", "play", "exchange"})


def may_declare(legal: Sequence[Mapping[str, JSON]]) -> bool:
    """Whether ``legal`` (the reference's) offers a cante, a tute or a claim: where an engine
    that will not let one be declined refuses the draw or the next card."""
    return any(action.get("type") in _DECLARATIONS for action in legal)


def declines(missing: Sequence[Mapping[str, JSON]], offered: Any) -> bool:
    """Whether an engine that lacks ``missing`` (the draw, or a card to play) and offers only
    ``offered``, all cantes, tutes or claims, does not let the player decline them (CANTE-07)."""
    kinds = {str(action.get("type")) for action in missing if isinstance(action, Mapping)}
    offered_kinds = {str(action.get("type")) for action in offered or [] if isinstance(action, Mapping)}
    declined = bool(kinds & _DECLINED_BY) and kinds <= _DECLINED_BY | _DECLARATIONS
    return declined and bool(offered_kinds) and offered_kinds <= _DECLARATIONS


#: The reason code an engine gives for a cante or a tute out of the singer's window (CANTE-05).
WINDOW_CLOSED = "CANTE_NO_WON_TRICK"


def code_rule(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step,
) -> str:
    """The rule behind a refusal for another reason than the reference's, or behind an action
    one engine refuses and the other accepts: one the engine refuses breaks what lets the reference
    accept it (:func:`allowed_by`), one it accepts breaks the reference's refusal. Where the engine's
    reason does not hold, the rule that makes it wrong: a cante refused as out of the window while
    the reference keeps the window open breaks what keeps it open
    (:func:`guinote_conformance.reference_engine.cantes.window_allowance`). Otherwise the reference's refusal, made
    precise (:func:`refusal_rule`). ``""`` for another kind of difference."""
    if difference.kind not in ("refusal code", "acceptance") or step.action is None:
        return ""
    game = reference.start(setup)
    for previous in actions[:-1] if step.accepted else actions:  # (the last, refused, leaves the table as it was)
        game.apply(previous)
    if difference.kind == "acceptance" and step.accepted:  # refused by the engine: as a card or cante it lacks
        return allowed_by(game, step.action)
    if difference.got == WINDOW_CLOSED:
        explain = getattr(game, "allowed_by", None)
        try:
            rule = explain(step.action, window=True) if callable(explain) else ""
        except TypeError:  # another engine as reference: its allowed_by, if any, takes no window
            rule = ""
        if isinstance(rule, str) and rule:
            return rule
    if step.accepted or not step.code:
        return ""
    return refusal_rule(Rejected(step.code, step.rule), **refusal_facts(game, step.action))


def engine_plays(step: Step | None, missing: Sequence[JSON], extra: JSON) -> list[Mapping[str, JSON]] | None:
    """The plays the engine offers where ``step`` left the reference: the reference's legal
    plays there, less the ``missing`` ones, plus the ``extra``."""
    if step is None:
        return None
    gone = {action_key(action) for action in missing if isinstance(action, Mapping)}
    offered = [action for action in step.legal if action.get("type") == "play" and action_key(action) not in gone]
    extras = extra if isinstance(extra, list) else []
    return offered + [action for action in extras if isinstance(action, Mapping) and action.get("type") == "play"]


def ranking_rule(missing: Sequence[JSON], extra: JSON) -> str:
    """The ranking inside a suit, where the engine offers a card of one suit instead of another of
    the same suit the reference requires (it ranks them the other way round): DECK-06 between the
    Sota and the Caballo, DECK-05 otherwise; ``""`` for any other difference."""
    plays = [a for a in missing if isinstance(a, Mapping) and a.get("type") == "play"]
    extras = [a for a in extra if isinstance(a, Mapping) and a.get("type") == "play"] if isinstance(extra, list) else []
    for ours in plays:
        for theirs in extras:
            mine, other = str(ours.get("card")), str(theirs.get("card"))
            if ours.get("seat") == theirs.get("seat") and mine[-1:] == other[-1:]:
                return SOTA_OVER_CABALLO if {mine[:-1], other[:-1]} == {"S", "C"} else RANKING
    return ""


__all__ = [
    "ARRASTRE_STARTS",
    "DECLINE_RULE",
    "WINDOW_CLOSED",
    "after_lead",
    "allowed_by",
    "code_rule",
    "declines",
    "engine_plays",
    "legal_rule",
    "may_declare",
    "play_allowed_by",
    "plays_as_free",
    "ranking_rule",
    "refusal_facts",
    "refusal_rule",
    "rule_of_step",
    "telling_action",
    "trump_led",
]
