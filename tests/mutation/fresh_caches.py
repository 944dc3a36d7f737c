"""pytest plugin for mutation runs (``-p tests.mutation.fresh_caches``, set in ``[tool.mutmut]``).

mutmut runs each mutant's tests in a process forked from one that has already collected the
scenarios, so whatever the reference engine computed once and cached (the flag catalogue
parsed from ``profiles.toml``, the strength tables, the parsed names of the indexed state
fields) was computed by the unmutated code: a
mutant in those functions could never take effect. Forgetting the caches before each test
makes every test compute them again, with the mutant switched on, and so puts the profile
catalogue under the scenarios' watch like any other rule code.

What runs once at import (the 48 card objects, the side of each seat) cannot be re-run this
way; ``explained.toml`` lists it as out of scope.

The stored realisations were found on the unmutated reference. When the mutant no longer
reaches a scenario's position by its stored plays, the suite calls the scenario not applicable
(for its authors, a stale realisation); in a mutation run the reference *is* the engine under
test, so that is a rule outcome the mutant changed, and the run reports it as a failure.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from guinote_conformance.reference_engine import cards, flags, views
from guinote_conformance.run.realisations import UNREACHED

CACHED = (flags._catalogue, flags.flag_specs, flags.profile_specs, cards.strength_table)


def pytest_runtest_setup(item: Any) -> None:
    for function in CACHED:
        function.cache_clear()
    views._INDEXED.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.skipped and UNREACHED in str(report.longrepr):
        report.outcome = "failed"
