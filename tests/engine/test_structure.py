"""The engine's module structure: the rule modules never reach back to the hand or the match.

Every import counts, at the top, inside a function or under ``TYPE_CHECKING``: the rule
modules decide from a :class:`~guinote_conformance.reference_engine.state.HandState` and the rules, and the
hand (``hand``) and the match (``game``) import them, never the other way round.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import guinote_conformance.reference_engine

PACKAGE = Path(guinote_conformance.reference_engine.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__")
#: The modules built on the rules: the hand, the match, and what reads or plays a match.
ABOVE_THE_RULES = {"hand", "game", "views", "records", "random_play"}
RULE_MODULES = sorted(set(MODULES) - ABOVE_THE_RULES)


def imports_of(module: str) -> set[str]:
    """The ``reference_engine`` modules that ``module`` imports anywhere in its source."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            # ``from guinote_conformance.reference_engine import cantes`` imports the module cantes
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["guinote_conformance", "reference_engine"] and len(parts) > 2 and parts[2] in MODULES:
                found.add(parts[2])
    found.discard(module)
    return found


def test_the_helper_sees_every_kind_of_import() -> None:
    assert {"arrastre", "cantes", "scoring", "seven"} <= imports_of("hand")
    assert "state" in imports_of("cantes")  # under TYPE_CHECKING


def test_no_rule_module_imports_the_hand_or_the_match() -> None:
    assert {"arrastre", "cantes", "seven", "scoring", "match", "tricks", "deal", "state"} <= set(RULE_MODULES)
    offenders = {module: sorted(imports_of(module) & ABOVE_THE_RULES) for module in RULE_MODULES}
    assert {module: names for module, names in offenders.items() if names} == {}


def test_the_engine_has_no_import_circle() -> None:
    graph = {module: imports_of(module) for module in MODULES}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"import circle: {' -> '.join(error.args[1])}") from None
    assert order.index("hand") < order.index("game")
