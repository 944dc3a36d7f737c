"""Points, cotos and the match (rule area MATCH), and who deals next (PRE-10).

A point (partida) is won by reaching 101, in the first hand or de vueltas (MATCH-01).
The first side to ``points_per_coto`` points wins a coto (MATCH-03); the first to
``cotos_to_win`` cotos wins the match (MATCH-05..07). Points are counted, not hands
(MATCH-10). Totals restart at zero for every point (interpretation MATCH-02, C-09).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MatchScore:
    """Points in the current coto and cotos won, per side; ``winner`` once the match is won."""

    points_per_coto: int
    cotos_to_win: int
    points: list[int] = field(default_factory=lambda: [0, 0])
    cotos: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None

    def award_point(self, side: int) -> list[str]:
        """MATCH-03/05: record a won point; return what it completed: ``"coto"``, then ``"match"``.

        interpretation (MATCH-12, B-29): both sides' points restart at zero when a coto is won.
        """
        completed: list[str] = []
        self.points[side] += 1
        if self.points[side] >= self.points_per_coto:  # MATCH-03
            self.cotos[side] += 1
            self.points = [0, 0]
            completed.append("coto")
            if self.cotos[side] >= self.cotos_to_win:  # MATCH-05
                self.winner = side
                completed.append("match")
        return completed


def next_dealer(last_trick_winner: int) -> int:
    """PRE-10: the player who won the last trick deals the next hand.

    interpretation (MATCH-11, C-10): when a hand ends before its last trick (a claim, the
    automatic end of a hand de vueltas, a tute or a renuncio), the winner of the last trick
    actually played deals.
    """
    return last_trick_winner
