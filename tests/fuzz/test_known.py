"""The known-divergences file: checked like the expectations file, and it silences what it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.fuzzer import Fuzzer
from guinote_conformance.fuzz.known import KnownFileError, load_known
from guinote_conformance.oracle.rules import observable_rules
from tests.fuzz.engines import no_cantes

RULES = observable_rules()
GOOD = """
# our engine has no cantes yet
[[known]]
kind = "legal"
subject = "cante*"
reason = "cantes are not implemented yet"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "known.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD + 'colour = "red"\n', "known.toml:7: unknown key 'colour'; the keys are kind, subject, rule, config"),
        ('[[known]]\nkind = "legal"\n', "known.toml:1: the entry needs a reason"),
        ('[[known]]\nreason = "x"\n', "known.toml:1: the entry needs a kind, subject, rule or config pattern"),
        ('[[known]]\nreason = "x"\nkind = "sideways"\n', "known.toml:3: unknown kind 'sideways'"),
        ('[[known]]\nreason = "x"\nrule = "CANTE-99"\n', "known.toml:3: rule pattern 'CANTE-99' matches nothing"),
        ('[[known]]\nreason = "x"\nsubject = "colour"\n', "known.toml:3: subject pattern 'colour' matches nothing"),
        ('[[known]]\nreason = "x"\nconfig = "tute*"\n', "known.toml:3: config pattern 'tute*' matches nothing"),
        ("[[known]\n", "known.toml: not valid TOML"),
        ('[[expect]]\nreason = "x"\n', "known.toml:1: unknown table or key 'expect'"),
        (GOOD + '[[known]]\nreason = "y"\nrule = 3\n', "known.toml:9: rule must be a string"),
    ],
)
def test_a_bad_entry_is_an_error_naming_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(KnownFileError) as raised:
        load_known(write(tmp_path, text), rules=RULES, configs=["lascuarenta"])
    assert str(raised.value).startswith(str(tmp_path / message.split(":", 1)[0]) + ":" + message.split(":", 1)[1])


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(KnownFileError, match="cannot read the known-divergences file"):
        load_known(tmp_path / "nowhere.toml", rules=RULES)


def test_known_divergences_are_counted_but_silenced(tmp_path: Path) -> None:
    entries = load_known(write(tmp_path, GOOD), rules=RULES, configs=["tradicional"])
    engine = no_cantes()
    fuzzer = Fuzzer(ReferenceEngine(), engine, engine.info(), depth="hand", known=entries)
    report = fuzzer.run([resolve(engine.info(), "tradicional")], 30)
    assert report.groups and report.failures == []
    assert all(group.known is entries[0] for group in report.groups.values())
    assert report.first_divergence is None
    assert entries[0].where == f"{tmp_path / 'known.toml'}:3"
