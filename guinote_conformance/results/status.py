"""The statuses of a scenario run: what each means, its glyph, how bad it is, and where a failure went wrong.

In: nothing but the names. Out: :class:`Status` (a value with a meaning, its glyph and its severity,
modelled on python-chess's ``Termination`` enum: not a string spelled in four places), the
:func:`legend` of the glyphs, :class:`Stage` (where a failing run went wrong) and
:class:`NotApplicable`, the exception that ends a run as not applicable wherever it is raised.
"""

from __future__ import annotations

from enum import StrEnum


class NotApplicable(Exception):
    """The engine under test cannot run this scenario (missing capability or flag value): raised
    anywhere in a run, it ends the run as :attr:`Status.NOT_APPLICABLE` with its text as the reason."""


class Status(StrEnum):
    """What happened to one scenario run (one scenario, one engine, one profile)."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    TIMEOUT = "timeout"
    NOT_APPLICABLE = "not_applicable"
    XFAIL = "xfail"
    XPASS = "xpass"
    #: selected but never played: the run ended early, spent its budget, or gave up on the engine
    NOT_RUN = "not_run"

    @property
    def glyph(self) -> str:
        return _GLYPHS[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def meaning(self) -> str:
        return _MEANINGS[self]

    @property
    def is_problem(self) -> bool:
        """Whether this status fails the run."""
        return self in (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.XPASS, Status.NOT_RUN)

    @property
    def severity(self) -> int:
        """Rank for the worst status of a cell: lower is worse."""
        return _SEVERITY.index(self)


_GLYPHS = {
    Status.PASS: "✔",
    Status.FAIL: "✖",
    Status.ERROR: "⚠",
    Status.TIMEOUT: "⧗",
    Status.NOT_APPLICABLE: "⊘",
    Status.XFAIL: "◌",
    Status.XPASS: "✱",
    Status.NOT_RUN: "⊖",
}
_MEANINGS = {
    Status.PASS: "the engine did what the rule says",
    Status.FAIL: "the engine broke the rule: what it answered differs from what the scenario expects",
    Status.ERROR: "the engine crashed, broke the protocol, or the scenario itself is wrong",
    Status.TIMEOUT: "the engine did not answer in time",
    Status.NOT_APPLICABLE: "the engine does not declare a flag value or capability the scenario needs",
    Status.XFAIL: "a known failure listed in the expectations file",
    Status.XPASS: "listed as a known failure but passed: remove it from the expectations file",
    Status.NOT_RUN: "selected but not played: the run ended early, spent its --budget, or gave up on an engine "
    "that timed out or crashed too often in a row (the reason is given)",
}
_SEVERITY = (
    Status.FAIL,
    Status.ERROR,
    Status.TIMEOUT,
    Status.XPASS,
    # below every status that says something about the rules: a run not played says nothing
    Status.NOT_RUN,
    Status.XFAIL,
    Status.PASS,
    Status.NOT_APPLICABLE,
)


def legend() -> str:
    """One line naming every glyph (for terminal tables)."""
    return " ".join(f"{status.glyph} {status.label}" for status in Status)


class Stage(StrEnum):
    """Where a failing scenario went wrong, shown at a glance in every report."""

    #: the engine parted from the realised prefix that leads to the scenario's position
    REACHING_POSITION = "reaching_position"
    #: the engine reached the scenario's situation and then answered differently
    RULE_UNDER_TEST = "rule_under_test"

    @property
    def text(self) -> str:
        if self is Stage.REACHING_POSITION:
            return "diverged while reaching the position"
        return "broke the rule under test"
