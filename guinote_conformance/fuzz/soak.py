"""The soak run (``tox -e soak``): thousands of random hands per profile and overlay, the reference
served over the wire compared with the reference in process, invariants checked on every hand.

For every profile of the reference, alone and with each overlay, the differential fuzzer of
``guinote-conformance compare`` (:class:`guinote_conformance.fuzz.fuzzer.Fuzzer`) plays random games on the
reference in process and replays them on ``serve:reference`` (``python -m guinote_conformance.adapters.serve``
behind the subprocess adapter, batched and pipelined as ``compare`` does): half the hands as
games of one hand, the other half within whole matches. Any divergence between the two is a
violation. Besides, every hand the reference plays is checked (:class:`HandInvariants`):

* the hand ends (within the fuzzer's :data:`~guinote_conformance.fuzz.fuzzer.MAX_ACTIONS_PER_HAND` actions);
* the cards are conserved: the hands, the cards each side won, the trick on the table and the
  stock (the muestra included) hold the deck's 40, 48 or 36 cards, each once;
* the points add up: a side's card points are the points of the cards it won, and both sides'
  the points of the tricks of the hand (its ``trick_won`` events); a hand played to its last
  trick has every card point of the deck (120) and one side took the diez de últimas, a hand
  that ended before it nobody; a side's score is its card points, its cantes and the últimas
  if it took them (SCORE-01, SCORE-02: :func:`guinote_conformance.reference_engine.scoring.hand_score`).

Over the whole run: no process is left behind (the served engine's processes and every child of
this one are gone once the engine is closed), and memory stays bounded (the resident size of
this process and of the served engine after a warm-up and at the end, Linux only).

Figures per configuration (hands, hands/s, divergences, violations) and the memory are printed;
the exit status is 0 when nothing was violated, 1 otherwise, 2 for a usage error, 3 for an engine
that cannot be started::

    python -m guinote_conformance.fuzz.soak                   # the default size: about 10-15 minutes on 2 cores
    python -m guinote_conformance.fuzz.soak --hands 40        # a quick look
    python -m guinote_conformance.fuzz.soak --profile tradicional --engine serve:py:my_pkg.engine:make
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from guinote_conformance.adapters.interface import JSON, Engine, EngineError, GameHandle, SetupRejected
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.base.exit_codes import CheckError, ExitCode
from guinote_conformance.engines.specs import overlays, parse_engine_spec
from guinote_conformance.fuzz.configs import resolve
from guinote_conformance.fuzz.findings import FuzzReport
from guinote_conformance.fuzz.fuzzer import MAX_ACTIONS_PER_HAND, Fuzzer
from guinote_conformance.oracle.divergence import Config
from guinote_conformance.oracle.steps import Step, read_fields
from guinote_conformance.reference_engine.cards import deck
from guinote_conformance.reference_engine.scoring import ULTIMAS

#: Hands per configuration by default: with 16 configurations about 10-15 minutes on 2 cores.
DEFAULT_HANDS = 4000
#: Hands played before the memory is first sampled (caches filled, the engine warmed up).
WARM_UP_HANDS = 200
#: The most the resident size of either process may grow between the two samples, in MiB.
DEFAULT_MAX_RSS_GROWTH = 64.0
#: A configuration stops after this many divergences (a broken engine would otherwise diverge on every game).
MAX_DIVERGENCES = 20
SIDES = 2
#: Games of a match end with the match: this many hands is far more than any match takes.
MAX_HANDS_PER_MATCH = 1000


@dataclass
class HandInvariants:
    """Checks one finished hand of the reference (:attr:`Fuzzer.hand_played
    <guinote_conformance.fuzz.fuzzer.Fuzzer>`)."""

    #: where the hands now checked come from ("lascuarenta+ademuz48, matches, game 12"), for the messages
    where: str = ""
    #: the deck of the configuration now played
    deck_size: int = 40
    hands: int = 0
    violations: list[str] = field(default_factory=list)

    def __call__(self, game: GameHandle, steps: Sequence[Step]) -> None:
        self.hands += 1
        for problem in self.problems(game, steps):
            self.violations.append(f"{self.where}, hand of {len(steps) - 1} actions: {problem}")

    def problems(self, game: GameHandle, steps: Sequence[Step]) -> list[str]:
        """What is wrong with the hand whose steps are ``steps``, ``game`` being at its end."""
        legal = steps[-1].legal
        if len(steps) - 1 >= MAX_ACTIONS_PER_HAND and legal and legal[0].get("type") != "deal":
            return [f"the hand did not end within {MAX_ACTIONS_PER_HAND} actions"]
        players = int(str(game.state("players")))
        names = ["phase", "trick", "stock_count", "muestra", "ultimas"]
        names += [f"hand.{seat}" for seat in range(players)]
        for side in range(SIDES):
            names += [f"won_cards.{side}", f"card_points.{side}", f"cante_points.{side}", f"score.{side}"]
        state = read_fields(game, names)
        problems = []
        if state["phase"] not in ("hand_over", "match_over"):
            problems.append(f"the hand is over (no action is legal but a deal) yet its phase is {state['phase']!r}")
        table = HandEnd(
            held=[card for seat in range(players) for card in _cards(state[f"hand.{seat}"])],
            won=[_cards(state[f"won_cards.{side}"]) for side in range(SIDES)],
            trick=_cards(state["trick"]),
            stock=int(str(state["stock_count"])),
            muestra=str(state["muestra"]) if state["muestra"] else None,
        )
        points = {card.code: card.points for card in deck(self.deck_size)}
        return problems + table.conservation(points) + table.scoring(state, steps, points)


@dataclass(frozen=True)
class HandEnd:
    """Where the cards of a hand are at its end."""

    held: list[str]
    won: list[list[str]]
    trick: list[str]
    stock: int
    muestra: str | None

    @property
    def complete(self) -> bool:
        """Whether the hand was played to its last trick (no card left to play or draw)."""
        return not self.held and not self.trick and self.stock == 0

    def conservation(self, points: Mapping[str, int]) -> list[str]:
        """The deck's cards (``points``: code -> points), each in one place: hands, won, table, stock."""
        problems = []
        seen = Counter([*self.held, *self.won[0], *self.won[1], *self.trick, *([self.muestra] if self.muestra else [])])
        strange = sorted(set(seen) - set(points))
        if strange:
            problems.append(f"cards not of the {len(points)}-card deck: {strange}")
        twice = sorted(card for card, count in seen.items() if count > 1)
        if twice:
            problems.append(f"cards in two places at once: {twice}")
        counted = len(self.held) + len(self.won[0]) + len(self.won[1]) + len(self.trick) + self.stock
        if counted != len(points):
            problems.append(
                f"{counted} cards, not {len(points)}: {len(self.held)} in hand, {len(self.won[0])}+{len(self.won[1])} "
                f"won, {len(self.trick)} on the table, {self.stock} in the stock"
            )
        return problems

    def scoring(self, state: Mapping[str, JSON], steps: Sequence[Step], points: Mapping[str, int]) -> list[str]:
        """The card points are the won cards' and the tricks'; all of them and the últimas over a whole
        hand; a side's score its cards, cantes and últimas (SCORE-01, SCORE-02)."""
        problems = []
        card_points = [int(str(state[f"card_points.{side}"])) for side in range(SIDES)]
        for side in range(SIDES):
            of_cards = sum(points.get(card, 0) for card in self.won[side])
            if card_points[side] != of_cards:
                problems.append(f"side {side} has {card_points[side]} card points, its cards are worth {of_cards}")
        tricks = [event for step in steps[1:] for event in step.events if event.get("type") == "trick_won"]
        of_tricks = sum(int(str(event.get("points"))) for event in tricks)
        if sum(card_points) != of_tricks:
            problems.append(f"{sum(card_points)} card points in all, the tricks won carried {of_tricks}")
        ultimas, deck_points = state["ultimas"], sum(points.values())
        if self.complete and sum(card_points) != deck_points:
            problems.append(f"played to its last trick with {sum(card_points)} card points, not {deck_points}")
        if self.complete and ultimas not in range(SIDES):
            problems.append(f"played to its last trick but nobody took the diez de últimas ({ultimas!r})")
        if not self.complete and ultimas is not None:
            problems.append(f"side {ultimas} took the diez de últimas before the last trick")
        for side in range(SIDES):
            expected = card_points[side] + int(str(state[f"cante_points.{side}"])) + (ULTIMAS if ultimas == side else 0)
            if state[f"score.{side}"] != expected:
                problems.append(
                    f"side {side} scores {state[f'score.{side}']}, its cards, cantes and últimas {expected}"
                )
        return problems


def _cards(value: JSON) -> list[str]:
    return [str(card) for card in value] if isinstance(value, list) else []


# ------------------------------------------------------------------------------------------ processes


def rss_mib(pid: int) -> float | None:
    """The resident size of process ``pid`` in MiB (from /proc: Linux only), else ``None``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        if not Path("/proc").is_dir():  # not Linux: ask the system
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return False
            except PermissionError:
                return True
            return True
        return False
    return state != "Z"


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux only; elsewhere none are seen)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*") if Path("/proc").is_dir() else []:
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 1 and fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(entry.name))
    return found


# ------------------------------------------------------------------------------------------ the run


@dataclass
class Figures:
    """What one configuration played."""

    label: str
    single: int = 0
    in_matches: int = 0
    matches: int = 0
    actions: int = 0
    seconds: float = 0.0
    divergences: list[str] = field(default_factory=list)
    #: why the engine cannot play the configuration (``compare``'s *not applicable*), or ""
    not_applicable: str = ""

    @property
    def hands(self) -> int:
        return self.single + self.in_matches


@dataclass
class SoakReport:
    figures: list[Figures] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    hands_checked: int = 0
    rss: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.violations and not any(figure.divergences for figure in self.figures)


def configurations(engine: Engine, profiles: Sequence[str] = ()) -> list[Config]:
    """Every profile of the engine (or ``profiles``), alone and with each overlay."""
    info = engine.info()
    names = list(profiles) or list(info.profiles)
    return [resolve(info, label) for name in names for label in (name, *(f"{name}+{o}" for o in overlays()))]


def soak(
    served: Engine,
    configs: Sequence[Config],
    hands: int,
    *,
    seed: int = 0,
    max_rss_growth: float = DEFAULT_MAX_RSS_GROWTH,
    progress: bool = True,
) -> SoakReport:
    """Play ``hands`` hands under each configuration on the reference and on ``served``; check
    every hand; sample the memory after :data:`WARM_UP_HANDS` hands and at the end; close ``served``
    and check that none of its processes, nor any child of this process, is left."""
    report = SoakReport()
    checker = HandInvariants()
    info = served.info()
    single = Fuzzer(ReferenceEngine(), served, info, depth="hand", seed=seed, hand_played=checker)
    whole = Fuzzer(ReferenceEngine(), served, info, depth="match", seed=seed, hand_played=checker,
                   max_hands_per_game=MAX_HANDS_PER_MATCH)  # fmt: skip
    pids: set[int] = set()
    existing = set(children(os.getpid()))  # a test process may have children of its own already
    first: dict[str, float | None] = {}
    started = time.perf_counter()
    try:
        for config in configs:
            figures = Figures(config.label)
            began = time.perf_counter()
            unsupported = info.unsupported(config.flags)
            if unsupported:
                figures.not_applicable = f"the engine does not play {', '.join(unsupported)}"
            for fuzzer, target, kind in ((single, hands // 2, "single hands"), (whole, hands, "matches")):
                fuzz = FuzzReport(info.name)
                number = 0
                while figures.hands < target and len(figures.divergences) < MAX_DIVERGENCES:
                    if figures.not_applicable:
                        break
                    checker.where, checker.deck_size = f"{config.label}, {kind}, game {number}", config.deck_size
                    before = fuzz.hands
                    counts = {cause: group.count for cause, group in fuzz.groups.items()}
                    try:
                        fuzzer.play_game(config, number, fuzz)
                    except SetupRejected as rejected:
                        figures.not_applicable = str(rejected)
                        break
                    # (a game goes on past a divergence it can: every group it added to counts)
                    for cause, group in fuzz.groups.items():
                        if group.count > counts.get(cause, 0):
                            figures.divergences.append(group.example.describe())
                    if fuzzer is single:
                        figures.single += fuzz.hands - before
                    else:
                        figures.in_matches += fuzz.hands - before
                        figures.matches += 1
                    number += 1
                    pid = getattr(served, "pid", None)
                    if isinstance(pid, int):
                        pids.add(pid)
                    if not first and checker.hands >= WARM_UP_HANDS:
                        first = _sample(served)
                figures.actions += fuzz.actions
            figures.seconds = time.perf_counter() - began
            report.figures.append(figures)
            if progress:
                print(_line(figures), flush=True)
        last = _sample(served)
        if not first:  # a run shorter than the warm-up: its start is its end
            first = last
    finally:
        served.close()
    report.seconds = time.perf_counter() - started
    report.hands_checked = checker.hands
    report.violations += checker.violations
    for name in ("harness", "engine"):
        report.rss[name] = (first.get(name), last.get(name))
        begin, end = report.rss[name]
        if begin is not None and end is not None and end - begin > max_rss_growth:
            report.violations.append(
                f"the {name}'s memory grew from {begin:.1f} to {end:.1f} MiB (more than {max_rss_growth:g} MiB)"
            )
    left = {pid for pid in pids if alive(pid)} | (set(children(os.getpid())) - existing)
    if left:
        report.violations.append(f"processes left behind after the engine was closed: {sorted(left)}")
    return report


def _sample(served: Engine) -> dict[str, float | None]:
    pid = getattr(served, "pid", None)
    return {"harness": rss_mib(os.getpid()), "engine": rss_mib(pid) if isinstance(pid, int) else None}


HEADER = (
    f"{'configuration':<34} {'hands':>7} {'single':>7} {'in matches':>10} {'matches':>7} {'hands/s':>8} {'diverged':>8}"
)


def _line(figures: Figures) -> str:
    if figures.not_applicable:
        return f"{figures.label:<34} not applicable: {figures.not_applicable}"
    rate = figures.hands / figures.seconds if figures.seconds else 0.0
    return (f"{figures.label:<34} {figures.hands:>7} {figures.single:>7} {figures.in_matches:>10} "
            f"{figures.matches:>7} {rate:>8,.0f} {len(figures.divergences):>8}")  # fmt: skip


def print_report(report: SoakReport) -> None:
    hands = sum(figure.hands for figure in report.figures)
    rate = hands / report.seconds if report.seconds else 0.0
    print(f"{hands} hands in {report.seconds:.1f} s ({rate:,.0f} hands/s), {report.hands_checked} checked "
          f"on the reference (the hands played ahead of a divergence included)")  # fmt: skip
    for name, (begin, end) in report.rss.items():
        shown = "unknown (not Linux)" if begin is None or end is None else f"{begin:.1f} -> {end:.1f} MiB"
        print(f"resident memory of the {name}: {shown}")
    for figure in report.figures:
        for divergence in figure.divergences[:5]:
            print(f"DIVERGENCE {divergence}")
    for violation in report.violations[:50]:
        print(f"VIOLATION {violation}")
    if len(report.violations) > 50:
        print(f"... and {len(report.violations) - 50} more violations")
    diverged = sum(len(figure.divergences) for figure in report.figures)
    print(f"{'OK' if report.ok else 'FAILED'}: {diverged} divergences, {len(report.violations)} violations")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per configuration (default {DEFAULT_HANDS}), half in matches")  # fmt: skip
    parser.add_argument("--profile", action="append", default=[], help="only this profile (repeatable)")
    parser.add_argument("--engine", default="serve:reference", help="the engine compared (default serve:reference)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request of the served engine")
    parser.add_argument("--max-rss-growth", type=float, default=DEFAULT_MAX_RSS_GROWTH, metavar="MIB",
                        help=f"the most either process may grow (default {DEFAULT_MAX_RSS_GROWTH:g} MiB)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.hands < 2:
        parser.error("--hands: at least 2 (one single hand and one match)")
    try:
        served = parse_engine_spec(args.engine).open(timeout=args.timeout)
        configs = configurations(served, args.profile)
    except (CheckError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return int(ExitCode.USAGE)
    except EngineError as error:
        print(f"error: engine {args.engine} could not be started or spoken to:\n{error}", file=sys.stderr)
        return int(ExitCode.ENGINE_UNAVAILABLE)
    print(f"soak: {args.hands} hands per configuration, {len(configs)} configurations, engine {args.engine}, "
          f"seed {args.seed}")  # fmt: skip
    print(HEADER)
    report = soak(served, configs, args.hands, seed=args.seed, max_rss_growth=args.max_rss_growth)
    print_report(report)
    return int(ExitCode.OK if report.ok else ExitCode.RULE_FAILURES)


if __name__ == "__main__":
    sys.exit(main())
