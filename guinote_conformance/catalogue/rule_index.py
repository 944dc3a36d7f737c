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
    asymmetric = "..."                    # optional: why it changes when seats turn or suits are renamed
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

from guinote_conformance.adapters.vocabulary import RULE_AREAS

RULE_ID = re.compile(r"^[A-Z]+-\d{2}$")
QUESTIONS_FILE = "questions.toml"
CUSTOMS_FILE = "customs.toml"
#: The written sources, cited by ID (their particulars are on the rulebook's sources page).
SOURCE_IDS = ("S000", "S002", "S003", "S004")
#: A regional custom that no document states, declared in ``features/index/customs.toml``.
CUSTOM_ID = re.compile(r"^R\d{3}$")
AGREEMENTS = ("yes", "single", "disagree", "derived", "interpretation")

#: Rule areas in rulebook order: (area id, rule-ID prefixes it holds). The protocol names them
#: too (the capabilities ``reason_codes_<area>``), so the vocabulary owns the list.
AREAS = RULE_AREAS


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
    #: why the rule does not hold in a world with the seats rotated or the suits relabelled: its
    #: scenarios then run as written only (:mod:`guinote_conformance.engines.symmetry`)
    asymmetric: str | None = None


@dataclass(frozen=True)
class Area:
    id: str
    title: str
    feature: str
    summary: str
    rules: tuple[RuleEntry, ...] = field(default_factory=tuple)


def default_root() -> Path:
    """The suite's ``features/`` folder, shipped inside the package (``guinote_conformance/features``).

    In a clone it is a symbolic link to the repository's ``features/``, resolved here so that
    every message names ``features/...``; in an installed wheel it is a plain folder.
    """
    return Path(str(resources.files("guinote_conformance") / "features")).resolve()


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
        unknown = [s.id for s in sources if not is_source_id(s.id)]
        if unknown:
            raise RuleIndexError(
                f"{where}: unknown source {unknown[0]}; sources are {', '.join(SOURCE_IDS)} or customs R001..."
            )
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
                asymmetric=raw.get("asymmetric"),
            )
        )
    return Area(area_id, head.get("title", area_id), head.get("feature", ""), head.get("summary", ""), tuple(rules))


def load_areas(root: Path | None = None) -> list[Area]:
    """Every area of the index, in rulebook order (unknown areas last)."""
    folder = (root or default_root()) / "index"
    # questions.toml holds the disagreements and gaps (B-nn, C-nn) the rules refer to, and
    # customs.toml the regional customs; neither holds rules
    areas = [
        _load_area(path) for path in sorted(folder.glob("*.toml")) if path.name not in (QUESTIONS_FILE, CUSTOMS_FILE)
    ]
    order = {area_id: position for position, (area_id, _) in enumerate(AREAS)}
    return sorted(areas, key=lambda area: order.get(area.id, len(order)))


def is_source_id(name: str) -> bool:
    """A document (S000...) or a regional custom (R001...)."""
    return name in SOURCE_IDS or bool(CUSTOM_ID.match(name))


@dataclass(frozen=True)
class Custom:
    """A regional custom: a rule a town or club plays that no written source states."""

    id: str
    title: str
    where: str
    reported: str
    description: str
    line: int


def load_customs(root: Path | None = None) -> dict[str, Custom]:
    """The regional customs of ``features/index/customs.toml`` (none if the file is absent)."""
    path = (root or default_root()) / "index" / CUSTOMS_FILE
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleIndexError(f"{path}: {error}") from None
    lines = [number for number, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[custom]]"]
    customs: dict[str, Custom] = {}
    for position, raw in enumerate(data.get("custom", [])):
        line = lines[position] if position < len(lines) else 0
        custom_id = str(raw.get("id", ""))
        if not CUSTOM_ID.match(custom_id):
            raise RuleIndexError(f"{path}:{line}: a custom's id looks like R001, not {custom_id!r}")
        missing = [key for key in ("title", "where", "reported", "description") if not raw.get(key)]
        if missing:
            raise RuleIndexError(f"{path}:{line}: custom {custom_id} needs {', '.join(missing)}")
        if custom_id in customs:
            raise RuleIndexError(f"{path}:{line}: custom {custom_id} is declared twice")
        customs[custom_id] = Custom(custom_id, raw["title"], raw["where"], raw["reported"], raw["description"], line)
    return customs


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
