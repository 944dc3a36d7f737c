"""Hunting the deliberately broken engines with ``compare`` (for ``benchmarks/fuzz_broken.py``
and the deep fuzzing tests): how many hands until the first divergence, and its scenario."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.subprocess_adapter import SubprocessEngine
from guinote_conformance.fuzz.commands import _last_step
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.scenario import feature_text, write_scenario
from guinote_conformance.fuzz.scenario_check import check_scenarios
from tests.broken_engines.engines import BREAKAGES, RARE_BREAKAGES

#: engine -> the profile (and flags) under which its broken rule applies, as its breakage says
#: (the suite's own broken engines and the rare ones; the catalogue's are measured by
#: ``python -m tests.broken_engines.measure``)
TARGETS: dict[str, tuple[str, dict[str, str]]] = {
    name: (breakage.profile, dict(breakage.flags))
    for name, breakage in {**BREAKAGES, **RARE_BREAKAGES}.items()
    if name != "no_cantes_in_arrastre"
}


@dataclass
class Finding:
    engine: str
    config: str
    hands: int
    first: int | None
    seconds: float
    cause: str
    actions: int
    scenario: str
    checked: str


def hunt(name: str, games: int, *, steer: bool = True, check: bool = True) -> Finding:
    """Fuzz one broken engine until its first divergence; shrink it and write its scenario."""
    profile, flags = TARGETS[name]
    served = SubprocessEngine(
        [
            sys.executable,
            "-m",
            "guinote_conformance.adapters.serve",
            "--engine",
            f"tests.broken_engines.engines:{name}",
        ],
        timeout=30,
    )
    try:
        info = served.info()
        config = resolve(info, profile, flags or None)
        fuzzer = Fuzzer(ReferenceEngine(), served, info, depth="match", steer=steer, seed=11)
        report = FuzzReport(info.name)
        started = time.perf_counter()
        for number in range(games):
            fuzzer.play_game(config, number, report)
            if report.groups:
                break
        seconds = time.perf_counter() - started
        if not report.groups:
            return Finding(name, config.label, report.hands, None, seconds, "-", 0, "", "")
        group = next(iter(report.groups.values()))
        example = fuzzer.smallest(group)
        text = write_scenario(
            example, [info], _last_step(ReferenceEngine(), example), f"found in {name}", ReferenceEngine()
        )
        verdict = ""
        if check:
            spec = f"serve:tests.broken_engines.engines:{name}"
            outcome = check_scenarios(feature_text([text], info.name), spec, profile)
            verdict = ", ".join(f"engine {c.engine_status}, reference {c.reference_status}" for c in outcome.values())
        return Finding(name, config.label, report.hands, report.first_divergence, seconds, str(group.cause),
                       len(example.actions), text, verdict)  # fmt: skip
    finally:
        served.close()
