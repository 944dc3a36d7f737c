"""The step definitions of the scenarios, shipped with the plugin (as pytest-bdd ships its own).

:mod:`guinote_conformance.plugin` registers this package as a pytest plugin, so every test session
that loads the plugin, the ``guinote-conformance`` command's or a user's own, knows the steps.
pytest-bdd defines each step as a fixture in the module that declares it; the fixtures of every
module of this package are gathered here, so that registering this one module registers them
all. A new area's steps go in a new module beside :mod:`guinote_conformance.run.steps.common`.
"""

from __future__ import annotations

import importlib
import pkgutil


def _gather() -> dict[str, object]:
    fixtures: dict[str, object] = {}
    for module in pkgutil.iter_modules(__path__, f"{__name__}."):
        namespace = vars(importlib.import_module(module.name))
        fixtures.update({name: value for name, value in namespace.items() if name.startswith("pytestbdd_")})
    return fixtures


globals().update(_gather())
