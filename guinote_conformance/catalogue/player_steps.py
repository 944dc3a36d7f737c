"""A scenario's steps as players say them: the text the rulebook shows, and the way back to the steps that run.

The seats of a scenario are named as at its table (:class:`~guinote_conformance.catalogue.table_words.Seating`):
from the dealer of its deal if it shows one, else from the player who leads its first trick,
as its drawing shows it (:func:`~guinote_conformance.catalogue.rulebook.scenario_picture`).

In: an English scenario and the suite's phrasebook. Out: each step's players' text and table rows
(:func:`players_steps`), and the engine step a players' text reads back to (:func:`read_back`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from guinote_conformance.catalogue.features import Scenario
from guinote_conformance.catalogue.phrasing import Phrasing
from guinote_conformance.catalogue.player_phrasing import contract, say_row
from guinote_conformance.catalogue.rulebook import scenario_picture
from guinote_conformance.catalogue.table_words import Seating

#: gherkin's keywords by the step type they start (a conjunction takes the step before's)
STEP_TYPES = {"Given": "given", "When": "when", "Then": "then"}


class NoPlayersPhrasing(ValueError):
    """A step with no players' phrasing, or one whose value has no players' words (names file:line).

    ``unknown``: the step is none of the suite's (a project of its own, with steps of its own)."""

    def __init__(self, message: str, unknown: bool = False) -> None:
        super().__init__(message)
        self.unknown = unknown


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
            raise NoPlayersPhrasing(
                f"{where}: the {kind} step {step.text!r} has no players' phrasing", phrasing is None
            )
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


#: a seat or a side by its number in a scenario's title, with what comes before it
_SPANISH_NUMBERED = re.compile(
    r"\b(?P<before>[Ee]l|[Aa]l|[Dd]el|[Ll]os|)\s?(?P<what>jugador|jugadores|bando) (?P<n>\d)"
    r"(?:(?P<sep> y | a )(?P<m>\d))?\b"
)
_ENGLISH_NUMBERED = re.compile(r"\b(?P<what>[Ss]eats?|[Ss]ides?) (?P<n>\d)(?:(?P<sep> and | to )(?P<m>\d))?\b")
#: the Spanish article before a name (every seat's name starts with «el», every side's with «la»)
_BEFORE = {"el": "", "al": "a ", "del": "de ", "los": ""}


def seats_named(text: str, language: str, seating: Seating) -> str:
    """A scenario's title with its seats and sides named as at the table: «el jugador 1» -> «el segundo»,
    «al bando 0» -> «a la pareja del que sale», ``Seat 2`` -> ``The leader's partner``."""

    def name(what: str, number: str) -> str:
        index = int(number)
        if what.lower().startswith(("side", "bando")):
            return seating.side(index % 2, language)
        return seating.seat(index, language) if index < seating.players else number

    def both(match: re.Match[str], what: str) -> str:
        first = name(what, match["n"])
        if not match["m"]:
            return first
        if match["sep"].strip() in ("a", "to"):  # every seat, numbered from the first to the last
            return "the four players" if language == "en" else "los cuatro jugadores"
        return f"{first} {'and' if language == 'en' else 'y'} {name(what, match['m'])}"

    def spanish(match: re.Match[str]) -> str:
        before = match["before"]
        said = both(match, match["what"])
        out = said if said.startswith("los ") else _BEFORE.get(before.lower(), before + " " if before else "") + said
        if before[:1].isupper() or (not before and match.start() == 0):
            out = out[0].upper() + out[1:]
        return contract(out)

    def english(match: re.Match[str]) -> str:
        said = both(match, match["what"])
        return said[0].upper() + said[1:] if match["what"][0].isupper() else said

    if language == "es":  # «el que sale sale de espadas» is said «el que sale lo hace de espadas»
        return _SPANISH_NUMBERED.sub(spanish, text).replace("que sale sale de", "que sale lo hace de")
    return _ENGLISH_NUMBERED.sub(english, text)
