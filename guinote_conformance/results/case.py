"""One scenario run's result: the record every report reads, with the evidence of a failure.

In: what a run came to (its :class:`~guinote_conformance.results.status.Status`, the failed check's
expected and got, the steps, the transcript, the first divergence from the reference). Out:
:class:`CaseResult`, the rule that blocked a failure before it reached its own
(:attr:`CaseResult.blocked_by`), its JSON form (an entry of the results file), and the rule areas a
result counts in (:func:`area_of`, :func:`area_order`). Modelled on bowtie's ``_report.py``
(``CaseResult``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from guinote_conformance.catalogue.rule_index import AREAS
from guinote_conformance.results.status import Stage, Status


@dataclass(frozen=True)
class Divergence:
    """The first call where the engine under test answered differently from the reference,
    replayed in process on the same setup, and the rule the engine's answer breaks there (the
    rule that decides what differs: :mod:`guinote_conformance.oracle.owners`)."""

    step_line: int
    call: str
    what: str
    reference: Any
    engine: Any
    rule: str | None = None
    #: how ``rule`` was found (a refusal of the reference, the rule of one of its events...)
    basis: str = ""
    #: ``flag=value`` under which the reference answers as the engine did, if one does
    as_if_flag: str | None = None
    #: the phase of the hand there (free, arrastre...), on the reference
    phase: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Divergence:
        return cls(
            step_line=int(data.get("step_line", 0)),
            call=str(data.get("call", "")),
            what=str(data.get("what", "")),
            reference=data.get("reference"),
            engine=data.get("engine"),
            rule=data.get("rule"),
            basis=str(data.get("basis", "")),
            as_if_flag=data.get("as_if_flag"),
            phase=data.get("phase"),
        )


@dataclass(frozen=True)
class StepLine:
    keyword: str
    text: str
    line: int


@dataclass(frozen=True)
class CaseResult:
    """One scenario run: a scenario, under one profile of one engine."""

    id: str
    scenario: str
    feature: str
    line: int
    rules: tuple[str, ...]
    engine: str
    profile: str
    status: Status
    #: the flags the scenario sets itself (the profile's values are in the report header)
    flags: Mapping[str, str] = field(default_factory=dict)
    message: str = ""
    #: what the failing check wanted and what came back (text, as the check wrote them)
    what: str | None = None
    expected: str | None = None
    got: str | None = None
    stage: Stage | None = None
    #: the line of the step that failed
    failed_line: int | None = None
    steps: tuple[StepLine, ...] = ()
    #: the interface calls of the scenario and their answers (bounded; failures only)
    transcript: tuple[Mapping[str, Any], ...] = ()
    stderr: tuple[str, ...] = ()
    divergence: Divergence | None = None
    rerun: str = ""
    duration_s: float = 0.0
    #: the expectations-file entry (``file:line``) that covers this run, if any
    expectation: str = ""
    #: checks of a passing run's Then steps not made, each "line: what: why": what the protocol does
    #: not require of the engine (a reason code without ``reason_codes``...; guinote_conformance.adapters.obligations)
    unchecked: tuple[str, ...] = ()
    #: the symmetry of the game the run was played under (``r1+ocbe``: :mod:`guinote_conformance.engines.symmetry`),
    #: ``""`` for the scenario as written
    symmetry: str = ""

    @property
    def location(self) -> str:
        return f"{self.feature}:{self.line}"

    @property
    def blocked_by(self) -> str | None:
        """The rule that kept this failure from reaching its own, or ``None``: a failure whose
        first divergence is named by a rule that is none of the scenario's, at a step before the
        step that fails (or on the way to the scenario's position), went wrong there first; it is
        reported and counted under that rule, the root cause, not under its own."""
        divergence = self.divergence
        if self.status is not Status.FAIL or divergence is None or not divergence.rule:
            return None
        if divergence.rule in self.rules:
            return None
        before = self.failed_line is None or divergence.step_line < self.failed_line
        return divergence.rule if before or self.stage is Stage.REACHING_POSITION else None

    @property
    def stage_text(self) -> str:
        """Where the run went wrong, in words (``""`` if it did not). A failure blocked by another
        rule (:attr:`blocked_by`) names it; so does a failure of the scenario's own step whose
        first divergence is named by another rule: it, not the rule under test, is then the likelier
        one broken."""
        if self.stage is None:
            return ""
        if self.blocked_by:
            return f"blocked by {self.blocked_by}: went wrong there before reaching its own rule"
        rule = self.divergence.rule if self.divergence else None
        if self.stage is Stage.RULE_UNDER_TEST and rule and rule not in self.rules:
            return f"first diverged on {rule}, not the rule under test"
        return self.stage.text

    @property
    def areas(self) -> list[str]:
        return sorted({area_of(rule) for rule in self.rules}, key=area_order) or ["other"]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "scenario": self.scenario,
            "feature": self.feature,
            "line": self.line,
            "rules": list(self.rules),
            "engine": self.engine,
            "profile": self.profile,
            **({"symmetry": self.symmetry} if self.symmetry else {}),
            "status": self.status.value,
            "flags": dict(self.flags),
            "message": self.message,
            "duration_s": self.duration_s,
        }
        if self.status is not Status.PASS:
            data["rerun"] = self.rerun  # the one command a reader of a passing run never needs
        # the detail of a failure only where there is one: a passing run stays one short line
        optional: dict[str, Any] = {
            "what": self.what,
            "expected": self.expected,
            "got": self.got,
            "stage": self.stage.value if self.stage else None,
            "failed_line": self.failed_line,
            "steps": [asdict(step) for step in self.steps] or None,
            "transcript": [dict(entry) for entry in self.transcript] or None,
            "stderr": list(self.stderr) or None,
            "divergence": self.divergence.to_json() if self.divergence else None,
            # derived (from the divergence, the rules and the failing line), written for other readers
            "blocked_by": self.blocked_by,
            "expectation": self.expectation or None,
            "unchecked": list(self.unchecked) or None,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CaseResult:
        divergence = data.get("divergence")
        return cls(
            id=data["id"],
            scenario=data["scenario"],
            feature=data["feature"],
            line=int(data["line"]),
            rules=tuple(data["rules"]),
            engine=data["engine"],
            profile=data["profile"],
            status=Status(data["status"]),
            flags=dict(data.get("flags") or {}),
            message=data.get("message", ""),
            what=data.get("what"),
            expected=data.get("expected"),
            got=data.get("got"),
            stage=Stage(data["stage"]) if data.get("stage") else None,
            failed_line=data.get("failed_line"),
            steps=tuple(StepLine(**step) for step in data.get("steps") or ()),
            transcript=tuple(data.get("transcript") or ()),
            stderr=tuple(data.get("stderr") or ()),
            divergence=Divergence.from_json(divergence) if divergence else None,
            rerun=data.get("rerun", ""),
            duration_s=float(data.get("duration_s", 0.0)),
            expectation=data.get("expectation", ""),
            unchecked=tuple(str(note) for note in data.get("unchecked") or ()),
            symmetry=str(data.get("symmetry") or ""),
        )


# ---------------------------------------------------------------------------------- rule areas


def area_of(rule_id: str) -> str:
    prefix = rule_id.split("-")[0]
    for area, prefixes in AREAS:
        if prefix in prefixes:
            return area
    return "other"


def area_order(area: str) -> int:
    for index, (name, _) in enumerate(AREAS):
        if name == area:
            return index
    return len(AREAS)
