"""A ``compare`` run shared among workers (``--jobs N``, ``--cluster``) or kept in a campaign (``--campaign DIR``).

In: the run's options, the engine opened in this process, its configurations and known divergences.
Out: the run's :class:`~guinote_conformance.fuzz.findings.FuzzReport` (every batch of the campaign, earlier
runs' included) for :func:`~guinote_conformance.fuzz.commands.run_compare` to print, shrink and write; or a
:class:`SharedRunError` (a campaign folder that cannot be used: exit 2; workers that cannot be had
or were lost: the exit code :mod:`guinote_conformance.fuzz.cluster` gives) whose message is one line.

The progress line shows, live: the games played of all the campaign's, the games per second of
this run, the rule coverage, the divergence groups found (known ones too) and the workers; above
it, each group is printed as it is found (:func:`~guinote_conformance.fuzz.findings.found_line`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guinote_conformance.adapters.interface import Engine, EngineInfo
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.untrusted import shown
from guinote_conformance.fuzz.campaign import Campaign, CampaignError, Identity, file_digest, recorded
from guinote_conformance.fuzz.cluster import BackendError, open_backend
from guinote_conformance.fuzz.driver import WINDOW, Plan, default_batch, run_plan
from guinote_conformance.fuzz.driver import Progress as Status
from guinote_conformance.fuzz.findings import FuzzReport, found_line
from guinote_conformance.fuzz.known import Known
from guinote_conformance.oracle.divergence import Config


class SharedRunError(Exception):
    """A shared run or a campaign that cannot go on: the message (one line) and the exit code."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.code = code


def run_shared(
    console: Console,
    engine: Engine,
    info: EngineInfo,
    spec: str,
    configs: Sequence[Config],
    *,
    games: int,
    seconds: float | None,
    depth: str,
    seed: int,
    steer: bool,
    known: Sequence[Known],
    known_file: Path | None,
    timeout: float,
    max_engine_failures: int,
    start_timeout: float = STARTUP_TIMEOUT,
    jobs: int,
    cluster: str | None,
    campaign: Path | None,
    batch: int = 0,
    window: int = 0,
) -> FuzzReport:
    """Play the run's batches on the workers (or here, with one job and no cluster); the report.

    ``batch`` and ``window`` 0: the campaign's (a later run goes on with them, whatever ``--hands``), or by default."""
    size = batch or _positive(recorded(campaign, "batch")) or default_batch(depth, games, cluster=cluster is not None)
    width = window or _positive(recorded(campaign, "window")) or WINDOW
    if campaign is not None and games % size:  # a campaign's batches are whole, so a later run can go on after them
        rounded = -(-games // size) * size
        console.print(f"--hands {games} rounded up to {rounded}: the campaign plays whole batches of {size} games",
                      markup=False)  # fmt: skip
        games = rounded
    unsupported = {c.label: f"the engine does not play {', '.join(info.unsupported(c.flags))}" for c in configs
                   if info.unsupported(c.flags)}  # fmt: skip
    plan = Plan(spec, info.name, configs, games, size, width, seed, depth, steer, known, timeout, max_engine_failures,
                unsupported, start_timeout)  # fmt: skip
    identity = Identity(spec, seed, depth, steer, tuple(configs), size, width, _digest(known_file))
    try:
        with Campaign(campaign, identity) as kept:
            for note in kept.notes:
                console.print(shown(note), markup=False)
            if kept.results:
                console.print(f"resuming the campaign {campaign}: {len(kept.results)} batches already played",
                              markup=False)  # fmt: skip
            backend = open_backend(jobs, cluster) if cluster or jobs > 1 else None
            try:
                if backend is not None:
                    console.print(shown(f"workers: {backend.name}"), markup=False)
                with _progress(console) as show:
                    return run_plan(plan, kept, backend, engine=engine, seconds=seconds, progress=show)
            finally:
                if backend is not None:
                    backend.close()
    except CampaignError as error:
        raise SharedRunError(str(error), ExitCode.USAGE) from None
    except BackendError as error:
        resume = f"; the campaign {campaign} keeps every finished batch: run the same command to resume"
        raise SharedRunError(f"{error}{resume if campaign else ''}", error.code) from None


def _positive(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _digest(path: Path | None) -> str:
    try:
        return file_digest(path)
    except OSError as error:  # (the known file was read already: this is a race)
        raise SharedRunError(f"{path}: cannot read the known-divergences file: {error}", ExitCode.USAGE) from None


class _progress:
    """The live progress line: a bar of the games, and what the run has found (each divergence group
    also printed above it as it comes back: :func:`~guinote_conformance.fuzz.findings.found_line`)."""

    def __init__(self, console: Console) -> None:
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=console, transient=True)  # fmt: skip
        self.task = self.bar.add_task("games", total=None)
        self.announced = 0

    def __enter__(self) -> _progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def __call__(self, status: Status) -> None:
        from guinote_conformance.oracle.rules import observable_rules

        text = (f"games, {status.rate:,.1f}/s; rules seen {status.seen}/{len(observable_rules())}; "
                f"{status.groups} divergence groups; {status.workers} workers")  # fmt: skip
        self.bar.update(self.task, completed=status.games, total=status.total, description=text)
        seconds = time.perf_counter() - status.started
        for cause, known, hands in status.found[self.announced :]:
            line = found_line(cause, known, hands, seconds)
            self.bar.console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
        self.announced = len(status.found)


__all__ = ["SharedRunError", "run_shared"]
