"""The first divergence of a failed run: where the engine parted from the reference, and by which rule.

In: the transcript of one failing scenario (:class:`~guinote_conformance.engines.recording.Call`: what the
suite asked the engine and what it answered), and what the protocol requires of the engine. Out:
the :class:`~guinote_conformance.results.case.Divergence` stored with the failure (:func:`find_divergence`):
the call, what differed, both answers, the rule and the basis for naming it, the phase.

The rule: the transcript is replayed in process on the reference engine, call by call, from the
same setup; the first call the two answer differently is where the engine parted from the rules,
and the rule the engine's answer breaks there is the likely broken rule: the rule of the reference's
refusal, the owner of the event member or state field that differs (:func:`guinote_conformance.oracle.owners.owner_of`:
a trick's winner is the trick-winning rule, a hand read after an exchange the exchange's), or the rule
that allows the action the engine refused (:data:`PERMISSIONS`); failing those, the rule of the flag
under which the reference answers as the engine did (looked for during at most :data:`AS_IF_BUDGET_S`
seconds a process). The likely causes over a whole results file (:mod:`guinote_conformance.oracle.causes`)
rank the rules these divergences name.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import (
    JSON,
    Accepted,
    Engine,
    GameHandle,
    Rejected,
    SetupRejected,
    UnknownField,
)
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.engines.recording import Call, outcome_json
from guinote_conformance.oracle.legality import (
    ARRASTRE_STARTS,
    DECLINE_RULE,
    allowed_by,
    declines,
    may_declare,
    plays_as_free,
    ranking_rule,
    refusal_facts,
    refusal_rule,
    telling_action,
)
from guinote_conformance.oracle.owners import Trick, cards_moved, owner_of, subject_owner
from guinote_conformance.oracle.steps import event_difference, subject_key
from guinote_conformance.results.case import Divergence

RULE_IN_TEXT = re.compile(r"\b[A-Z]+-\d{2}\b")

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
) -> tuple[str, str, str | None] | None:
    """The first event the engine reported differently, in what the protocol requires of it
    (:func:`guinote_conformance.oracle.steps.event_difference`): what differs in words, its subject
    (:func:`~guinote_conformance.oracle.steps.subject_key`) and the rule the reference's event names itself,
    if it does; ``None`` when they agree there."""
    difference = event_difference(reference, engine, obligations)
    if difference is None:
        return None
    ours = obligations.vocabulary_events(reference)
    kind, _, key = difference.subject.partition(".")
    kind = kind.removesuffix(" (order)")
    subject = subject_key("event", f"{kind}.{key}" if key else kind)
    expected = next((event for event in ours if event.get("type") == kind), None)
    if expected is None:  # an event the engine has and the reference has not
        return f"extra event {kind}", subject, None
    named = expected.get("rule") if isinstance(expected.get("rule"), str) else None
    if not key:  # an event the engine left out (or has elsewhere)
        return f"event {kind} missing (event {ours.index(expected) + 1})", subject, named
    return f"event {kind}.{key}", subject, named


def _member(events: Sequence[Mapping[str, Any]], subject: str) -> int | str | None:
    """The reference's value of ``subject`` (``event cante.value``) in ``events``, a number or a
    word; ``None`` for another subject or value."""
    kind, _, member = subject.removeprefix("event ").partition(".")
    event = next((e for e in events if e.get("type") == kind), None)
    value = event.get(member) if event is not None and member else None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _trick_before(game: GameHandle, call: Call) -> dict[int, str]:
    """The cards of the trick by seat, the card of ``call`` (a play) included, read off the
    reference before it plays it (the trick may have begun in the position the scenario set up)."""
    cards: dict[int, str] = {}
    try:
        for seat, card in zip(game.state("trick_seats") or [], game.state("trick") or [], strict=False):
            cards[int(seat)] = str(card)
    except (UnknownField, TypeError, ValueError):
        pass
    seat = call.args.get("seat")
    if isinstance(seat, int):
        cards[seat] = str(call.args.get("card"))
    return cards


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
    allowing = call.call == "apply" and isinstance(call.args, Mapping) and call.args.get("type") in ("play", "cante")
    # what lets the reference accept it, read before the reference plays it: the precise rule
    play_rule = allowed_by(game, call.args) if allowing else ""
    trick_cards = _trick_before(game, call) if playing else None
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
            if rules and isinstance(call.args, Mapping):  # (the refusal left the reference's table as it was)
                rules[0] = refusal_rule(ours, **refusal_facts(game, call.args)) or rules[0]
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
            rule = play_rule or _permission(str(call.args.get("type")), phase)
            basis = f"the reference allows it: {rule}" if rule else ""
            if declaring:  # a cante (tute, claim) could be sung here: one the engine would not let be declined
                rule, basis = DECLINE_RULE, "a cante could be sung here, and the reference lets it be declined"
            found = _Difference(index, what, outcome_json(ours), outcome_json(theirs), rule, basis)
            found.fallback = play_rule or None
            return found, answer
        if isinstance(ours, Rejected) and isinstance(theirs, Rejected):
            if ours.code != theirs.code and theirs.code and required.gives_reason_code(ours.code, ours.rule):
                rules = rules_in(ours.rule)
                if rules and isinstance(call.args, Mapping):
                    rules[0] = refusal_rule(ours, **refusal_facts(game, call.args)) or rules[0]
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
        what, subject, named = differing
        trick = None
        if trick_cards is not None and subject == "event trick_won.seat":
            reference_event = next(e for e in ours.events if e.get("type") == "trick_won")
            engine_event = next((e for e in theirs.events if e.get("type") == "trick_won"), {})
            trick = Trick(trick_cards, reference_event.get("seat"), engine_event.get("seat"))
        draws = None
        if subject == "event cards_drawn.draws":
            ours_draws = next((e.get("draws") for e in ours.events if e.get("type") == "cards_drawn"), None)
            theirs_draws = next((e.get("draws") for e in theirs.events if e.get("type") == "cards_drawn"), None)
            draws = (ours_draws, theirs_draws, game.state("muestra") is None)
        reference_value = _member(ours.events, subject)
        rule, basis = owner_of(
            subject, action=str(call.args.get("type")), named=named, trick=trick, draws=draws, expected=reference_value
        )
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
        ranking = ranking_rule(missing, extra)
        if ranking:
            difference.rule = ranking
            difference.basis = "the engine offers a card of the suit instead of another: it ranks them otherwise"
        elif extra:
            offered = [a for a in call.raw or [] if isinstance(a, Mapping)]
            free = extra[0].get("type") == "play" and plays_as_free(game, extra[0], offered)
            facts = refusal_facts(game, extra[0])
            refused = game.apply(extra[0])  # the replay stops here: the reference game may change
            if free:
                difference.rule = ARRASTRE_STARTS
                difference.basis = "the engine offers every card of the hand in the first trick of the arrastre"
            elif isinstance(refused, Rejected) and rules_in(refused.rule):
                difference.rule = refusal_rule(refused, **facts) or rules_in(refused.rule)[0]
                difference.basis = f"the reference refuses {_short(extra[:1])} as {refused.code}"
        elif missing and declines(missing, call.raw):
            difference.rule = DECLINE_RULE
            difference.basis = "the engine offers only the declaration, not the reference's way to decline it"
        elif missing and (allowed := allowed_by(game, telling_action(game, missing) or {})):
            difference.rule = allowed
            difference.basis = f"what lets the reference allow {_short(missing[:1])} here: {allowed}"
        elif missing:
            kinds = {str(a.get("type")) for a in missing}
            permitted = {_permission(kind, phase) for kind in kinds}
            if len(permitted) == 1 and None not in permitted:
                (difference.rule,) = permitted
                difference.basis = f"the reference allows {'/'.join(sorted(kinds))} here: {difference.rule}"
        return difference, answer
    name = str(call.args if call.call == "state" else call.args[1])
    named = None
    owner = subject_owner(subject_key("state", name))
    if owner is not None and owner.deferred:
        try:
            named = game.state("hand_rule") or None  # the rule that decided the hand on the reference
        except UnknownField:
            named = None
        if named is None and name == "phase" and answer == "hand_over":
            named = "SCORE-02"  # the hand is over on the reference
    seat = name.split(".")[1] if name.startswith("hand.") else None
    changed = _changed_by(calls, index, answer, call.raw, int(seat) if seat and seat.isdigit() else None)
    rule, basis = owner_of(subject_key("state", name), action=changed, named=named)
    return _Difference(index, "a different value", answer, call.raw, rule, basis), answer


def _changed_by(calls: Sequence[Call], index: int, reference: Any, engine: Any, seat: int | None) -> str | None:
    """The type of the action that changed the value read at ``index``: for two lists of cards
    (the hand of ``seat``), the first action that moved one of the cards in only one of them
    (:func:`~guinote_conformance.oracle.owners.cards_moved`); else the last action applied before it."""
    applied = [c for c in calls[:index] if c.call == "apply" and isinstance(c.args, Mapping)]
    if not applied:
        return None
    if isinstance(reference, list) and isinstance(engine, list):
        ours, theirs = Counter(str(card) for card in reference), Counter(str(card) for card in engine)
        differing = set((ours - theirs) + (theirs - ours))
        for call in applied:  # the first to move one: a card may come back later (the seven drawn back)
            events = call.raw.events if isinstance(call.raw, Accepted) else []
            if differing & cards_moved(call.args, [e for e in events if isinstance(e, Mapping)], seat):
                return str(call.args.get("type"))
    return str(applied[-1].args.get("type"))


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
    from guinote_conformance.reference_engine.flags import flag_specs

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
    from guinote_conformance.adapters.reference import ReferenceEngine

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
    from guinote_conformance.catalogue.rule_index import load_rules

    try:
        rules = [rule.id for rule in load_rules().values() if rule.flag == flag]
    except Exception:  # no rule index beside the package: the flag alone is still evidence
        return None
    # the first rule of the index with the flag is the one that introduces it: one cause per
    # misread flag, whichever of its readings' scenarios happened to fail
    return rules[0] if rules else None
