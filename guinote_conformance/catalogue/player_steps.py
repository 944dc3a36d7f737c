"""A scenario's steps as players say them: the text the rulebook shows, and the way back to the steps that run.

The seats of a scenario are named as at its table (:class:`~guinote_conformance.catalogue.table_words.Seating`):
from the dealer of its deal if it shows one, else from the player who leads its first trick,
as its drawing shows it (:func:`~guinote_conformance.catalogue.rulebook.scenario_picture`).

In: an English scenario and the suite's phrasebook. Out: each step's players' text and table rows
(:func:`players_steps`), and the engine step a players' text reads back to (:func:`read_back`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.catalogue.phrasing import Phrasing
from guinote_conformance.catalogue.player_phrasing import say_row
from guinote_conformance.catalogue.rulebook import scenario_picture
from guinote_conformance.catalogue.table_words import Seating

#: gherkin's keywords by the step type they start (a conjunction takes the step before's)
STEP_TYPES = {"Given": "given", "When": "when", "Then": "then"}


class NoPlayersPhrasing(ValueError):
    """A step with no players' phrasing, or one whose value has no players' words (names file:line)."""


@dataclass(frozen=True)
class PlayersStep:
    """One step as players say it: its gherkin keyword (as written), its step type, its text, its table's rows."""

    keyword: str
    kind: str
    text: str
    rows: tuple[str, ...]
    line: int
    background: bool


def seating_of(scenario: Scenario) -> Seating:
    picture = scenario_picture(scenario)
    return Seating(picture.players, picture.dealer, picture.leader)


def phrasing_of(phrasebook: Sequence[Phrasing], kind: str, text: str) -> Phrasing | None:
    """The one engine phrasing of an English step (None: none, or more than one)."""
    found = [p for p in phrasebook if p.kind == kind and p.english_re.fullmatch(text)]
    return found[0] if len(found) == 1 else None


def players_steps(scenario: Scenario, phrasebook: Sequence[Phrasing], language: str) -> list[PlayersStep]:
    """Every step of the English ``scenario`` (its background's first) as players say it in ``language``."""
    seating = seating_of(scenario)
    out: list[PlayersStep] = []
    kind = "given"
    for step in scenario.steps:
        kind = STEP_TYPES.get(step.keyword, kind)
        where = f"{scenario.path.name}:{step.line}"
        phrasing = phrasing_of(phrasebook, kind, step.text)
        match = phrasing.english_re.fullmatch(step.text) if phrasing else None
        if phrasing is None or phrasing.players is None or match is None:
            raise NoPlayersPhrasing(f"{where}: the {kind} step {step.text!r} has no players' phrasing")
        text = phrasing.players.render(match.groupdict(), language, seating)
        rows = [say_row(row, language, seating) for row in step.table]
        if text is None or None in rows:
            raise NoPlayersPhrasing(f"{where}: a value of the step {step.text!r} has no players' words ({language})")
        background = step.line < scenario.line
        out.append(PlayersStep(step.keyword, kind, text, tuple(str(r) for r in rows), step.line, background))
    return out


def read_back(
    phrasebook: Sequence[Phrasing], kind: str, text: str, language: str, seating: Seating
) -> list[tuple[Phrasing, dict[str, str | None]]]:
    """Every engine phrasing whose players' phrasing reads ``text``, with the English arguments it reads."""
    found = []
    for phrasing in phrasebook:
        if phrasing.kind == kind and phrasing.players is not None:
            args = phrasing.players.parse(text, language, seating)
            if args is not None:
                found.append((phrasing, args))
    return found
