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
"""

from __future__ import annotations

from typing import Any

from reference_engine import cards, flags, views

CACHED = (flags._catalogue, flags.flag_specs, flags.profile_specs, cards.strength_table)


def pytest_runtest_setup(item: Any) -> None:
    for function in CACHED:
        function.cache_clear()
    views._INDEXED.clear()
