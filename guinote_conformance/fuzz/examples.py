"""Better examples of a divergence group: more games played for it, and every candidate shrunk.

In: a :class:`~guinote_conformance.fuzz.fuzzer.Fuzzer` (:class:`Searching`: its engines, depth and seed) and a
:class:`~guinote_conformance.fuzz.findings.Group` it found. Out: the group's best example
(:func:`~guinote_conformance.fuzz.findings.better_example`: none passed over before it, then smaller), from
the games :func:`smaller` plays with the configuration and strategy that found it and the shrinker
(:mod:`guinote_conformance.fuzz.shrink`), for ``compare`` to write as a scenario.
"""

from __future__ import annotations

import time
from typing import Protocol

from guinote_conformance.adapters.interface import Engine, EngineInfo
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.fuzz.findings import FuzzReport, Group, better_example
from guinote_conformance.fuzz.shrink import shrink
from guinote_conformance.fuzz.steering import GENERATORS, POLICIES
from guinote_conformance.oracle.divergence import Config, Divergence


class Searching(Protocol):
    """What the search needs of a :class:`~guinote_conformance.fuzz.fuzzer.Fuzzer` (not imported: it calls here)."""

    reference: Engine
    engine: Engine
    info: EngineInfo
    obligations: Obligations
    depth: str

    def searcher(self, depth: str) -> Searching: ...

    def play_game(
        self, config: Config, number: int, report: FuzzReport, forced: tuple[str, str] | None = None
    ) -> Divergence | None: ...


def smaller(fuzzer: Searching, group: Group, games: int = 40, deadline: float | None = None) -> Divergence:
    """Look for a better example of ``group`` (:func:`better_example`: none passed over before
    it, then smaller): more games, single hands first, with the configuration and the strategy
    that found it (no game started after ``deadline``, a ``time.monotonic()``)."""
    example = group.example
    generator, _, policy = example.strategy.partition("/")
    strategy = (generator, policy) if generator in GENERATORS and policy in POLICIES else None
    best = example
    for depth in ("hand", fuzzer.depth):
        search = fuzzer.searcher(depth)
        report = FuzzReport(fuzzer.info.name)
        for number in range(games):
            if deadline is not None and time.monotonic() > deadline:
                return best
            search.play_game(example.config, number, report, strategy)
            found = report.groups.get(example.cause)
            if found is not None and better_example(found.example, best):
                best = found.example
        if best is not example:
            break
    return best


def smallest(fuzzer: Searching, group: Group, seconds: float | None = None) -> Divergence:
    """The group's example and the one :func:`smaller` finds, each shrunk: the better
    (:func:`better_example`). After ``seconds`` no more candidates are tried: the best found so
    far is kept."""
    deadline = time.monotonic() + seconds if seconds is not None else None
    candidates = [group.example]
    found = smaller(fuzzer, group, deadline=deadline)
    if found is not group.example:
        candidates.append(found)
    shrunk = [
        shrink(fuzzer.reference, fuzzer.engine, c, obligations=fuzzer.obligations, deadline=deadline)
        for c in candidates
    ]
    best = shrunk[0]
    for candidate in shrunk[1:]:
        if better_example(candidate, best):
            best = candidate
    return best


__all__ = ["Searching", "smaller", "smallest"]
