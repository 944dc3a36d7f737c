"""The mutation score: which survivors are prose, which are explained, and when the score fails."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from tests.mutation.score import (
    ExplainedFileError,
    Mutant,
    Strata,
    Verdicts,
    is_prose_only,
    judge,
    load_explained,
    report,
    report_strata,
    score,
)

MESSAGE_DIFF = """--- reference_engine/arrastre.py
+++ reference_engine/arrastre.py
@@ -22,7 +22,7 @@
         return Refusal(
             "MUST_OVERTRUMP",
-            f"{card.code} does not beat the trump on the table",
+            None,
         )"""
CODE_DIFF = MESSAGE_DIFF.replace('f"{card.code} does not beat the trump on the table",', '"MUST_OVERTRUMP",').replace(
    "None,", '"XXMUST_OVERTRUMPXX",'
)
LOGIC_DIFF = """--- a
+++ b
-    if len(ranks) < 4:
+    if len(ranks) <= 4:"""


@pytest.mark.parametrize(
    ("removed", "added", "prose"),
    [
        ('f"{card.code} does not beat",', "None,", True),
        ('"cards cannot be changed", code)', '"XXcards cannot be changedXX", code)', True),
        ('"MUST_BEAT", rule, message', '"XXMUST_BEATXX", rule, message', False),  # a code, not prose
        ('rules.tute == "wins_point"', 'rules.tute == "XXwins_pointXX"', False),  # a flag value
        ("if len(ranks) < 4:", "if len(ranks) <= 4:", False),
        ('what = {"card": card.code}', "what = None", False),  # a structure, not a string
    ],
)
def test_only_strings_that_are_prose_count_as_prose(removed: str, added: str, prose: bool) -> None:
    assert is_prose_only(removed, added) is prose


def test_a_mutant_is_named_as_python_names_its_function() -> None:
    assert (
        Mutant("guinote_conformance.reference_engine.hand.xǁHandǁ_claim__mutmut_3", "survived").function
        == "guinote_conformance.reference_engine.hand.Hand._claim"
    )
    assert (
        Mutant("guinote_conformance.reference_engine.cantes.x_tute_ranks__mutmut_2", "killed").function
        == "guinote_conformance.reference_engine.cantes.tute_ranks"
    )
    assert Mutant("guinote_conformance.reference_engine.cantes.x_tute_ranks__mutmut_2", "killed").module == "cantes"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "explained.toml"
    path.write_text(text, encoding="utf-8")
    return path


EXPLAINED = """
[[mutant]]
kind = "equivalent"
function = "guinote_conformance.reference_engine.cantes.tute_ranks"
original = "len(ranks) < 4"
mutated = "len(ranks) <= 4"
reason = "for the test"

[[mutant]]
kind = "out_of_scope"
function = "guinote_conformance.reference_engine.records.*"
reason = "game records are tooling"
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[mutant]]\nkind = "sideways"\nfunction = "x"\nreason = "r"\n', "explained.toml:2: kind must be one of"),
        ('[[mutant]]\nkind = "equivalent"\nfunction = "x"\nreason = "r"\n', "explained.toml:1: an equivalent mutant"),
        ('[[mutant]]\nkind = "out_of_scope"\nreason = "r"\n', "explained.toml:1: the entry needs a function"),
        ('[[mutant]]\nkind = "out_of_scope"\nfunction = "x"\n', "explained.toml:1: the entry needs a reason"),
        (
            '[[mutant]]\nkind = "out_of_scope"\nfunction = "x"\nreason = "r"\nwhy = "y"\n',
            "explained.toml:5: unknown key",
        ),
    ],
)
def test_a_bad_entry_is_an_error_naming_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ExplainedFileError) as raised:
        load_explained(write(tmp_path, text))
    assert str(raised.value).startswith(f"{tmp_path}/{message}")


def test_survivors_are_prose_equivalent_out_of_scope_or_gaps(tmp_path: Path) -> None:
    explanations = load_explained(write(tmp_path, EXPLAINED))
    mutants = [
        Mutant("guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_1", "killed"),
        Mutant("guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_2", "survived"),  # its message only
        Mutant("guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_3", "survived"),  # a reason code: a gap
        Mutant(
            "guinote_conformance.reference_engine.cantes.x_tute_ranks__mutmut_2", "survived"
        ),  # listed as equivalent
        Mutant("guinote_conformance.reference_engine.records.x_dumps__mutmut_1", "no tests"),  # out of scope
        Mutant(
            "guinote_conformance.reference_engine.records.x_dumps__mutmut_2", "not checked"
        ),  # out of scope, run or not
    ]
    diffs = {
        "guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_2": MESSAGE_DIFF,
        "guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_3": CODE_DIFF,
        "guinote_conformance.reference_engine.cantes.x_tute_ranks__mutmut_2": LOGIC_DIFF,
    }
    verdicts = judge(mutants, diffs.__getitem__, explanations)
    total = verdicts.total()
    assert (total["killed"], total["prose"], total["equivalent"], total["out of scope"]) == (1, 1, 1, 2)
    assert total["not checked"] == 0
    assert [mutant.name for mutant, _ in verdicts.unexplained] == [
        "guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_3"
    ]
    assert score(total) == 50.0  # one killed of the two that count
    out = io.StringIO()
    assert report(verdicts, explanations, 95.0, out) == 1  # below the goal
    assert "mutation score 50.0% is below the goal of 95%" in out.getvalue()
    assert "XXMUST_OVERTRUMPXX" in out.getvalue()  # the gap is shown with its diff


def test_an_entry_that_explains_nothing_is_stale_once_every_mutant_was_checked(tmp_path: Path) -> None:
    explanations = load_explained(write(tmp_path, EXPLAINED))
    verdicts = judge(
        [Mutant("guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_1", "killed")], str, explanations
    )
    out = io.StringIO()
    assert report(verdicts, explanations, 95.0, out) == 1
    assert "explained.toml:2: explains no mutant of this run (stale" in out.getvalue()


def test_a_sample_is_uniform_stable_and_bounded() -> None:
    from tests.mutation.sample import draw

    names = [f"guinote_conformance.reference_engine.m.x_f__mutmut_{n}" for n in range(100)]
    assert draw(names, 10, seed=3) == draw(list(reversed(names)), 10, seed=3)  # the order given does not matter
    assert len(set(draw(names, 10, seed=3))) == 10 and draw(names, 500, seed=3) == sorted(names)
    assert draw(names, 10, seed=3) != draw(names, 10, seed=4)


def test_the_margin_of_a_sampled_score() -> None:
    from tests.mutation.score import margin

    assert round(margin(380, 400), 1) == 2.1  # 95 % of 400: ± 2.1 points
    assert margin(0, 0) == 0.0 and margin(400, 400) == 0.0


def test_a_sample_is_not_failed_for_entries_it_did_not_meet(tmp_path: Path) -> None:
    explanations = load_explained(write(tmp_path, EXPLAINED))
    verdicts = judge(
        [Mutant("guinote_conformance.reference_engine.arrastre.x_refusal__mutmut_1", "killed")], str, explanations
    )
    out = io.StringIO()
    assert report(verdicts, explanations, 95.0, out, sample=True) == 0
    assert "stale" not in out.getvalue()


def counts(**figures: int) -> Counter[str]:
    return Counter({name.replace("_", " "): number for name, number in figures.items()})


def test_a_stratified_score_weighs_the_sample_by_the_stratum_it_was_drawn_from() -> None:
    # 90 of 100 judged in full; a sample of 10 of 100 others: 8 killed, 1 survived, 1 prose
    strata = Strata(counts(killed=90, survived=10), counts(killed=8, survived=1, prose=1), 10, 100)
    estimate = strata.estimate()
    assert estimate is not None
    value, low, high = estimate
    assert value == pytest.approx(100 * (90 + 10 * 8) / (100 + 10 * 9))
    assert low < value < high and high - low < 20


def test_an_all_killed_sample_still_has_an_interval_and_no_sample_no_estimate() -> None:
    estimate = Strata(counts(killed=90, survived=10), counts(killed=50), 50, 500).estimate()
    assert estimate is not None
    value, low, high = estimate
    assert value == pytest.approx(100 * (90 + 500) / (100 + 500))
    assert low < value - 1 and high == pytest.approx(value)  # the misses it may have hidden
    assert Strata(counts(killed=5), Counter(), 0, 50).estimate() is None
    assert Strata(counts(killed=5, survived=5), Counter(), 0, 0).estimate() == (50.0, 50.0, 50.0)


def test_a_sample_of_the_whole_stratum_is_exact() -> None:
    whole = Strata(counts(killed=5), counts(killed=3, survived=1), 4, 4).estimate()
    assert whole is not None
    assert whole == pytest.approx((100 * 8 / 9,) * 3)


def test_the_stratified_report_gives_the_estimate_and_fails_below_the_goal() -> None:
    def verdicts(module_counts: Counter[str]) -> Verdicts:
        found = Verdicts()
        found.by_module["hand"] = module_counts
        return found

    out = io.StringIO()
    status = report_strata(
        verdicts(counts(killed=90, survived=10)), verdicts(counts(killed=9, survived=1)), 50, 95, out
    )
    assert status == 1
    assert "mutation score 90.0% (95 % interval " in out.getvalue()
    assert "a uniform sample of 10 of the 50 others" in out.getvalue()
    out = io.StringIO()
    assert report_strata(verdicts(counts(killed=99, survived=1)), verdicts(counts(killed=10)), 50, 95, out) == 0


def test_a_mutated_star_explains_any_change_to_the_original_code(tmp_path: Path) -> None:
    explanations = load_explained(
        write(
            tmp_path,
            '[[mutant]]\nkind = "equivalent"\nfunction = "guinote_conformance.reference_engine.flags.parse_flags"\n'
            'original = \'tuple(info["sources"])\'\nmutated = "*"\nreason = "documentation"\n',
        )
    )
    removed_argument = '--- a\n+++ b\n-                tuple(info["sources"]),'
    other_line = '--- a\n+++ b\n-    default = str(raw.get("default", ""))\n+    default = None'
    mutants = [
        Mutant("guinote_conformance.reference_engine.flags.x_parse_flags__mutmut_11", "survived"),
        Mutant("guinote_conformance.reference_engine.flags.x_parse_flags__mutmut_40", "survived"),
    ]
    diffs = dict(zip((m.name for m in mutants), (removed_argument, other_line), strict=True))
    verdicts = judge(mutants, diffs.__getitem__, explanations)
    assert verdicts.total()["equivalent"] == 1
    assert [mutant.name for mutant, _ in verdicts.unexplained] == [
        "guinote_conformance.reference_engine.flags.x_parse_flags__mutmut_40"
    ]
