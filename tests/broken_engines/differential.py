"""Does a planted bug change what the engine does? A quick differential check, in process.

The reference plays seeded games (matches, steered toward cantes, exchanges and claims) and records,
at every step, its legal actions, the action chosen and the events it caused. A forked child plants
the bug (the patch would otherwise reach the reference of this process too), replays the same
actions on the broken engine and reports the first step where it differs: other legal actions,
other events, a refusal, or an action the reference refuses that the broken engine accepts (a cante,
tute, exchange, claim or card tried at every step; the probes).

    python -m tests.broken_engines.differential [NAME ...]
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import Accepted, Engine, Rejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.vocabulary import deck_codes
from guinote_conformance.reference_engine.flags import rules_for

#: actions a game is steered toward when the reference allows them (rare otherwise)
_RARE = ("cante", "tute", "exchange", "claim")
_SUITS = ("o", "c", "e", "b")


@dataclass(frozen=True)
class Step:
    legal: list[str]
    action: dict[str, Any]
    outcome: str


@dataclass(frozen=True)
class Trajectory:
    setup: dict[str, Any]
    steps: list[Step]


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps(dict(action), sort_keys=True)


def _outcome(result: Any) -> str:
    if isinstance(result, Accepted):
        return json.dumps(result.events, sort_keys=True)
    assert isinstance(result, Rejected)
    return f"refused {result.code}"


def _flags(profile: str, flags: Mapping[str, str]) -> dict[str, str]:
    return {**rules_for(profile).as_dict(), **flags}


def record(
    profile: str,
    flags: Mapping[str, str],
    seed: int,
    *,
    position: Mapping[str, Any] | None = None,
    max_steps: int = 3000,
) -> Trajectory:
    """One seeded match played on the reference (from ``position``, if given)."""
    rng = random.Random(seed)
    all_flags = _flags(profile, flags)
    deck = deck_codes(int(all_flags["deck"]))
    rng.shuffle(deck)
    setup: dict[str, Any] = {"flags": all_flags, "deck": list(deck), "dealer": rng.randrange(int(all_flags["players"]))}
    if position is not None:
        setup = {"flags": all_flags, "position": dict(position)}
    game = ReferenceEngine().start(setup)
    steps: list[Step] = []
    while len(steps) < max_steps:
        legal = game.legal_actions()
        if not legal:
            break
        rare = [action for action in legal if action["type"] in _RARE]
        chosen = dict(rng.choice(rare if rare and rng.random() < 0.7 else legal))
        if chosen["type"] == "deal":
            next_deck = deck_codes(int(all_flags["deck"]))
            rng.shuffle(next_deck)
            chosen = {"type": "deal", "deck": next_deck}
        steps.append(Step(sorted(_key(action) for action in legal), chosen, _outcome(game.apply(chosen))))
    return Trajectory(setup, steps)


def _probes(players: int, legal: set[str]) -> Iterator[dict[str, Any]]:
    """Actions the reference refuses now, tried on the broken engine (it must refuse them too)."""
    for seat in range(players):
        actions: list[dict[str, Any]] = [
            *({"type": "cante", "seat": seat, "suit": suit} for suit in _SUITS),
            *({"type": "tute", "seat": seat, "rank": rank} for rank in ("R", "S")),
            {"type": "exchange", "seat": seat},
            {"type": "claim", "seat": seat},
        ]
        for action in actions:
            if _key(action) not in legal:
                yield action


def replay(engine: Engine, trajectory: Trajectory) -> str | None:
    """Where ``engine`` first differs from the recorded reference, or ``None``."""
    game = engine.start(trajectory.setup)
    players = int(trajectory.setup["flags"]["players"])
    for number, step in enumerate(trajectory.steps):
        legal = sorted(_key(action) for action in game.legal_actions())
        if legal != step.legal:
            extra, lacking = sorted(set(legal) - set(step.legal)), sorted(set(step.legal) - set(legal))
            return f"step {number}: legal actions differ: extra {extra[:3]}, lacking {lacking[:3]}"
        for probe in _probes(players, set(step.legal)):
            if isinstance(game.apply(probe), Accepted):
                return f"step {number}: {_key(probe)} accepted, the reference refuses it"
        outcome = _outcome(game.apply(step.action))
        if outcome != step.outcome:
            return f"step {number}: {_key(step.action)}: {_first_change(outcome, step.outcome)}"
    return None


def _first_change(got: str, expected: str) -> str:
    """The first event that differs between two outcomes (or the refusal)."""
    if got.startswith("refused") or expected.startswith("refused"):
        return f"{got[:200]}, the reference {expected[:200]}"
    mine, theirs = json.loads(got), json.loads(expected)
    for index in range(max(len(mine), len(theirs))):
        one = mine[index] if index < len(mine) else None
        other = theirs[index] if index < len(theirs) else None
        if one != other:
            return f"event {index}: {json.dumps(one)[:300]}, the reference {json.dumps(other)[:300]}"
    return "the same events in another form"


def _in_child(task: Any, *args: Any) -> Any:
    """``task(*args)`` in a forked child (the bug planted there stays there); its JSON answer."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.close(read)
        try:
            answer = task(*args)
        except BaseException as error:  # (reported to the parent, which fails the check)
            answer = f"the broken engine raised {type(error).__name__}: {error}"
        with os.fdopen(write, "w", encoding="utf-8") as out:
            json.dump(answer, out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as answer_in:
        text = answer_in.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else "the child wrote nothing"


def _replay_all(name: str, trajectories: Sequence[Trajectory]) -> str | None:
    from tests.broken_engines.engines import CATALOGUE

    engine = CATALOGUE[name].engine()
    for number, trajectory in enumerate(trajectories):
        found = replay(engine, trajectory)
        if found is not None:
            return f"game {number}, {found}"
    return None


_RECORDED: dict[tuple[str, str, int], list[Trajectory]] = {}


def trajectories(profile: str, flags: Mapping[str, str], games: int) -> list[Trajectory]:
    """``games`` seeded matches of the reference under ``profile`` and ``flags`` (kept for reuse)."""
    key = (profile, json.dumps(dict(flags), sort_keys=True), games)
    if key not in _RECORDED:
        _RECORDED[key] = [record(profile, flags, seed) for seed in range(games)]
    return _RECORDED[key]


def first_difference(name: str, games: int = 6) -> str | None:
    """Where the catalogue engine ``name`` (its bugs in the reference's shape) first differs from the
    reference on ``games`` seeded matches under its profile, or ``None`` if it never does."""
    from tests.broken_engines.engines import BUGS, CATALOGUE

    entry = CATALOGUE[name]
    breakage = BUGS[entry.bugs[0]]
    played = trajectories(breakage.profile, entry.flags, games)
    witnesses = [BUGS[bug].witness for bug in entry.bugs]
    played = [record(breakage.profile, entry.flags, 0, position=w) for w in witnesses if w is not None] + played
    answer: str | None = _in_child(_replay_all, name, played)
    return answer


def main(argv: Sequence[str] | None = None) -> int:
    from tests.broken_engines.engines import BUGS

    names = list(argv if argv is not None else sys.argv[1:]) or sorted(BUGS)
    same = []
    for name in names:
        found = first_difference(name)
        print(f"{name}: {found or 'NO DIFFERENCE'}", flush=True)
        if found is None:
            same.append(name)
    return 1 if same else 0


if __name__ == "__main__":
    sys.exit(main())
