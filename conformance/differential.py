"""Differential play: an engine and the reference play the same random hands in lockstep.

Scenarios pin down each rule in a chosen situation; random hands reach the situations nobody
thought of. For each seed both engines are dealt the same deck, then one action at a time is
chosen at random among the reference's legal actions and applied to both. The first time the
engines disagree (on the legal actions, on accepting the action, or on a state field) the hand
stops and the divergence is reported with everything needed to replay it: the setup and the
actions up to that point.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from adapters.interface import JSON, Accepted, Engine, EngineError, GameHandle, Rejected, SetupRejected
from adapters.vocabulary import deck_codes

#: Fields compared after every action (the full-information state, named in the vocabulary).
COMPARED_FIELDS = ("phase", "turn", "trick", "muestra", "stock_count", "card_points.0", "card_points.1")
#: Fields compared when the hand is over.
FINAL_FIELDS = ("hand_winner", "score.0", "score.1", "ultimas", "cante_points.0", "cante_points.1")


@dataclass
class Divergence:
    """Where the engine under test first disagreed with the reference."""

    seed: int
    profile: str
    what: str
    expected: Any
    got: Any
    setup: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)

    def describe(self) -> str:
        last = json.dumps(self.actions[-1], ensure_ascii=False) if self.actions else "(before any action)"
        where = f"seed {self.seed}, profile {self.profile}, after {len(self.actions)} actions (last: {last})"
        expected, got = json.dumps(self.expected, ensure_ascii=False), json.dumps(self.got, ensure_ascii=False)
        if self.what == "legal actions":
            return f"{where}: legal actions differ: the engine does not offer {expected} and offers besides {got}"
        return f"{where}: {self.what}: expected {expected}, got {got}"

    def record(self) -> dict[str, Any]:
        """A replayable record: the setup and the actions that lead to the divergence."""
        return {
            "format": "guinote-divergence/1",
            "seed": self.seed,
            "profile": self.profile,
            "setup": self.setup,
            "actions": self.actions,
            "divergence": {"what": self.what, "expected": self.expected, "got": self.got},
        }


@dataclass
class Comparison:
    hands: int = 0
    actions: int = 0
    not_applicable: str = ""
    divergences: list[Divergence] = field(default_factory=list)


def _key(action: Mapping[str, JSON]) -> str:
    if action.get("type") == "deal":
        return "deal"
    return json.dumps(dict(action), sort_keys=True)


def _shuffled(deck_size: int, seed: int) -> list[str]:
    cards = deck_codes(deck_size)
    random.Random(seed).shuffle(cards)
    return cards


def _compare_fields(
    names: tuple[str, ...], reference: GameHandle, engine: GameHandle
) -> Iterator[tuple[str, Any, Any]]:
    for name in names:
        expected = reference.state(name)
        try:
            got = engine.state(name)
        except KeyError:
            got = "(unknown field)"
        if expected != got:
            yield f"state field {name}", expected, got


def compare_hand(
    reference: Engine, engine: Engine, flags: Mapping[str, str], profile: str, seed: int
) -> Divergence | int:
    """Play one random hand on both engines; return the divergence, or the number of actions."""
    setup: dict[str, Any] = {"flags": dict(flags), "dealer": seed % int(flags.get("players", "4")),
                             "deck": _shuffled(int(flags.get("deck", "40")), seed)}  # fmt: skip
    ours = reference.start(setup)
    theirs = engine.start(setup)
    chooser = random.Random(seed)
    actions: list[dict[str, Any]] = []

    def diverge(what: str, expected: Any, got: Any) -> Divergence:
        return Divergence(seed, profile, what, expected, got, setup, list(actions))

    for _ in range(1000):
        phase, their_phase = ours.state("phase"), theirs.state("phase")
        if phase != their_phase:
            return diverge("state field phase", phase, their_phase)
        if phase in ("hand_over", "match_over"):
            for what, expected, got in _compare_fields(FINAL_FIELDS, ours, theirs):
                return diverge(what, expected, got)
            return len(actions)
        legal = {_key(a): dict(a) for a in ours.legal_actions()}
        offered = {_key(a) for a in theirs.legal_actions()}
        if set(legal) != offered:
            missing = [json.loads(k) for k in sorted(set(legal) - offered) if k != "deal"]
            extra = [json.loads(k) for k in sorted(offered - set(legal)) if k != "deal"]
            return diverge("legal actions", missing, extra)
        action = legal[chooser.choice(sorted(legal))]
        actions.append(action)
        expected_outcome = ours.apply(action)
        got_outcome = theirs.apply(action)
        if isinstance(expected_outcome, Accepted) != isinstance(got_outcome, Accepted):
            got = got_outcome.code if isinstance(got_outcome, Rejected) else "accepted"
            return diverge(
                "accepting the action", "accepted" if isinstance(expected_outcome, Accepted) else "refused", got
            )
        for what, expected, got in _compare_fields(COMPARED_FIELDS, ours, theirs):
            return diverge(what, expected, got)
    return diverge("hand length", "the hand to end", "more than 1000 actions")


def compare(
    reference: Engine, engine: Engine, flags: Mapping[str, str], profile: str, seeds: range, *, stop_after: int = 5
) -> Comparison:
    """Compare ``engine`` with the reference over one random hand per seed."""
    result = Comparison()
    for seed in seeds:
        try:
            outcome = compare_hand(reference, engine, flags, profile, seed)
        except SetupRejected as rejected:
            result.not_applicable = f"the engine refused the setup: {rejected}"
            return result
        except EngineError as error:
            result.divergences.append(Divergence(seed, profile, "engine failure", "an answer", str(error), {}, []))
            outcome = -1
        result.hands += 1
        if isinstance(outcome, Divergence):
            result.divergences.append(outcome)
        elif outcome > 0:
            result.actions += outcome
        if len(result.divergences) >= stop_after:
            break
    return result
