"""The machine-readable rule index: ``features/index/<area>.toml``.

Each file holds the rules of one area::

    [area]
    id = "arrastre"
    title = "The arrastre"
    feature = "arrastre.feature"          # the feature file that pins the area down
    summary = "..."

    [[rule]]
    id = "ARR-01"
    statement = "In the arrastre a player holding the suit led must play it (asistir)."
    sources = [{ id = "S000", heading = "Segunda fase de la mano o fase de Arrastre" }]
    agreement = "yes"                     # yes | single | disagree | derived | interpretation
    flag = "partner_winning_exempts"      # optional: the flag that carries the disagreement
    interpretation = "..."                # optional: what the project chose where sources are silent
    not_executable = "..."                # optional: why no scenario can check it
    note = "..."                          # optional

Which scenarios cover a rule is not written here: it is read from the scenarios' tags, so
the index can never drift from the features.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

RULE_ID = re.compile(r"^[A-Z]+-\d{2}$")
QUESTIONS_FILE = "questions.toml"
SOURCE_IDS = ("S000", "S002", "S003", "S004")
AGREEMENTS = ("yes", "single", "disagree", "derived", "interpretation")

#: Rule areas in rulebook order: (area id, rule-ID prefixes it holds).
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("deck", ("DECK",)),
    ("deal", ("PRE", "DEAL")),
    ("free_phase", ("PLAY",)),
    ("arrastre", ("ARR",)),
    ("cantes", ("CANTE",)),
    ("seven", ("SEVEN",)),
    ("scoring", ("SCORE",)),
    ("vueltas", ("VUELTAS",)),
    ("match", ("MATCH",)),
    ("renuncio", ("RENUNCIO",)),
    ("conduct", ("ETIQ",)),
    ("two_players", ("TWO",)),
    ("regional_decks", ("REGION",)),
)


class RuleIndexError(ValueError):
    """A malformed rule index file (the message names the file and the rule)."""


@dataclass(frozen=True)
class SourceRef:
    id: str
    heading: str


@dataclass(frozen=True)
class RuleEntry:
    id: str
    area: str
    statement: str
    sources: tuple[SourceRef, ...]
    agreement: str
    flag: str | None = None
    interpretation: str | None = None
    not_executable: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Area:
    id: str
    title: str
    feature: str
    summary: str
    rules: tuple[RuleEntry, ...] = field(default_factory=tuple)


def default_root() -> Path:
    """The suite's ``features/`` folder, shipped inside the package (``conformance/features``).

    In a clone it is a symbolic link to the repository's ``features/``, resolved here so that
    every message names ``features/...``; in an installed wheel it is a plain folder.
    """
    return Path(str(resources.files("conformance") / "features")).resolve()


def _load_area(path: Path) -> Area:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RuleIndexError(f"{path}: {error}") from None
    head = data.get("area", {})
    area_id = head.get("id", path.stem)
    rules = []
    for raw in data.get("rule", []):
        rule_id = raw.get("id", "")
        where = f"{path}: rule {rule_id or '(no id)'}"
        if not RULE_ID.match(rule_id):
            raise RuleIndexError(f"{where}: a rule ID looks like ARR-01")
        if not raw.get("statement"):
            raise RuleIndexError(f"{where}: missing statement")
        if raw.get("agreement") not in AGREEMENTS:
            raise RuleIndexError(f"{where}: agreement must be one of {', '.join(AGREEMENTS)}")
        sources = tuple(SourceRef(s["id"], s.get("heading", "")) for s in raw.get("sources", []))
        unknown = [s.id for s in sources if s.id not in SOURCE_IDS]
        if unknown:
            raise RuleIndexError(f"{where}: unknown source {unknown[0]}; sources are {', '.join(SOURCE_IDS)}")
        if not sources and raw.get("agreement") not in ("derived", "interpretation"):
            raise RuleIndexError(f"{where}: a rule needs its sources (or agreement = derived/interpretation)")
        rules.append(
            RuleEntry(
                id=rule_id,
                area=area_id,
                statement=raw["statement"],
                sources=sources,
                agreement=raw["agreement"],
                flag=raw.get("flag"),
                interpretation=raw.get("interpretation"),
                not_executable=raw.get("not_executable"),
                note=raw.get("note"),
            )
        )
    return Area(area_id, head.get("title", area_id), head.get("feature", ""), head.get("summary", ""), tuple(rules))


def load_areas(root: Path | None = None) -> list[Area]:
    """Every area of the index, in rulebook order (unknown areas last)."""
    folder = (root or default_root()) / "index"
    # questions.toml holds the disagreements and gaps (B-nn, C-nn) the rules refer to, not rules
    areas = [_load_area(path) for path in sorted(folder.glob("*.toml")) if path.name != QUESTIONS_FILE]
    order = {area_id: position for position, (area_id, _) in enumerate(AREAS)}
    return sorted(areas, key=lambda area: order.get(area.id, len(order)))


def load_rules(root: Path | None = None) -> dict[str, RuleEntry]:
    """Every rule by ID; a repeated ID is an error."""
    rules: dict[str, RuleEntry] = {}
    for area in load_areas(root):
        for rule in area.rules:
            if rule.id in rules:
                raise RuleIndexError(f"rule {rule.id} is listed twice (areas {rules[rule.id].area} and {area.id})")
            rules[rule.id] = rule
    return rules


def rules_of(areas: Iterable[Area]) -> list[RuleEntry]:
    return [rule for area in areas for rule in area.rules]
