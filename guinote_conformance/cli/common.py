"""What the commands share: the consoles, the epilogs' layout, the engine options, and the steps
that every command takes the same way (the known failures turned into ``error: ...`` and an exit
code, the catalogue read, the report folder claimed, the engine's handshake read).

In: a command's parsed options. Out: plain values, or :class:`typer.Exit` with the exit code of
:mod:`guinote_conformance.base.exit_codes` after one line ``error: ...`` (never a traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import click
import typer
from rich.console import Console
from rich.markup import escape

from guinote_conformance.adapters.interface import EngineError, EngineInfo
from guinote_conformance.adapters.versions import compatibility_of
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base.exit_codes import MEANINGS, CheckError, EngineUnavailable, ExitCode, InputError
from guinote_conformance.base.untrusted import markup
from guinote_conformance.catalogue.features import FeatureError, Scenario, load_scenarios
from guinote_conformance.catalogue.rule_index import RuleIndexError
from guinote_conformance.engines.specs import FORMS, EngineSpec, start_hint
from guinote_conformance.report import folder as report_folder


def examples(*lines: str) -> str:
    """An epilog of examples, kept as written (``\\b`` stops click from re-wrapping it)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def exit_codes() -> str:
    return "\b\nExit codes:\n" + "\n".join(f"  {int(code)}  {meaning}" for code, meaning in MEANINGS.items())


# Piped output (CI logs, files) gets wide tables rather than truncated cells.
# emoji=False: an engine's ":warning:" stays text (markup is escaped where engine text is printed)
console = Console(width=None if sys.stdout.isatty() else 200, emoji=False)
errors = Console(stderr=True, soft_wrap=True, emoji=False)  # an error message is never cut by the console's width

ENGINE_HELP = f"the engine: {FORMS}"
EngineOption = Annotated[
    list[str] | None,
    typer.Option("--engine", "-e", metavar="ENGINE", help=f"{ENGINE_HELP} (repeatable; default: reference)"),
]
OneEngine = Annotated[str, typer.Option("--engine", "-e", metavar="ENGINE", help=ENGINE_HELP)]
StartTimeout = Annotated[
    float,
    typer.Option(
        metavar="SECONDS",
        help="seconds an engine may take to start and answer its first hello (a JVM, a container, a model to "
        "load may need more)",
    ),
]
ProfileToPlay = Annotated[
    str | None, typer.Option(metavar="NAME", help="the engine's profile to play (default: its first)")
]


@contextmanager
def checked() -> Iterator[None]:
    """Turn the known failures of a command into ``error: ...`` and their exit code."""
    try:
        yield
    except CheckError as error:  # may quote the engine (its message, its stderr)
        errors.print(f"[red]error:[/red] {markup(error)}")
        raise typer.Exit(int(error.exit_code)) from None
    except (FeatureError, RuleIndexError) as error:
        errors.print(f"[red]error:[/red] {escape(str(error))}")
        raise typer.Exit(int(ExitCode.USAGE)) from None


def read_scenarios() -> list[Scenario]:
    """The suite's scenarios; a feature file that does not parse is an input error naming file:line."""
    try:
        return load_scenarios()
    except (FeatureError, RuleIndexError) as error:
        raise InputError(str(error)) from None


def claim_report_dir(
    path: Path, rendering: Path | None = None, *, announce: bool = True, option: str = "--report-dir"
) -> Path:
    """The report folder, created, writable and held until the command ends (else an input
    error: :mod:`guinote_conformance.report.folder`); says which earlier reports it replaces, unless
    they are those of ``rendering``, the results file ``report`` renders again (or, without
    ``announce``, a command that writes other files than a run's)."""
    folder = report_folder.claim(path, option)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(folder.release)  # else (no command) the lock lasts as long as the process
    same = rendering is not None and rendering.resolve() == folder.path / "results.json"
    if announce and folder.earlier is not None and not same:
        console.print(f"{option} {folder.path}: replacing {folder.earlier}", markup=False, highlight=False)
    return folder.path


def open_info(
    spec: EngineSpec, timeout: float = 10.0, start_timeout: float = STARTUP_TIMEOUT
) -> tuple[EngineInfo, list[str]]:
    """Start the engine, read its handshake, close it: fail fast with the engine's own message
    (and, when it did not answer its first ``hello`` in time, how to give it longer).
    The info as the suite sees it, and what it filled in for it (:mod:`guinote_conformance.adapters.versions`)."""
    engine = spec.open(timeout=timeout, start_timeout=start_timeout)
    try:
        return engine.info(), compatibility_of(engine).notes
    except EngineError as error:
        hint = start_hint(error, start_timeout)
        raise EngineUnavailable(f"engine {spec} could not be started or spoken to:\n{error}{hint}") from None
    except Exception as error:  # an in-process engine's own failure
        raise EngineUnavailable(f"engine {spec} failed in info(): {type(error).__name__}: {error}") from None
    finally:
        engine.close()
