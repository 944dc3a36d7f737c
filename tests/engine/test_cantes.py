"""CANTE: the twenty and the forty, their window, order and limits; tute; hidden suits."""

from __future__ import annotations

from guinote_conformance.reference_engine.actions import Cante, Draw, Exchange, Play, Tute
from guinote_conformance.reference_engine.cards import Rank, Suit
from guinote_conformance.reference_engine.game import Game
from guinote_conformance.reference_engine.views import observation_field

from .helpers import card, event, kinds, legal_json, play, position, refusal, rules

OROS, COPAS, ESPADAS, BASTOS = Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS
# seat 0 holds Rey and Sota of oros (a twenty) and of bastos (the forty, trumps are bastos)
HANDS = ["Ro So Rb Sb 2c 3c", "Ao 2o 3o 4c 5c 6c", "4o 5o 6o 7c Ac Cc", "7o Co Ab 2e 3e 4e"]


def won_by(seat: int, profile: str = "ludoteka", hands: list[str] = HANDS, **fields: object) -> Game:
    return position(rules(profile), hands, muestra="7b", stock="5e 6e 7e", last_trick_winner=seat, **fields)


def test_a_twenty_and_the_forty() -> None:  # CANTE-01..04
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=2)
    twenty = event(game.apply(Cante(0, OROS)), "cante")
    assert twenty == {"seat": 0, "side": 0, "suit": "o", "value": 20}
    forty = event(game.apply(Cante(0, BASTOS)), "cante")
    assert forty["value"] == 40
    assert game.cante_points == [60, 0]
    assert game.sung_suits == {OROS, BASTOS}


def test_only_the_side_that_won_the_last_trick_sings() -> None:  # CANTE-05, CANTE-18
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=1)
    error = refusal(game, Cante(0, OROS))
    assert (error.code, error.rule) == ("CANTE_NO_WON_TRICK", "CANTE-05")
    fresh = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e")
    assert refusal(fresh, Cante(0, OROS)).code == "CANTE_NO_WON_TRICK"  # no trick won yet


def test_either_partner_may_sing() -> None:  # CANTE-05
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=2)
    assert {"type": "cante", "seat": 0, "suit": "o"} in legal_json(game)
    game.apply(Cante(0, OROS))


def test_the_window_stays_open_through_the_draw_and_closes_at_the_lead() -> None:  # CANTE-06, B-42
    game = position(
        rules("ludoteka"),
        [h[:14] for h in HANDS],
        muestra="7b",
        stock="5e 6e 7e",
        last_trick_winner=0,
        draw_pending=True,
    )
    game.apply(Draw())
    game.apply(Cante(0, OROS))
    play(game, "2c")
    error = refusal(game, Cante(0, BASTOS))
    assert error.code == "CANTE_NO_WON_TRICK"


def test_a_cante_completed_by_the_card_just_drawn() -> None:  # B-42 / C-13
    hands = ["Ro Rb 2c 3c 4e", "Ao 2o 3o 4c 5c", "4o 5o 6o 7c Ac", "7o Co Ab 2e 3e"]
    game = position(rules("ludoteka"), hands, muestra="7b", stock="So 5e 6e", last_trick_winner=0, draw_pending=True)
    assert refusal(game, Cante(0, OROS)).code == "CANTE_NO_PAIR"
    game.apply(Draw())  # seat 0 draws the Sota de oros
    assert {"type": "cante", "seat": 0, "suit": "o"} in legal_json(game)
    assert event(game.apply(Cante(0, OROS)), "cante")["value"] == 20


def test_one_cante_per_won_trick() -> None:  # CANTE-10 (cante_per_trick=one)
    game = position(
        rules("lascuarenta", cante_order="free"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0
    )
    game.apply(Cante(0, OROS))
    error = refusal(game, Cante(0, BASTOS))
    assert (error.code, error.rule) == ("CANTE_ONE_PER_TRICK", "CANTE-10")
    assert not any(a["type"] == "cante" for a in legal_json(game))


def test_several_cantes_per_won_trick() -> None:  # CANTE-09 (cante_per_trick=many)
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    assert sum(a["type"] == "cante" for a in legal_json(game)) == 2
    game.apply(Cante(0, OROS))
    game.apply(Cante(0, BASTOS))


def test_the_forty_first() -> None:  # CANTE-12 (cante_order=forty_first)
    forty_first = rules("lascuarenta", cante_order="forty_first")
    game = position(forty_first, HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    error = refusal(game, Cante(0, OROS))
    assert (error.code, error.rule) == ("CANTE_FORTY_FIRST", "CANTE-12")
    assert [a for a in legal_json(game) if a["type"] == "cante"] == [{"type": "cante", "seat": 0, "suit": "b"}]
    game.apply(Cante(0, BASTOS))
    free = position(rules("lascuarenta"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)  # B-08
    free.apply(Cante(0, OROS))


def test_a_suit_is_sung_once_per_hand() -> None:  # CANTE-11
    game = position(
        rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0, sung=[{"seat": 0, "suit": "o"}]
    )
    assert game.cante_points == [20, 0]
    error = refusal(game, Cante(0, OROS))
    assert (error.code, error.rule) == ("CANTE_SUIT_ALREADY_SUNG", "CANTE-11")


def test_the_pair_must_be_held() -> None:  # CANTE-19
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    assert refusal(game, Cante(2, COPAS)).code == "CANTE_NO_PAIR"


def test_exchange_then_sing_the_forty_with_the_muestra() -> None:  # CANTE-24, C-13
    hands = ["Ro Rb 2c 3c 4e", "Ao 2o 3o 4c 5c", "4o 5o 6o 7c Ac", "7o Co Ab 2e 3e"]
    game = position(
        rules("ludoteka"),
        [h.replace("Rb", "7b") if i == 0 else h for i, h in enumerate(hands)],
        muestra="Sb",
        stock="Rb 5e 6e",
        last_trick_winner=0,
        draw_pending=True,
    )
    game.apply(Exchange(0))
    game.apply(Draw())  # seat 0 draws the Rey de bastos: with the Sota taken from the muestra, the forty
    assert event(game.apply(Cante(0, BASTOS)), "cante")["value"] == 40


def test_no_cante_after_the_last_trick() -> None:  # B-43
    game = position(rules("ludoteka"), ["Ao", "2o", "3o", "4o"], trump="b", card_points=[50, 40])
    play(game, "Ao", "2o", "3o", "4o")
    assert game.phase == "hand_over"
    assert refusal(game, Cante(0, OROS)).code == "HAND_OVER"


def test_the_suit_of_a_twenty_sung_in_the_arrastre_is_hidden_from_the_opponents() -> None:  # CANTE-15, ETIQ-06
    hands = ["Ro So Rb Sb 2c", "Ao 2o 3o 4c 5c", "4o 5o 6o 7c Ac", "7o Co Ab 2e 3e"]
    game = position(rules("ludoteka"), hands, trump="b", last_trick_winner=0)
    game.apply(Cante(0, OROS))
    game.apply(Cante(0, BASTOS))
    for seat, suits in ((0, ["o", "b"]), (2, ["o", "b"]), (1, [None, "b"]), (3, [None, "b"])):
        assert [c["suit"] for c in observation_field(game, seat, "cantes")] == suits
        assert observation_field(game, seat, "sung_suits") == sorted(s for s in suits if s)
    assert [c["value"] for c in observation_field(game, 1, "cantes")] == [20, 40]


def test_the_suit_of_a_twenty_sung_in_the_free_phase_is_public() -> None:  # CANTE-13
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    game.apply(Cante(0, OROS))
    assert observation_field(game, 1, "cantes")[0]["suit"] == "o"


def test_mano_a_mano_the_opponent_never_sees_an_arrastre_twenty() -> None:  # C-20
    game = position(rules("ludoteka+mano_a_mano"), ["Ro So 2c", "Ao 2o 3o"], trump="b", last_trick_winner=0)
    game.apply(Cante(0, OROS))
    assert observation_field(game, 1, "cantes")[0]["suit"] is None
    assert observation_field(game, 0, "cantes")[0]["suit"] == "o"


def test_tute_wins_the_point() -> None:  # CANTE-22, MATCH-09 (tute=wins_point)
    hands = ["Ro Rc Re Rb 2c 3c", "Ao 2o 3o 4c 5c 6c", "4o 5o 6o 7c Ac Cc", "7o Co Ab 2e 3e 4e"]
    game = position(rules("lascuarenta"), hands, muestra="7b", stock="5e 6e 7e", last_trick_winner=2)
    assert {"type": "tute", "seat": 0, "rank": "R"} in legal_json(game)
    events = game.apply(Tute(0, Rank.REY))
    assert kinds(events)[:2] == ["tute", "hand_over"]
    over = event(events, "hand_over")
    assert (over["winner"], over["reason"], over["rule"]) == (0, "tute", "CANTE-22")
    assert game.match.points == [1, 0]


def test_tute_needs_the_four_cards_and_a_won_trick() -> None:
    hands = ["Ro Rc Re Rb 2c 3c", "Ao 2o 3o 4c 5c 6c", "4o 5o 6o 7c Ac Cc", "7o Co Ab 2e 3e 4e"]
    game = position(rules("lascuarenta"), hands, muestra="7b", stock="5e 6e 7e", last_trick_winner=1)
    assert refusal(game, Tute(0, Rank.REY)).code == "CANTE_NO_WON_TRICK"
    game = position(rules("lascuarenta"), hands, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    assert refusal(game, Tute(0, Rank.SOTA)).code == "TUTE_NOT_HELD"
    assert refusal(game, Tute(1, Rank.REY)).code == "CANTE_NO_WON_TRICK"


def test_no_tute_under_tute_none() -> None:  # CANTE-21
    hands = ["Ro Rc Re Rb 2c 3c", "Ao 2o 3o 4c 5c 6c", "4o 5o 6o 7c Ac Cc", "7o Co Ab 2e 3e 4e"]
    game = position(rules("ludoteka"), hands, muestra="7b", stock="5e 6e 7e", last_trick_winner=0)
    error = refusal(game, Tute(0, Rank.REY))
    assert (error.code, error.rule) == ("TUTE_NOT_PLAYED", "CANTE-21")
    assert not any(a["type"] == "tute" for a in legal_json(game))


def test_the_tute_takes_the_one_cante_of_the_trick() -> None:  # C-23
    hands = ["Ro Rc Re Rb So 3c", "Ao 2o 3o 4c 5c 6c", "4o 5o 6o 7c Ac Cc", "7o Co Ab 2e 3e 4e"]
    game = position(rules("lascuarenta"), hands, muestra="5e", stock="6e 7e Ce", last_trick_winner=0)
    game.apply(Cante(0, OROS))
    assert refusal(game, Tute(0, Rank.REY)).code == "CANTE_ONE_PER_TRICK"


def test_cantes_are_listed_only_when_possible() -> None:
    game = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=1)
    assert not any(a["type"] == "cante" for a in legal_json(game))
    assert refusal(game, Cante(5, OROS)).code == "NO_SUCH_SEAT"
    play(game, "2o")
    assert game.turn == 2  # the winner of the last trick led (PLAY-04)
    assert refusal(game, Play(3, card("7o"))).code == "NOT_YOUR_TURN"


def test_each_cante_names_the_rule_that_allows_it() -> None:
    """What a stricter engine breaks when it refuses the cante (compare names it so): the side's
    right for the partner (CANTE-05), the window through the draw (CANTE-25), a second cante after
    one trick (CANTE-09), the cante itself (CANTE-01); nothing for a cante refused."""
    partner = position(rules("ludoteka"), HANDS, muestra="7b", stock="5e 6e 7e", last_trick_winner=2)
    assert partner.allowed_by(Cante(0, OROS)) == "CANTE-05"
    before_draw = won_by(0, hands=[h[:14] for h in HANDS], draw_pending=True)
    assert before_draw.allowed_by(Cante(0, OROS)) == "CANTE-01"
    before_draw.apply(Cante(0, OROS))
    assert before_draw.allowed_by(Cante(0, BASTOS)) == "CANTE-09"
    assert before_draw.allowed_by(Cante(0, OROS)) == ""  # sung already
    assert before_draw.allowed_by(Cante(0, OROS), window=True) == "CANTE-06"  # but the window is open
    after_draw = won_by(0)
    assert after_draw.allowed_by(Cante(0, OROS)) == "CANTE-25"
    assert won_by(1).allowed_by(Cante(0, OROS)) == ""
    assert won_by(1).allowed_by(Cante(0, OROS), window=True) == ""  # the other side won the trick
