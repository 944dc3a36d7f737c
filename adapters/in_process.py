"""A Python engine named by its factory, ``package.module:factory``, and loaded in process.

The one owner of how a Python engine is named and started: :func:`python_target` reads the
name, :func:`load_factory` imports the module and calls the factory. Both the suite's engine
specs (:mod:`guinote_conformance.engines.specs`, ``py:`` and ``serve:``) and the server of a Python
engine (:mod:`guinote_conformance.adapters.serve`, ``--engine``) load their engines here.

What goes wrong is one of two errors, each with a message that names the engine and what to
write or what failed: :class:`NotAnEngine` (the name names no engine: a mistake of whoever
wrote it) and :class:`EngineDidNotStart` (the engine's own code raised or exited as it was
imported or made). The suite maps them onto its exit codes (2 and 3); the server ends with the
message.
"""

from __future__ import annotations

import importlib
import os
import sys

from guinote_conformance.adapters.interface import Engine

#: The factory of the reference engine (``reference``).
REFERENCE_FACTORY = "guinote_conformance.adapters.reference:ReferenceEngine"
#: How a Python engine is written, for messages and help texts.
PYTHON_SYNTAX = "py:package.module:factory"


class NotAnEngine(Exception):
    """A name of a Python engine that names no engine (the message says what to write)."""


class EngineDidNotStart(Exception):
    """A Python engine whose module or factory raised or exited (the message says which and how)."""


def python_target(text: str, rest: str) -> str:
    """``rest``, the ``module:factory`` part of the engine name ``text``, once checked: a module
    and an attribute (which may be dotted), one colon between them."""
    module_name, sep, attribute = rest.partition(":")
    if not sep or not module_name or not attribute or ":" in attribute:
        raise NotAnEngine(f"engine {text!r}: write {PYTHON_SYNTAX}")
    return rest


def served_target(text: str) -> str:
    """The ``module:factory`` of a Python engine to serve over the protocol, named ``reference``,
    ``py:module:factory`` or ``module:factory`` (the form ``guinote_conformance.adapters.serve`` has always taken)."""
    if text == "reference":
        return REFERENCE_FACTORY
    if text.startswith("py:"):
        return python_target(text, text[3:])
    if text.startswith("cmd:"):
        raise NotAnEngine(f"engine {text!r}: only a Python engine can be served (reference or module:factory)")
    return python_target(text, text)


def load_factory(text: str, target: str) -> Engine:
    """The engine made by ``target`` (``module:factory``, checked by :func:`python_target`) of the
    engine named ``text``: the module imported (the working directory is importable, as with
    ``python -m``), the factory called with no argument."""
    module_name, _, attribute = target.partition(":")
    if os.getcwd() not in sys.path:  # like ``python -m``: the user's own package is importable
        sys.path.insert(0, os.getcwd())
    try:
        found: object = importlib.import_module(module_name)
    except ImportError as error:
        raise NotAnEngine(f"engine {text!r}: cannot import {module_name!r}: {error}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the module failed as it ran (SystemExit too): the engine cannot start
        how = _raised(error, "a module must not exit when imported")
        raise EngineDidNotStart(f"engine {text!r}: importing {module_name!r} {how}") from None
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise NotAnEngine(f"engine {text!r}: module {module_name!r} has no attribute {attribute!r}")
        found = getattr(found, part)
    if not callable(found):
        raise NotAnEngine(f"engine {text!r}: {attribute} is not callable")
    try:
        engine = found()
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the user's factory failed (a SystemExit too): that engine cannot start
        how = _raised(error, "a factory returns the engine, it does not exit")
        raise EngineDidNotStart(f"engine {text!r} could not start: {attribute}() {how}") from None
    if not isinstance(engine, Engine):
        raise NotAnEngine(
            f"engine {text!r}: {attribute}() returned {type(engine).__name__}, not an Engine (info, start, close)"
        )
    return engine


def _raised(error: BaseException, exiting: str) -> str:
    """How a user's code failed, for a message: ``raised SystemExit(0) (<exiting>)``, ``raised ValueError: ...``."""
    if isinstance(error, SystemExit):
        return f"raised SystemExit({error.code!r}) ({exiting})"
    return f"raised {type(error).__name__}: {error}"


__all__ = [
    "PYTHON_SYNTAX",
    "REFERENCE_FACTORY",
    "EngineDidNotStart",
    "NotAnEngine",
    "load_factory",
    "python_target",
    "served_target",
]
