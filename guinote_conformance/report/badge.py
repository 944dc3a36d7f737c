"""``guinote-conformance badge``: an SVG badge of a results file, for a README or a CI page.

The badge says which suite and which protocol ran, and how many of the applicable scenario runs
passed: ``guiñote 0.1.0 GCP/2 | 1,236/1,236 passing``. A run *not applicable* to the engine is
counted neither way; a known failure (``xfail``) and a run not played are applicable runs that
did not pass. The right half is green when every applicable run passed, red when one failed
(``fail``, ``error``, ``timeout``, ``xpass``), orange when none failed but some were not run or
are known failures, grey when nothing was applicable.

The SVG is a Jinja2 template with autoescape (``templates/badge.svg.j2``), every value passed
through :func:`guinote_conformance.base.untrusted.template_value`: a profile or engine name is the engine's
own text. (``anybadge`` fills its template with ``str.replace``, so a label holding
``{{ color }}`` is rewritten and an ESC character makes the file ill-formed XML; ``pybadges``
brings ``requests`` and has had no release since 2023.) The text widths are estimates of
Verdana at 11 px; ``textLength`` makes any font fit them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from jinja2 import Environment, PackageLoader

from guinote_conformance.base.exit_codes import ExitCode, InputError
from guinote_conformance.base.untrusted import one_line, shown, template_value
from guinote_conformance.results.case import CaseResult
from guinote_conformance.results.report import Report, ResultsError
from guinote_conformance.results.status import Status

GREEN, RED, ORANGE, GREY = "#3c8a1e", "#c4391d", "#b35c00", "#6b6b6b"
#: Verdana 11 px advance widths (px) of the characters that differ from :data:`_DEFAULT_WIDTH`.
_WIDTHS = {
    **dict.fromkeys("ijl|!.,:;'", 3.4),
    **dict.fromkeys(" ·()[]{}ftr/\\-", 4.4),
    **dict.fromkeys('Iscz"', 5.8),
    **dict.fromkeys("mM%W@", 10.4),
    **dict.fromkeys("wOQGD&NHU", 8.6),
}
_DEFAULT_WIDTH = 7.0
_PADDING = 6


@dataclass(frozen=True)
class Tally:
    """The runs a badge counts."""

    passed: int = 0
    failing: int = 0
    not_run: int = 0
    xfail: int = 0
    not_applicable: int = 0

    @property
    def applicable(self) -> int:
        return self.passed + self.failing + self.not_run + self.xfail

    @property
    def colour(self) -> str:
        if self.failing:
            return RED
        if not self.applicable:
            return GREY
        return ORANGE if self.not_run or self.xfail else GREEN

    @property
    def value(self) -> str:
        """The badge's right half: ``1,236/1,236 passing``, with what went wrong after it."""
        if not self.applicable:
            return "no applicable runs"
        text = f"{self.passed:,}/{self.applicable:,} passing"
        if self.failing:
            return f"{text}, {self.failing:,} failing"
        if self.not_run:
            return f"{text}, {self.not_run:,} not run"
        return f"{text}, {self.xfail:,} known failures" if self.xfail else text


def tally(results: Iterable[CaseResult]) -> Tally:
    counts = {status: 0 for status in Status}
    for result in results:
        counts[result.status] += 1
    failing = sum(counts[s] for s in (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.XPASS))
    return Tally(
        counts[Status.PASS], failing, counts[Status.NOT_RUN], counts[Status.XFAIL], counts[Status.NOT_APPLICABLE]
    )


def text_width(text: str) -> float:
    """The estimated width of ``text`` in Verdana at 11 px (wide East Asian characters and emoji count double)."""
    width = 0.0
    for char in text:
        if unicodedata.combining(char):
            continue
        if unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2 * _DEFAULT_WIDTH
        else:
            base = unicodedata.normalize("NFD", char)[0]  # ñ as n, é as e
            width += _WIDTHS.get(base, _DEFAULT_WIDTH)
    return round(width, 1)


def read_results(path: Path) -> Report:
    """A results file, or an :class:`InputError` naming the file and what is wrong with it."""
    try:
        return Report.load(path)
    except ResultsError as error:
        raise InputError(str(error)) from None


@dataclass(frozen=True)
class Badge:
    label: str
    value: str
    colour: str
    title: str

    def svg(self) -> str:
        env = Environment(
            loader=PackageLoader("guinote_conformance.report", "templates"), autoescape=True, finalize=template_value
        )  # autoescape always: select_autoescape would not know a template named *.svg.j2
        label, value = one_line(self.label), one_line(self.value)  # as they will be shown
        left, right = text_width(label) + 2 * _PADDING, text_width(value) + 2 * _PADDING
        return env.get_template("badge.svg.j2").render(
            label=label, value=value, colour=self.colour, title=self.title, width=round(left + right, 1),
            left=round(left, 1), right=round(right, 1), label_x=round(left / 2, 1), value_x=round(left + right / 2, 1),
            label_width=text_width(label), value_width=text_width(value),
        )  # fmt: skip


def badge_of(report: Report, profile: str | None = None, engine: str | None = None, where: str = "") -> Badge:
    """The badge of a report: its one engine (or ``engine``, a spec), every profile or ``profile``."""
    results = report.results
    specs = [entry.spec for entry in report.engines] or sorted({result.engine for result in results})
    if engine is not None:
        if engine not in specs:
            raise InputError(f"{where}: --engine {engine!r}: the file has {_names(specs)}")
        results = [result for result in results if result.engine == engine]
    elif len(specs) > 1:
        raise InputError(f"{where}: the file holds {len(specs)} engines ({_names(specs)}): name one with --engine")
    if profile is not None:
        profiles = sorted({result.profile for result in results})
        if profile not in profiles:
            raise InputError(f"{where}: --profile {profile!r}: the file has {_names(profiles)}")
        results = [result for result in results if result.profile == profile]
    counts = tally(results)
    suite = report.suite
    label = f"guiñote {suite.version or '?'} {suite.protocol_name}" + (f" · {profile}" if profile else "")
    who = ", ".join(report.engine(spec).title for spec in ([engine] if engine else specs)) or "no engine"
    title = (
        f"{who}: {counts.passed:,} of {counts.applicable:,} applicable scenario runs pass"
        f" ({counts.failing:,} failing, {counts.not_run:,} not run, {counts.xfail:,} known failures;"
        f" {counts.not_applicable:,} not applicable, not counted)"
        f"{f' under profile {profile}' if profile else ''}; {suite.title}, commit {suite.commit}"
    )
    return Badge(label, counts.value, counts.colour, title)


def _names(items: Iterable[str]) -> str:
    return ", ".join(repr(shown(item)) for item in items) or "none"


def badge(
    results: Annotated[Path, typer.Argument(metavar="RESULTS_JSON", show_default=False, help="a results.json")],
    profile: Annotated[
        str | None, typer.Option(metavar="NAME", help="the badge of this profile only (default: every profile)")
    ] = None,
    engine: Annotated[
        str | None, typer.Option("--engine", "-e", metavar="SPEC", help="the engine, when the file holds several")
    ] = None,
    out: Annotated[Path, typer.Option(metavar="FILE.svg", help="where the badge goes")] = Path("badge.svg"),
) -> None:
    """Write an SVG badge of RESULTS_JSON: the suite and protocol versions, and the applicable
    scenario runs that pass (not applicable ones not counted); red when a run failed."""
    try:
        made = badge_of(read_results(results), profile, engine, str(results))
        try:
            out.write_text(made.svg(), encoding="utf-8")
        except OSError as error:
            raise InputError(f"--out {out}: cannot write ({error.strerror or error})") from None
    except InputError as error:
        typer.echo(f"error: {shown(error)}", err=True)
        raise typer.Exit(int(ExitCode.USAGE)) from None
    typer.echo(shown(f"wrote {out}: {made.label} | {made.value}"))


__all__ = ["Badge", "Tally", "badge", "badge_of", "read_results", "tally", "text_width"]
