"""``compare`` and ``replay``: the engine against the reference, game by game (differential fuzzing).

In: the commands' options. They are checked here, the engine opened (failing fast with its own
message) and played against the reference by :mod:`guinote_conformance.fuzz.commands`. Out: the exit code:
a mistake in the command's input exits 2, an engine that fails while it is played exits 3.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from guinote_conformance.adapters.interface import Engine, EngineError
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base import options
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.untrusted import markup
from guinote_conformance.cli.common import StartTimeout, checked, claim_report_dir, console, examples, open_info
from guinote_conformance.engines.specs import parse_engine_spec

COMPARE_EPILOG = examples(
    'guinote-conformance compare --engine "cmd:./my-engine" --profile mine --hands 500',
    "guinote-conformance compare -e serve:reference --hands 3 --depth hand",
    'guinote-conformance compare -e "cmd:./my-engine" --campaign fuzz-campaign --hands 10000 --seconds 3600 --jobs 0',
    'guinote-conformance compare -e "cmd:./my-engine" --campaign fuzz-campaign --cluster tcp://10.0.0.5:8786',
)


def compare(
    engine: Annotated[
        str, typer.Option("--engine", "-e", metavar="ENGINE", help="the engine to compare with the reference")
    ],
    profile: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME[+OVERLAY]",
            help="profile[+overlay...] (repeatable); default: every profile, overlay and flag value",
        ),
    ] = None,
    flags: Annotated[
        str,
        typer.Option(metavar="FLAG=VALUE,...", help="flag values over the profile(s), e.g. tute=wins_point,deck=48"),
    ] = "",
    hands: Annotated[int, typer.Option(metavar="N", help="games per configuration")] = 30,
    seconds: Annotated[
        float | None,
        typer.Option(metavar="SECONDS", help="stop after this many seconds (configurations take turns, a game each)"),
    ] = None,
    depth: Annotated[
        str,
        typer.Option(
            metavar="hand|point|match", help="a game is one hand, one point (with its hands de vueltas) or a match"
        ),
    ] = "match",
    seed: Annotated[int, typer.Option(metavar="N", help="seed of the run (the same seed plays the same games)")] = 0,
    known: Annotated[
        Path | None, typer.Option(metavar="FILE.toml", help="TOML file of known divergences to silence")
    ] = None,
    report_dir: Annotated[
        Path, typer.Option(metavar="DIR", help="where fuzz.json, the records and the scenarios go")
    ] = Path("reports"),
    steer: Annotated[bool, typer.Option(help="steer deals and play toward rules not seen yet")] = True,
    scenarios: Annotated[bool, typer.Option(help="write each divergence as a Gherkin scenario and check it")] = True,
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = 10.0,
    start_timeout: StartTimeout = STARTUP_TIMEOUT,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", metavar="N", help="worker processes sharing the games (0: one per core)"),
    ] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            metavar="local|tcp://HOST:PORT",
            help="play the games on Dask workers: a local cluster of --jobs workers, or the Dask scheduler at that "
            "address (pip install 'guinote-conformance[cluster]')",
        ),
    ] = None,
    campaign: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="keep the games played, the rule coverage and the divergence groups in DIR; a run stopped "
            "(even by kill -9) goes on from there with the same command, without playing any game twice",
        ),
    ] = None,
    batch: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="games per batch sent to a worker (0: the campaign's, or by depth: 64 hands, 32 points, "
            "8 matches; four times as many on --cluster)",
        ),
    ] = 0,
    window: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="batches under way at most, each steered by the batches N before it (0: the campaign's, or 32); "
            "with more than N/2 workers, raise it to twice the workers or some will wait",
        ),
    ] = 0,
    max_engine_failures: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="after N games in a row ending in a timeout or a crash of the engine process, stop fuzzing "
            "(0: never; with --jobs or --cluster, counted within each batch)",
        ),
    ] = 5,
) -> None:
    """Fuzz the engine against the reference: group the divergences, shrink them, write scenarios."""
    from guinote_conformance.adapters.reference import ReferenceEngine
    from guinote_conformance.fuzz.commands import run_compare
    from guinote_conformance.fuzz.parallel import default_jobs

    with checked():  # two compares into one folder would overwrite each other's records
        seconds = options.seconds(seconds, "--seconds") if seconds is not None else None
        hands = options.positive(hands, "--hands")
        max_engine_failures = options.count(max_engine_failures, "--max-engine-failures")
        jobs = options.count(jobs, "--jobs")
        batch = options.count(batch, "--batch")
        window = options.count(window, "--window")
        timeout = options.seconds(timeout, "--timeout")
        start_timeout = options.seconds(start_timeout, "--start-timeout")
        report_dir = claim_report_dir(report_dir, announce=False)

    def play(under_test: Engine) -> int:
        return run_compare(
            console, ReferenceEngine(), under_test, engine, profiles=profile or [], flags=flags, games=hands,
            seconds=seconds, depth=depth, seed=seed, known_file=known, report_dir=report_dir, steer=steer,
            scenarios=scenarios, check=scenarios, jobs=jobs or default_jobs(), timeout=timeout,
            start_timeout=start_timeout, max_engine_failures=max_engine_failures, cluster=cluster, campaign=campaign,
            batch=batch, window=window,
        )  # fmt: skip

    raise typer.Exit(_against_reference(engine, timeout, play, start_timeout))


REPLAY_EPILOG = examples('guinote-conformance replay reports/divergence-1.json --engine "cmd:./my-engine"')


def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD", show_default=False, hidden=True)],  # in the docstring
    engine: Annotated[
        str, typer.Option("--engine", "-e", metavar="ENGINE", help="the engine to replay it on")
    ] = "reference",
    timeout: Annotated[
        float, typer.Option(metavar="SECONDS", help="seconds an engine may take to answer one request")
    ] = 10.0,
    start_timeout: StartTimeout = STARTUP_TIMEOUT,
) -> None:
    """Replay RECORD, a divergence record written by compare, step by step on the engine and the reference;
    show the table where they part."""
    from guinote_conformance.adapters.reference import ReferenceEngine
    from guinote_conformance.fuzz.commands import run_replay

    raise typer.Exit(_against_reference(engine, timeout, lambda under_test: run_replay(
        console, ReferenceEngine(), under_test, record
    ), start_timeout))  # fmt: skip


def _against_reference(
    engine: str, timeout: float, play: Callable[[Engine], int], start_timeout: float = STARTUP_TIMEOUT
) -> int:
    """Open the engine (failing fast with its own message), ``play`` it against the reference, close it.

    A mistake in the command's input exits 2; an engine that fails while it is played exits 3.
    An in-process engine's own exceptions are failures of that engine
    (:class:`guinote_conformance.adapters.checked.EngineRaised`)."""
    from guinote_conformance.fuzz.commands import UsageProblem

    with checked():
        timeout = options.seconds(timeout, "--timeout")
        start_timeout = options.seconds(start_timeout, "--start-timeout")
        spec = parse_engine_spec(engine)
        open_info(spec, timeout, start_timeout)
        under_test = spec.open(timeout=timeout, start_timeout=start_timeout, contained=True)
    try:
        return play(under_test)
    except UsageProblem as problem:
        console.print(f"[red]error:[/red] {markup(problem)}", soft_wrap=True)  # a long path must not cut it
        raise typer.Exit(int(ExitCode.USAGE)) from None
    except EngineError as failure:
        console.print(f"[red]error:[/red] engine {escape(engine)!r} failed: {markup(failure)}", soft_wrap=True)
        raise typer.Exit(int(ExitCode.ENGINE_UNAVAILABLE)) from None
    finally:
        try:
            under_test.close()
        except EngineError as failure:  # what was found stands: the exit status is the run's
            console.print(f"engine {escape(engine)!r} failed to close: {markup(failure)}", soft_wrap=True)
