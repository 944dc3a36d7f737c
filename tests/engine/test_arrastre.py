"""ARR: the obligations of the arrastre (follow, montar, fallar, pisar) and the partner exemption."""

from __future__ import annotations

import pytest

from guinote_conformance.reference_engine.actions import Play
from guinote_conformance.reference_engine.flags import Rules
from guinote_conformance.reference_engine.game import Game

from .helpers import card, playable, position, refusal, rules

DEFAULT = rules("lascuarenta")  # partner_winning_exempts=yes, overtake_reference=current_winning_card
LITERAL = rules(
    "tradicional_literal", renuncio_handling="block"
)  # partner_winning_exempts=no, overtake_reference=previous_opponent_card


def arrastre(game_rules: Rules, hands: list[str], trick: str = "", trump: str = "b") -> Game:
    """An arrastre position with trumps ``trump``; ``trick`` like ``"0:Ao 1:5o"``."""
    return position(game_rules, hands, trump=trump, trick=trick) if trick else position(game_rules, hands, trump=trump)


def check(game: Game, allowed: str, refused: dict[str, tuple[str, str]] | None = None) -> None:
    assert playable(game) == set(allowed.split())
    for code, (reason, rule) in (refused or {}).items():
        assert game.turn is not None
        error = refusal(game, Play(game.turn, card(code)))
        assert (error.code, error.rule) == (reason, rule), code
    assert {a.card.code for a in game.legal_actions() if isinstance(a, Play)} == set(allowed.split())


def test_the_leader_plays_any_card_trumps_included() -> None:  # PLAY-15, C-26
    game = arrastre(DEFAULT, ["Ao 2b 3c", "Ro 7o Sc", "So 5o Rc", "Co 4o 7c"])
    check(game, "Ao 2b 3c")


def test_must_follow_suit() -> None:  # ARR-01
    game = arrastre(DEFAULT, ["3c 4c", "2o Rc 6e", "So 5o 6c", "Co 4o 7c"], "0:Ao")
    check(game, "2o", {"Rc": ("MUST_FOLLOW_SUIT", "ARR-01")})


def test_must_beat_when_following() -> None:  # ARR-02 montar
    game = arrastre(DEFAULT, ["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], "0:5o")
    check(game, "Ro", {"2o": ("MUST_BEAT", "ARR-02"), "Ac": ("MUST_FOLLOW_SUIT", "ARR-01")})


def test_trumps_led_must_be_followed_and_beaten() -> None:  # ARR-09
    game = arrastre(DEFAULT, ["3c 4c", "6b 2b Ao", "So 6o 6c", "Co 4o 7c"], "0:4b")
    check(game, "6b", {"2b": ("MUST_BEAT", "ARR-02"), "Ao": ("MUST_FOLLOW_SUIT", "ARR-01")})


def test_void_must_trump() -> None:  # ARR-03 fallar
    game = arrastre(DEFAULT, ["3c 4c", "2b Ac 5e", "So 6o 6c", "Co 4o 7c"], "0:5o")
    check(game, "2b", {"Ac": ("MUST_TRUMP", "ARR-03")})


def test_void_must_overtrump() -> None:  # ARR-04 pisar
    game = arrastre(DEFAULT, ["3c 4c", "7c 7e", "6b 2b Ac", "Co 4o 6c"], "0:5o 1:4b")
    check(game, "6b", {"2b": ("MUST_OVERTRUMP", "ARR-04"), "Ac": ("MUST_OVERTRUMP", "ARR-04")})


def test_no_duty_to_under_trump() -> None:  # ARR-05, B-19
    game = arrastre(DEFAULT, ["3c 4c", "7c 7e", "2b Ac 5e", "Co 4o 6c"], "0:5o 1:4b")
    check(game, "2b Ac 5e")


def test_void_without_trumps_plays_anything() -> None:  # ARR-08
    game = arrastre(DEFAULT, ["3c 4c", "Ac 5e 2c", "So 6o 6c", "Co 4o 7c"], "0:5o")
    check(game, "Ac 5e 2c")


def test_a_trumped_trick_is_followed_with_any_card_of_the_suit() -> None:  # B-18 must_overtake_when_trumped=no
    game = arrastre(DEFAULT, ["3c 4c", "7c 7e", "7o 2o Ab", "Co 4o 6c"], "0:5o 1:4b")
    check(game, "7o 2o", {"Ab": ("MUST_FOLLOW_SUIT", "ARR-01")})


def test_partner_winning_only_the_suit_must_be_followed() -> None:  # ARR-06, B-17 first example
    game = arrastre(DEFAULT, ["3c 4c", "7c 7e", "Ro 4o Ab", "Co 2o 6c"], "0:Ao 1:5o")
    check(game, "Ro 4o", {"Ab": ("MUST_FOLLOW_SUIT", "ARR-01")})


def test_partner_winning_a_void_player_plays_anything() -> None:  # ARR-07
    game = arrastre(DEFAULT, ["3c 4c", "7c 7e", "2b Ac 5e", "Co 2o 6c"], "0:Ao 1:5o")
    check(game, "2b Ac 5e")


def test_partner_winning_with_a_trump() -> None:  # ARR-06, B-17 second example
    following = arrastre(DEFAULT, ["3c 4c", "7c 7e", "5c 5e", "7o 4o 6e"], "0:5o 1:4b 2:6o")
    check(following, "7o 4o")
    void = arrastre(DEFAULT, ["3c 4c", "7c 7e", "5c 5e", "2b Ac 6e"], "0:5o 1:4b 2:6o")
    check(void, "2b Ac 6e")


@pytest.mark.parametrize(
    ("hands", "trick", "code", "rule"),
    [
        (["Ao 2b 3c", "Ro 7o Sc", "So 5o Rc", "Co 4o 7c"], "", "3c", "ARR-14"),  # a lead is free
        (["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], "0:5o", "Ro", "ARR-02"),  # beating the suit led
        (["3c 4c", "6b 2b Ao", "So 6o 6c", "Co 4o 7c"], "0:4b", "6b", "ARR-09"),  # beating a trump lead
        (["3c 4c", "7c 7e", "Ro 4o Ab", "Co 2o 6c"], "0:Ao 1:5o", "4o", "ARR-02"),  # nothing beats the Ace
        (["3c 4c", "7c 7e", "7o 2o Ab", "Co 4o 6c"], "0:5o 1:4b", "2o", "ARR-13"),  # a trumped trick
        (["3c 4c", "7c 7e", "Ro 2o Ab", "Co 7o 6c"], "0:5o 1:4o", "2o", "ARR-06"),  # the partner wins
        (["3c 4c", "7c 7e", "2b Ac 5e", "Co 2o 6c"], "0:5o 1:4o", "Ac", "ARR-07"),  # void, the partner wins
        (["3c 4c", "7c 7e", "2b Ac 5e", "Co 2o 6c"], "0:5o 1:4o", "2b", "ARR-03"),  # a trump that wins
        (["3c 4c", "7c 7e", "6b 2b Ac", "Co 4o 6c"], "0:5o 1:4b", "6b", "ARR-04"),  # overtrumping
        (["3c 4c", "7c 7e", "2b Ac 5e", "Co 4o 6c"], "0:5o 1:4b", "Ac", "ARR-05"),  # only losing trumps
        (["3c 4c", "7c 7e", "2b Ac 5e", "Co 4o 6c"], "0:5o 1:4b", "2b", "ARR-05"),  # a losing trump
        (["3c 4c", "Ac 5e 2c", "So 6o 6c", "Co 4o 7c"], "0:5o", "Ac", "ARR-08"),  # no trump at all
        (["3c 4c", "Ac 5e 2c", "So 6o 6c", "Co 4o 7c"], "0:5o", "4o", ""),  # not in the hand
        (["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], "0:5o", "2o", ""),  # refused (MUST_BEAT)
    ],
)
def test_each_legal_card_names_the_rule_that_allows_it(hands: list[str], trick: str, code: str, rule: str) -> None:
    """What a stricter engine breaks when it refuses the card (compare names it so)."""
    game = arrastre(DEFAULT, hands, trick)
    assert game.turn is not None
    assert game.allowed_by(Play(game.turn, card(code))) == rule


def test_literal_s004_beat_the_previous_opponent_even_when_the_partner_wins() -> None:  # ARR-10, B-17, B-21
    game = arrastre(LITERAL, ["3c 4c", "7c 7e", "Ro 4o 6c", "Co 2o 6e"], "0:Ao 1:5o")
    check(game, "Ro", {"4o": ("MUST_BEAT", "ARR-10")})
    trumped = arrastre(LITERAL, ["3c 4c", "7c 7e", "5c 5e", "7o 4o 6e"], "0:5o 1:4b 2:6o")
    check(trumped, "7o", {"4o": ("MUST_BEAT", "ARR-10")})


def test_literal_s004_void_player_must_trump_the_previous_opponents_card() -> None:  # ARR-10, B-21
    void = arrastre(LITERAL, ["3c 4c", "7c 7e", "5c 5e", "2b Ac 6e"], "0:5o 1:4b 2:6o")
    check(void, "2b", {"Ac": ("MUST_TRUMP", "ARR-03")})


def test_literal_s004_previous_opponent_trumped() -> None:  # ARR-10: a trump cannot be beaten by the suit led
    game = arrastre(LITERAL, ["3c 4c", "7c 7e", "Ro 4o 6c", "Co 2o 6e"], "0:5o 1:4b")
    check(game, "Ro 4o")
    void = arrastre(LITERAL, ["3c 4c", "7c 7e", "6b 2b Ac", "Co 2o 6e"], "0:5o 1:4b")
    check(void, "6b", {"2b": ("MUST_OVERTRUMP", "ARR-04")})


def test_literal_s004_previous_opponent_discarded() -> None:  # interpretation (B-21)
    following = arrastre(LITERAL, ["3c 4c", "7c 7e", "Ro 4o 6c", "Co 2o 6e"], "0:Ao 1:2c")
    check(following, "Ro 4o")  # any card of the suit led is higher than a discard
    void = arrastre(LITERAL, ["3c 4c", "7c 7e", "2b Ac 5e", "Co 2o 6e"], "0:Ao 1:2c")
    check(void, "2b")  # a trump is higher than any card of another suit
    no_trump = arrastre(LITERAL, ["3c 4c", "7c 7e", "Ac 5e 6c", "Co 2o 6e"], "0:Ao 1:2c")
    check(no_trump, "Ac 5e 6c")  # a higher card of the discarded suit does not count


def test_partner_not_exempt_but_measured_against_the_winning_card() -> None:
    game_rules = rules("lascuarenta", partner_winning_exempts="no")
    game = arrastre(game_rules, ["3c 4c", "7c 7e", "Ro 4o 6c", "Co 2o 6e"], "0:Ao 1:5o")
    check(game, "Ro 4o")  # nothing beats the Ace: any card of the suit
    game = arrastre(game_rules, ["3c 4c", "7c 7e", "Ao 4o 6c", "Co 2o 6e"], "0:Ro 1:5o")
    check(game, "Ao")


@pytest.mark.parametrize("profile", ["lascuarenta+mano_a_mano", "tradicional_literal+mano_a_mano"])
def test_mano_a_mano_has_no_exemption(profile: str) -> None:  # ARR-12, TWO-07
    game = arrastre(rules(profile, renuncio_handling="block"), ["3c 4c", "Ro 2o 6e"], "0:5o")
    check(game, "Ro")
    game = arrastre(rules(profile), ["3c 4c", "2b Ro 6e"], "0:5c")
    check(game, "2b")


def test_refusal_leaves_the_state_unchanged() -> None:
    game = arrastre(DEFAULT, ["3c 4c", "Ro 2o Ac", "So 6o 6c", "Co 4o 7c"], "0:5o")
    before = (list(map(list, game.hands)), list(game.trick), game.turn)
    refusal(game, Play(1, card("2o")))
    assert (list(map(list, game.hands)), list(game.trick), game.turn) == before
