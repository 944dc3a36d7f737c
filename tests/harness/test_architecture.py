"""The layout of the code: the suite's packages and ``guinote_conformance/``'s stages import downward only,
no module imports itself back through others, every module stays short enough to read, and the
flows the docs draw name real modules.

The packages are layered here (:data:`PACKAGES`); the stages of ``guinote_conformance/`` and the flows are
declared once, in :mod:`guinote_conformance` (its docstring says why). The import graph is grimp's, the
library import-linter is built on, with imports inside functions and those made only for type
checking counted like the others.
"""

from __future__ import annotations

import importlib
from functools import cache

import grimp

import guinote_conformance
from guinote_conformance.base.paths import PACKAGE, REPO

#: The one import package the wheel installs. The runner drives engines through the adapters
#: (the engine interface, the protocol, the reference adapter), which wrap the rule engine: both
#: are the bottom layers of :data:`guinote_conformance.LAYERS`, their folders linked into it.
TOP = "guinote_conformance"
#: "No module over about 600 lines" (the sub-packages' issue): long enough for one rule area or stage.
LONGEST = 600
#: The folders whose modules are held to LONGEST: the runner's, the adapters', the rule engine's.
HELD = (PACKAGE, REPO / "adapters", REPO / "reference_engine")


@cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(TOP, cache_dir=None)


def _shown(illegal: set[grimp.PackageDependency]) -> list[str]:
    """Each import that breaks the layers: the two layers, then every route from one to the other."""
    return sorted(
        f"{dependency.importer} -> {dependency.imported}: "
        + "; ".join(
            " -> ".join((" | ".join(sorted(route.heads)), *route.middle, " | ".join(sorted(route.tails))))
            for route in dependency.routes
        )
        for dependency in illegal
    )


def _layers() -> list[grimp.Layer]:
    return [grimp.Layer(*names, independent=independent) for names, independent in guinote_conformance.LAYERS]


def test_the_wheel_has_one_top_level_package_and_the_graph_sees_its_linked_parts() -> None:
    """The adapters and the rule engine are parts of the one package (linked folders), so the
    layers below hold them too: the adapters never import the runner, nor the rule engine either."""
    assert {f"{TOP}.adapters.interface", f"{TOP}.reference_engine.game"} <= graph().modules


def test_every_part_of_the_package_is_on_a_layer() -> None:
    parts = {module.split(".")[1] for module in graph().modules if module.startswith(f"{TOP}.")}
    placed = {name for names, _ in guinote_conformance.LAYERS for name in names}
    assert parts - placed == set(), "a part of guinote_conformance/ that is on no layer of guinote_conformance.LAYERS"


def test_no_stage_imports_a_stage_above_it() -> None:
    illegal = graph().find_illegal_dependencies_for_layers(layers=_layers(), containers={TOP})
    assert not (shown := _shown(illegal)), "\n".join(shown)


def test_no_module_imports_itself_back_through_others() -> None:
    """In any of the packages: a circle is a piece two modules share that belongs to neither."""
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
        if not path.is_relative_to(PACKAGE / "adapters") and not path.is_relative_to(PACKAGE / "reference_engine")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
    }
    assert not long, f"split these modules (more than {LONGEST} lines): {long}"


def test_the_flows_the_docs_draw_name_modules_that_exist() -> None:
    for step, module in (*guinote_conformance.RUN_FLOW, *guinote_conformance.FUZZ_FLOW):
        assert importlib.import_module(module).__doc__, f"{step}: {module} has no docstring"


def test_every_stage_says_what_comes_in_and_what_goes_out() -> None:
    for names, _ in guinote_conformance.LAYERS:
        for name in names:
            if not (PACKAGE / name / "__init__.py").exists():
                continue  # a module on top (cli, plugin): its own docstring says what it is
            if name in {"adapters", "reference_engine"}:
                continue  # the bottom layers: packages of their own, not stages of the runner
            doc = importlib.import_module(f"{TOP}.{name}").__doc__ or ""
            assert "In:" in doc and "Out:" in doc, f"{TOP}.{name}: its docstring must say In: and Out:"
