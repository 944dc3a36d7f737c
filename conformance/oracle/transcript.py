"""The first divergence of a failed run: where the engine parted from the reference, and by which rule.

In: the transcript of one failing scenario (:class:`~conformance.engines.recording.Call`: what the
suite asked the engine and what it answered), and what the protocol requires of the engine. Out:
the :class:`~conformance.results.case.Divergence` stored with the failure (:func:`find_divergence`):
the call, what differed, both answers, the rule and the basis for naming it, the phase.

The rule: the transcript is replayed in process on the reference engine, call by call, from the
same setup; the first call the two answer differently is where the engine parted from the rules,
and the rule the reference applied there is the likely broken rule: the rule of its refusal, of its
event (:data:`EVENT_RULES`), of the field (:data:`FIELD_RULES`) or of the action it allows
(:data:`PERMISSIONS`); failing those, the rule of the flag under which the reference answers as the
engine did (looked for during at most :data:`AS_IF_BUDGET_S` seconds a process). The likely causes
over a whole results file (:mod:`conformance.oracle.causes`) rank the rules these divergences name.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.interface import JSON, Accepted, Engine, GameHandle, Rejected, SetupRejected, UnknownField
from adapters.obligations import Obligations
from conformance.engines.recording import Call, outcome_json
from conformance.oracle.divergence import DECLINE_RULE, declines, may_declare, play_allowed_by
from conformance.oracle.steps import event_difference
from conformance.results.case import Divergence

RULE_IN_TEXT = re.compile(r"\b[A-Z]+-\d{2}\b")

#: The rule that governs an event of the vocabulary (or one of its fields), where the
#: reference's event carries no ``rule`` of its own.
EVENT_RULES: dict[tuple[str, str], str] = {
    ("ultimas", ""): "SCORE-01",
    ("cards_drawn", ""): "PLAY-08",
    ("arrastre_begins", ""): "PLAY-13",
    ("trick_won", "points"): "DECK-07",
    ("trick_won", "side"): "PLAY-16",
    ("cante", "value"): "CANTE-02",
    ("cante", "side"): "CANTE-04",
    ("exchange", ""): "SEVEN-01",
    ("tute", ""): "CANTE-22",
}
#: The rule behind a state field (its name before the first dot); the fields that decide the
#: end of a hand (:data:`_HAND_FIELDS`) take the rule that decided it on the reference, if any.
FIELD_RULES: dict[str, str] = {
    "phase": "PLAY-13",
    "players": "PRE-01",
    "turn": "PLAY-02",
    "leader": "PLAY-04",
    "dealer": "PRE-10",
    "mano": "PRE-09",
    "trump": "DECK-10",
    "muestra": "PLAY-10",
    "stock_count": "PLAY-08",
    "trick": "PLAY-02",
    "trick_seats": "PRE-22",
    "last_trick": "PLAY-05",
    "last_trick_winner": "PLAY-05",
    "draw_pending": "PLAY-09",
    "tricks_played": "PLAY-01",
    "ultimas": "SCORE-01",
    "cantes": "CANTE-01",
    "sung_suits": "CANTE-11",
    "exchange_done": "SEVEN-01",
    "de_vueltas": "SCORE-13",
    "hand_in_point": "SCORE-13",
    "hand_winner": "SCORE-02",
    "hand_reason": "SCORE-02",
    "hand_rule": "SCORE-02",
    "match": "MATCH-01",
    "hand": "PLAY-08",
    "hand_size": "PLAY-08",
    "card_points": "DECK-07",
    "cante_points": "CANTE-04",
    "score": "SCORE-02",
    "total": "VUELTAS-02",
    "tricks_won": "PLAY-16",
    "won_cards": "PLAY-16",
    "last_trick_won": "ETIQ-02",
}

#: The rule that allows an action of a type (in a phase, or in any: ``None``): where the
#: engine refuses or does not offer what the reference allows, the rule the reference applied.
PERMISSIONS: dict[tuple[str, str | None], str] = {
    ("play", "free"): "PLAY-07",
    ("cante", "arrastre"): "CANTE-20",
    ("cante", None): "CANTE-01",
    ("tute", None): "CANTE-22",
    ("exchange", None): "SEVEN-01",
    ("claim", None): "VUELTAS-05",
    ("draw", None): "PLAY-08",
}
_HAND_FIELDS = ("hand_winner", "hand_reason", "hand_rule", "total", "phase")
#: What the protocol requires of an engine with every capability (a replay without obligations).
EVERYTHING = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))
#: Seconds one process may spend looking for a flag reading that explains a divergence.
AS_IF_BUDGET_S = 30.0
_as_if_spent = 0.0


def rules_in(text: str | None) -> list[str]:
    return RULE_IN_TEXT.findall(text or "")


@dataclass
class _Difference:
    index: int
    what: str
    reference: JSON
    engine: JSON
    rule: str | None = None
    basis: str = ""
    #: the reference's phase just before the call (free, arrastre...)
    phase: str | None = None
    #: the rule to name when no flag reading explains the difference either (the rule that lets
    #: the reference accept a card the engine refused: following suit, trumping...)
    fallback: str | None = None


def _normal(value: Any) -> Any:
    """Compare answers as the checks do: a list of cards or actions in any order."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return sorted(value)
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return sorted(json.dumps(item, sort_keys=True) for item in value)
    return value


def _describe(call: Call) -> str:
    if call.call == "apply":
        return f"apply {json.dumps(call.args, ensure_ascii=False)}"
    if call.call == "state":
        return f"state {call.args}"
    if call.call == "observe":
        return f"observation {call.args}"
    if call.call == "legal":
        return "legal actions"
    return call.call


def _ask(game: GameHandle, call: Call) -> Any:
    if call.call == "legal":
        return game.legal_actions()
    if call.call == "apply":
        return game.apply(call.args)
    if call.call == "state":
        return game.state(str(call.args))
    if call.call == "observe":
        seat, name = call.args
        return game.observation(int(seat), str(name))
    raise ValueError(f"unknown call {call.call}")


def _event_difference(
    reference: list[dict[str, JSON]], engine: list[dict[str, JSON]], obligations: Obligations
) -> tuple[str, str | None] | None:
    """The first event the engine reported differently, in what the protocol requires of it
    (:func:`conformance.oracle.steps.event_difference`), and the rule it is governed by; ``None``
    when they agree there."""
    difference = event_difference(reference, engine, obligations)
    if difference is None:
        return None
    ours = obligations.vocabulary_events(reference)
    kind, _, key = difference.subject.partition(".")
    kind = kind.removesuffix(" (order)")
    expected = next((event for event in ours if event.get("type") == kind), None)
    if expected is None:  # an event the engine has and the reference has not
        return f"extra event {kind}", EVENT_RULES.get((kind, ""))
    if expected.get("rule") and isinstance(expected["rule"], str):
        rule: str | None = expected["rule"]
    else:
        rule = EVENT_RULES.get((kind, key)) or EVENT_RULES.get((kind, ""))
    if not key:  # an event the engine left out (or has elsewhere): the reference's own rule, else the event's
        return f"event {kind} missing (event {ours.index(expected) + 1})", rule
    return f"event {kind}.{key}", rule


def _trick_rule(calls: Sequence[Call], index: int, reference_seat: Any, engine_seat: Any, trump: Any) -> str | None:
    """Which ranking rule decides between the cards the two engines think won the trick."""
    cards: dict[Any, str] = {}
    for call in reversed(calls[: index + 1]):
        if call.call == "apply" and isinstance(call.args, dict) and call.args.get("type") == "play":
            cards.setdefault(call.args.get("seat"), str(call.args.get("card")))
        if len(cards) >= 4:
            break
    ours, theirs = cards.get(reference_seat), cards.get(engine_seat)
    if not ours or not theirs:
        return "PLAY-05"
    if ours[-1] == theirs[-1]:
        return "DECK-06" if {ours[0], theirs[0]} == {"S", "C"} else "DECK-05"
    return "DECK-10" if trump in (ours[-1], theirs[-1]) else "DECK-11"


def _permission(kind: str, phase: Any) -> str | None:
    return PERMISSIONS.get((kind, str(phase))) or PERMISSIONS.get((kind, None))


def _compare(
    calls: Sequence[Call], index: int, game: GameHandle, phase: Any = None, obligations: Obligations | None = None
) -> tuple[_Difference | None, Any]:
    """Ask the reference the call at ``index``; the difference from the engine's answer, if any,
    in what the protocol requires of the engine (``obligations``; default: everything)."""
    call = calls[index]
    required = obligations if obligations is not None else EVERYTHING
    playing = call.call == "apply" and isinstance(call.args, Mapping) and call.args.get("type") == "play"
    play_rule = play_allowed_by(game, call.args) if playing else ""  # read before the reference plays it
    going_on = call.call == "apply" and isinstance(call.args, Mapping) and call.args.get("type") in ("play", "draw")
    declaring = going_on and may_declare(game.legal_actions())  # a cante could be sung instead
    try:
        answer = _ask(game, call)
    except UnknownField:
        return None, None  # the reference does not know the field either: nothing to compare
    if call.call in ("state", "observe"):
        name = str(call.args if call.call == "state" else call.args[1])
        if required.field(name, answer) is not None:
            return None, answer  # not required of this engine (the match score without 'match'...)
    if call.error is not None:
        if call.error.startswith("UnknownField"):
            reference_json = outcome_json(answer) if call.call == "apply" else answer
            return _Difference(index, "the engine does not know the field", reference_json, None), answer
        return None, answer
    if call.call == "apply":
        ours, theirs = answer, call.raw
        if isinstance(ours, Rejected) and isinstance(theirs, Accepted):
            rules = rules_in(ours.rule)
            return _Difference(
                index,
                "the engine accepted it",
                outcome_json(ours),
                outcome_json(theirs),
                rules[0] if rules else None,
                f"the reference refuses it as {ours.code}",
            ), answer
        if isinstance(ours, Accepted) and isinstance(theirs, Rejected):
            what = f"the engine refused it as {theirs.code}" if theirs.code else "the engine refused it"
            rule = _permission(str(call.args.get("type")), phase)
            basis = f"the reference allows it: {rule}" if rule else ""
            if declaring:  # a cante (tute, claim) could be sung here: one the engine would not let be declined
                rule, basis = DECLINE_RULE, "a cante could be sung here, and the reference lets it be declined"
            found = _Difference(index, what, outcome_json(ours), outcome_json(theirs), rule, basis)
            found.fallback = play_rule or None
            return found, answer
        if isinstance(ours, Rejected) and isinstance(theirs, Rejected):
            if ours.code != theirs.code and theirs.code and required.gives_reason_code(ours.code, ours.rule):
                rules = rules_in(ours.rule)
                return _Difference(
                    index,
                    f"the engine refused it as {theirs.code}",
                    outcome_json(ours),
                    outcome_json(theirs),
                    rules[0] if rules else None,
                    f"the reference refuses it as {ours.code}",
                ), answer
            return None, answer
        assert isinstance(ours, Accepted) and isinstance(theirs, Accepted)
        differing = _event_difference(ours.events, theirs.events, required)
        if differing is None:
            return None, answer
        what, rule = differing
        if what == "event trick_won.seat":
            reference_event = next(e for e in ours.events if e.get("type") == "trick_won")
            engine_event = next((e for e in theirs.events if e.get("type") == "trick_won"), {})
            rule = _trick_rule(calls, index, reference_event.get("seat"), engine_event.get("seat"), game.state("trump"))
        basis = "the rule of the reference's event" if rule else ""
        return _Difference(index, what, outcome_json(ours), outcome_json(theirs), rule, basis), answer
    if _normal(answer) == _normal(call.raw):
        return None, answer
    if call.call == "legal":
        ours_keys = {json.dumps(a, sort_keys=True) for a in answer}
        theirs_keys = {json.dumps(a, sort_keys=True) for a in call.raw or []}
        missing = [json.loads(k) for k in sorted(ours_keys - theirs_keys)]
        extra = [json.loads(k) for k in sorted(theirs_keys - ours_keys)]
        what = "the engine " + "; ".join(
            part
            for part in (
                f"offers besides {_short(extra)}" if extra else "",
                f"does not offer {_short(missing)}" if missing else "",
            )
            if part
        )
        difference = _Difference(index, what, missing, extra)
        if extra:
            refused = game.apply(extra[0])  # the replay stops here: the reference game may change
            if isinstance(refused, Rejected) and rules_in(refused.rule):
                difference.rule = rules_in(refused.rule)[0]
                difference.basis = f"the reference refuses {_short(extra[:1])} as {refused.code}"
        elif missing and declines(missing, call.raw):
            difference.rule = DECLINE_RULE
            difference.basis = "the engine offers only the declaration, not the reference's way to decline it"
        elif missing:
            kinds = {str(a.get("type")) for a in missing}
            allowed_by = {_permission(kind, phase) for kind in kinds}
            if len(allowed_by) == 1 and None not in allowed_by:
                (difference.rule,) = allowed_by
                difference.basis = f"the reference allows {'/'.join(sorted(kinds))} here: {difference.rule}"
        return difference, answer
    name = str(call.args if call.call == "state" else call.args[1])
    base = name.split(".")[0]
    rule = FIELD_RULES.get(base)
    basis = f"the rule of the field {base}" if rule else ""
    if base in _HAND_FIELDS:
        try:
            decided = game.state("hand_rule")
        except UnknownField:
            decided = None
        if decided:
            rule, basis = str(decided), "the rule that decided the hand on the reference"
        elif base == "phase" and answer == "hand_over":
            rule, basis = "SCORE-02", "the hand is over on the reference"
    return _Difference(index, "a different value", answer, call.raw, rule, basis), answer


def _short(actions: list[Any]) -> str:
    text = json.dumps(actions[:3], ensure_ascii=False)
    return text if len(actions) <= 3 else f"{text[:-1]}, … ({len(actions)} in all)]"


def _first_difference(
    reference: Engine,
    calls: Sequence[Call],
    flags: Mapping[str, str] | None = None,
    *,
    obligations: Obligations | None = None,
) -> _Difference | None:
    """Replay ``calls`` on ``reference`` (with ``flags`` changed); the first difference."""
    if not calls or calls[0].call != "start":
        return None
    setup = dict(calls[0].args)
    if flags:
        setup["flags"] = {**setup.get("flags", {}), **flags}
    try:
        game = reference.start(setup)
    except SetupRejected as rejected:
        if calls[0].error is None:
            return _Difference(0, "the engine accepted the setup", f"refused: {rejected}", "started")
        return None
    if calls[0].error is not None:
        return _Difference(0, "the engine refused the setup", "started", calls[0].error)
    for index in range(1, len(calls)):
        error = calls[index].error
        if error is not None and not error.startswith("UnknownField"):
            return None  # the engine crashed or hung here: the failure says so already
        if _given_again(calls, index):
            continue
        phase = game.state("phase")
        difference, _ = _compare(calls, index, game, phase, obligations)
        if difference is not None:
            difference.phase = None if phase is None else str(phase)
            return difference
    return None


def _as_if_flag(
    reference: Engine, calls: Sequence[Call], index: int, obligations: Obligations | None = None
) -> str | None:
    """A ``flag=value`` under which the reference answers every call up to ``index`` as the engine did."""
    from reference_engine.flags import flag_specs

    global _as_if_spent
    if _as_if_spent > AS_IF_BUDGET_S:
        return None  # an engine failing everything must not make the run crawl
    started = time.monotonic()
    try:
        return _search_flags(reference, calls, index, flag_specs(), obligations)
    except Exception:  # as in find_divergence: best effort
        return None
    finally:
        _as_if_spent += time.monotonic() - started


def _search_flags(
    reference: Engine,
    calls: Sequence[Call],
    index: int,
    specs: Mapping[str, Any],
    obligations: Obligations | None = None,
) -> str | None:
    current = dict(calls[0].args.get("flags", {})) if calls and isinstance(calls[0].args, dict) else {}
    for name, spec in specs.items():
        if name in ("players", "deck"):
            continue  # another table or deck is another game, not a misread rule
        for value in spec.values:
            if current.get(name) == value:
                continue
            difference = _first_difference(reference, calls, {name: value}, obligations=obligations)
            if difference is None or difference.index > index:
                return f"{name}={value}"
    return None


def find_divergence(calls: Sequence[Call], obligations: Obligations | None = None) -> Divergence | None:
    """Where the engine first parted from the reference in one scenario's ``calls``, in what the
    protocol requires of it (``obligations``: its capabilities and version; default: everything)."""
    from adapters.reference import ReferenceEngine

    reference = ReferenceEngine()
    calls = from_taken_setup(calls)
    try:
        difference = _first_difference(reference, calls, obligations=obligations)
    except Exception:  # an engine may answer anything (events that are not objects...): the
        return None  # diagnosis is evidence for the report, it must never turn a failure into a crash
    if difference is None:
        return None
    as_if = None
    if difference.rule is None and difference.index > 0:
        as_if = _as_if_flag(reference, calls, difference.index, obligations)
        if as_if is not None:
            difference.rule = _rule_of_flag(as_if.split("=")[0])
            difference.basis = f"the reference answers as the engine did under {as_if}"
        elif difference.fallback is not None:
            difference.rule = difference.fallback
            difference.basis = f"the reference allows it: {difference.fallback}"
    call = calls[difference.index]
    return Divergence(
        step_line=call.step,
        call=_describe(call),
        what=difference.what,
        reference=difference.reference,
        engine=difference.engine,
        rule=difference.rule,
        basis=difference.basis,
        as_if_flag=as_if,
        phase=difference.phase,
    )


def _given_again(calls: Sequence[Call], index: int) -> bool:
    """Whether the call at ``index`` is a deck-order deal the engine refused and the suite gave
    again, as the explicit deal of the same cards, in its next ``apply`` (an engine that deals its
    own way): the replay skips it, as the engine's game did."""
    call = calls[index]
    following = next((later for later in calls[index + 1 :] if later.call in ("apply", "start")), None)
    refused = call.call == "apply" and isinstance(call.raw, Rejected) and isinstance(call.args, Mapping)
    return (
        refused
        and call.args.get("type") == "deal"
        and "deck" in call.args
        and following is not None
        and following.call == "apply"
        and isinstance(following.args, Mapping)
        and following.args.get("type") == "deal"
        and "hands" in following.args
    )


def from_taken_setup(calls: Sequence[Call]) -> Sequence[Call]:
    """``calls`` from the setup the engine took: a setup it refused and that the suite gave again
    in another form (the explicit deal of a deck order, to an engine that deals its own way) is
    left out, so that the replay starts where the engine's game did."""
    taken = next((i for i, call in enumerate(calls) if call.call != "start" or call.error is None), len(calls))
    return calls[taken:] if 0 < taken < len(calls) and calls[taken].call == "start" else calls


def _rule_of_flag(flag: str) -> str | None:
    from conformance.catalogue.rule_index import load_rules

    try:
        rules = [rule.id for rule in load_rules().values() if rule.flag == flag]
    except Exception:  # no rule index beside the package: the flag alone is still evidence
        return None
    # the first rule of the index with the flag is the one that introduces it: one cause per
    # misread flag, whichever of its readings' scenarios happened to fail
    return rules[0] if rules else None
