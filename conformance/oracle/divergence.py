"""A divergence: where an engine first parted from the reference, why, and the record that replays it.

In: a :class:`~conformance.oracle.steps.Difference` found after some actions, the reference's step
there, and the setup and actions that lead to it, under a :class:`Config`. Out: its :class:`Cause`
(:func:`cause_of`), the key divergences are grouped by; the :class:`Divergence` that holds it with
its example, described in words (:func:`describe_action`) and written as a replayable record that
:func:`load_record` reads back.

The rule: a divergence is named by the rule the engine's answer breaks where the two parted: the rule
of the reference's refusal; for an event member or a state field that differs, the rule that decides it
(:func:`owned_rule`, declared in :mod:`conformance.oracle.owners`: a trick's winner is the trick-winning
rule, a missing diez de últimas SCORE-01), failing that the rule of the most telling of the
reference's events (:func:`rule_of_step`); for a difference in the
legal actions, the rule behind the first action only one engine offers (:func:`legal_rule`: the
reference's refusal of an action the engine offers besides, or what lets it play a card the engine
does not offer, :func:`play_allowed_by`), or CANTE-07 where the engine offers only a cante, a tute
or a claim and will not let the player decline it (:func:`declines`). The first divergence of a
failed run's transcript (:mod:`conformance.oracle.transcript`) names its rule with the same helpers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.interface import JSON, Engine, GameHandle, Rejected
from adapters.vocabulary import SUITS
from conformance.oracle.owners import RANKING, SOTA_OVER_CABALLO, Trick, owner_of
from conformance.oracle.rules import rules_of_events
from conformance.oracle.steps import Difference, Step, action_key, snapshot, subject_key
from reference_engine.deal import HAND_SIZE

RECORD_FORMAT = "guinote-divergence/2"


@dataclass(frozen=True)
class Config:
    """The rules one game is played under: a label (``lascuarenta+mano_a_mano``,
    ``ludoteka[tute=wins_point]``) and the value of every flag."""

    label: str
    flags: Mapping[str, str]
    #: the engine's own profile the configuration starts from (its names are its own: ``+`` and
    #: ``[`` may be in them, so the label is never split to find it)
    profile: str = ""

    @property
    def players(self) -> int:
        return int(self.flags.get("players", "4"))

    @property
    def deck_size(self) -> int:
        return int(self.flags.get("deck", "40"))


@dataclass(frozen=True)
class Cause:
    """Why two engines diverged, the key divergences are grouped by: the kind, what differed
    (a field, an event member, an action type) and the rule the reference applied there."""

    kind: str
    subject: str
    rule: str

    def __str__(self) -> str:
        return f"{self.kind} {self.subject}" + (f" [{self.rule}]" if self.rule else "")


@dataclass
class Divergence:
    """Where the engine under test first disagreed with the reference."""

    config: Config
    setup: dict[str, JSON]
    actions: list[dict[str, JSON]]
    cause: Cause
    expected: JSON
    got: JSON
    seed: int = 0
    strategy: str = ""
    #: the rule IDs the reference's events and refusals showed in the game, up to the divergence
    message: str = ""
    #: the subjects of the known divergences passed over before it in its game
    #: (:func:`~conformance.oracle.steps.subject_key`): a replay or a shrink of the example does not
    #: compare them either
    passed_over: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        """How big the example is: actions first, then the cards it shows."""
        return len(self.actions)

    def describe(self) -> str:
        last = describe_action(self.actions[-1]) if self.actions else "before any action"
        where = f"{self.config.label}, seed {self.seed}, after {len(self.actions)} actions (last: {last})"
        if self.passed_over:
            where += f", past the known {', '.join(self.passed_over)}"
        expected, got = _show(self.expected), _show(self.got)
        if self.cause.kind == "legal":
            return f"{where}: legal actions differ: the engine lacks {expected} and offers besides {got}"
        if self.cause.kind == "failure":
            return f"{where}: the engine failed: {self.got}"
        return f"{where}: {self.cause.kind} {self.cause.subject}: expected {expected}, got {got}"

    def record(self) -> dict[str, JSON]:
        """A replayable record: the rules, the setup and the actions that lead to the divergence."""
        return {
            "format": RECORD_FORMAT,
            "config": {"label": self.config.label, "flags": dict(self.config.flags), "profile": self.config.profile},
            "seed": self.seed,
            "strategy": self.strategy,
            "setup": self.setup,
            "actions": self.actions,
            "passed_over": list(self.passed_over),
            "divergence": {
                "kind": self.cause.kind,
                "subject": self.cause.subject,
                "rule": self.cause.rule,
                "expected": self.expected,
                "got": self.got,
            },
        }


#: How each action reads: (as a step of its own, "seat 0 plays Ao"; inside a sentence, "seat 0 playing Ao").
_DESCRIPTIONS = {
    "play": ("seat {seat} plays {card}", "seat {seat} playing {card}"),
    "cante": ("seat {seat} sings {suit}", "seat {seat} singing {suit}"),
    "exchange": ("seat {seat} exchanges for the muestra", "seat {seat} exchanging for the muestra"),
    "claim": ("seat {seat} claims 101", "seat {seat} claiming 101"),
    "tute": ("seat {seat} sings tute of {rank}", "seat {seat} singing tute of {rank}"),
    "draw": ("the cards are drawn", "drawing the cards"),
    "deal": ("the next hand is dealt", "dealing the next hand"),
}
_TUTES = {"R": "reyes", "S": "sotas"}


def describe_action(action: Mapping[str, JSON], *, gerund: bool = False) -> str:
    """An action in words, as the scenarios write it (``seat 1 sings copas``), or as a gerund for
    a sentence about it (``expected seat 1 singing copas to be accepted``)."""
    forms = _DESCRIPTIONS.get(str(action.get("type")))
    if forms is None:
        return json.dumps(dict(action), ensure_ascii=False)
    suit, rank = action.get("suit"), action.get("rank")
    return forms[gerund].format(
        seat=action.get("seat"),
        card=action.get("card"),
        suit=SUITS.get(suit, suit) if isinstance(suit, str) else suit,
        rank=_TUTES.get(rank, rank) if isinstance(rank, str) else rank,
    )


def _show(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


class RecordError(ValueError):
    """A divergence record that cannot be read (the message names the file and the member)."""


@dataclass(frozen=True)
class Record:
    config: Config
    setup: dict[str, JSON]
    actions: list[dict[str, JSON]]
    divergence: dict[str, JSON]
    #: the known divergences passed over before it (:attr:`Divergence.passed_over`)
    passed_over: tuple[str, ...] = ()


def load_record(data: Any, where: str) -> Record:
    """Read a record written by :meth:`Divergence.record` (or the older ``guinote-divergence/1``)."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a divergence record is a JSON object")
    fmt = data.get("format")
    if fmt not in (RECORD_FORMAT, "guinote-divergence/1"):
        raise RecordError(f"{where}: unknown format {fmt!r}; expected {RECORD_FORMAT!r}")
    setup = data.get("setup")
    actions = data.get("actions")
    if not isinstance(setup, dict) or not isinstance(setup.get("flags"), dict):
        raise RecordError(f"{where}: 'setup' must be an object with the 'flags'")
    if not all(isinstance(name, str) and isinstance(value, str) for name, value in setup["flags"].items()):
        raise RecordError(f"{where}: 'setup.flags' must map each flag to its value, a string")
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise RecordError(f"{where}: 'actions' must be a list of action objects")
    passed_over = data.get("passed_over", [])
    if not isinstance(passed_over, list) or not all(isinstance(subject, str) for subject in passed_over):
        raise RecordError(f"{where}: 'passed_over' must be a list of strings (the subjects of known divergences)")
    raw_config = data.get("config") or {"label": str(data.get("profile", "?")), "flags": setup["flags"]}
    if not isinstance(raw_config, dict):
        raise RecordError(f"{where}: 'config' must be an object")
    config = Config(str(raw_config.get("label", "?")), dict(setup["flags"]), str(raw_config.get("profile", "")))
    divergence = data.get("divergence")
    return Record(config, setup, actions, divergence if isinstance(divergence, dict) else {}, tuple(passed_over))


# ---------------------------------------------------------------------------------------- rules of a step


def rule_of_step(step: Step) -> str:
    """The rule the reference applied at ``step``: its refusal's rule, or the rule behind the
    most telling of its events (see :func:`conformance.oracle.rules.rules_of_events`)."""

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
    (:func:`reference_engine.cantes.cante_allowance`), ``""`` from another engine."""
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
    winning trump ARR-05, no trump ARR-08: :func:`reference_engine.arrastre.allowance`); another
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


def cause_of(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step | None,
) -> Cause:
    """The cause of a difference found after ``actions``: the rule the reference applied there
    (for the legal actions, the rule behind the first action only one engine offers)."""
    rule = ""
    missing = difference.expected if isinstance(difference.expected, list) else []
    if difference.kind == "legal" and step is not None and not difference.got and missing:
        keys = {action_key(action) for action in missing if isinstance(action, Mapping)}
        if declines(missing, [action for action in step.legal if action_key(action) not in keys]):
            return Cause(difference.kind, difference.subject, DECLINE_RULE)
    if difference.kind == "legal":
        # a card the engine offers besides breaks the rule of the reference's refusal, which says
        # more than what lets the reference accept a card the engine lacks (a trump offered
        # instead of a card of the suit led breaks ARR-01, not the duty to beat)
        offered = difference.got if difference.got else difference.expected
        try:
            rule = ranking_rule(missing, difference.got) or legal_rule(
                reference, setup, actions, offered, engine_plays(step, missing, difference.got)
            )
        except Exception:  # the rule is a label: never let finding it stop a run
            rule = ""
    elif step is not None and step.action is not None:
        rule = (
            code_rule(reference, setup, actions, difference, step)
            or owned_rule(reference, setup, actions, difference, step)
            or rule_of_step(step)
        )
    return Cause(difference.kind, difference.subject, rule)


#: A plain rule whose group takes in the groups of the more specific rules the same subject can be
#: named by: an engine that refuses even the plainest cante (the trick's winner, before the draw,
#: CANTE-01) refuses the partner's, the one after the draw and the arrastre's for the same reason,
#: not for theirs. (kind, subject) -> (the plain rule, the specific rules it takes in)
SUBSUMED: dict[tuple[str, str], tuple[str, frozenset[str]]] = {
    ("legal", "cante (missing)"): ("CANTE-01", frozenset({"CANTE-05", "CANTE-09", "CANTE-20", "CANTE-25"})),
}


def subsuming(cause: Cause, causes: Sequence[Cause]) -> Cause | None:
    """The cause among ``causes`` whose group takes in ``cause``'s (:data:`SUBSUMED`), if any."""
    plain, specific = SUBSUMED.get((cause.kind, cause.subject), ("", frozenset()))
    if cause.rule not in specific:
        return None
    wanted = Cause(cause.kind, cause.subject, plain)
    return wanted if wanted in causes else None


#: The reason code an engine gives for a cante or a tute out of the singer's window (CANTE-05).
WINDOW_CLOSED = "CANTE_NO_WON_TRICK"


def code_rule(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step,
) -> str:
    """The rule behind a refusal for another reason than the reference's. Where the engine's
    reason does not hold, the rule that makes it wrong: a cante refused as out of the window while
    the reference keeps the window open breaks what keeps it open
    (:func:`reference_engine.cantes.window_allowance`). Otherwise the reference's refusal, made
    precise (:func:`refusal_rule`). ``""`` for another kind of difference."""
    if difference.kind != "refusal code" or step.action is None:
        return ""
    game = reference.start(setup)
    for previous in actions:  # (the last, refused by both, leaves the table as it was)
        game.apply(previous)
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


def owned_rule(
    reference: Engine,
    setup: Mapping[str, JSON],
    actions: Sequence[dict[str, JSON]],
    difference: Difference,
    step: Step,
) -> str:
    """The rule that decides what differs in an event or a state field after ``step``
    (:func:`conformance.oracle.owners.owner_of`), or ``""`` for another kind of difference."""
    if difference.kind not in ("event", "state") or step.action is None:
        return ""
    subject = subject_key(difference.kind, difference.subject)
    kind = difference.subject.split(".")[0].removesuffix(" (order)")
    # the reference names the rule itself: its event's rule, or the rule that decided its hand
    decisive = "hand_over" if difference.kind == "state" else kind
    named = next((e.get("rule") for e in step.events if e.get("type") == decisive and e.get("rule")), None)
    if named is None and difference.subject == "phase" and difference.expected == "hand_over":
        named = "SCORE-02"
    trick = None
    if subject == "event trick_won.seat" and actions:
        try:
            trick = _trick_of(reference, setup, actions, difference)
        except Exception:  # the rule is a label: never let finding it stop a run
            trick = None
    draws = None
    if subject == "event cards_drawn.draws":
        draws = (difference.expected, difference.got, step.state.get("muestra", "") is None)
    cantes = [step.state.get("cante_points.0", 0), step.state.get("cante_points.1", 0)]
    if subject in ("event hand_over", "event hand_over.winner") and ends_at_100(difference, step):
        return PASSING_100
    rule, _ = owner_of(
        subject,
        action=str(step.action.get("type")),
        named=str(named) if named else None,
        trick=trick,
        draws=draws,
        points=(difference.expected, difference.got, cantes),
        expected=difference.expected if isinstance(difference.expected, (int, str)) else None,
    )
    return rule or ""


#: To win a side must pass 100: an engine that ends the hand on exactly 100 breaks it.
PASSING_100 = "SCORE-04"


def ends_at_100(difference: Difference, step: Step) -> bool:
    """Whether the engine ends a hand the reference goes on with, where a side has exactly 100."""
    ended = (difference.subject == "hand_over" and "hand_over" in (difference.got or [])) or (
        difference.subject == "hand_over.winner" and difference.expected is None and difference.got is not None
    )
    totals = [step.state.get("total.0"), step.state.get("total.1")]
    return ended and isinstance(difference.got, (list, int)) and 100 in totals


def _trick_of(
    reference: Engine, setup: Mapping[str, JSON], actions: Sequence[dict[str, JSON]], difference: Difference
) -> Trick:
    """The trick the last of ``actions`` completed, each seat's card, replayed on the reference."""
    game = reference.start(setup)
    for previous in actions[:-1]:
        game.apply(previous)
    seats, cards = game.state("trick_seats") or [], game.state("trick") or []
    played = {int(seat): str(card) for seat, card in zip(seats, cards, strict=False)}
    last = actions[-1]
    if isinstance(last.get("seat"), int):
        played[int(str(last["seat"]))] = str(last.get("card"))
    return Trick(played, difference.expected, difference.got)


__all__ = [
    "ARRASTRE_STARTS",
    "PASSING_100",
    "RECORD_FORMAT",
    "SUBSUMED",
    "WINDOW_CLOSED",
    "Cause",
    "Config",
    "Divergence",
    "Record",
    "RecordError",
    "after_lead",
    "allowed_by",
    "cause_of",
    "code_rule",
    "declines",
    "describe_action",
    "ends_at_100",
    "engine_plays",
    "legal_rule",
    "load_record",
    "may_declare",
    "owned_rule",
    "play_allowed_by",
    "plays_as_free",
    "ranking_rule",
    "refusal_facts",
    "refusal_rule",
    "rule_of_step",
    "subsuming",
    "telling_action",
    "trump_led",
]
