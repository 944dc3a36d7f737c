"""The exit codes of ``guinote-conformance``, and the errors that end a command with each.

One owner for the codes: the CLI, its help text, the guide and the tests read them here.

* 0: every scenario run passed (or failed as the expectations file says);
* 1: rule failures: a scenario failed, errored or timed out, a known failure now passes, an
  expectation is stale, or scenarios were not run; for ``validate``/``smoke``/``compare``: a
  problem was found; also a run that did not complete (interrupted, an internal error of the
  harness, a ``compare --cluster`` that lost its Dask scheduler) or whose results disagree with
  pytest's own account of the session;
* 2: a usage or input error (an option, a file, a scenario or an expectation is wrong); for
  ``compare``, also a run that played no game because no configuration is applicable (nothing
  was compared), a ``--campaign`` folder that is another campaign's or in use, a ``--cluster``
  with no Dask scheduler at its address;
* 3: the engine could not be started or spoken to (for ``compare``, also a run that played no
  game because the engine could not start one, and workers that could not start the engine or
  were ended by it).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    RULE_FAILURES = 1
    USAGE = 2
    ENGINE_UNAVAILABLE = 3


#: One line per code, for ``--help`` and the guide.
MEANINGS = {
    ExitCode.OK: "all scenario runs passed, or failed only as the expectations file says",
    ExitCode.RULE_FAILURES: "rule failures (fail, error, timeout, xpass, not run, stale expectation) or harness "
    "problems (a run that did not complete, results that disagree with pytest)",
    ExitCode.USAGE: "usage or input error: an option, file, scenario, rule or expectation is wrong, or compare "
    "had nothing to compare (no game played)",
    ExitCode.ENGINE_UNAVAILABLE: "the engine could not be started or spoken to",
}


class CheckError(Exception):
    """A problem that ends a command with :attr:`exit_code` and a message, never a traceback."""

    exit_code = ExitCode.USAGE


class InputError(CheckError):
    """A user mistake: an option, a file or its content (the message names what and where)."""

    exit_code = ExitCode.USAGE


class EngineUnavailable(CheckError):
    """The engine could not be started, or its handshake failed (the message is the engine's)."""

    exit_code = ExitCode.ENGINE_UNAVAILABLE


def help_text() -> str:
    """The exit codes as lines of the ``--help`` text."""
    return "Exit codes: " + "; ".join(f"{int(code)} {meaning}" for code, meaning in MEANINGS.items()) + "."


__all__ = ["MEANINGS", "CheckError", "EngineUnavailable", "ExitCode", "InputError", "help_text"]
