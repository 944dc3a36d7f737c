"""The layout of ``conformance/``: the stages import downward only, no module imports itself back
through others, every module stays short enough to read, and the flows the docs draw name real modules.

The layers and the flows are declared once, in :mod:`conformance` (its docstring says why); the
import graph is grimp's, the library import-linter is built on, with imports inside functions
counted like the others.
"""

from __future__ import annotations

import importlib
from functools import cache

import grimp

import conformance
from conformance.base.paths import PACKAGE, REPO

#: "No module over about 600 lines" (the sub-packages' issue): long enough for one rule area or stage.
LONGEST = 600
#: The packages whose module length is held to LONGEST.
HELD = (PACKAGE, REPO / "adapters")


@cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("conformance", cache_dir=None)


def _layers() -> list[grimp.Layer]:
    return [grimp.Layer(*names, independent=independent) for names, independent in conformance.LAYERS]


def test_every_part_of_the_package_is_on_a_layer() -> None:
    parts = {module.split(".")[1] for module in graph().modules if module.count(".") >= 1}
    placed = {name for names, _ in conformance.LAYERS for name in names}
    assert parts - placed == set(), "a part of conformance/ that is on no layer of conformance.LAYERS"


def test_no_stage_imports_a_stage_above_it() -> None:
    illegal = graph().find_illegal_dependencies_for_layers(layers=_layers(), containers={"conformance"})
    shown = sorted(
        f"{dependency.importer} -> {dependency.imported}: "
        + "; ".join(" -> ".join(chain) for route in dependency.routes for chain in [route.heads, route.tails])
        for dependency in illegal
    )
    assert not shown, "\n".join(shown)


def test_no_module_imports_itself_back_through_others() -> None:
    circles = set()
    for module in graph().modules:
        for imported in graph().find_modules_directly_imported_by(module):
            back = graph().find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                circles.add(" -> ".join((module, *back)))
    assert not circles, "\n".join(sorted(circles))


def test_no_module_is_longer_than_about_600_lines() -> None:
    long = {
        str(path.relative_to(REPO)): lines
        for folder in HELD
        for path in sorted(folder.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert not long, f"split these modules (more than {LONGEST} lines): {long}"


def test_the_flows_the_docs_draw_name_modules_that_exist() -> None:
    for step, module in (*conformance.RUN_FLOW, *conformance.FUZZ_FLOW):
        assert importlib.import_module(module).__doc__, f"{step}: {module} has no docstring"


def test_every_stage_says_what_comes_in_and_what_goes_out() -> None:
    for names, _ in conformance.LAYERS:
        for name in names:
            if not (PACKAGE / name / "__init__.py").exists():
                continue  # a module on top (cli, plugin): its own docstring says what it is
            doc = importlib.import_module(f"conformance.{name}").__doc__ or ""
            assert "In:" in doc and "Out:" in doc, f"conformance.{name}: its docstring must say In: and Out:"
