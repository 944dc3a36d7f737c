"""The progress of ``run`` while pytest plays the scenarios: one live line on a terminal, plain lines elsewhere.

On a terminal (a TTY) a live line (rich's) shows the scenario runs played of those selected, how
many failed, and the time; it stays as the run's last line before its account. Elsewhere (a CI
log, a file) nothing is redrawn: a plain line says how far the run is at most every
:data:`PLAIN_EVERY` seconds, and one line says how it ended, so that a log shows a long run is alive
without a line per scenario. ``run -v`` adds one line per scenario run as it ends (above the live
line on a terminal), as ``pytest -v`` does.

The plugin also keeps what the CLI must say after the session: what went wrong in collection (a
feature file that does not parse, an undefined step: the user's mistake, exit 2), how many tests
pytest selected (the results must hold as many) and the plugin's notes.

In: pytest's hooks. Out: lines on the console, and :class:`ProgressPlugin`'s findings.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guinote_conformance.base.untrusted import shown
from guinote_conformance.report.formats import run_line
from guinote_conformance.results.case import CaseResult

#: Seconds between two plain progress lines (not on a terminal).
PLAIN_EVERY = 30.0


def _clock(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


class ProgressPlugin:
    """Shows how far the session is (live on a terminal, plain lines elsewhere); keeps what went
    wrong in collection."""

    def __init__(self, console: Console, live: Progress | None, *, verbose: bool = False) -> None:
        self.console = console
        #: the live line on a terminal (None: plain lines)
        self.live = live
        #: ``run -v``: one line per scenario run as it ends
        self.verbose = verbose
        self.task = live.add_task("scenarios", total=None) if live is not None else None
        self.done = 0
        self.bad = 0
        self.started = time.monotonic()
        self.said = self.started  # when the last plain line was printed
        self.collection_errors: list[str] = []
        #: how many tests pytest selected (each a scenario run): the results must hold as many
        self.selected: int | None = None
        #: what went wrong at the end of the session (the plugin's notes)
        self.notes: list[str] = []

    def _total(self, total: int) -> None:
        self.selected = total
        if self.live is not None and self.task is not None:
            self.live.update(self.task, total=total)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._total(len(session.items))

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self._total(len(ids))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        plugin = session.config.pluginmanager.get_plugin("guinote-conformance")
        self.notes = list(getattr(getattr(plugin, "tally", None), "notes", []))
        if self.live is None and self.done:
            self._plain(f"played {self.done} scenario runs")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            # the exception lines ("E   ...") without the traceback
            lines = [line[1:].strip() for line in report.longreprtext.splitlines() if line.startswith("E ")]
            self.collection_errors.append("\n".join(lines) or report.longreprtext.strip().splitlines()[-1])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not (report.when == "call" or (report.when == "setup" and not report.passed)):
            return
        self.done += 1
        self.bad += int(report.failed)
        if self.live is not None and self.task is not None:
            self.live.update(self.task, advance=1, description=f"scenarios ({self.bad} failing)")
        if self.verbose:
            for name, value in report.user_properties:
                if name == "guinote" and isinstance(value, dict):  # the engine's text: never markup
                    line = shown(run_line(CaseResult.from_json(value)))
                    self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        elif self.live is None and time.monotonic() - self.said >= PLAIN_EVERY:
            self._plain(f"played {self.done}{f' of {self.selected}' if self.selected else ''} scenario runs")

    def _plain(self, what: str) -> None:
        self.said = time.monotonic()
        failing = f", {self.bad} failing" if self.bad else ""
        self.console.print(f"{what}{failing} ({_clock(self.said - self.started)})", markup=False, highlight=False)


@contextmanager
def progress(console: Console, *, verbose: bool = False) -> Iterator[ProgressPlugin]:
    """The plugin for one session: with a live line when ``console`` is a terminal."""
    if not console.is_terminal:
        yield ProgressPlugin(console, None, verbose=verbose)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as live:
        yield ProgressPlugin(console, live, verbose=verbose)


__all__ = ["PLAIN_EVERY", "ProgressPlugin", "progress"]
