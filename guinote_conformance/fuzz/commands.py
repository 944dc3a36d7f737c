"""The ``compare`` and ``replay`` commands of ``guinote-conformance`` (the CLI only parses options).

``compare`` fuzzes an engine against the reference (:mod:`guinote_conformance.fuzz.fuzzer`), prints each
divergence group as play finds it (:func:`~guinote_conformance.fuzz.findings.found_line`), then the groups
and the rule coverage, and writes to the report folder: ``fuzz.json`` (the whole run), one
``divergence-N.json`` record per group (its smallest example, shrunk), and ``divergences.feature``
(one scenario per group, checked to fail on the engine and pass on the reference). ``replay``
plays a record step by step on the reference and an engine and shows the table where they part.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from guinote_conformance.adapters.interface import JSON, Engine, EngineError, EngineInfo, SetupRejected
from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.adapters.versions import compatibility_of
from guinote_conformance.adapters.wire.failures import STARTUP_TIMEOUT
from guinote_conformance.base.exit_codes import ExitCode
from guinote_conformance.base.untrusted import markup, one_line, scrub, shown
from guinote_conformance.engines.specs import engine_lines
from guinote_conformance.fuzz.configs import ConfigError, default_configs, parse_flag_set, resolve
from guinote_conformance.fuzz.findings import FuzzReport, Group, found_line
from guinote_conformance.fuzz.fuzzer import DOWN_KINDS, Fuzzer
from guinote_conformance.fuzz.known import Known, KnownFileError, load_known
from guinote_conformance.fuzz.play import apply_step
from guinote_conformance.fuzz.scenario import feature_text, then_steps, write_scenario
from guinote_conformance.fuzz.scenario_check import check_scenarios, reference_profile
from guinote_conformance.oracle.divergence import (
    Cause,
    Config,
    Divergence,
    RecordError,
    cause_of,
    describe_action,
    load_record,
)
from guinote_conformance.oracle.rules import observable_rules
from guinote_conformance.oracle.steps import FIELDS, Step, compare_steps, snapshot

#: Seconds spent looking for a smaller example of each divergence group before it is written.
SHRINK_SECONDS = 60.0
#: Seconds spent shrinking all the groups of a run, at most, unless ``--seconds`` gives more: a run
#: asked for a minute does not take ten shrinking twenty groups.
SHRINK_BUDGET = 120.0


def shrink_budget(seconds: float | None) -> float:
    """The seconds all the groups of a run may take to shrink: :data:`SHRINK_BUDGET`, or the
    run's own ``--seconds`` where that is more."""
    return max(SHRINK_BUDGET, seconds or 0.0)


class UsageProblem(Exception):
    """A mistake on the command line or in an input file: printed, exit status 2."""


def configs_for(info: EngineInfo, profiles: Sequence[str], flags: str) -> list[Config]:
    """The configurations of a run: each ``--profile`` (default: every profile of the engine,
    and with ``--flags`` alone, every profile of the engine with those flag values over it)."""
    overrides = parse_flag_set(flags) if flags else {}
    if not profiles:
        if overrides:
            return [resolve(info, name, overrides) for name in info.profiles]
        return default_configs(info)
    return [resolve(info, text, overrides) for text in profiles]


def _index_rules() -> set[str]:
    rules = set(observable_rules())
    try:
        from guinote_conformance.catalogue.rule_index import load_areas

        rules.update(rule.id for area in load_areas() for rule in area.rules)
    except Exception:  # an installed package without the index still checks against the observable rules
        pass
    return rules


def run_compare(
    console: Console,
    reference: Engine,
    engine: Engine,
    spec: str,
    *,
    profiles: Sequence[str] = (),
    flags: str = "",
    games: int = 100,
    seconds: float | None = None,
    depth: str = "match",
    seed: int = 0,
    known_file: Path | None = None,
    report_dir: Path = Path("reports"),
    steer: bool = True,
    scenarios: bool = True,
    check: bool = True,
    jobs: int = 1,
    timeout: float = 10.0,
    start_timeout: float = STARTUP_TIMEOUT,
    max_engine_failures: int = 5,
    cluster: str | None = None,
    campaign: Path | None = None,
    batch: int = 0,
    window: int = 0,
) -> int:
    """Fuzz ``engine``; print and write what was found; the exit status (0 clean, 1 divergences;
    a run that played no game: 2, or 3 when the engine could not start one: :func:`nothing_played`).

    ``jobs`` > 1, a ``cluster`` or a ``campaign`` folder: the games are played in batches by
    worker processes (or Dask workers), each loading the engine from ``spec``, and kept in the
    campaign (:mod:`guinote_conformance.fuzz.shared`)."""
    if games < 1:
        raise UsageProblem(f"--hands {games}: the games per configuration must be 1 or more")
    info = engine.info()
    try:
        configs = configs_for(info, profiles, flags)
        for line in engine_lines(spec, info, compatibility_of(engine).notes):  # the engine's own names: no markup
            console.print(shown(line), markup=False, highlight=False, soft_wrap=True)
        known = load_known(known_file, rules=_index_rules(), configs=[c.label for c in configs]) if known_file else []
        fuzzer = Fuzzer(reference, engine, info, depth=depth, steer=steer, known=known, seed=seed,
                        max_engine_failures=max_engine_failures)  # fmt: skip
    except (ConfigError, KnownFileError) as error:
        raise UsageProblem(str(error)) from None
    if jobs > 1 or cluster or campaign is not None:
        from guinote_conformance.fuzz.shared import SharedRunError, run_shared

        try:
            report = run_shared(console, engine, info, spec, configs, games=games, seconds=seconds, depth=depth,
                                seed=seed, steer=steer, known=known, known_file=known_file, timeout=timeout,
                                start_timeout=start_timeout, max_engine_failures=max_engine_failures, jobs=jobs,
                                cluster=cluster, campaign=campaign, batch=batch, window=window)  # fmt: skip
        except SharedRunError as error:
            console.print(f"[red]error:[/red] {markup(error)}", soft_wrap=True, highlight=False)
            return int(error.code)
    else:
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True,
        ) as progress:  # fmt: skip
            task = progress.add_task("games", total=games * len(configs))
            playing_since = time.perf_counter()
            announced: set[Cause] = set()

            def advance(report: FuzzReport) -> None:
                found = len(report.failures)
                progress.update(task, completed=report.games, description=f"games ({found} divergence groups)")
                if len(report.groups) > len(announced):  # (a dict: the groups in the order found)
                    for cause, group in report.groups.items():
                        if cause not in announced:
                            announced.add(cause)
                            seconds = time.perf_counter() - playing_since
                            line = found_line(cause, group.known is not None, report.hands, seconds)
                            progress.console.print(shown(line), markup=False, highlight=False, soft_wrap=True)

            fuzzer.progress = advance
            report = fuzzer.run(configs, games, seconds=seconds)
    report.fold_subsumed()
    print_report(console, report, configs)
    for entry in unused_known(report, known):
        console.print(
            shown(
                f"{entry.where}: this known divergence matched nothing in this run: the engine may be fixed "
                f"there, or the divergence is now named by another rule or subject (see the groups above)"
            ),
            markup=False,
        )
    report_dir.mkdir(parents=True, exist_ok=True)
    if not report.games:  # nothing was compared: no record, no scenario, and not a pass
        _write_report(console, report, report_dir, None)
        code, why = nothing_played(report, configs, seconds)
        console.print(f"[red]error:[/red] {markup(why)}", soft_wrap=True, highlight=False)
        return int(code)
    budget_ends = time.monotonic() + shrink_budget(seconds)
    unshrunk: list[Group] = []
    # a targeted search for smaller examples, and shrinking: the biggest groups first
    for group in sorted(report.failures, key=lambda group: -group.count):
        if _given_up(report, group):
            continue  # every replay would wait for the engine that is down again
        started = time.monotonic()
        if started >= budget_ends:
            unshrunk.append(group)
            continue
        try:
            group.example = fuzzer.smallest(group, seconds=min(SHRINK_SECONDS, budget_ends - started))
        except (AttributeError, TypeError, ValueError, KeyError, IndexError) as error:
            # an in-process engine answering garbage the adapters let through, as Fuzzer.run catches it
            console.print(
                shown(f"shrinking {group.cause} stopped: the engine failed: {type(error).__name__}: {error}"),
                markup=False,
            )
            continue
        if time.monotonic() - started > SHRINK_SECONDS:
            console.print(
                f"shrinking {group.cause} stopped after {SHRINK_SECONDS:.0f} s (an engine that is slow to "
                f"answer, or fails by timing out): its example may not be the smallest",
                markup=False,
            )
    if unshrunk:
        console.print(
            f"{len(unshrunk)} of {len(report.failures)} groups were not shrunk: the {shrink_budget(seconds):.0f} s "
            f"for shrinking were spent (a longer --seconds gives more); their examples are the smallest found in play",
            markup=False,
        )
    written = _write_groups(console, reference, engine, info, spec, report, report_dir, scenarios, check,
                            start_timeout=start_timeout)  # fmt: skip
    _write_report(console, report, report_dir, written)
    return 1 if report.failures or report.stopped else 0


def _write_report(console: Console, report: FuzzReport, report_dir: Path, scenarios: Path | None) -> None:
    fuzz_json = json.dumps(scrub(report.to_json()), indent=1, ensure_ascii=False)
    (report_dir / "fuzz.json").write_text(fuzz_json + "\n", "utf-8")
    console.print(f"report: {report_dir / 'fuzz.json'}" + (f"  scenarios: {scenarios}" if scenarios else ""),
                  markup=False)  # fmt: skip


def unused_known(report: FuzzReport, known: Sequence[Known]) -> list[Known]:
    """The entries of the known-divergences file that no group of ``report`` matched."""
    used = {group.known.where for group in report.groups.values() if group.known is not None}
    return [entry for entry in known if entry.where not in used]


def nothing_played(report: FuzzReport, configs: Sequence[Config], seconds: float | None) -> tuple[ExitCode, str]:
    """Why a run played no game, as one line, and its exit status: 3 when the engine could not
    start a game of a configuration it can play (it cannot be spoken to), else 2 (nothing to
    compare: every configuration is not applicable). The reasons are counted by configuration."""
    if not configs:
        return ExitCode.USAGE, "no game was played: the engine declares no profile, so there is nothing to compare"
    reasons: Counter[str] = Counter()
    for config in configs:
        if config.label in report.not_applicable:
            reasons[f"not applicable: {report.not_applicable[config.label]}"] += 1
        elif config.label in report.start_failures:
            reasons[f"the engine could not start a game: {report.start_failures[config.label]}"] += 1
        elif report.stopped:
            reasons[f"stopped: {report.stopped}"] += 1
        else:
            reasons["its time (--seconds) ran out before its first game" if seconds else "no game started"] += 1
    total = f"{len(configs)} configuration" + ("s" if len(configs) > 1 else "")
    counted = "; ".join(f"{why} ({count} of {total})" for why, count in reasons.items())
    code = ExitCode.ENGINE_UNAVAILABLE if report.start_failures else ExitCode.USAGE
    return code, f"no game was played, so nothing was compared: {counted}"


def print_report(console: Console, report: FuzzReport, configs: Sequence[Config]) -> None:
    rate = (report.hands - report.resumed_hands) / report.seconds if report.seconds else 0.0
    for config in configs:
        if config.label in report.not_applicable:
            console.print(shown(f"{config.label}: not applicable: {report.not_applicable[config.label]}"), markup=False)
        else:
            console.print(shown(f"{config.label}: {report.played.get(config.label, 0)} hands"), markup=False)
    console.print(
        f"{report.hands} hands ({report.games} games, {report.actions} actions) in {report.seconds:.1f} s "
        f"({rate:,.0f} hands/s); {len(report.failures)} divergence groups, "
        f"{len(report.groups) - len(report.failures)} known",
        markup=False,
    )
    if report.resumed_hands:
        console.print(f"  of which {report.resumed_hands} hands played by earlier runs of the campaign (the rate "
                      "counts this run's alone)", markup=False)  # fmt: skip
    ended = report.ended_at
    if report.passed_over or ended:
        line = f"divergences passed over: {report.passed_over} (play went on, their subjects no longer compared)"
        if ended:
            causes = ", ".join(f"{cause} ({games})" for cause, games in sorted(ended.items(), key=lambda i: -i[1]))
            line += f"; {sum(ended.values())} games ended at one that play cannot go past: {causes}"
        console.print(shown(line), markup=False)
    if report.own_deals:
        console.print(f"{report.own_deals} hands dealt by the engine from its own shuffle (own_shuffle), read back "
                      "and dealt alike to the reference", markup=False)  # fmt: skip
    if report.own_shuffle_ends:
        ends = report.own_shuffle_ends
        console.print(f"{ends} games ended where the next hand would be dealt: the engine deals it from its own "
                      "shuffle (own_shuffle) and that deal could not be read back", markup=False)  # fmt: skip
    for why, games in sorted(report.ended_early.items(), key=lambda item: -item[1]):
        console.print(shown(f"{games} games ended early, with no divergence: {why}"), markup=False)
    if report.stopped:
        console.print(
            shown(
                f"stopped early: {report.stopped} (--max-engine-failures); "
                "those failures are neither shrunk nor written as scenarios"
            ),
            markup=False,
        )
    if report.first_divergence is not None:
        console.print(f"first divergence after {report.first_divergence} hands", markup=False)
    if report.groups:
        table = Table(title="Divergences by cause")
        for column in ("cause", "rule", "count", "configurations", "smallest", "status"):
            table.add_column(column)
        for group in sorted(report.groups.values(), key=lambda g: -g.count):
            table.add_row(
                markup(f"{group.cause.kind} {group.cause.subject}"),
                markup(group.cause.rule or "-"),
                str(group.count),
                markup(", ".join(f"{k} ({v})" for k, v in group.configs.items())),
                f"{group.example.size} actions",
                markup(_status(group)),
            )
        console.print(table)
    if not report.hands:
        return
    seen, observable, unseen = report.coverage_summary()
    console.print(f"rule coverage: {seen} of {observable} observable rules seen", markup=False)
    if unseen:
        console.print(f"  never seen: {' '.join(unseen)}", markup=False)


def _status(group: Group) -> str:
    ended = f" (ended {group.ended} games)" if group.ended else ""
    if group.known is None:
        return "NEW" + ended
    return f"known: {group.known.reason}" + ended


def _write_groups(
    console: Console,
    reference: Engine,
    engine: Engine,
    info: EngineInfo,
    spec: str,
    report: FuzzReport,
    report_dir: Path,
    scenarios: bool,
    check: bool,
    *,
    start_timeout: float = STARTUP_TIMEOUT,
) -> Path | None:
    """Write each group's record, and its scenario: only one that can fail on the engine. A group
    whose divergence no step of the suite checks has none, and one whose scenario the check finds
    passing on the engine (or failing on the reference) has it dropped; the group says why
    (:attr:`~guinote_conformance.fuzz.findings.Group.unwritten`)."""
    texts: dict[str, tuple[str, Group]] = {}
    #: each scenario's profiles: the engine's own, and the reference's it is checked under
    profile_of: dict[str, tuple[str, str]] = {}
    for number, group in enumerate(sorted(report.failures, key=lambda g: -g.count), 1):
        example = group.example
        path = report_dir / f"divergence-{number}.json"
        path.write_text(json.dumps(scrub(example.record()), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        console.print(f"{number}. {shown(example.describe())}\n   replay: {path}", markup=False, highlight=False)
        if not scenarios or _given_up(report, group):
            continue
        if "deck" not in example.setup and "hands" not in example.setup:
            group.unwritten = "its example starts from a position, which a scenario of compare does not write"
            continue
        last = _last_step(reference, example)
        if not then_steps(example, last):
            group.unwritten = f"no step of the suite checks a divergence of kind {group.cause.kind!r}"
            continue
        # a Gherkin title: the engine's profile name must not start a line of its own
        title = one_line(f"compare {number}: {group.cause.kind} {group.cause.subject} ({example.config.label})")
        texts[title] = (write_scenario(example, [info, reference.info()], last, title, reference), group)
        base = example.config.profile or example.config.label
        profile_of[title] = (base, reference_profile(example.config, reference.info()))
    for group in report.failures:
        if group.unwritten:
            console.print(shown(f"  no scenario for {group.cause}: {group.unwritten}"), markup=False)
    if not texts:
        return None
    path = report_dir / "divergences.feature"
    if check:
        feature = feature_text([text for text, _ in texts.values()], info.name)
        dropped = _check(console, feature, spec, profile_of, start_timeout)
        for title, why in dropped.items():
            texts.pop(title)[1].unwritten = why
        if not texts:
            return None
    path.write_text(feature_text([text for text, _ in texts.values()], info.name), encoding="utf-8")
    return path


def _given_up(report: FuzzReport, group: Group) -> bool:
    """Whether ``group`` is the failure of an engine process that was down until the circuit
    breaker stopped the run: it is reported and recorded, but neither shrunk nor written as a
    scenario (its example, not shrunk, still holds the probes the reference refused)."""
    return bool(report.stopped) and group.cause.kind == "failure" and group.cause.subject in DOWN_KINDS


def _check(
    console: Console, feature: str, spec: str, profile_of: dict[str, tuple[str, str]], start_timeout: float
) -> dict[str, str]:
    """Run the written scenarios on the engine (under its profile) and on the reference (under
    one of its own): each must fail on the first and pass on the second. The scenarios that do
    not, by title, with why (they are not written)."""
    dropped: dict[str, str] = {}
    for profile, on_reference in sorted(set(profile_of.values())):
        try:
            checks = check_scenarios(feature, spec, profile, on_reference, start_timeout=start_timeout)
        except (OSError, RuntimeError, ValueError) as error:
            console.print(shown(f"the scenarios could not be checked: {error}"), markup=False)
            return {}
        for name, outcome in checks.items():
            if profile_of.get(name) != (profile, on_reference):
                continue  # a scenario is judged under its own profile
            verdict = "reproduced" if outcome.ok else "NOT REPRODUCED, not written"
            console.print(
                shown(
                    f"  scenario {verdict} [{profile}; the reference under {on_reference}]: {name}: "
                    f"engine {outcome.engine_status}, reference {outcome.reference_status}"
                ),
                markup=False,
            )
            if not outcome.ok:
                dropped[name] = (
                    f"its scenario does not reproduce it (engine {outcome.engine_status}, reference "
                    f"{outcome.reference_status}): replay the record instead"
                )
    return dropped


def _last_step(reference: Engine, example: Divergence) -> Step | None:
    """The reference's step at the divergence (the state the scenario checks)."""
    try:
        game = reference.start(example.setup)
        step = snapshot(game, None)
        for action in example.actions:
            step = apply_step(game, action, FIELDS)
        return step
    except Exception:  # the scenario still gets written, with fewer details
        return None


# ------------------------------------------------------------------------------------------ replay

TABLE_FIELDS = ("phase", "turn", "trick", "muestra", "stock_count", "card_points", "cante_points", "score", "total")


def run_replay(console: Console, reference: Engine, engine: Engine, path: Path) -> int:
    """Replay a record on both engines, one action at a time; show the table at the divergence."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        record = load_record(data, str(path))
    except RecordError as error:  # (a ValueError that already names the file)
        raise UsageProblem(str(error)) from None
    except (OSError, ValueError) as error:
        raise UsageProblem(f"{path}: cannot read the record: {error}") from None
    info = engine.info()
    obligations = Obligations.of(info)
    console.print(shown(f"replaying {path} ({record.config.label}) on {info.name}"), markup=False)
    ignored = frozenset(record.passed_over)
    if ignored:
        console.print(
            shown(f"not compared (divergences compare passed over before this one): {', '.join(ignored)}"),
            markup=False,
        )
    try:
        ours = reference.start(record.setup)
    except Exception as error:  # SetupRejected, or a setup too wrong for the reference to read
        raise UsageProblem(f"{path}: the reference refuses the record's setup: {_error_text(error)}") from None
    try:
        theirs = engine.start(record.setup)
    except SetupRejected as error:
        console.print(shown(f"the engine refuses the setup: {error}"), markup=False)
        return 1
    except EngineError as error:
        console.print(shown(f"the engine failed to start the game: {error}"), markup=False)
        return 1
    mine = snapshot(ours, None)
    try:
        other = snapshot(theirs, None)
    except EngineError as error:
        console.print(shown(f"  0. before any action: the engine failed: {error}"), markup=False)
        show_table(console, ours, theirs, record.config)
        return 1
    for number in range(len(record.actions) + 1):
        if number:
            action = record.actions[number - 1]
            try:
                mine = apply_step(ours, action, FIELDS)
            except Exception as error:  # an action too wrong for the reference to read
                raise UsageProblem(
                    f"{path}: action {number} of the record ({shown(json.dumps(action, default=str))}): "
                    f"the reference cannot play it: {_error_text(error)}"
                ) from None
            try:
                other = apply_step(theirs, action, FIELDS)
            except EngineError as error:
                console.print(
                    shown(f"{number:>3}. {describe_action(action)}: the engine failed: {error}"), markup=False
                )
                show_table(console, ours, theirs, record.config)
                return 1
            mark = "ok" if mine.accepted == other.accepted else "!!"
            console.print(shown(f"{number:>3}. {mark} {describe_action(action)}"), markup=False, highlight=False)
        difference = compare_steps(mine, other, obligations=obligations, ignored=ignored)
        if difference is not None:
            cause = cause_of(reference, record.setup, record.actions[:number], difference, mine)
            console.print(
                shown(
                    f"divergence after {number} actions: {cause}: expected {_show(difference.expected)}, "
                    f"got {_show(difference.got)}"
                ),
                markup=False,
            )
            show_table(console, ours, theirs, record.config)
            return 1
    console.print("no divergence: the engine agrees with the reference on every step of this record", markup=False)
    return 0


def _error_text(error: Exception) -> str:
    """An error as one part of a line: a refusal's own message, any other error with its type."""
    if isinstance(error, SetupRejected):
        return str(error)
    return f"{type(error).__name__}: {error}"


def _show(value: JSON) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _read(game: Any, name: str) -> str:
    try:
        return _show(game.state(name))
    except (KeyError, EngineError) as error:
        return f"({type(error).__name__})"


def show_table(console: Console, ours: Any, theirs: Any, config: Config) -> None:
    """The table as the reference and the engine see it: hands, trick, muestra, scores."""
    table = Table(title="The table at the divergence")
    table.add_column("")
    table.add_column("reference")
    table.add_column("engine")
    rows: list[str] = [f"hand.{seat}" for seat in range(config.players)]
    for name in TABLE_FIELDS:
        rows += [f"{name}.0", f"{name}.1"] if name in ("card_points", "cante_points", "score", "total") else [name]
    for name in rows:
        expected, got = _read(ours, name), _read(theirs, name)
        marker = "" if expected == got else "  <-"
        table.add_row(name, markup(expected), markup(got + marker))
    console.print(table)


__all__ = ["UsageProblem", "configs_for", "print_report", "run_compare", "run_replay", "show_table"]
