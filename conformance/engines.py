"""Turn an engine specification from the command line into an :class:`~adapters.interface.Engine`.

* ``reference``: the reference engine, in process;
* ``py:package.module:factory``: any Python engine, in process (``factory()`` returns an Engine);
* ``cmd:<command line>``: any program speaking the conformance protocol on stdin/stdout
  (the command line is split like a shell would, but never run through a shell);
* ``serve:reference``: the reference engine served over the protocol in a subprocess.
"""

from __future__ import annotations

import importlib
import shlex
import sys

from adapters.interface import Engine


class EngineSpecError(ValueError):
    """An engine specification that cannot be loaded."""


def load_engine(spec: str, *, timeout: float = 10.0) -> Engine:
    if spec == "reference":
        from adapters.reference import ReferenceEngine

        return ReferenceEngine()
    if spec.startswith("py:"):
        module_name, _, attribute = spec[3:].partition(":")
        if not module_name or not attribute:
            raise EngineSpecError(f"{spec!r}: write py:package.module:factory")
        try:
            factory = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as error:
            raise EngineSpecError(f"{spec!r}: {error}") from None
        engine = factory()
        if not isinstance(engine, Engine):
            raise EngineSpecError(f"{spec!r}: {attribute}() returned {type(engine).__name__}, not an Engine")
        return engine
    if spec.startswith(("cmd:", "serve:")):
        from adapters.subprocess_adapter import SubprocessEngine

        if spec.startswith("serve:"):
            argv = [sys.executable, "-m", "adapters.serve", "--engine", spec[6:]]
        else:
            argv = shlex.split(spec[4:])
        if not argv:
            raise EngineSpecError(f"{spec!r}: the command is empty")
        return SubprocessEngine(argv, timeout=timeout)
    raise EngineSpecError(
        f"unknown engine {spec!r}: use reference, py:module:factory, cmd:<command> or serve:reference"
    )
