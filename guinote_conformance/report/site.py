"""``guinote-conformance site``: a static site from the results of many engines and many runs.

Pages (every link relative, no script, font or style from elsewhere: it reads offline):

* ``index.html``: the engines, each with its latest run's count of passing runs, its likely
  cause, its change since its previous run and a sparkline of all its runs; then one matrix per
  profile, the rules × the engines, each cell the statuses of that rule's scenario runs (a dash
  where there is no run), the rules under a row per area with each engine's pass, fail and
  not-applicable shares (:func:`area_shares`), filterable by area and status;
* ``engines/<engine>.html``: its history (every run given and every run of the sites built
  before into the folder, kept in its ``history.json``: :mod:`guinote_conformance.report.history`), its
  shares by area, what changed between its last two runs, then its failures collapsed by root
  cause (:func:`guinote_conformance.oracle.causes.by_root_cause`): one ``<details>`` per cause, in it
  one per failing rule, in it one per failure (a failure blocked by another rule before its own:
  one line), so a page of a hundred failures is a few headings long; the runs not played and
  not applicable by reason, its runs;
* ``rules/<rule>.html``: the rule, and for each engine and profile its scenario runs: which
  engines break it, under which profiles.

An engine is known by the name and version it declares (its ``hello`` answer, kept in the
results file's ``engines``: :func:`engine_key`), never by its command line or a path: an engine
moved to another folder keeps its history, and its command is shown only as a detail. Its runs
are ordered by their start time (then by the order of the files). The pages show each engine's
latest run. Profiles of several engines that set the same flag values share a matrix (the
minimal double's ``resumen_ludoteka`` beside the reference's ``ludoteka``), its header naming
each engine's own name for it.

The pages read without script: every block is a heading that opens. A small inline script
(no file, nothing fetched) adds what needs one: the filters of the matrix and of the failures,
and opening the blocks around a linked failure.

Results of different suite versions or protocol versions are never mixed: they answer
different questions, and a matrix of both would compare what cannot be compared. The command
refuses them with one ``error:`` line that names the files of each version (exit 2); build one
site per version. Every text of a results file is an engine's or may be forged: the templates
escape all of it (autoescape, :func:`guinote_conformance.base.untrusted.template_value`), and file names
come from :func:`guinote_conformance.base.untrusted.file_part`.
"""

from __future__ import annotations

import shutil
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from jinja2 import Environment, PackageLoader
from markupsafe import Markup, escape

from guinote_conformance.base.exit_codes import ExitCode, InputError
from guinote_conformance.base.untrusted import file_part, shown, template_value
from guinote_conformance.oracle.causes import Cause, CauseBlock, by_root_cause, likely_causes
from guinote_conformance.report.badge import Tally, badge, read_results, tally
from guinote_conformance.report.formats import RuleText, reason_notes, rule_texts, rulebook_url
from guinote_conformance.report.history import HISTORY_FILE, Point, chart, load, merged, save
from guinote_conformance.results.case import CaseResult, area_of, area_order
from guinote_conformance.results.report import Cell, EngineEntry, FailureGroup, Report, SuiteInfo
from guinote_conformance.results.status import Status, legend

#: A rule broken: the statuses that say the engine answered wrongly (not a run left unplayed).
FAILING = frozenset({Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.XPASS})
#: The file that marks a folder as a site this command built (and may build again).
MARKER = ".guinote-site"


@dataclass(frozen=True)
class Run:
    """One engine's part of one results file."""

    path: Path
    report: Report
    entry: EngineEntry
    order: int
    #: the engine as the site knows it (:func:`engine_key`)
    key: str

    @property
    def results(self) -> list[CaseResult]:
        return [result for result in self.report.results if result.engine == self.entry.spec]

    @property
    def point(self) -> Point:
        """This run in its engine's history."""
        return Point(self.report.started, self.report.suite.commit, tally(self.results))

    @property
    def own(self) -> Report:
        """This run alone, as a report of its own (for the failure groups and the likely causes)."""
        return Report([self.entry], self.report.suite, self.report.started, self.report.duration_s, self.results)


@dataclass(frozen=True)
class Changed:
    """A scenario run whose status differs between two runs of an engine (``None``: absent)."""

    id: str
    scenario: str
    location: str
    profile: str
    before: Status | None
    after: Status | None
    message: str = ""


@dataclass(frozen=True)
class Change:
    """What changed between two runs of the same engine."""

    before: Run
    after: Run
    newly_failing: list[Changed]
    newly_passing: list[Changed]
    other: list[Changed]

    @property
    def same_scenarios(self) -> bool:
        return self.before.report.suite.scenarios_digest == self.after.report.suite.scenarios_digest


def change_between(before: Run, after: Run) -> Change:
    """Compare two runs scenario run by scenario run (scenario id, profile and symmetry of the game)."""
    old = {(r.id, r.profile, r.symmetry): r for r in before.results}
    new = {(r.id, r.profile, r.symmetry): r for r in after.results}
    failing: list[Changed] = []
    passing: list[Changed] = []
    other: list[Changed] = []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (_where(old.get(k) or new[k]), k[1])):
        was, now = old.get(key), new.get(key)
        status_was, status_now = was.status if was else None, now.status if now else None
        if status_was is status_now:
            continue
        shown_result = now or was
        assert shown_result is not None
        changed = Changed(
            key[0], shown_result.scenario, shown_result.location, key[1], status_was, status_now,
            now.message if now else "",
        )  # fmt: skip
        if status_now in FAILING and status_was not in FAILING:
            failing.append(changed)
        elif status_now is Status.PASS and status_was is not None:
            passing.append(changed)
        else:
            other.append(changed)
    return Change(before, after, failing, passing, other)


def _where(result: CaseResult) -> tuple[str, int]:
    return result.feature, result.line


@dataclass
class EnginePage:
    """An engine of the site: its runs, oldest first, and what its latest run says."""

    #: the name and version it declares (:func:`engine_key`): its label and its key
    key: str
    slug: str
    label: str
    runs: list[Run]
    #: the engine's section on the rule pages (short: the index links every matrix cell to one)
    anchor: str
    #: its runs known only from the site built before (:func:`guinote_conformance.report.history.load`)
    earlier: list[Point] = field(default_factory=list)
    report: Report = field(init=False)
    groups: list[FailureGroup] = field(init=False)
    #: the failures blocked before their own rule, by the rule that blocked them (one line each)
    blocked: dict[str, list[FailureGroup]] = field(init=False)
    causes: list[Cause] = field(init=False)
    #: every failure once, under the likeliest cause that explains it
    by_cause: list[CauseBlock] = field(init=False)
    change: Change | None = field(init=False)

    def __post_init__(self) -> None:
        self.report = self.runs[-1].own
        self.groups = self.report.failure_groups()
        self.blocked = self.report.blocked(self.groups)
        self.causes = likely_causes(self.report) if self.groups else []
        self.by_cause = by_root_cause(self.report, self.groups) if self.groups else []
        self.change = change_between(self.runs[-2], self.runs[-1]) if len(self.runs) > 1 else None

    @property
    def spec(self) -> str:
        """The command line of its latest run (a detail: the engine is known by :attr:`key`)."""
        return self.entry.spec

    @property
    def specs(self) -> list[str]:
        """Every command line its runs were made with, the latest last (an engine moved has several)."""
        return list(dict.fromkeys(run.entry.spec for run in self.runs))

    @property
    def history(self) -> list[Point]:
        """Every run of it known: the results files given and the site built before, oldest first."""
        return merged(self.earlier, [run.point for run in self.runs])

    def chart(self, small: bool = False) -> Markup:
        """Its history as an SVG chart (:func:`guinote_conformance.report.history.chart`)."""
        return chart(self.history, width=120 if small else 400, height=28 if small else 130, small=small)

    @property
    def areas(self) -> dict[str, Share]:
        return area_shares(self.report.results)

    @staticmethod
    def by_rule(block: CauseBlock) -> dict[str, list[FailureGroup]]:
        """The failures of a cause by the rule they fail (their scenario's first rule): the failing
        rules collapsed under their root cause."""
        found: dict[str, list[FailureGroup]] = {}
        for group in block.groups:
            found.setdefault(group.first.rules[0] if group.first.rules else "(untagged)", []).append(group)
        return dict(sorted(found.items(), key=lambda item: _rule_order(item[0])))

    @property
    def entry(self) -> EngineEntry:
        return self.runs[-1].entry

    @property
    def tally(self) -> Tally:
        return tally(self.report.results)

    @property
    def statuses(self) -> list[Status]:
        """The statuses of the latest run's scenario runs, in their order."""
        return [status for status, count in self.report.summary.items() if count]

    def tally_of(self, profile: str) -> Tally:
        return tally(r for r in self.report.results if r.profile == profile)

    @property
    def profiles(self) -> list[str]:
        seen = dict.fromkeys(self.entry.profiles)
        seen.update(dict.fromkeys(r.profile for r in self.report.results))
        used = {r.profile for r in self.report.results}
        return [name for name in seen if name in used]

    def group_of(self, result: CaseResult) -> str:
        for group in self.groups:
            if any(member is result for member in group.members):
                return group.key
        return ""


@dataclass(frozen=True)
class Share:
    """An area's scenario runs by outcome: shares of all its runs, not applicable ones included."""

    tally: Tally

    @property
    def total(self) -> int:
        return self.tally.applicable + self.tally.not_applicable

    def _percent(self, count: int) -> int:
        return round(100 * count / self.total) if self.total else 0

    @property
    def passed(self) -> int:
        return self._percent(self.tally.passed)

    @property
    def failing(self) -> int:
        return self._percent(self.tally.failing)

    @property
    def not_applicable(self) -> int:
        return self._percent(self.tally.not_applicable)

    @property
    def other(self) -> int:
        """Not run or known failures (xfail): what is left of 100."""
        return max(0, 100 - self.passed - self.failing - self.not_applicable) if self.total else 0

    @property
    def text(self) -> str:
        text = f"{self.passed}% pass · {self.failing}% fail · {self.not_applicable}% n.a."
        return f"{text} · {self.other}% not run or xfail" if self.other else text


def area_shares(results: Iterable[CaseResult]) -> dict[str, Share]:
    """area -> the shares of its scenario runs, in rulebook order (a scenario counts once in each
    area it has a rule in, as in :meth:`guinote_conformance.results.report.Report.by_area`)."""
    found: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        for area in result.areas:
            found[area].append(result)
    return {area: Share(tally(found[area])) for area in sorted(found, key=area_order)}


@dataclass
class ProfileTable:
    """Profiles of several engines that play the same flag values: one matrix."""

    slug: str
    #: engine key -> that engine's name for the profile
    names: dict[str, str] = field(default_factory=dict)
    #: rule -> engine key -> the cell
    rows: dict[str, dict[str, Cell]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return " = ".join(dict.fromkeys(self.names.values()))

    def by_area(self) -> dict[str, dict[str, dict[str, Cell]]]:
        """area -> rule -> engine key -> cell: the rows under their areas, in rulebook order."""
        found: dict[str, dict[str, dict[str, Cell]]] = {}
        for rule, row in self.rows.items():
            found.setdefault(area_of(rule), {})[rule] = row
        return found

    def shares(self, area: str, key: str) -> Share:
        """An engine's shares of an area under this profile (each scenario run once)."""
        seen: dict[int, CaseResult] = {}
        for rule, row in self.rows.items():
            if area_of(rule) == area and key in row:
                seen.update((id(result), result) for result in row[key].results)
        return Share(tally(seen.values()))

    @staticmethod
    def statuses(row: dict[str, Cell]) -> str:
        """The statuses in a row (``failing`` too if any run failed): what the filter matches."""
        found = {result.status for cell in row.values() for result in cell.results}
        words = [status.value for status in Status if status in found]
        return " ".join([*words, "failing"] if found & FAILING else words)


@dataclass
class Site:
    suite: SuiteInfo
    runs: list[Run]
    engines: list[EnginePage]
    tables: list[ProfileTable]
    texts: dict[str, RuleText]
    #: rule -> engine key -> profile -> the runs
    by_rule: dict[str, dict[str, dict[str, list[CaseResult]]]]
    #: the histories of engines of the site built before that are not on this one (kept, not shown)
    kept: dict[str, list[Point]] = field(default_factory=dict)

    def keep(self, earlier: dict[str, list[Point]]) -> None:
        """Take the history of the site built before (engine key -> its points)."""
        for page in self.engines:
            page.earlier = earlier.get(page.key, [])
        self.kept = {key: points for key, points in earlier.items() if key not in {e.key for e in self.engines}}

    @property
    def commits(self) -> list[str]:
        """The suite's commits the runs were made at, the oldest first."""
        ordered = sorted(self.runs, key=lambda run: (run.report.started, run.order))
        return list(dict.fromkeys(run.report.suite.commit for run in ordered))

    def engine(self, key: str) -> EnginePage:
        """The engine of ``key`` (:func:`engine_key`)."""
        return next(page for page in self.engines if page.key == key)

    @property
    def areas(self) -> list[str]:
        return sorted({area_of(rule) for rule in self.by_rule}, key=area_order)

    def breakers(self, rule: str) -> list[tuple[EnginePage, list[str]]]:
        """The engines that break ``rule`` (a run of it fails), with the profiles they break it under."""
        found = []
        for key, profiles in self.by_rule.get(rule, {}).items():
            broken = [p for p, results in profiles.items() if any(r.status in FAILING for r in results)]
            if broken:
                found.append((self.engine(key), broken))
        return found


# ---------------------------------------------------------------------------------- reading


def load_runs(paths: Sequence[Path]) -> list[Run]:
    """Every engine's run in every results file; a bad file, a file given twice or results of
    different suite or protocol versions are an :class:`InputError` naming the files."""
    if not paths:
        raise InputError("give at least one results file (RESULTS_JSON...)")
    seen: dict[Path, Path] = {}
    runs: list[Run] = []
    for path in paths:
        resolved = path.resolve()
        if resolved in seen:
            raise InputError(f"{path}: given twice (also as {seen[resolved]})")
        seen[resolved] = path
        report = read_results(path)
        entries = report.engines or [report.engine(spec) for spec in dict.fromkeys(r.engine for r in report.results)]
        keys: list[str] = []
        for entry in entries:
            key = engine_key(entry)
            # two engines of one run that declare the same: told apart by their order in it
            keys.append(f"{key} ({keys.count(key) + 1})" if key in keys else key)
            runs.append(Run(path, report, entry, len(runs), keys[-1]))
        if not entries:
            raise InputError(f"{path}: the results file holds no engine and no scenario run")
    versions: dict[str, list[str]] = defaultdict(list)
    for run in runs:
        files = versions[run.report.suite.title]
        if str(run.path) not in files:
            files.append(str(run.path))
    if len(versions) > 1:
        each = "; ".join(f"{title}: {', '.join(files)}" for title, files in versions.items())
        raise InputError(
            f"results of different suite or protocol versions are not mixed on one site ({each}): "
            "build one site for each version"
        )
    return runs


def engine_key(entry: EngineEntry) -> str:
    """An engine as the site knows it, names it and keeps its history: the name and version it
    declares (``broken-no_diez_de_ultimas 0.1.0``), never its command line (a path in it changes
    when the engine moves); the command only for an engine that declared no name."""
    return f"{entry.name.strip() or entry.spec} {entry.version.strip()}".strip()


def build(paths: Sequence[Path]) -> Site:
    runs = load_runs(paths)
    by_key: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_key[run.key].append(run)
    slugs: set[str] = set()
    engines: list[EnginePage] = []
    for key, mine in by_key.items():
        mine.sort(key=lambda run: (run.report.started, run.order))
        slug = file_part(key.replace(" ", "-"))
        while slug.lower() in slugs:  # file_part keeps different keys apart; case-insensitive file systems may not
            slug += "_"
        slugs.add(slug.lower())
        engines.append(EnginePage(key, slug, key, mine, f"e{len(engines) + 1}"))
    by_rule: dict[str, dict[str, dict[str, list[CaseResult]]]] = defaultdict(lambda: defaultdict(dict))
    tables: dict[tuple[Any, ...], ProfileTable] = {}
    for page in engines:
        for result in page.report.results:
            for rule in result.rules:
                by_rule[rule][page.key].setdefault(result.profile, []).append(result)
        for profile in page.profiles:
            flags = page.entry.profiles.get(profile)
            same = tuple(sorted(flags.items())) if flags else ("", page.key, profile)
            table = tables.setdefault(same, ProfileTable(f"p{len(tables) + 1}"))
            table.names.setdefault(page.key, profile)
    for table in tables.values():
        cells: dict[str, dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
        for key, profile in table.names.items():
            for result in (r for r in _engine(engines, key).report.results if r.profile == profile):
                for rule in result.rules:
                    cells[rule][key].append(result)
        table.rows = {
            rule: {key: Cell(tuple(found)) for key, found in row.items()}
            for rule, row in sorted(cells.items(), key=lambda item: _rule_order(item[0]))
        }
    ordered = {rule: dict(by_rule[rule]) for rule in sorted(by_rule, key=_rule_order)}
    return Site(runs[0].report.suite, runs, engines, list(tables.values()), rule_texts(), ordered)


def _engine(engines: Iterable[EnginePage], key: str) -> EnginePage:
    return next(page for page in engines if page.key == key)


def _rule_order(rule: str) -> tuple[int, str]:
    return area_order(area_of(rule)), rule


# ---------------------------------------------------------------------------------- writing


def rule_file(rule: str) -> str:
    return f"{file_part(rule)}.html"


def _environment() -> Environment:
    # autoescape always (select_autoescape would pass a template named *.html.j2 unescaped), and
    # every value made visible first: a control character or bidi override shows as its escape
    env = Environment(
        loader=PackageLoader("guinote_conformance.report", "templates/site"), autoescape=True, finalize=template_value
    )
    env.globals.update(
        rule_file=rule_file, rulebook_url=rulebook_url, area_of=area_of, legend=legend(), statuses=list(Status),
        reason_notes=reason_notes, FAILING=FAILING, Status=Status,
    )  # fmt: skip
    env.filters["breakable"] = breakable
    return env


def breakable(text: object) -> Markup:
    """``text`` escaped, with a line break allowed after each ``_``, ``-``, ``.`` and ``:`` (long
    engine and profile names in narrow matrix headers break there, not mid-word)."""
    escaped = escape(shown(text))
    for mark in "_-.:":
        escaped = escaped.replace(mark, Markup(f"{mark}<wbr>"))
    return escaped


def _prepare(out: Path) -> None:
    """``out`` made ready: created, or a site built before (its pages removed), never a folder of other files."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise InputError(
            f"--out {out}: the folder holds other files; give an empty or new folder, or a site built before"
        )
    try:
        for sub in ("engines", "rules"):
            shutil.rmtree(out / sub, ignore_errors=True)
        (out / "engines").mkdir(parents=True, exist_ok=True)
        (out / "rules").mkdir(exist_ok=True)
        (out / MARKER).write_text("built by guinote-conformance site\n", encoding="utf-8")
    except OSError as error:
        raise InputError(f"--out {out}: cannot write ({error.strerror or error})") from None


def _breakers_first(row: dict[str, dict[str, list[CaseResult]]]) -> dict[str, dict[str, list[CaseResult]]]:
    """A rule's engines, those that break it first (a rule page answers "who breaks it?")."""

    def broken(item: tuple[str, dict[str, list[CaseResult]]]) -> bool:
        return any(r.status in FAILING for results in item[1].values() for r in results)

    return dict(sorted(row.items(), key=lambda item: not broken(item)))


def write_site(site: Site, out: Path, rulebook: str | None = None) -> list[Path]:
    """Write every page of ``site`` into ``out``; the files written."""
    _prepare(out)
    env = _environment()
    env.globals["rulebook_url"] = lambda rule: rulebook_url(rule, rulebook)
    common = {"site": site, "texts": site.texts, "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    pages: list[tuple[Path, str, dict[str, Any]]] = [(out / "index.html", "index.html.j2", {"root": ""})]
    pages += [(out / "engines" / f"{e.slug}.html", "engine.html.j2", {"root": "../", "e": e}) for e in site.engines]
    pages += [
        (out / "rules" / rule_file(rule), "rule.html.j2", {"root": "../", "rule": rule, "row": _breakers_first(row)})
        for rule, row in site.by_rule.items()
    ]
    written = []
    css = resources.files("guinote_conformance.report").joinpath("templates/site/style.css").read_text(encoding="utf-8")
    (out / "style.css").write_text(css, encoding="utf-8")
    for path, template, context in pages:
        path.write_text(env.get_template(template).render(**common, **context), encoding="utf-8")
        written.append(path)
    save(out / HISTORY_FILE, site.suite.title, {**site.kept, **{page.key: page.history for page in site.engines}})
    return written


def site(
    results: Annotated[
        list[Path], typer.Argument(metavar="RESULTS_JSON...", show_default=False, help="results.json files")
    ],
    out: Annotated[Path, typer.Option(metavar="DIR", help="the folder of the site")] = Path("site"),
    rulebook_base: Annotated[
        str | None,
        typer.Option(
            "--rulebook-url",
            metavar="URL",
            help=(
                "where the rulebook's pages are: a URL or the folder of a local build"
                " (default: $GUINOTE_RULEBOOK_URL, else the rulebook published for this version)"
            ),
        ),
    ] = None,
) -> None:
    """Build a static site from the results of many engines and runs, each engine known by the name and
    version it declares: an engines × rules matrix per profile (each area's shares, filterable), a page
    per engine (its history over every run given, its failures collapsed by likely cause, the change
    between its last two runs) and a page per rule. Results of different suite or protocol versions
    are refused."""
    started = time.perf_counter()
    try:
        built = build(results)
        if (out / MARKER).exists():  # a site built before: its history goes on
            built.keep(load(out / HISTORY_FILE, built.suite.title))
        written = write_site(built, out, rulebook_base)
    except InputError as error:
        typer.echo(f"error: {shown(error)}", err=True)
        raise typer.Exit(int(ExitCode.USAGE)) from None
    size = sum(path.stat().st_size for path in written)
    typer.echo(
        shown(
            f"wrote {out}/index.html: {len(built.engines)} engines, {len(built.runs)} runs, {len(written)} pages "
            f"({size / 1024:.0f} KiB) in {time.perf_counter() - started:.1f} s; {built.suite.title}"
        )
    )


def register(app: typer.Typer) -> None:
    """Add ``badge`` and ``site`` to the ``guinote-conformance`` CLI."""
    app.command(epilog="Example: guinote-conformance badge reports/results.json --out badge.svg")(badge)
    app.command(epilog="Example: guinote-conformance site a/results.json b/results.json --out site")(site)


__all__ = [
    "Change", "Changed", "EnginePage", "Run", "Share", "Site", "area_shares", "build", "change_between",
    "engine_key", "load_runs", "write_site",
]  # fmt: skip
