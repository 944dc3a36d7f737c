"""``realise``: regenerate ``features/realisations/``, the deals and plays that reach the scenarios' positions.

In: the scenarios to realise, the workers and the search time per position. Out: the
realisations files, merged from what a run of the plugin in record mode found
(:mod:`guinote_conformance.run.realiser`, :func:`guinote_conformance.run.realisations.merge`); the positions left
unrealised, and the exit code (1 when any is).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Annotated

import pytest
import typer

from guinote_conformance.base import options
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.cli.common import checked, console, errors, examples
from guinote_conformance.run import realisations

REALISE_EPILOG = examples(
    "guinote-conformance realise",
    "guinote-conformance realise --scenario features/cantes.feature:42 --seconds 60",
)


def realise(
    scenario: Annotated[
        list[str] | None,
        typer.Option(metavar="FILE:LINE|GLOB", help="only the scenario at FILE:LINE or matching a name glob"),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="N", help="parallel workers (pytest-xdist); 1 = serial")
    ] = 2,
    seconds: Annotated[
        float, typer.Option(metavar="SECONDS", help="search time allowed per position and profile")
    ] = 20.0,
) -> None:
    """Regenerate features/realisations/: for every scenario that starts from a mid-hand position, a deal
    and the legal plays that reach it on the reference engine, under every profile.

    Stored realisations that still reach their position are kept; the others are searched again.
    Example: guinote-conformance realise --scenario features/cantes.feature:42
    """
    import tempfile

    with checked():  # a bad number is said before any search starts
        jobs = options.positive(jobs, "--jobs")
        seconds = options.seconds(seconds, "--seconds")
    with tempfile.TemporaryDirectory(prefix="guinote-realise-") as folder:
        args = [
            str(resources.files("guinote_conformance") / "suite.py"),  # the packaged scenarios
            "-c", os.devnull,
            "--rootdir", str(Path.cwd()),
            "-p", "guinote_conformance.plugin",
            "-p", "no:cacheprovider",
            "-q",
            "--engine", "reference",
            "--position-setup", "realise",
            "--guinote-realise-record", folder,
            "--symmetries", "none",  # a realisation is of the position as written (a symmetry maps it on its way)
        ]  # fmt: skip
        for wanted in scenario or []:
            args += ["--scenario", wanted]
        if jobs > 1:
            args += ["-n", str(jobs)]
        os.environ["GUINOTE_REALISE_SECONDS"] = str(seconds)
        pytest.main(args)
        runs = realisations.read_runs(Path(folder))
    if not runs:
        errors.print("[red]error:[/red] no scenario starting from a position was run")
        raise typer.Exit(int(ExitCode.USAGE))
    outcome = realisations.merge(runs, replace=not scenario)
    console.print(
        f"{outcome.realised} of {outcome.scenarios} positions realised "
        f"({len(runs)} runs; search time {outcome.search_seconds} s); files: "
        + ", ".join(str(path) for path in outcome.written),
        markup=False,
    )
    for where, left in outcome.partial:
        console.print(f"[yellow]partly realised[/yellow] {where}: not under {', '.join(left)}")
    for where, why in outcome.unrealised:
        console.print(f"[red]positions only[/red] {where}: {why}")
    raise typer.Exit(int(ExitCode.RULE_FAILURES if outcome.unrealised or outcome.partial else ExitCode.OK))
