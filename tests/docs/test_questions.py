"""Open questions (features/index/questions.toml): every B-nn/C-nn code the project cites has
an entry, the entries point at real rules and flags, the rulebook shows them, and a code with
no entry breaks the -W build."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from guinote_conformance.catalogue.rule_index import load_rules
from guinote_conformance.catalogue.rulebook import derived_questions, load_questions
from guinote_conformance.reference_engine.flags import flag_specs
from tests.docs.conftest import ROOT, BuiltSite, build, require

QUESTIONS = ROOT / "features" / "index" / "questions.toml"
CODE = re.compile(r"\b([BC]-\d{2})\b")


def questions() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    return entries


def entry_flags(entry: dict[str, Any]) -> list[str]:
    flag = entry.get("flag", [])
    return [flag] if isinstance(flag, str) else list(flag)


def cited_codes() -> dict[str, set[str]]:
    """Every code cited by the rule index, the flags and the reference engine, with where."""
    files = [path for path in sorted((ROOT / "features" / "index").glob("*.toml")) if path != QUESTIONS]
    files += [ROOT / "reference_engine" / "profiles.toml", *sorted((ROOT / "reference_engine").glob("*.py"))]
    found: dict[str, set[str]] = {}
    for path in files:
        for code in CODE.findall(path.read_text(encoding="utf-8")):
            found.setdefault(code, set()).add(path.relative_to(ROOT).as_posix())
    return found


def test_entries_are_well_formed() -> None:
    entries = questions()
    ids = [entry["id"] for entry in entries]
    assert len(ids) == len(set(ids)), "a question is listed twice"
    for entry in entries:
        assert re.fullmatch(r"[BC]-\d{2}", entry["id"]), entry
        assert entry["kind"] == {"B": "disagreement", "C": "gap"}[entry["id"][0]], entry["id"]
        assert entry["title"].strip() and entry["summary"].strip(), entry["id"]
        assert entry["rules"], f"{entry['id']} names no rule"


def test_every_cited_code_has_a_question() -> None:
    """An entry of questions.toml, or the question derived from the flag that names the code."""
    known = set(load_questions(QUESTIONS, flag_specs())[0])
    missing = {code: sorted(where) for code, where in cited_codes().items() if code not in known}
    assert not missing, f"codes cited without an entry in questions.toml nor a flag that names them: {missing}"


def test_every_flag_disagreement_code_has_a_question() -> None:
    questions, problems = load_questions(QUESTIONS, flag_specs())
    assert not problems
    for name, spec in flag_specs().items():
        for code in CODE.findall(spec.disagreement):
            assert code in questions, f"flag {name}: {code}"
            if questions[code].derived:  # no entry: the flag's summary is the question's title
                assert questions[code].title == spec.summary and questions[code].flags == (name,)


def test_a_flag_whose_question_has_no_entry_gets_one_derived_from_it() -> None:
    flags = flag_specs()
    name = next(iter(flags))
    code = CODE.findall(flags[name].disagreement)[0]
    entries = {key: value for key, value in load_questions(QUESTIONS)[0].items() if key != code}
    derived = derived_questions(entries, flags)[code]
    assert derived.derived and derived.title == flags[name].summary and derived.summary == ""
    assert derived.kind == {"B": "disagreement", "C": "gap"}[code[0]] and derived.rules == flags[name].rules
    assert derived_questions(load_questions(QUESTIONS)[0], flags)[code].derived is False  # an entry wins


def test_entries_name_existing_rules_and_flags() -> None:
    rules = load_rules()
    flags = flag_specs()
    problems = []
    for entry in questions():
        problems += [f"{entry['id']}: unknown rule {rule}" for rule in entry["rules"] if rule not in rules]
        problems += [f"{entry['id']}: unknown flag {flag}" for flag in entry_flags(entry) if flag not in flags]
    assert not problems, problems


def test_a_flag_named_by_a_question_cites_it() -> None:
    """The flag an entry names carries that question: its disagreement field cites the code."""
    flags = flag_specs()
    for entry in questions():
        for flag in entry_flags(entry):
            assert entry["id"] in CODE.findall(flags[flag].disagreement), f"{entry['id']} / {flag}"


def test_the_questions_page_shows_every_entry(site: BuiltSite) -> None:
    assert site.status == 0, site.warnings
    page = site.page("questions")
    for entry in questions():
        anchor = f'id="question-{entry["id"].lower()}"'
        assert anchor in page, f"{entry['id']} has no section"
        section = page.split(anchor, 1)[1]
        assert entry["title"].split("'")[0] in section[:2000], entry["id"]
        for rule in entry["rules"]:
            assert f"#rule-{rule.lower()}" in section[:6000], f"{entry['id']}: no link to {rule}"
        for flag in entry_flags(entry):
            assert f"#flag-{flag.replace('_', '-')}" in section[:6000], f"{entry['id']}: no link to {flag}"


def test_the_page_is_in_the_sources_toctree(site: BuiltSite) -> None:
    index = (ROOT / "docs" / "index.rst").read_text(encoding="utf-8")
    readings = index.split(":caption: Sources and readings", 1)[1].split(".. toctree::", 1)[0]
    assert re.search(r"^\s+questions$", readings, re.MULTILINE)
    assert 'href="questions.html"' in site.page("index")


def test_codes_in_the_rulebook_link_to_their_question(site: BuiltSite) -> None:
    flags_page = site.page("disagreements")
    assert 'href="questions.html#question-b-17"' in flags_page  # Disagreement field of partner_winning_exempts
    assert 'href="questions.html#question-b-18"' in flags_page  # "B-21/B-18": both codes
    arrastre = site.page("rulebook/arrastre")
    assert 'href="../questions.html#question-b-22"' in arrastre  # inside an interpretation
    assert 'href="../questions.html#question-c-26"' in arrastre  # inside a note


PROJECT_CONF = """
import sys
sys.path[:0] = [{root!r}, {ext!r}]
project = "questions test"
extensions = ["guinote_rulebook"]
guinote_root = {data!r}
guinote_features_dir = {features!r}
"""

AREA = """
[area]
id = "arrastre"
title = "The arrastre"
feature = "arrastre.feature"
summary = "Test data."

[[rule]]
id = "ARR-01"
statement = "Test data: see B-01."
sources = [{ id = "S000", heading = "Heading" }]
agreement = "yes"
note = "Test data: also B-98, which has no entry."
"""

ONE_QUESTION = """
[[question]]
id = "B-01"
kind = "disagreement"
title = "Test question"
summary = "Test data."
rules = ["ARR-01"]
"""


def test_a_code_without_an_entry_is_a_warning(tmp_path: Path) -> None:
    require("sphinx")
    features = tmp_path / "data" / "features"
    (features / "index").mkdir(parents=True)
    (features / "index" / "arrastre.toml").write_text(AREA, encoding="utf-8")
    (features / "index" / "questions.toml").write_text(ONE_QUESTION, encoding="utf-8")
    source = tmp_path / "src"
    source.mkdir()
    conf = PROJECT_CONF.format(
        root=str(ROOT), ext=str(ROOT / "docs" / "_ext"), data=str(tmp_path / "data"), features=str(features)
    )
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "index.rst").write_text(
        "Test\n====\n\nKnown :question:`B-01`, unknown :question:`C-77`.\n\n"
        ".. guinote-area:: arrastre\n   :no-scenarios:\n\n.. guinote-questions::\n",
        encoding="utf-8",
    )
    built = build(source, tmp_path / "out", {"GUINOTE_RESULTS": None})
    assert built.status != 0
    assert "C-77 is cited but has no entry" in built.warnings
    assert "B-98 is cited but has no entry" in built.warnings
    assert "B-01 is cited" not in built.warnings
    page = built.page("index")
    assert 'id="question-b-01"' in page
    assert 'href="#question-b-01"' in page


@pytest.mark.parametrize("kind", ["gap", ""])
def test_a_malformed_entry_is_a_warning(tmp_path: Path, kind: str) -> None:
    require("sphinx")
    features = tmp_path / "data" / "features"
    (features / "index").mkdir(parents=True)
    (features / "index" / "arrastre.toml").write_text(AREA.replace(", which has no entry", ""), encoding="utf-8")
    (features / "index" / "questions.toml").write_text(
        ONE_QUESTION.replace('"disagreement"', f'"{kind}"') + ONE_QUESTION.replace("B-01", "B-98"), encoding="utf-8"
    )
    source = tmp_path / "src"
    source.mkdir()
    conf = PROJECT_CONF.format(
        root=str(ROOT), ext=str(ROOT / "docs" / "_ext"), data=str(tmp_path / "data"), features=str(features)
    )
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "index.rst").write_text("Test\n====\n\n.. guinote-questions::\n", encoding="utf-8")
    built = build(source, tmp_path / "out", {"GUINOTE_RESULTS": None})
    assert built.status != 0
    assert "question B-01: kind must be 'disagreement'" in built.warnings


def test_load_questions_derives_the_question_of_a_flag_with_no_entry(tmp_path: Path) -> None:
    flags = flag_specs()
    code = CODE.findall(flags["cante_order"].disagreement)[0]
    text = QUESTIONS.read_text(encoding="utf-8")
    start = text.index(f'id = "{code}"')
    end = text.find("[[question]]", start)
    trimmed = tmp_path / "questions.toml"
    trimmed.write_text(text[:start] + 'id = "B-99"\nkind = "disagreement"\ntitle = "t"\nsummary = "s"\n'
                       + (text[end:] if end >= 0 else ""), encoding="utf-8")  # fmt: skip
    found, problems = load_questions(trimmed, flags)
    assert not problems and found[code].derived and found[code].title == flags["cante_order"].summary
    assert not load_questions(trimmed)[0].get(code)  # without the declaration: only the entries
