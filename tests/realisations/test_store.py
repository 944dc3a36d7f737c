"""Stored realisations: merged to the fewest that cover every profile, found under any flag set."""

from __future__ import annotations

from pathlib import Path

import pytest

from guinote_conformance.run import realisations
from guinote_conformance.run.realisations import Run
from guinote_conformance.run.realise import search

from .test_realise import FREE, PROFILES


def runs_for(feature: Path, position: dict[str, object], profiles: list[str]) -> list[Run]:
    found = search(position, dict(PROFILES[profiles[0]]), seed=4)
    return [
        Run(feature, "A scenario", 7, name, dict(PROFILES[name]), dict(position), found if i == 0 else None, "", 0.5)
        for i, name in enumerate(profiles)
    ]


def test_one_realisation_valid_under_every_profile_is_stored_once(tmp_path: Path) -> None:
    feature = tmp_path / "tiny.feature"
    runs = runs_for(feature, FREE, ["ludoteka", "lascuarenta"])
    outcome = realisations.merge(runs, replace=True)
    assert (outcome.scenarios, outcome.realised, outcome.unrealised, outcome.partial) == (1, 1, [], [])
    entry = realisations.load(feature)["A scenario"]
    assert len(entry.realisations) == 1 and entry.profiles == [["lascuarenta", "ludoteka"]]
    realisation, replayed = realisations.find(feature, "A scenario", FREE, dict(PROFILES["tradicional"]))
    assert realisation == entry.realisations[0] and replayed.events


def test_a_position_nothing_reaches_is_stored_as_positions_only_with_the_reason(tmp_path: Path) -> None:
    feature = tmp_path / "tiny.feature"
    run = Run(feature, "Out of reach", 3, "ludoteka", dict(PROFILES["ludoteka"]), dict(FREE), None, "cannot", 1.0)
    outcome = realisations.merge([run], replace=True)
    assert outcome.unrealised == [("tiny.feature:3", "cannot")]
    with pytest.raises(realisations.NoRealisation, match="cannot be reached by play"):
        realisations.find(feature, "Out of reach", FREE, dict(PROFILES["ludoteka"]))


def test_a_stale_realisation_is_not_used_and_the_message_names_the_field(tmp_path: Path) -> None:
    feature = tmp_path / "tiny.feature"
    realisations.merge(runs_for(feature, FREE, ["ludoteka"]), replace=True)
    moved = {**FREE, "stock": list(reversed(FREE["stock"]))}
    with pytest.raises(realisations.NoRealisation, match="stock"):
        realisations.find(feature, "A scenario", moved, dict(PROFILES["ludoteka"]))


def test_a_damaged_file_is_reported_with_its_path(tmp_path: Path) -> None:
    feature = tmp_path / "tiny.feature"
    path = realisations.path_for(feature)
    path.parent.mkdir()
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(realisations.RealisationFileError, match=str(path.name)):
        realisations.load(feature)
