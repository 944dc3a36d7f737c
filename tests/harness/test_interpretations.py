"""Every interpretation the reference engine makes is marked with a rule ID of the index, so
the rulebook can list it."""

from __future__ import annotations

import re
from pathlib import Path

from guinote_conformance.catalogue.rule_index import load_rules

ENGINE = Path(__file__).resolve().parents[2] / "reference_engine"
MARK = re.compile(r"interpretation \(([^)]*)\)")
RULE_ID = re.compile(r"\b[A-Z]+-\d{2}\b")


def test_every_interpretation_in_the_engine_names_a_known_rule() -> None:
    rules = load_rules()
    problems = []
    marks = 0
    for path in sorted(ENGINE.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in MARK.finditer(line):
                marks += 1
                ids = [i for i in RULE_ID.findall(match.group(1)) if not re.match(r"^[BC]-", i)]
                if not ids:
                    problems.append(f"{path.name}:{number}: interpretation without a rule ID: {match.group(0)}")
                problems += [f"{path.name}:{number}: unknown rule {i}" for i in ids if i not in rules]
    assert marks > 20
    assert not problems, "\n".join(problems)
