"""What a step comparison leaves out: the fields no rule decides once a hand is decided, and the
legality an automatic-draw engine's view cannot tell while the suite's draw is pending."""

from __future__ import annotations

from guinote_conformance.adapters.obligations import Obligations
from guinote_conformance.oracle.steps import Step, compare_steps

FULL = Obligations(frozenset({"positions", "observations", "reason_codes", "match"}))
CLAIM = {"type": "claim", "seat": 0}
DEAL = {"type": "deal", "deck": []}


def test_once_a_hand_is_decided_only_what_the_rules_decide_is_compared() -> None:
    over = {"phase": "hand_over", "stock_count": 8, "muestra": "4b", "trick": [], "turn": None, "total.0": 101}
    mine = Step(CLAIM, True, [{"type": "hand_over", "reason": "claim", "winner": 0}], legal=[DEAL], state=over)
    early_end = {**over, "stock_count": 0, "muestra": None, "trick": ["Ao"], "turn": 2}
    assert compare_steps(mine, Step(CLAIM, True, mine.events, legal=[DEAL], state=early_end), obligations=FULL) is None
    wrong_total = Step(CLAIM, True, mine.events, legal=[DEAL], state={**early_end, "total.0": 91})
    found = compare_steps(mine, wrong_total, obligations=FULL)
    assert found is not None and (found.kind, found.subject) == ("state", "total.0")
    # before the hand is decided, the cards left to draw are compared
    playing = Step(CLAIM, True, [], state={"phase": "free", "stock_count": 8})
    found = compare_steps(playing, Step(CLAIM, True, [], state={"phase": "free", "stock_count": 0}), obligations=FULL)
    assert found is not None and found.subject == "stock_count"


def test_an_automatic_draw_engine_is_not_compared_on_what_it_cannot_tell_before_the_draw() -> None:
    draw, play = {"type": "draw"}, {"type": "play", "seat": 0, "card": "Ao"}
    exchange, cante = {"type": "exchange", "seat": 1}, {"type": "cante", "seat": 1, "suit": "o"}
    mine = Step(play, True, [], legal=[draw, exchange])
    theirs = Step(play, True, [], legal=[draw, cante])
    automatic = Obligations(frozenset({"automatic_draw"}))
    assert compare_steps(mine, theirs, obligations=automatic) is None
    found = compare_steps(mine, theirs, obligations=FULL)  # an engine that draws as the suite does is
    assert found is not None and found.kind == "legal"
    # once the draw is made, they are compared again, and a missing draw always is
    assert compare_steps(Step(play, legal=[exchange]), Step(play, legal=[cante]), obligations=automatic) is not None
    assert compare_steps(mine, Step(play, legal=[exchange]), obligations=automatic) is not None
