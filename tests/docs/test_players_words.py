"""The Spanish player pages' plain words (docs/_ext/guinote_rulebook/players.py), without a build:
a flag value in a sentence is its reading, in a title it is left out; a profile code, a reason
code and a card code after its article are said in words; a scenario's house rule is a sentence
in each language."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
if str(DOCS / "_ext") not in sys.path:
    sys.path.insert(0, str(DOCS / "_ext"))

from guinote_rulebook.players import choice, plain_text, reading  # noqa: E402


def test_a_flag_value_in_a_sentence_is_said_as_its_reading() -> None:
    said = plain_text("y con cante_per_trick=one es el único cante")
    assert said == "y con la opción «solo un cante por baza ganada» es el único cante"
    assert "=" not in plain_text("Con tute=none no se cantan cuatro reyes ni cuatro sotas")


def test_in_a_title_the_choice_is_left_to_the_rules_flag_field() -> None:
    title = plain_text("Con cante_per_trick=one una baza ganada permite un solo cante", title=True)
    assert title == "Una baza ganada permite un solo cante"


def test_two_values_of_one_tag_are_both_said() -> None:
    both = reading("cante_per_trick", "many|one", "es")
    assert both is not None and " o " in both and both.count("«") == 2
    assert reading("cante_per_trick", "no_such_value", "es") is None


def test_profile_reason_and_card_codes_are_said_in_words() -> None:
    assert plain_text("lascuarenta+mano_a_mano") == "lascuarenta+mano a mano"
    assert plain_text("se rechaza (NOT_YOUR_TURN)") == "se rechaza («no es su turno»)"
    assert (
        plain_text("sale el Ao y el contrario juega el Co")
        == "sale el As de oros y el contrario juega el Caballo de oros"
    )
    assert plain_text("Se juega") == "Se juega"  # a Spanish word that looks like a card code stays


def test_a_scenarios_house_rule_is_a_sentence_in_each_language() -> None:
    english = choice("cante_per_trick", "many", "en")
    assert english is not None and "cante_per_trick" not in english and "several cantes" in english
    assert choice("cante_per_trick", "nonsense", "en") is None
