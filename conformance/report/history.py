"""An engine's history on the results site: every run of it, oldest first, as a small SVG chart.

The site keeps no store of its own: its history is the results files it is built from (each
engine's runs, :attr:`conformance.report.site.EnginePage.runs`, keyed by the name and version the
engine declares, so a moved engine keeps its history). Give the site every results file kept
(a CI job's artifacts) and each engine's page charts all its runs.

The chart is drawn here as static SVG, read without any script: one point per run, its height
the share of the run's applicable scenario runs that passed (the badge's count,
:class:`~conformance.report.badge.Tally`; drawn from the lowest tenth reached up to 100 %), red
where a run failed; each point's ``<title>`` (a tooltip, and what a screen reader says) gives the
run's start, commit and count. Every text in it is escaped: the
start time and the commit come from a results file, which may be forged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from conformance.base.untrusted import shown
from conformance.report.badge import GREEN, RED, Tally


@dataclass(frozen=True)
class Point:
    """One run of an engine in its history."""

    started: str
    commit: str
    tally: Tally

    @property
    def share(self) -> float:
        """The applicable runs that passed, 0 to 1 (0 when nothing was applicable)."""
        return self.tally.passed / self.tally.applicable if self.tally.applicable else 0.0

    @property
    def text(self) -> str:
        return f"{self.started}, commit {self.commit}: {self.tally.value}"


def floor_of(points: Sequence[Point]) -> float:
    """The chart's bottom: the lowest pass share rounded down to a tenth, and below 100 % (a
    history between 86 % and 99 % is drawn over 80 % to 100 %, where its changes show)."""
    lowest = min((point.share for point in points), default=0.0)
    return min(math.floor(lowest * 10) / 10, 0.9)


def chart(points: Sequence[Point], *, width: int = 400, height: int = 130, small: bool = False) -> Markup:
    """The history as an inline ``<svg>``: a line through one point per run (oldest left), the
    pass share from :func:`floor_of` (bottom, labelled) to 100 % (top); ``small``: a sparkline
    without labels. It scales to its box (``viewBox``), so it fits a phone as a desktop."""
    left, right, top, bottom = (4, 4, 4, 4) if small else (36, 8, 8, 20)
    inner_w, inner_h = width - left - right, height - top - bottom
    step = inner_w / (len(points) - 1) if len(points) > 1 else 0.0
    floor = floor_of(points)

    def x(index: int) -> float:
        return left + (index * step if len(points) > 1 else inner_w / 2)

    def y(share: float) -> float:
        return top + (1 - (share - floor) / (1 - floor)) * inner_h

    label = escape(shown(f"pass rate over {len(points)} run{'s' if len(points) != 1 else ''}"))
    parts = [
        f'<svg class="history{" small" if small else ""}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{label}">'
    ]
    if not small:
        for share in (floor, (floor + 1) / 2, 1.0):
            parts.append(
                f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(share):.1f}" y2="{y(share):.1f}" '
                f'stroke="#ddd" stroke-width="1"/>'
                f'<text x="{left - 4}" y="{y(share) + 4:.1f}" text-anchor="end" font-size="11" fill="#5f5f5f">'
                f"{share:.0%}</text>"
            )
        if points:
            first = escape(shown(points[0].started))
            parts.append(f'<text x="{left}" y="{height - 6}" font-size="11" fill="#5f5f5f">{first}</text>')
        if len(points) > 1:
            parts.append(
                f'<text x="{width - right}" y="{height - 6}" font-size="11" fill="#5f5f5f" text-anchor="end">'
                f"{escape(shown(points[-1].started))}</text>"
            )
    if len(points) > 1:
        line = " ".join(f"{x(i):.1f},{y(p.share):.1f}" for i, p in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="#0b57a4" stroke-width="{1.5 if small else 2}" points="{line}"/>')
    radius = 2.5 if small else 4
    for index, point in enumerate(points):
        colour = RED if point.tally.failing else GREEN
        parts.append(
            f'<circle class="point" cx="{x(index):.1f}" cy="{y(point.share):.1f}" r="{radius}" fill="{colour}">'
            f"<title>{escape(shown(point.text))}</title></circle>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


__all__ = ["Point", "chart", "floor_of"]
