"""``--flags`` over an engine's own profiles: ``--profile aragon_online --flags ...`` and ``--flags``
alone (over every profile of the engine). A flag value the engine does not play makes a
configuration that is not applicable, not an error; a flag it never declared is played at its
default (guinote_conformance.adapters.versions), so another value of it is not applicable either."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.adapters.versions import CompatibleEngine
from guinote_conformance.fuzz.commands import configs_for
from guinote_conformance.fuzz.configs import ConfigError
from guinote_conformance.fuzz.fuzzer import Fuzzer
from tests.independent.minimal_engine import OWN_PROFILES, make, make_v1

REPO = Path(__file__).resolve().parents[2]


def test_flags_over_one_of_the_engine_s_own_profiles() -> None:
    info = CompatibleEngine(make()).info()
    (config,) = configs_for(info, ["aragon_online"], "renuncio_faults=out_of_turn")
    assert config.label == "aragon_online[renuncio_faults=out_of_turn]"
    assert config.flags == {**info.profiles["aragon_online"], "renuncio_faults": "out_of_turn"}


def test_flags_alone_are_played_over_every_profile_of_the_engine() -> None:
    info = CompatibleEngine(make()).info()
    configs = configs_for(info, [], "tute=wins_point")
    assert [c.label for c in configs] == [f"{name}[tute=wins_point]" for name in OWN_PROFILES]
    assert all(c.flags["tute"] == "wins_point" for c in configs)
    assert [c.flags["deck"] for c in configs] == [info.profiles[name]["deck"] for name in OWN_PROFILES]


def test_a_flag_an_older_engine_plays_at_its_default_is_not_applicable_at_another_value() -> None:
    engine = CompatibleEngine(make_v1())
    info = engine.info()
    configs = configs_for(info, ["aragon_online"], "renuncio_faults=out_of_turn")  # not a usage error
    report = Fuzzer(ReferenceEngine(), engine, info, depth="hand").run(configs, 2)
    assert report.not_applicable == {
        "aragon_online[renuncio_faults=out_of_turn]": "the engine does not play renuncio_faults=out_of_turn"
    }
    assert report.games == 0
    # at its default, it is played (and the engine is not sent the flag it does not know)
    default = configs_for(info, ["aragon_online"], "renuncio_faults=play_duties")
    played = Fuzzer(ReferenceEngine(), engine, info, depth="hand").run(default, 2)
    assert played.games == 2 and played.failures == [] and not played.not_applicable


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ("colour=red", "unknown flag 'colour'; the flags: cante_order,"),
        ("renuncio_faults=often", "flag renuncio_faults='often': no such value; the values of renuncio_faults:"),
    ],
)
def test_a_flag_or_value_that_exists_nowhere_is_still_an_error(flags: str, message: str) -> None:
    info = CompatibleEngine(make_v1()).info()
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        configs_for(info, ["aragon_online"], flags)


def test_compare_with_flags_over_the_engine_s_profiles(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "guinote_conformance", "compare", "--engine", "py:tests.independent.minimal_engine:make",
         "--flags", "renuncio_faults=out_of_turn", "--hands", "2", "--depth", "hand", "--report-dir", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for name in OWN_PROFILES:
        assert f"{name}[renuncio_faults=out_of_turn]: 2 hands" in done.stdout
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert report["games"] == 2 * len(OWN_PROFILES) and report["groups"] == []
