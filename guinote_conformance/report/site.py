"""``guinote-conformance site``: a static site from the results of many engines and many runs.

Pages (every link relative, no script, no font or style from elsewhere: it reads offline):

* ``index.html``: the engines, each with its latest run's count of passing runs, its likely
  cause and its change since its previous run; then one matrix per profile, the rules × the
  engines, each cell the statuses of that rule's scenario runs (a dash where there is no run);
* ``engines/<engine>.html``: what the engine fails and why, the likely causes first (as in the
  HTML report), then one block per failure (a failure blocked by another rule before its own: one
  line under that rule), the runs not played and not applicable by reason,
  its runs, and what changed between its last two runs (newly failing, newly passing);
* ``rules/<rule>.html``: the rule, and for each engine and profile its scenario runs: which
  engines break it, under which profiles.

An engine is known by its spec; its runs are ordered by their start time (then by the order
of the files). The pages show each engine's latest run. Profiles of several engines that set
the same flag values share a matrix (the minimal double's ``resumen_ludoteka`` beside the
reference's ``ludoteka``), its header naming each engine's own name for it.

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
from guinote_conformance.oracle.causes import Cause, likely_causes
from guinote_conformance.report.badge import Tally, badge, read_results, tally
from guinote_conformance.report.formats import RuleText, reason_notes, rule_texts, rulebook_url
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

    @property
    def results(self) -> list[CaseResult]:
        return [result for result in self.report.results if result.engine == self.entry.spec]

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

    spec: str
    slug: str
    label: str
    runs: list[Run]
    #: the engine's section on the rule pages (short: the index links every matrix cell to one)
    anchor: str
    report: Report = field(init=False)
    groups: list[FailureGroup] = field(init=False)
    #: the failures blocked before their own rule, by the rule that blocked them (one line each)
    blocked: dict[str, list[FailureGroup]] = field(init=False)
    causes: list[Cause] = field(init=False)
    change: Change | None = field(init=False)

    def __post_init__(self) -> None:
        self.report = self.runs[-1].own
        self.groups = self.report.failure_groups()
        self.blocked = self.report.blocked(self.groups)
        self.causes = likely_causes(self.report) if self.groups else []
        self.change = change_between(self.runs[-2], self.runs[-1]) if len(self.runs) > 1 else None

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


@dataclass
class ProfileTable:
    """Profiles of several engines that play the same flag values: one matrix."""

    slug: str
    #: engine spec -> that engine's name for the profile
    names: dict[str, str] = field(default_factory=dict)
    #: rule -> engine spec -> the cell
    rows: dict[str, dict[str, Cell]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return " = ".join(dict.fromkeys(self.names.values()))


@dataclass
class Site:
    suite: SuiteInfo
    runs: list[Run]
    engines: list[EnginePage]
    tables: list[ProfileTable]
    texts: dict[str, RuleText]
    #: rule -> engine spec -> profile -> the runs
    by_rule: dict[str, dict[str, dict[str, list[CaseResult]]]]

    @property
    def commits(self) -> list[str]:
        return list(dict.fromkeys(run.report.suite.commit for run in self.runs))

    def engine(self, spec: str) -> EnginePage:
        return next(page for page in self.engines if page.spec == spec)

    def breakers(self, rule: str) -> list[tuple[EnginePage, list[str]]]:
        """The engines that break ``rule`` (a run of it fails), with the profiles they break it under."""
        found = []
        for spec, profiles in self.by_rule.get(rule, {}).items():
            broken = [p for p, results in profiles.items() if any(r.status in FAILING for r in results)]
            if broken:
                found.append((self.engine(spec), broken))
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
        runs += [Run(path, report, entry, len(runs)) for entry in entries]
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


def build(paths: Sequence[Path]) -> Site:
    runs = load_runs(paths)
    by_spec: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_spec[run.entry.spec].append(run)
    names = [group[-1].entry.name for group in by_spec.values()]
    slugs: set[str] = set()
    engines: list[EnginePage] = []
    for spec, mine in by_spec.items():
        mine.sort(key=lambda run: (run.report.started, run.order))
        name = mine[-1].entry.name
        label = spec if names.count(name) > 1 or not name.strip() else name
        slug = file_part(spec)
        while slug.lower() in slugs:  # file_part keeps different specs apart; case-insensitive file systems may not
            slug += "_"
        slugs.add(slug.lower())
        engines.append(EnginePage(spec, slug, label, mine, f"e{len(engines) + 1}"))
    by_rule: dict[str, dict[str, dict[str, list[CaseResult]]]] = defaultdict(lambda: defaultdict(dict))
    tables: dict[tuple[Any, ...], ProfileTable] = {}
    for page in engines:
        for result in page.report.results:
            for rule in result.rules:
                by_rule[rule][page.spec].setdefault(result.profile, []).append(result)
        for profile in page.profiles:
            flags = page.entry.profiles.get(profile)
            key = tuple(sorted(flags.items())) if flags else ("", page.spec, profile)
            table = tables.setdefault(key, ProfileTable(f"p{len(tables) + 1}"))
            table.names.setdefault(page.spec, profile)
    for table in tables.values():
        cells: dict[str, dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
        for spec, profile in table.names.items():
            for result in (r for r in _engine(engines, spec).report.results if r.profile == profile):
                for rule in result.rules:
                    cells[rule][spec].append(result)
        table.rows = {
            rule: {spec: Cell(tuple(found)) for spec, found in row.items()}
            for rule, row in sorted(cells.items(), key=lambda item: _rule_order(item[0]))
        }
    ordered = {rule: dict(by_rule[rule]) for rule in sorted(by_rule, key=_rule_order)}
    return Site(runs[0].report.suite, runs, engines, list(tables.values()), rule_texts(), ordered)


def _engine(engines: Iterable[EnginePage], spec: str) -> EnginePage:
    return next(page for page in engines if page.spec == spec)


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
    """Build a static site from the results of many engines and runs: an engines × rules matrix per
    profile, a page per engine (its likely causes first, the change between its last two runs) and a
    page per rule. Results of different suite or protocol versions are refused."""
    started = time.perf_counter()
    try:
        built = build(results)
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


__all__ = ["Change", "Changed", "EnginePage", "Run", "Site", "build", "change_between", "load_runs", "write_site"]
