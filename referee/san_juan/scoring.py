"""Final scoring: printed VP (the Palace's by [D7]), Chapel cards and the cost-6 buildings' bonuses; the winner has
the most VP, ties broken by hand cards + goods (a tie after that is a shared win)."""

from __future__ import annotations

from referee.game import Outcome, rank_by_score
from referee.san_juan.base import OVER, SJBase
from referee.san_juan.cards import MONUMENTS
from referee.san_juan.codes import SJTermination


class Scoring(SJBase):
    """Scores and the outcome of a finished game."""

    def score(self, seat: int) -> dict[str, int]:
        player = self.p[seat]
        printed = sum(self.options.palace_vp if name == "Palace" else self.cards[name].vp for name in player.city)
        parts = {"buildings": printed, "chapel": player.tucked}
        if player.owned["Guild Hall"]:
            parts["guild hall"] = 2 * sum(1 for name in player.city if self.cards[name].production)
        if player.owned["City Hall"]:
            parts["city hall"] = sum(1 for name in player.city if self.cards[name].violet)
        if player.owned["Triumphal Arch"]:
            kinds = sum(1 for name in MONUMENTS if player.owned[name])
            parts["triumphal arch"] = (0, 4, 6, 8)[kinds]
        if player.owned["Palace"]:
            parts["palace"] = sum(parts.values()) // 4
        parts["total"] = sum(parts.values())
        return parts

    def outcome(self) -> Outcome:
        if self.stage != OVER:
            raise RuntimeError("the game is not over")
        breakdown = {p.name: self.score(seat) for seat, p in enumerate(self.p)}
        scores = {name: parts["total"] for name, parts in breakdown.items()}
        for player in self.p:  # the tie-break data, shown after the total
            breakdown[player.name].update({"hand cards": player.hand_size, "goods": player.goods_total})
        tiebreak = {p.name: p.hand_size + p.goods_total for p in self.p}
        return rank_by_score(scores, SJTermination.TWELVE_BUILDINGS, [("most hand cards + goods", tiebreak)], breakdown)
