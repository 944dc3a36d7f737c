"""What a planted bug is (:class:`Breakage`), and the one way a bug is planted in the reference engine.

A breakage patches the reference engine of the process it runs in, so it is applied only in a
process of its own: the served engine (``serve:tests.broken_engines.engines:NAME``) or a forked
child of the in-process check (:mod:`tests.broken_engines.differential`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Breakage:
    """What is broken: the rule it breaks, and the other rules whose scenarios may fail with it.

    ``collateral=None`` marks a foundational rule (the draw, the diez de últimas) that every
    later count depends on, so its failures may show up anywhere. ``profile`` and ``flags`` name
    where the broken rule applies (the measure runs ``run`` and ``compare`` there); ``forced``
    are flag values the broken engine plays whatever the setup asks (a rule broken by playing
    another reading); ``area`` sorts the catalogue (seat, suit led, trump, rank, phase,
    declarations, scoring, match). ``witness`` is a position where the bug shows, for a bug
    random play rarely reaches (:mod:`tests.broken_engines.differential` plays from it).

    ``also_breaks`` are other rules whose statement the bug breaks too, by the same wrong answer:
    a tool that names one of them names this bug. (Counting the cantes toward the thirty malas
    breaks SCORE-10, what counts, and SCORE-09, thirty points besides the cantes; no play tells
    the two apart, see :func:`guinote_conformance.oracle.divergence.thirty_malas_rule`.)"""

    rule: str
    description: str
    collateral: frozenset[str] | None
    apply: Callable[[], None]
    profile: str = "lascuarenta"
    flags: Mapping[str, str] = field(default_factory=dict)
    forced: Mapping[str, str] = field(default_factory=dict)
    area: str = ""
    witness: Mapping[str, Any] | None = None
    also_breaks: tuple[str, ...] = ()


def replace_everywhere(original: object, replacement: object) -> None:
    """Rebind every ``reference_engine`` module attribute that holds ``original``."""
    for name, module in list(sys.modules.items()):
        if name == "guinote_conformance.reference_engine" or name.startswith("guinote_conformance.reference_engine."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attribute, replacement)
