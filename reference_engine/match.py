"""Points, cotos and the match (rule area MATCH), and who deals next (PRE-10).

A point (partida) is won by reaching 101, in the first hand or de vueltas (MATCH-01).
The first side to ``points_per_coto`` points wins a coto (MATCH-03); the first to
``cotos_to_win`` cotos wins the match (MATCH-05..07). Totals restart at zero for every
point (MATCH-02, interpretation C-09).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MatchScore:
    points_per_coto: int
    cotos_to_win: int
    points: list[int] = field(default_factory=lambda: [0, 0])
    cotos: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None

    def award_point(self, side: int) -> list[str]:
        """Record a won point; return what it completed: ``"coto"``, then ``"match"``."""
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
    """PRE-10: the player who won the last trick deals the next hand. Interpretation (C-10):
    when a hand ends early, the winner of the last trick actually played deals."""
    return last_trick_winner
