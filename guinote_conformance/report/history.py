"""An engine's history on the results site: every run of it, oldest first, as a small SVG chart.

An engine's history is its runs in the results files the site is built from
(:attr:`guinote_conformance.report.site.EnginePage.runs`, keyed by the name and version the engine
declares, so a moved engine keeps its history), and the runs of the sites built before into the
same folder: each build keeps every engine's points in the folder's ``history.json``
(:func:`save`), and the next build there reads them back (:func:`load`), so a CI job that builds
the site from its latest results into the site it published before charts every run without
keeping every results file. A run is one point however often it is given (the same start and
commit). The file is read as untrusted: one that is not a history file of this suite and protocol
version is an :class:`~guinote_conformance.base.exit_codes.InputError` naming it and the place.

The chart is drawn here as static SVG, read without any script: one point per run, its height
the share of the run's applicable scenario runs that passed (the badge's count,
:class:`~guinote_conformance.report.badge.Tally`; drawn from the lowest tenth reached up to 100 %), red
where a run failed; each point's ``<title>`` (a tooltip, and what a screen reader says) gives the
run's start, commit and count. Every text in it is escaped: the
start time and the commit come from a results file, which may be forged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from guinote_conformance.base.exit_codes import InputError
from guinote_conformance.base.untrusted import shown
from guinote_conformance.report.badge import GREEN, RED, Tally

#: The file of a site's folder that keeps its engines' histories between builds.
HISTORY_FILE = "history.json"
HISTORY_FORMAT = "guinote-site-history/1"


@dataclass(frozen=True)
class Point:
    """One run of an engine in its history."""

    started: str
    commit: str
    tally: Tally

    @property
    def key(self) -> tuple[str, str]:
        """A run is one point however often it is given: its start and its commit."""
        return self.started, self.commit

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
    # points shrink as runs crowd in (a few hundred still read as a line of dots)
    radius = min(2.5 if small else 4.0, max(1.0, step / 2.5)) if len(points) > 1 else (2.5 if small else 4.0)
    for index, point in enumerate(points):
        colour = RED if point.tally.failing else GREEN
        parts.append(
            f'<circle class="point" cx="{x(index):.1f}" cy="{y(point.share):.1f}" r="{radius:.1f}" fill="{colour}">'
            f"<title>{escape(shown(point.text))}</title></circle>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def merged(earlier: Sequence[Point], given: Sequence[Point]) -> list[Point]:
    """``earlier`` points (from ``history.json``) and ``given`` ones (the runs of the results files),
    each run once (the given one where both have it), oldest first."""
    mine = {point.key: point for point in earlier}
    mine.update((point.key, point) for point in given)
    return sorted(mine.values(), key=lambda point: point.started)


def save(path: Path, suite: str, engines: Mapping[str, Sequence[Point]]) -> None:
    """Write every engine's points (engine key -> its points, oldest first) for the next build."""
    data = {
        "format": HISTORY_FORMAT,
        "suite": suite,
        "engines": {key: [{"started": p.started, "commit": p.commit, **asdict(p.tally)} for p in points]
                    for key, points in engines.items()},
    }  # fmt: skip
    try:
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        raise InputError(f"{path}: cannot write ({error.strerror or error})") from None


def load(path: Path, suite: str) -> dict[str, list[Point]]:
    """The points a build before kept in ``path`` (nothing if there is no such file); a file that is
    not a history of the ``suite`` (its title: suite and protocol versions) is an :class:`InputError`."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(
            f"{path}: not a site history ({shown(error)}); remove it to start the history afresh"
        ) from None
    if not isinstance(data, dict) or data.get("format") != HISTORY_FORMAT:
        raise InputError(f"{path}: not a site history ({HISTORY_FORMAT}); remove it to start the history afresh")
    if data.get("suite") != suite:
        raise InputError(
            f"{path}: the history of {shown(data.get('suite'))!s}, not of {suite}: runs of different suite or "
            "protocol versions are not mixed; build the site into another folder, or remove the file"
        )
    engines = data.get("engines")
    if not isinstance(engines, dict):
        raise InputError(f"{path}: engines: not an object")
    return {str(key): [_point(path, key, index, item) for index, item in enumerate(_list(path, key, points))]
            for key, points in engines.items()}  # fmt: skip


def _list(path: Path, key: str, points: Any) -> list[Any]:
    if not isinstance(points, list):
        raise InputError(f"{path}: engines/{shown(key)}: not a list")
    return points


def _point(path: Path, key: str, index: int, item: Any) -> Point:
    where = f"{path}: engines/{shown(key)}/{index}"
    if (
        not isinstance(item, dict)
        or not isinstance(item.get("started"), str)
        or not isinstance(item.get("commit"), str)
    ):
        raise InputError(f"{where}: not a run (started, commit and counts)")
    counts = {field.name: item.get(field.name, 0) for field in fields(Tally)}
    if not all(isinstance(count, int) and not isinstance(count, bool) and count >= 0 for count in counts.values()):
        raise InputError(f"{where}: a count is not a whole number of runs")
    return Point(item["started"], item["commit"], Tally(**counts))


__all__ = ["HISTORY_FILE", "Point", "chart", "floor_of", "load", "merged", "save"]
