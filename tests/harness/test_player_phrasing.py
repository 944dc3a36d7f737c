"""The players' phrasing of the steps: one meaning for the players and for the engine.

Every step of every scenario, in English and in Spanish, is said as a player says it (seats as at
the table, cards by their names, reason codes by the table's words), and that text reads back to
the same step and the same arguments as the Gherkin that runs; so do its table's rows. The
Spanish players' text holds no code, no seat number and no English word.
"""

from __future__ import annotations

import re

import pytest

import guinote_conformance.run.steps  # noqa: F401  (every step declared: the phrasebook is full)
from guinote_conformance.adapters.vocabulary import EVENT_TYPES, HAND_END_REASONS, REASON_CODES, STATE_FIELDS
from guinote_conformance.catalogue import table_words
from guinote_conformance.catalogue.features import Scenario, load_scenarios
from guinote_conformance.catalogue.player_phrasing import contract, expand, read_row
from guinote_conformance.catalogue.player_steps import players_steps, read_back, seating_of
from guinote_conformance.catalogue.table_words import Seating
from guinote_conformance.run.steps.phrasebook import PHRASEBOOK

LANGUAGES = ("en", "es")


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    return load_scenarios()


def test_every_step_has_a_players_phrasing() -> None:
    assert not [p.english for p in PHRASEBOOK if p.players is None]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_players_step_reads_back_to_the_engine_step_and_arguments(
    scenarios: list[Scenario], language: str
) -> None:
    problems: list[str] = []
    for scenario in scenarios:
        seating = seating_of(scenario)
        said = players_steps(scenario, PHRASEBOOK, language)
        for step, players in zip(scenario.steps, said, strict=True):
            where = f"{scenario.path.name}:{step.line} ({language})"
            engine = [p for p in PHRASEBOOK if p.kind == players.kind and p.english_re.fullmatch(step.text)]
            arguments = engine[0].english_re.fullmatch(step.text).groupdict()  # type: ignore[union-attr]
            readers = read_back(PHRASEBOOK, players.kind, players.text, language, seating)
            if [phrasing for phrasing, _ in readers] != engine:
                problems.append(f"{where}: {players.text!r} is read by {len(readers)} steps, not by its own")
            elif not engine[0].players.same(readers[0][1], arguments):  # type: ignore[union-attr]
                problems.append(f"{where}: {players.text!r} reads back as {readers[0][1]}, not {arguments}")
            for row, text in zip(step.table, players.rows, strict=True):
                back = read_row(text, language, seating)
                if back is None or [" ".join(cell.split()) for cell in back] != [" ".join(c.split()) for c in row]:
                    problems.append(f"{where}: the row {text!r} reads back as {back}, not {list(row)}")
    assert not problems, "\n".join(problems[:30])


#: what a Spanish player's text must not hold: codes, seat numbers, English words
CODE = re.compile(
    r"\b[A-Z]{2,}_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b|\b[AR23456789SCR][oceb]\b|\bseat\b|\bjugador \d\b|\bbando\b"
)
RULE = re.compile(r"\b[A-Z]+-\d+\b")
ENGLISH = {"the", "and", "of", "is", "are", "seat", "side", "trick", "hand", "plays", "may", "wins", "true", "false",
           "null", "free", "over", "rule", "card", "cards", "points"}  # fmt: skip


def test_the_spanish_players_text_holds_no_code_seat_number_or_english_word(scenarios: list[Scenario]) -> None:
    problems = []
    for scenario in scenarios:
        for step in players_steps(scenario, PHRASEBOOK, "es"):
            for text in (step.text, *step.rows):
                prose = RULE.sub(" ", text)  # a rule is shown as its link
                english = sorted(set(re.findall(r"\w+", prose)) & ENGLISH)
                if CODE.search(prose) or english or re.search(r"[\[\]{}\"]", prose):
                    problems.append(f"{scenario.path.name}:{step.line}: {text}")
    assert not problems, "\n".join(problems[:30])


def test_every_code_of_the_vocabulary_has_the_players_words() -> None:
    assert set(table_words.REASON_WORDS) == set(REASON_CODES)
    assert set(table_words.HAND_END_WORDS) == set(HAND_END_REASONS)
    assert set(table_words.EVENT_WORDS) == set(EVENT_TYPES)
    fields = {name.replace("<seat>", "{seat}").replace("<side>", "{side}") for name in STATE_FIELDS}
    assert fields == set(table_words.FIELD_WORDS)


def test_the_seats_are_named_from_the_dealer_the_mano_after_him() -> None:
    seating = Seating(players=4, dealer=3)
    assert [seating.seat(seat, "es") for seat in range(4)] == [
        "el mano", "el compañero del que reparte", "el compañero del mano", "el que reparte",
    ]  # fmt: skip
    assert seating.side(0, "es") == "la pareja del mano"
    assert seating.side(1, "en") == "the dealer's side"
    two = Seating(players=2, leader=1)
    assert [two.seat(0, "en"), two.side(1, "es")] == ["the other player", "el que sale"]


def test_spanish_contractions_are_said_and_read_back() -> None:
    assert contract("le toca a el mano, de el que reparte") == "le toca al mano, del que reparte"
    assert expand("le toca al mano") == "le toca a el mano"


def test_a_title_names_its_seats_and_sides_as_at_the_table() -> None:
    from guinote_conformance.catalogue.player_steps import seats_named

    leader = Seating(players=4, leader=2)
    assert seats_named("El jugador 3 no puede fallar cuando el jugador 2 sale de espadas", "es", leader) == (
        "El segundo no puede fallar cuando el que sale lo hace de espadas"
    )
    assert seats_named("da el punto al bando 0 y no al jugador 1", "es", leader) == (
        "da el punto a la pareja del que sale y no al último"
    )
    assert seats_named("Seat 3 beats seat 0's card for side 1", "en", leader) == (
        "The second player beats the leader's partner's card for the other side"
    )
    assert seats_named("los jugadores 0 a 3", "es", Seating(players=4, dealer=0)) == "los cuatro jugadores"
