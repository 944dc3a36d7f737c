"""What the annotated rulebook (``docs/``) shows, computed here so that the Sphinx extension
holds no rule or engine knowledge: the rule index with titles, the open questions, coverage by
area, a picture of the table for each scenario, and the worked hand's transcript.

Everything is read from the project's own data (``features/``, the reference engine); the
extension only turns these objects into nodes.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guinote_conformance.adapters.vocabulary import SUITS, NotationError, card_code
from guinote_conformance.catalogue.features import Scenario, load_scenarios, scenarios_by_rule
from guinote_conformance.catalogue.rule_index import AREAS, QUESTIONS_FILE, Area, RuleEntry, load_areas
from guinote_conformance.reference_engine.flags import FlagSpec, parse_flags

#: A rule ID or a question code inside running text (``ARR-01``, ``B-17``).
CODE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9-])([A-Z]+-\d{2})(?![0-9])")
QUESTION_ID = re.compile(r"^[BC]-\d{2}$")
QUESTION_KINDS = {"B": "disagreement", "C": "gap"}
PREFIX_TO_AREA = {prefix: area_id for area_id, prefixes in AREAS for prefix in prefixes}
#: Titles of the rules that have no ``Rule:`` block in the features (not executable rules).
TITLES_FILE = Path(__file__).resolve().parent / "rule_titles.toml"
_RULE_BLOCK = re.compile(r"^([A-Z]+-\d{2})\s+(.+)$")


def area_of_rule(rule_id: str) -> str | None:
    """The area a rule ID belongs to, by its prefix (``ARR-01`` -> ``arrastre``)."""
    return PREFIX_TO_AREA.get(rule_id.split("-")[0])


def question_sort_key(code: str) -> tuple[str, int]:
    return code[0], int(code[2:])


# ---------------------------------------------------------------------------------------------
# Open questions.


@dataclass(frozen=True)
class Question:
    """An open question: a disagreement between sources (``B-nn``) or a gap (``C-nn``)."""

    id: str
    kind: str
    title: str
    summary: str
    flags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    #: derived from a flag's declaration (no entry in questions.toml): the flag's summary is its
    #: title, and it has no summary of its own (the flag's readings say what each source reads)
    derived: bool = False


def derived_questions(questions: Mapping[str, Question], flags: Mapping[str, FlagSpec]) -> dict[str, Question]:
    """``questions`` and, for every code a flag names (``disagreement = "B-44"``) that has no
    entry in questions.toml, the question derived from the flag's declaration: its summary (the
    question the flag answers) as the title, the flag and its rules. An entry in questions.toml
    is optional: it is written only to say more than the flag's readings do."""
    found = dict(questions)
    for name, spec in flags.items():
        for code in CODE_IN_TEXT.findall(spec.disagreement):
            if QUESTION_ID.match(code) and code not in found:
                found[code] = Question(
                    code, QUESTION_KINDS[code[0]], spec.summary, "", (name,), tuple(spec.rules), derived=True
                )
    return found


def load_questions(path: Path, declared: Mapping[str, FlagSpec] | None = None) -> tuple[dict[str, Question], list[str]]:
    """The questions of ``path`` by code, and the problems found (each one a message naming
    the file and the question); with ``declared`` (a parsed ``profiles.toml``), also the questions
    derived from the flags that name a code with no entry (:func:`derived_questions`)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, tomllib.TOMLDecodeError) as error:
        return {}, [f"{path.name}: {error}"]
    questions: dict[str, Question] = {}
    errors: list[str] = []
    for entry in raw.get("question", []):
        code = str(entry.get("id", ""))
        where = f"{path.name}: question {code or '(no id)'}"
        if not QUESTION_ID.match(code):
            errors.append(f"{where}: a question ID looks like B-17 or C-10")
            continue
        if code in questions:
            errors.append(f"{where} is listed twice")
            continue
        kind = str(entry.get("kind", ""))
        if kind != QUESTION_KINDS[code[0]]:
            errors.append(f"{where}: kind must be {QUESTION_KINDS[code[0]]!r}")
        missing = [name for name in ("title", "summary") if not entry.get(name)]
        if missing:
            errors.append(f"{where}: missing {', '.join(missing)}")
        flag = entry.get("flag", ())
        flags = (flag,) if isinstance(flag, str) else tuple(str(name) for name in flag)
        questions[code] = Question(
            code,
            kind,
            str(entry.get("title", "")),
            str(entry.get("summary", "")),
            flags,
            tuple(str(rule) for rule in entry.get("rules", [])),
        )
    return (derived_questions(questions, declared) if declared else questions), errors


# ---------------------------------------------------------------------------------------------
# The rulebook's data.


@dataclass
class RulebookData:
    """The rule index, the questions and the scenarios of one ``features/`` folder."""

    root: Path
    features: Path
    areas: list[Area] = field(default_factory=list)
    rules: dict[str, RuleEntry] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    #: None when the project has no questions file (codes then render as plain text).
    questions: dict[str, Question] | None = None
    scenarios: list[Scenario] = field(default_factory=list)
    by_rule: dict[str, list[Scenario]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def area(self, area_id: str) -> Area | None:
        return next((area for area in self.areas if area.id == area_id), None)

    def indexed_area_ids(self) -> set[str]:
        return {area.id for area in self.areas}

    def title(self, rule_id: str) -> str:
        """The rule's short title (from its ``Rule:`` block, else the titles file, else the
        start of its statement)."""
        if rule_id in self.titles:
            return self.titles[rule_id]
        rule = self.rules.get(rule_id)
        if rule is None:
            return ""
        return short_title(rule.statement)

    def relative(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    def data_files(self) -> list[Path]:
        return sorted(self.features.glob("index/*.toml")) + sorted(self.features.glob("*.feature"))

    def scenario_count(self, area: Area) -> int:
        return len({s.location for rule in area.rules for s in self.by_rule.get(rule.id, [])})

    def citing_rules(self, code: str) -> list[str]:
        """The rules whose statement, interpretation, note or reason cites ``code``."""
        found = []
        for rule_id, rule in self.rules.items():
            texts = (rule.statement, rule.interpretation, rule.note, rule.not_executable)
            if any(code in CODE_IN_TEXT.findall(text or "") for text in texts):
                found.append(rule_id)
        return found


def short_title(statement: str, words: int = 9) -> str:
    """The first clause of a statement, cut to a few words (for rules with no title)."""
    clause = re.split(r"[.;:(]", statement, maxsplit=1)[0].strip()
    parts = clause.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def load_titles(scenarios: Iterable[Scenario], path: Path = TITLES_FILE) -> dict[str, str]:
    """Rule titles: the name of each ``Rule: ID title`` block, completed by the titles file."""
    titles: dict[str, str] = {}
    if path.exists():
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        titles.update({str(key): str(value) for key, value in raw.get("titles", {}).items()})
    for scenario in scenarios:
        match = _RULE_BLOCK.match(scenario.rule_block.strip())
        if match:
            titles[match.group(1)] = match.group(2).strip()
    return titles


def load_rulebook(features: Path, root: Path | None = None) -> RulebookData:
    """Everything the rulebook shows from ``features/``; problems are collected in ``errors``
    (each naming its file and rule) rather than raised, so the site still builds."""
    data = RulebookData(root or features.parent, features)
    try:
        data.areas = [area for area in load_areas(features) if area.id != Path(QUESTIONS_FILE).stem or area.rules]
        for area in data.areas:
            for rule in area.rules:
                if rule.id in data.rules:
                    data.errors.append(f"rule {rule.id} is listed twice (areas {data.rules[rule.id].area}, {area.id})")
                data.rules.setdefault(rule.id, rule)
    except Exception as error:  # the index's own errors name the file and rule
        data.errors.append(f"rule index: {error}")
    questions_path = features / "index" / QUESTIONS_FILE
    profiles_path = data.root / "reference_engine" / "profiles.toml"
    if questions_path.exists():
        try:  # a flag's question needs no entry in questions.toml: it is derived from the flag
            flags = parse_flags(tomllib.loads(profiles_path.read_text(encoding="utf-8")))
        except (OSError, tomllib.TOMLDecodeError, KeyError, ValueError):
            flags = {}  # a project with no declaration of its own (a test's), or a broken one (the run says)
        data.questions, problems = load_questions(questions_path, flags)
        data.errors.extend(problems)
    try:
        data.scenarios = load_scenarios(features)
        data.by_rule = scenarios_by_rule(data.scenarios)
    except Exception as error:  # FeatureError carries file:line
        data.errors.append(f"features: {error}")
    try:
        data.titles = load_titles(data.scenarios)
    except (OSError, tomllib.TOMLDecodeError) as error:
        data.errors.append(f"{TITLES_FILE.name}: {error}")
    return data


# ---------------------------------------------------------------------------------------------
# Coverage.


@dataclass(frozen=True)
class AreaCoverage:
    area: Area
    covered: tuple[str, ...]
    not_executable: tuple[str, ...]
    missing: tuple[str, ...]
    scenarios: int


@dataclass(frozen=True)
class Coverage:
    areas: tuple[AreaCoverage, ...]
    #: rule IDs tagged on scenarios but absent from the index, with their scenarios
    orphans: dict[str, list[Scenario]]
    untagged: tuple[Scenario, ...]

    def totals(self) -> Counter[str]:
        totals: Counter[str] = Counter()
        for item in self.areas:
            totals.update(
                total=len(item.area.rules),
                covered=len(item.covered),
                not_exec=len(item.not_executable),
                missing=len(item.missing),
                scenarios=item.scenarios,
            )
        return totals


def coverage(data: RulebookData) -> Coverage:
    """Per area: rules covered by a scenario, not executable (and uncovered), still missing."""
    items = []
    for area in data.areas:
        covered = tuple(rule.id for rule in area.rules if data.by_rule.get(rule.id))
        not_exec = tuple(rule.id for rule in area.rules if rule.not_executable and rule.id not in covered)
        missing = tuple(rule.id for rule in area.rules if rule.id not in covered and rule.id not in not_exec)
        items.append(AreaCoverage(area, covered, not_exec, missing, data.scenario_count(area)))
    orphans: dict[str, list[Scenario]] = {}
    for scenario in data.scenarios:
        for rule in scenario.rules:
            if rule not in data.rules:
                orphans.setdefault(rule, []).append(scenario)
    untagged = tuple(s for s in data.scenarios if not s.rules)
    return Coverage(tuple(items), dict(sorted(orphans.items())), untagged)


# ---------------------------------------------------------------------------------------------
# A picture of the table: what the Given steps of a scenario set up.


@dataclass
class TablePicture:
    """The table as a scenario's ``Given`` steps leave it (what is known of it)."""

    players: int = 4
    hands: dict[int, list[str]] = field(default_factory=dict)
    #: cards on the table, in playing order
    trick: list[tuple[int, str]] = field(default_factory=list)
    muestra: str | None = None
    trump: str | None = None
    stock: int | None = None
    dealer: int | None = None
    leader: int | None = None
    turn: int | None = None
    phase: str | None = None
    #: per side, e.g. {"card points": (12, 3)}
    scores: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def side(self, seat: int) -> int:
        from guinote_conformance.reference_engine.tricks import side_of

        return side_of(seat, self.players)

    def seat_after(self, seat: int, steps: int = 1) -> int:
        from guinote_conformance.reference_engine.tricks import next_seat

        for _ in range(steps):
            seat = next_seat(seat, self.players)
        return seat

    @property
    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (
            tuple(s for s in range(self.players) if self.side(s) == 0),
            tuple(s for s in range(self.players) if self.side(s) == 1),
        )


_SUIT_WORDS = {name: code for code, name in SUITS.items()}
_SEAT_ROW = re.compile(r"^seat\s+(\d)$")
_HAND_HEAD = re.compile(
    r"^a hand in the (free phase|arrastre)(?:, muestra (\S+))?(?:, trumps in (\w+))?, seat (\d) to lead"
)
_DEAL_HEAD = re.compile(r"^(?:a deal|the deck, top card first, dealt) by seat (\d)")
_PAIR = r"(-?\d+) for side 0 and (-?\d+) for side 1"
_SCORE_STEPS = {
    re.compile(r"^the tricks won so far are " + _PAIR): "tricks won",
    re.compile(r"^the card points so far are " + _PAIR): "card points",
}


def _codes(text: str) -> list[str]:
    result = []
    for word in text.replace(",", " ").split():
        if word in ("-", "..."):
            continue
        try:
            result.append(card_code(word))
        except NotationError:
            continue
    return result


def scenario_picture(scenario: Scenario) -> TablePicture:
    """The table after the scenario's ``Given`` steps (before its first ``When``/``Then``)."""
    picture = TablePicture(players=2 if scenario.flags.get("players") == "2" else 4)
    setting = True
    for step in scenario.steps:
        if step.keyword in ("When", "Then"):
            setting = False
        if not setting:
            break
        _apply_given(picture, step.text.strip(), step.table)
    seats = [seat for seat in picture.hands if seat >= 2]
    if not seats and picture.hands and scenario.flags.get("players") != "4":
        picture.players = 2 if max(picture.hands) < 2 else picture.players
    if picture.turn is None and picture.leader is not None:
        picture.turn = picture.seat_after(picture.leader, len(picture.trick))
    return picture


def _apply_given(picture: TablePicture, text: str, table: Sequence[Sequence[str]]) -> None:
    if match := _HAND_HEAD.match(text):
        phase, muestra, trump, leader = match.groups()
        picture.phase = "arrastre" if phase == "arrastre" else "free"
        picture.leader = int(leader)
        if muestra:
            picture.muestra = card_code(muestra)
            picture.trump = picture.muestra[-1]
        if trump:
            picture.trump = _SUIT_WORDS.get(trump.lower())
        _apply_rows(picture, table)
    elif match := _DEAL_HEAD.match(text):
        picture.dealer = int(match.group(1))
        picture.phase = "free"
        if text.startswith("the deck"):
            count = sum(len(_codes(" ".join(row))) for row in table)
            picture.stock = count
            picture.notes.append("deck")
        else:
            _apply_rows(picture, table)
    elif match := re.match(r"^the trick so far is (.+)$", text):
        leader = picture.leader if picture.leader is not None else 0
        picture.trick = [(picture.seat_after(leader, i), code) for i, code in enumerate(_codes(match.group(1)))]
    elif match := re.match(r"^the muestra is (\S+)$", text):
        if match.group(1) == "gone":
            picture.muestra = None
        else:
            picture.muestra = card_code(match.group(1))
            picture.trump = picture.muestra[-1]
    elif match := re.match(r"^seat (\d) holds (.+)$", text):
        picture.hands[int(match.group(1))] = _codes(match.group(2))
    elif match := re.match(r"^it is seat (\d)'s turn$", text):
        picture.turn = int(match.group(1))
    elif match := re.match(r"^the trump suit is (\w+)$", text):
        picture.trump = _SUIT_WORDS.get(match.group(1).lower())
    elif match := re.match(r"^(\d+) cards are left to draw$", text):
        picture.stock = int(match.group(1))
    elif match := re.match(r"^side (\d) has (\d+) (card|cante) points$", text):
        key = f"{match.group(3)} points"
        values = list(picture.scores.get(key, (0, 0)))
        values[int(match.group(1))] = int(match.group(2))
        picture.scores[key] = (values[0], values[1])
    else:
        for pattern, key in _SCORE_STEPS.items():
            if found := pattern.match(text):
                picture.scores[key] = (int(found.group(1)), int(found.group(2)))
                return
        if text.startswith("the hand is de vueltas") or text.startswith("the match stands") or "sung" in text:
            picture.notes.append(text)


def _apply_rows(picture: TablePicture, table: Sequence[Sequence[str]]) -> None:
    for row in table:
        if len(row) < 2:
            continue
        head, cards = row[0].strip(), " ".join(row[1:])
        if seat := _SEAT_ROW.match(head):
            picture.hands[int(seat.group(1))] = _codes(cards)
        elif head == "stock":
            picture.stock = len(_codes(cards)) + (1 if picture.muestra else 0)
        elif head == "muestra":
            codes = _codes(cards)
            picture.muestra = codes[0] if codes else None
            picture.trump = picture.muestra[-1] if picture.muestra else picture.trump
    if picture.hands:
        picture.players = 4 if max(picture.hands) >= 2 else 2


# ---------------------------------------------------------------------------------------------
# The worked hand: one hand played by the reference engine, frame by frame.


@dataclass(frozen=True)
class FrameEvent:
    """Something that happened in the worked hand: ``kind`` is the engine's event kind
    (``card_played``, ``trick_won``, ``cards_drawn``, ``arrastre_begins``, ``cante``,
    ``exchange``, ``tute``, ``ultimas``, ``hand_over``) or ``deal``; ``details`` its details."""

    kind: str
    details: dict[str, Any]


@dataclass(frozen=True)
class Frame:
    """The table after one action of the worked hand."""

    events: tuple[FrameEvent, ...]
    hands: tuple[tuple[str, ...], ...]
    trick: tuple[tuple[int, str], ...]
    muestra: str | None
    stock: int
    turn: int | None
    card_points: tuple[int, int]
    cante_points: tuple[int, int]
    tricks_won: tuple[int, int]


@dataclass(frozen=True)
class TrickRecord:
    number: int
    phase: str
    leader: int
    cards: dict[int, str]
    winner: int
    points: int
    #: what happened after the trick and before the next card (draws, cantes, exchanges)
    after: tuple[FrameEvent, ...] = ()


@dataclass(frozen=True)
class WorkedHand:
    profile: str
    seed: int
    players: int
    dealer: int
    mano: int
    trump: str
    muestra: str
    stock: int
    deal: tuple[tuple[str, ...], ...]
    sides: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    frames: tuple[Frame, ...]
    #: per side: card points, cante points, the diez de últimas, total
    count: tuple[tuple[int, int, int, int], ...]
    winner: int | None
    reason: str
    rule: str


def _by_suit(codes: Iterable[str]) -> tuple[str, ...]:
    order = list(SUITS)
    return tuple(sorted(codes, key=lambda code: (order.index(code[-1]), code)))


def worked_hand(profile: str = "lascuarenta", seed: int = 8, dealer: int = 0) -> WorkedHand:
    """Play one hand with the reference engine: every exchange, tute and cante offered is
    taken, otherwise the first legal action. Each action gives a frame of the table."""
    from guinote_conformance.reference_engine import Game, rules_for
    from guinote_conformance.reference_engine.actions import Cante, Exchange, Tute
    from guinote_conformance.reference_engine.views import state_field

    game = Game.from_seed(rules_for(profile), seed, dealer)
    players = int(state_field(game, "players"))

    def frame(events: list[FrameEvent], completed: Sequence[tuple[int, str]] = ()) -> Frame:
        """The table now; a trick just won is still shown on it (``completed``)."""
        on_table = tuple(zip(state_field(game, "trick_seats"), state_field(game, "trick"), strict=True))
        return Frame(
            tuple(events),
            tuple(_by_suit(state_field(game, f"hand.{seat}")) for seat in range(players)),
            tuple(completed) or on_table,
            state_field(game, "muestra"),
            int(state_field(game, "stock_count")),
            state_field(game, "turn") if game.hand_result is None else None,
            (int(state_field(game, "card_points.0")), int(state_field(game, "card_points.1"))),
            (int(state_field(game, "cante_points.0")), int(state_field(game, "cante_points.1"))),
            (int(state_field(game, "tricks_won.0")), int(state_field(game, "tricks_won.1"))),
        )

    start_hands = tuple(_by_suit(state_field(game, f"hand.{seat}")) for seat in range(players))
    muestra = str(state_field(game, "muestra") or "")
    trump = SUITS.get(str(state_field(game, "trump")), str(state_field(game, "trump")))
    mano = int(state_field(game, "mano"))
    frames = [frame([FrameEvent("deal", {"mano": mano})])]
    tricks: list[TrickRecord] = []
    cards: dict[int, str] = {}
    leader, trick_phase = int(state_field(game, "leader")), game.phase
    final: dict[str, Any] = {}
    ultimas = [0, 0]
    for _ in range(1000):
        if game.hand_result is not None:
            break
        actions = game.legal_actions()
        choice = next((a for a in actions if isinstance(a, Exchange | Tute | Cante)), actions[0])
        phase = game.phase
        events: list[FrameEvent] = []
        completed: list[tuple[int, str]] = []
        for event in game.apply(choice):
            details = dict(event.details)
            events.append(FrameEvent(event.kind, details))
            if event.kind == "card_played":
                if not cards:
                    leader, trick_phase = int(details["seat"]), phase
                cards[int(details["seat"])] = str(details["card"])
            elif event.kind == "trick_won":
                tricks.append(
                    TrickRecord(
                        len(tricks) + 1, trick_phase, leader, dict(cards), int(details["seat"]), int(details["points"])
                    )
                )
                completed = list(cards.items())
                cards = {}
            elif event.kind == "ultimas":
                ultimas[int(details["side"])] += int(details["points"])
            elif event.kind == "hand_over":
                final = details
        between = tuple(e for e in events if e.kind not in ("card_played", "trick_won", "hand_over"))
        if between and tricks and not cards:
            last = tricks[-1]
            tricks[-1] = TrickRecord(
                last.number, last.phase, last.leader, last.cards, last.winner, last.points, last.after + between
            )
        frames.append(frame(events, completed))
    card_points = final.get("card_points", [0, 0])
    cantes = [int(state_field(game, f"cante_points.{side}")) for side in range(2)]
    totals = final.get("totals", [0, 0])
    count = tuple((int(card_points[s]), cantes[s], ultimas[s], int(totals[s])) for s in range(2))
    return WorkedHand(
        profile=profile,
        seed=seed,
        players=players,
        dealer=int(state_field(game, "dealer")),
        mano=mano,
        trump=trump,
        muestra=muestra,
        stock=frames[0].stock,
        deal=start_hands,
        sides=tuple(game.side(seat) for seat in range(players)),
        tricks=tuple(tricks),
        frames=tuple(frames),
        count=count,
        winner=final.get("winner"),
        reason=str(final.get("reason", "")),
        rule=str(final.get("rule", "")),
    )
