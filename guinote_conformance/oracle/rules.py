"""Which rules the reference applied at a step, read off its events and refusals.

A step of the reference names its rule in two ways: some events carry a ``rule`` member, and the
others are telling by their type (a ``tute`` event is CANTE-22, a hand that ends ``over_100`` is
SCORE-04). These tables are the one reading of both, for the comparison of a step
(:func:`guinote_conformance.oracle.legality.rule_of_step`), for the causes of a failure, and for the
fuzzer's coverage of the rule index (:mod:`guinote_conformance.fuzz.steering`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from guinote_conformance.adapters.interface import JSON
from guinote_conformance.adapters.vocabulary import REASON_CODES

#: The rules an event shows the reference applying (besides the ``rule`` member some carry).
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "hand_over": ("SCORE-02",),
    "renuncio": ("RENUNCIO-07",),
    "claim": ("VUELTAS-06", "VUELTAS-05"),
    "tute": ("CANTE-22", "MATCH-09"),
    "match_won": ("MATCH-05",),
    "coto_won": ("MATCH-03",),
    "point_won": ("MATCH-01",),
    "de_vueltas": ("SCORE-13", "VUELTAS-02"),
    "cante": ("CANTE-01", "CANTE-04"),
    "exchange": ("SEVEN-01",),
    "ultimas": ("SCORE-01",),
    "hand_dealt": ("PRE-10", "DEAL-05"),
    "arrastre_begins": ("PLAY-13",),
    "trick_won": ("PLAY-05", "PLAY-16"),
    "cards_drawn": ("PLAY-08",),
    "card_played": ("PLAY-02",),
}
#: Events in the order of how much they tell about a step (the first names the step's rule).
_PRIORITY = {kind: index for index, kind in enumerate(EVENT_RULES)}
#: The rules behind the reasons a hand can end with (besides the event's ``rule``).
REASON_RULES: dict[str, tuple[str, ...]] = {
    "thirty_malas_lose": ("SCORE-12", "SCORE-09"),
    "thirty_malas_cannot_win": ("SCORE-12", "SCORE-09"),
    "thirty_malas_vueltas": ("SCORE-12", "SCORE-09"),
    "claim_false": ("VUELTAS-06",),
    "claim_correct": ("VUELTAS-06",),
    "vueltas_reached_101": ("VUELTAS-07",),
    "over_100": ("SCORE-04",),
}
#: The decision rules a ``hand_over`` event can name (from the reference's scoring module).
DECISION_RULES = (
    "SCORE-06", "SCORE-07", "SCORE-12", "SCORE-13", "VUELTAS-03", "VUELTAS-06", "VUELTAS-07", "VUELTAS-14",
    "CANTE-22", "RENUNCIO-07",
)  # fmt: skip


def rules_of_events(events: Sequence[Mapping[str, JSON]], state: Mapping[str, JSON] | None = None) -> list[str]:
    """The rule IDs the reference applied in ``events``, the most telling first.

    ``state`` is the state after the events (it tells a forty from a twenty's phase, a hand
    de vueltas from a first hand)."""
    rules: list[str] = []
    for event in sorted(events, key=lambda e: _PRIORITY.get(str(e.get("type")), len(_PRIORITY))):
        kind = str(event.get("type"))
        rule = event.get("rule")
        if isinstance(rule, str) and rule:
            rules.append(rule)
        if kind == "hand_over":
            rules.extend(REASON_RULES.get(str(event.get("reason")), ()))
        elif kind == "cante":
            rules.append("CANTE-03" if event.get("value") == 40 else "CANTE-02")
            if state is not None and state.get("phase") == "arrastre":
                rules.append("CANTE-20")
        elif kind == "exchange" and str(event.get("gave", "")).startswith("2"):
            rules.append("SEVEN-09")
        elif kind == "hand_dealt" and state is not None and state.get("hand_in_point", 0):
            rules.extend(("VUELTAS-02", "VUELTAS-01"))
        elif kind == "cards_drawn" and state is not None and state.get("muestra") is None:
            rules.append("PLAY-10")
        rules.extend(EVENT_RULES.get(kind, ()))
    return list(dict.fromkeys(rules))


def refusal_rules(rule: str) -> list[str]:
    """The rule IDs of a refusal's ``rule`` member (``"SEVEN-03 / SEVEN-04"`` names two)."""
    return [part.strip() for part in rule.replace(",", "/").split("/") if part.strip()]


def observable_rules() -> frozenset[str]:
    """Every rule the fuzzer can see applied: behind an event, a hand's decision or a refusal."""
    rules: set[str] = set(DECISION_RULES)
    for group in (*EVENT_RULES.values(), *REASON_RULES.values()):
        rules.update(group)
    rules.update(("CANTE-02", "CANTE-03", "CANTE-20", "SEVEN-09", "VUELTAS-01", "VUELTAS-02", "PLAY-10"))
    for text in REASON_CODES.values():
        rules.update(word for word in text.replace("/", " ").split() if "-" in word and word[0].isupper())
    return frozenset(rules)
