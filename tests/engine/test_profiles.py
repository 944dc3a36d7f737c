"""Flags and profiles as data: every profile sets every flag; bad names list the valid ones."""

from __future__ import annotations

import copy
import itertools

import pytest

from guinote_conformance.reference_engine.flags import (
    RulesError,
    _catalogue,
    flag_specs,
    make_rules,
    overlay_names,
    parse_flags,
    profile_names,
    profile_specs,
    rules_for,
)

PROFILES = ["ludoteka", "lascuarenta", "tradicional", "tradicional_literal"]
OVERLAYS = overlay_names()  # from profiles.toml, so a new overlay is tested without editing this file


def test_the_profiles_and_overlays() -> None:
    assert profile_names() == PROFILES
    assert {"mano_a_mano", "ademuz48", "castellon36"} <= set(OVERLAYS)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_profile_sets_every_flag_to_a_valid_value(profile: str) -> None:
    spec = profile_specs()[profile]
    assert set(spec.flags) == set(flag_specs())
    for name, value in spec.flags.items():
        assert value in flag_specs()[name].values
    assert rules_for(profile).as_dict() == spec.flags


def test_every_flag_value_names_its_sources() -> None:
    for spec in flag_specs().values():
        assert spec.values and spec.rules and spec.disagreement
        for value in spec.values.values():
            assert value.sources and value.reading


@pytest.mark.parametrize(("profile", "overlay"), list(itertools.product(PROFILES, OVERLAYS)))
def test_an_overlay_changes_only_its_flags(profile: str, overlay: str) -> None:
    base = rules_for(profile).as_dict()
    combined = rules_for(f"{profile}+{overlay}").as_dict()
    changed = {name for name in base if base[name] != combined[name]}
    assert changed <= set(profile_specs()[overlay].flags)


def test_overlays_combine() -> None:
    game_rules = rules_for("tradicional+mano_a_mano+castellon36")
    assert (game_rules.player_count, game_rules.deck_size) == (2, 36)
    assert rules_for("lascuarenta", {"deck": "48"}).deck_size == 48


def test_unknown_profile_lists_the_valid_ones() -> None:
    with pytest.raises(RulesError) as error:
        rules_for("aragones")
    assert "'aragones'" in str(error.value)
    assert all(name in str(error.value) for name in PROFILES)
    with pytest.raises(RulesError, match="unknown profile 'mano_a_mano'"):
        rules_for("mano_a_mano")  # an overlay is not a profile


def test_unknown_overlay_lists_the_valid_ones() -> None:
    with pytest.raises(RulesError) as error:
        rules_for("ludoteka+tres_jugadores")
    assert "'tres_jugadores'" in str(error.value)
    assert all(name in str(error.value) for name in OVERLAYS)
    with pytest.raises(RulesError, match="unknown overlay 'ludoteka'"):
        rules_for("lascuarenta+ludoteka")


def test_unknown_flag_lists_the_valid_ones() -> None:
    with pytest.raises(RulesError) as error:
        rules_for("ludoteka", {"jugadores": "4"})
    assert "'jugadores'" in str(error.value)
    assert all(name in str(error.value) for name in flag_specs())


def test_unknown_value_lists_the_valid_ones() -> None:
    with pytest.raises(RulesError) as error:
        rules_for("ludoteka", {"players": "3"})
    assert "'3'" in str(error.value) and "'players'" in str(error.value)
    assert "4" in str(error.value) and "2" in str(error.value)
    with pytest.raises(RulesError, match="valid values: lose, vueltas, cannot_win"):
        rules_for("ludoteka", {"thirty_malas": "never"})


def test_make_rules_needs_every_flag() -> None:
    values = rules_for("ludoteka").as_dict()
    del values["tute"]
    with pytest.raises(RulesError, match="missing flags: tute"):
        make_rules(values)


def test_with_flags_validates() -> None:
    base = rules_for("ludoteka")
    assert base.with_flags({"tute": "wins_point"}).tute == "wins_point"
    with pytest.raises(RulesError):
        base.with_flags({"tute": "sometimes"})
    assert base == rules_for("ludoteka") and hash(base) == hash(rules_for("ludoteka"))


def test_a_flag_that_matters_only_under_another_names_a_real_value_of_it() -> None:
    """``matters_when``: the 9 and 8 rank only in the 48-card deck; a condition on a flag or a
    value that does not exist is an error of profiles.toml, named."""
    specs = flag_specs()
    assert specs["rank_8_9"].matters_when == {"deck": ("48",)}
    assert specs["renuncio_faults"].matters_when == {"renuncio_handling": ("lose_point",)}
    catalogue = copy.deepcopy(_catalogue())
    catalogue["flags"]["rank_8_9"]["matters_when"] = {"deck": ["52"]}
    with pytest.raises(RulesError, match=r"flag rank_8_9: matters_when names deck=52, not a value of another flag"):
        parse_flags(catalogue)
