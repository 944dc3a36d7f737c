"""``validate`` and ``smoke``: is the engine's protocol harness sound, before any rule is judged?

In: an engine spec, a profile and a timeout. Out: one line per finding of
:mod:`guinote_conformance.adapters.harness_check`, and the exit code: problems found exit 1, an engine that cannot be
started exits 3, a wrong ``--engine`` exits 2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base import options
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.untrusted import shown
from guinote_conformance.cli.common import OneEngine, StartTimeout, checked, console, examples
from guinote_conformance.engines.specs import parse_engine_spec

HARNESS_EPILOG = "Problems found: exit 1; the engine cannot be started: exit 3; a wrong --engine: exit 2."


VALIDATE_EPILOG = (
    examples(
        'guinote-conformance validate --engine "cmd:./my-engine --some-option"',
        "guinote-conformance validate --engine serve:py:my_pkg.adapter:make",
    )
    + "\n\n"
    + HARNESS_EPILOG
)


def validate(
    engine: OneEngine,
    profile: Annotated[
        str | None, typer.Option(metavar="NAME", help="the profile to play (default: the first)")
    ] = None,
    timeout: Annotated[float, typer.Option(metavar="SECONDS", help="seconds per request")] = 5.0,
    start_timeout: StartTimeout = STARTUP_TIMEOUT,
) -> None:
    """Check that an engine speaks the protocol correctly: every message against its schema.

    An in-process engine (reference, py:...) is checked over the protocol, served by guinote_conformance.adapters.serve.
    """
    _harness("validate", engine, profile, timeout, start_timeout)


SMOKE_EPILOG = (
    examples('guinote-conformance smoke --engine "cmd:./my-engine"', "guinote-conformance smoke -e reference")
    + "\n\n"
    + HARNESS_EPILOG
)


def smoke(
    engine: OneEngine,
    profile: Annotated[
        str | None, typer.Option(metavar="NAME", help="the profile to play (default: the first)")
    ] = None,
    timeout: Annotated[float, typer.Option(metavar="SECONDS", help="seconds per request")] = 5.0,
    start_timeout: StartTimeout = STARTUP_TIMEOUT,
) -> None:
    """Play one complete hand with legal actions only, to tell a broken harness from a broken rule."""
    _harness("smoke", engine, profile, timeout, start_timeout)


def _harness(mode: str, text: str, profile: str | None, timeout: float, start_timeout: float) -> None:
    from guinote_conformance.adapters import harness_check

    with checked():
        timeout = options.seconds(timeout, "--timeout")
        start_timeout = options.seconds(start_timeout, "--start-timeout")
        argv = parse_engine_spec(text).protocol_argv()
    check: Callable[..., list[harness_check.Finding]] = getattr(harness_check, mode)
    findings = check(argv, profile=profile, timeout=timeout, startup_timeout=start_timeout)
    for finding in findings:
        console.print(
            "ok     " if finding.ok else "PROBLEM", shown(finding), markup=False, highlight=False, soft_wrap=True
        )
    if any(finding.unreachable for finding in findings):
        raise typer.Exit(int(ExitCode.ENGINE_UNAVAILABLE))
    raise typer.Exit(int(ExitCode.RULE_FAILURES if harness_check.has_errors(findings) else ExitCode.OK))
