"""Deliberately broken engines: the reference engine with one rule broken, or three at once.

They are served over the protocol in their own process (``serve:tests.broken_engines.engines:NAME``),
so the patches never touch the reference engine of the test run itself. The suite must flag
each one under the rule it breaks and pass everything that rule does not touch.

The catalogue (:data:`CATALOGUE`) names every engine: a bug (or three) of :data:`BUGS` in a
capability shape of :mod:`tests.broken_engines.shapes`; ``NAME`` is the bug for the reference's
own shape and ``NAME__SHAPE`` for another (``third_suit_wins__minimal``). The bugs live in one
module per area (:mod:`~tests.broken_engines.play_bugs`, :mod:`~tests.broken_engines.declaration_bugs`,
:mod:`~tests.broken_engines.score_bugs`); the first ones, which the suite's own tests use, here.
``python -m tests.broken_engines.measure`` tells which of them ``run`` and ``compare`` find.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from guinote_conformance.adapters.interface import Engine, EngineInfo
from guinote_conformance.adapters.reference import ReferenceEngine
from guinote_conformance.reference_engine import cantes, cards, hand, scoring, tricks, views
from guinote_conformance.reference_engine.cards import Card, Rank
from tests.broken_engines.base import Breakage, replace_everywhere
from tests.broken_engines.declaration_bugs import DECLARATION_BUGS
from tests.broken_engines.play_bugs import PLAY_BUGS
from tests.broken_engines.score_bugs import SCORE_BUGS, SHORT_OF_MALAS
from tests.broken_engines.shapes import SHAPES, profile_in_shape

_replace_everywhere = replace_everywhere


def _caballo_above_sota() -> None:
    original = cards.strength_table

    def swapped(rank_8_9: str = "below_caballo") -> Mapping[Card, int]:
        table = dict(original(rank_8_9))
        for card in list(table):
            if card.rank is Rank.SOTA:
                caballo = Card(Rank.CABALLO, card.suit)
                table[card], table[caballo] = table[caballo], table[card]
        return table

    _replace_everywhere(original, swapped)


def _cantes_without_won_trick() -> None:
    original = cantes.window_open_for

    def any_side(g: Any, seat: int) -> bool:
        return bool(original(g, seat)) or (g.last_trick_winner is not None and not g.trick and g.result is None)

    _replace_everywhere(original, any_side)


def _no_cantes_in_arrastre() -> None:
    original = cantes.window_open_for

    def free_phase_only(g: Any, seat: int) -> bool:
        return bool(original(g, seat)) and g.phase != "arrastre"

    _replace_everywhere(original, free_phase_only)


def _no_diez_de_ultimas() -> None:
    scoring.ULTIMAS = 0


def _winner_draws_last() -> None:
    original = tricks.draw_order

    def loser_first(winner: int, players: int) -> list[int]:
        order = list(original(winner, players))
        return order[1:] + order[:1]

    _replace_everywhere(original, loser_first)


def _free_phase_obligations() -> None:
    original = hand.Hand.playable_cards

    def with_duties(self: hand.Hand, seat: int) -> list[Card]:
        playable = original(self, seat)
        if self.phase == "free" and self.trick:
            led = self.trick[0][1].suit
            following = [card for card in playable if card.suit is led]
            return following or playable
        return playable

    hand.Hand.playable_cards = with_duties  # type: ignore[method-assign]


BREAKAGES: dict[str, Breakage] = {
    "caballo_above_sota": Breakage(
        "DECK-06",
        "the Caballo outranks the Sota, as in Tute",
        frozenset({"DECK-05", "CANTE-19", "SEVEN-08"}),
        _caballo_above_sota,
        area="rank",
    ),
    "no_partner_exemption": Breakage(
        "ARR-06",
        "the duty to beat or trump holds even when the partner is winning",
        frozenset({"ARR-07", "ARR-10", "ARR-13"}),
        lambda: None,  # done by forcing the flag: see BrokenEngine.start
        forced={"partner_winning_exempts": "no"},
        area="seat",
    ),
    "cantes_without_won_trick": Breakage(
        "CANTE-05",
        "either side may sing after any trick",
        # tute, the mano a mano cante and claims open in the same window after a won trick
        frozenset({"CANTE-18", "CANTE-22", "CANTE-27", "TWO-07", "RENUNCIO-05", "VUELTAS-05"}),
        _cantes_without_won_trick,
        area="declarations",
    ),
    "no_cantes_in_arrastre": Breakage(
        "CANTE-20",
        "no cante is allowed once the arrastre begins",
        # every scenario that sings in the arrastre, whatever rule it pins down (the case of
        # a real engine: one root cause, failures under many rule IDs, none saying "arrastre")
        frozenset(
            {"CANTE-08", "CANTE-14", "CANTE-15", "CANTE-26", "CANTE-27", "CANTE-28", "CANTE-29"}
            | {"DECK-14", "ETIQ-06", "TWO-07"}
        ),
        _no_cantes_in_arrastre,
        area="phase",
    ),
    "no_diez_de_ultimas": Breakage(
        "SCORE-01",
        "the last trick carries no diez de últimas",
        None,
        _no_diez_de_ultimas,
        area="scoring",
    ),
    "winner_draws_last": Breakage(
        "PLAY-08", "after a trick the winner draws last instead of first", None, _winner_draws_last, area="seat"
    ),
    "free_phase_obligations": Breakage(
        "PLAY-07",
        "players must follow suit while the stock lasts",
        # whole hands played out card by card take other cards once the free phase is restricted
        frozenset({"ARR-11", "SCORE-01", "SCORE-03", "SCORE-13", "TWO-02", "TWO-05"}),
        _free_phase_obligations,
        area="phase",
    ),
}


def _no_thirty_malas() -> None:
    scoring.THIRTY_MALAS = 0


def _tute_of_reyes_only() -> None:
    cantes.TUTE_RANKS = (Rank.REY,)  # type: ignore[assignment]  # the broken rule: a shorter tuple


def _many_cantes_per_trick() -> None:
    original = cantes._one_per_trick_used

    def never(g: Any) -> bool:
        return False

    _replace_everywhere(original, never)


def _false_claims_win() -> None:
    original = scoring.decide_claim

    def always_right(g: Any, side: int) -> scoring.PointDecision:
        decision = original(g, side)
        return scoring.PointDecision(side, "claim_correct", "VUELTAS-06") if decision.winner != side else decision

    _replace_everywhere(original, always_right)


def _totals_not_carried() -> None:
    original = scoring.total

    def this_hand_only(g: Any, side: int) -> int:
        return scoring.hand_score(g, side)

    _replace_everywhere(original, this_hand_only)
    views._PER_SIDE["total"] = this_hand_only  # the state field reads it from a table


#: After a free trick won by seat 0, who holds the pairs of copas and espadas (cante_per_trick=one: one
#: of them now, the other after a later trick).
TWO_PAIRS: dict[str, Any] = {
    "hands": [["Rc", "Sc", "Re", "Se", "4b", "5b"], ["Ac", "3c", "6c", "7c", "2e", "3e"],
              ["4e", "5e", "6e", "7e", "Ae", "Ce"], ["Ab", "3b", "Rb", "Sb", "Cb", "6b"]],
    "muestra": "4o", "stock": ["7b", "2b", "2c"], "last_trick_winner": 0, "card_points": [20, 10],
    "tricks_won": [2, 1],
}  # fmt: skip

#: After a free trick won by seat 0, who holds the four Sotas (tute=wins_point).
FOUR_SOTAS: dict[str, Any] = {
    "hands": [["So", "Sc", "Se", "Sb", "4b", "5b"], ["Ac", "3c", "6c", "7c", "2e", "3e"],
              ["4e", "5e", "6e", "7e", "Ae", "Ce"], ["Ab", "3b", "Rb", "Cb", "6b", "7b"]],
    "muestra": "4o", "stock": ["2b", "2c", "Rc"], "last_trick_winner": 0, "card_points": [20, 10],
    "tricks_won": [2, 1],
}  # fmt: skip

#: Engines that break one rule random play rarely reaches: for measuring ``compare`` (they are
#: not part of the suite's own broken-engine check, which the suite need not pass on them).
RARE_BREAKAGES: dict[str, Breakage] = {
    "no_thirty_malas": Breakage(
        "SCORE-09",
        "a side past 100 wins without the thirty malas",
        None,
        _no_thirty_malas,
        flags={"thirty_malas_count": "cards_only"},
        area="scoring",
        witness=SHORT_OF_MALAS,
    ),
    "tute_of_reyes_only": Breakage(
        "CANTE-22",
        "only four Reyes make a tute, four Sotas do not",
        None,
        _tute_of_reyes_only,
        area="declarations",
        witness=FOUR_SOTAS,
    ),
    "many_cantes_per_trick": Breakage(
        "CANTE-10",
        "several cantes follow one trick even under cante_per_trick=one",
        None,
        _many_cantes_per_trick,
        area="declarations",
        witness=TWO_PAIRS,
    ),
    "false_claims_win": Breakage(
        "VUELTAS-06",
        "a claim of 101 wins the point even when it is false",
        None,
        _false_claims_win,
        profile="ludoteka",
        area="declarations",
    ),
    "totals_not_carried": Breakage(
        "VUELTAS-02",
        "a hand de vueltas starts from zero instead of the carried totals",
        None,
        _totals_not_carried,
        area="scoring",
    ),
}


#: Every planted bug by name: the suite's own (above) and the catalogue's, one module per area.
BUGS: dict[str, Breakage] = {**BREAKAGES, **RARE_BREAKAGES, **PLAY_BUGS, **DECLARATION_BUGS, **SCORE_BUGS}

#: Engines with three bugs at once, each of another area (a real engine rarely has only one).
TRIPLES: dict[str, tuple[str, str, str]] = {
    "triple_seat_rank_score": ("partner_is_next_seat", "low_cards_tie_on_points", "ultimas_counted_twice"),
    "triple_suit_cante_match": ("third_suit_wins", "only_winner_sings", "threshold_100"),
    "triple_trump_phase_score": ("no_trumping_when_copas", "window_closed_by_draw", "cantes_not_counted"),
    "triple_draw_seven_arrastre": ("winner_draws_last", "exchange_low_muestra", "beat_only_when_oros_led"),
    "triple_mano_forty_trump_lead": ("mano_left_of_dealer", "forty_in_oros", "trump_lead_no_beat"),
}


class BrokenEngine(ReferenceEngine):
    """The reference engine with the bugs ``names`` planted (in this process: serve it)."""

    def __init__(self, *names: str) -> None:
        self.names = names or ("",)
        self.breakages = [BUGS[name] for name in names]
        self.name = "+".join(names)
        for breakage in self.breakages:
            breakage.apply()
        self.forced = {flag: value for breakage in self.breakages for flag, value in breakage.forced.items()}

    @property
    def breakage(self) -> Breakage:
        """The one bug planted (engines of one bug)."""
        return self.breakages[0]

    def info(self) -> EngineInfo:
        full = super().info()
        return EngineInfo(
            name=f"broken-{self.name}",
            version=full.version,
            language=full.language,
            profiles=full.profiles,
            flags=full.flags,
            capabilities=full.capabilities,
        )

    def start(self, setup: Mapping[str, Any]) -> Any:
        if self.forced:
            setup = {**setup, "flags": {**setup.get("flags", {}), **self.forced}}
        return super().start(setup)


@dataclass(frozen=True)
class Entry:
    """One engine of the catalogue: the bugs planted and the capability shape that serves them."""

    bugs: tuple[str, ...]
    shape: str

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(BUGS[bug].rule for bug in self.bugs)

    @property
    def also_breaks(self) -> dict[str, tuple[str, ...]]:
        """Each planted rule with the other rules its bug breaks too (:attr:`Breakage.also_breaks`)."""
        return {BUGS[bug].rule: BUGS[bug].also_breaks for bug in self.bugs if BUGS[bug].also_breaks}

    @property
    def profile(self) -> str:
        """The profile where the bugs apply, by the engine's own name for it."""
        return profile_in_shape(BUGS[self.bugs[0]].profile, self.shape)

    @property
    def flags(self) -> dict[str, str]:
        return {flag: value for bug in self.bugs for flag, value in BUGS[bug].flags.items()}

    def engine(self) -> Engine:
        return SHAPES[self.shape](BrokenEngine(*self.bugs))


def _catalogue() -> dict[str, Entry]:
    named = {**{bug: (bug,) for bug in BUGS}, **TRIPLES}
    return {
        name if shape == "full" else f"{name}__{shape}": Entry(bugs, shape)
        for name, bugs in named.items()
        for shape in SHAPES
    }


#: Every catalogue engine by the name it is served under (``serve:tests.broken_engines.engines:NAME``).
CATALOGUE: dict[str, Entry] = _catalogue()


def __getattr__(name: str) -> Callable[[], Engine]:
    """``NAME`` of the catalogue is the factory of that engine (PEP 562)."""
    if name in CATALOGUE:
        return CATALOGUE[name].engine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
