"""Scoring: the phase scorings and their ``score:`` claims, the Pub VP bought after a building scoring, and the final
scoring that decides the winner."""

from __future__ import annotations

from referee.game import Outcome, Termination, rank_by_score
from referee.saint_petersburg.cards import COLOUR_OF_DECK
from referee.saint_petersburg.codes import SPCode
from referee.saint_petersburg.notation import Pub, ScoreClaim
from referee.saint_petersburg.position import BETWEEN, PlayerState, Position, Scoring, rubles
from referee.turns import clockwise


class SPTermination(Termination):
    DECK_EXHAUSTED = ("deck-exhausted", "a deck ran out; the round was played out and final scoring decided")


class ScoringRules(Position):
    # ------------------------------------------------------------------------------------------ phase scoring
    def phase_scoring(self, seat: int) -> Scoring:
        """Rubles and VP a player's cards give at the end of the current phase (before pubs)."""
        colour = COLOUR_OF_DECK[self.phase]
        player = self.p[seat]
        rubles = vp = 0
        for card in player.area:
            if card.colour == colour:
                rubles += card.rubles
                vp += card.vp
        if colour == "blue":
            if player.owns("Mariinsky Theater"):
                reds = sum(
                    1
                    for c in player.area
                    if c.colour == "red" and (self.options.mariinsky_counts_red_upgrades or not c.upgrade)
                )
                if self.options.mariinsky_rubles:
                    rubles += reds
                else:
                    vp += reds
            vp -= self.cards["Observatory"].vp * min(player.observatories_used, player.owned.get("Observatory", 0))
        if colour == "red" and player.owns("Tax Man"):
            rubles += sum(1 for c in player.area if c.colour == "green")
        return Scoring(rubles, vp)

    def _score_phase(self) -> None:
        """Pay the scoring of the phase that just ended, in turn order from its token holder (a limited bank runs
        out in that order), and open its ``score:`` claim (and, after the building phase, the pubs)."""
        n = len(self.players)
        results: list[Scoring] = [Scoring(0, 0)] * n
        for seat in clockwise(self.holder[self.phase], n):
            due = self.phase_scoring(seat)
            paid = self._income(seat, due.rubles)
            self.p[seat].vp += due.vp
            results[seat] = Scoring(paid, due.vp)
        self.last_scoring = results
        self.score_claim_open = True
        self.pub_open = self.phase == "building"
        self.pubs_used = set()

    def _apply_score_claim(self, st: ScoreClaim) -> None:
        seats = self.claimed_seats(entry.player for entry in st.entries)  # a malformed line, wherever it stands
        if not (self.stage == BETWEEN and self.score_claim_open and self.last_scoring is not None):
            raise self.fail(
                SPCode.SCORE_MISPLACED,
                "'score:' stands once, right after a worker, building or aristocrat phase ends and before any pub line",
                st.column,
            )
        for seat, entry in zip(seats, st.entries, strict=True):
            real = self.last_scoring[seat]
            if (entry.rubles, entry.vp) != (real.rubles, real.vp):
                self.claim_failed(
                    SPCode.SCORE_MISMATCH,
                    f"{entry.player.name} scores +{real.rubles}R +{real.vp}VP, not +{entry.rubles}R +{entry.vp}VP",
                    entry.player.column,
                )
                break
        self.score_claim_open = False

    # --------------------------------------------------------------------------------------------------- pubs
    def pub_cap(self, seat: int) -> int:
        """The most VP a player's Pubs buy after one building scoring ([D1])."""
        pubs = self.p[seat].owned.get("Pub", 0)
        if not pubs:
            return 0
        return self.options.pub_max_vp * (pubs if self.options.pub_cap_per_pub else 1)

    def pub_affordable(self, seat: int) -> int:
        """The most VP a player may buy with his Pubs now: the cap, and what his rubles pay for (the whole cap when a
        house rule makes them free: ``pub_vp_price`` 0)."""
        price = self.options.pub_vp_price
        cap = self.pub_cap(seat)
        return min(cap, self.p[seat].rubles // price) if price else cap

    def _apply_pub(self, seat: int, action: Pub) -> None:
        if not (self.stage == BETWEEN and self.pub_open):
            raise self.fail(
                SPCode.PUB_MISPLACED,
                "Pub VP are bought right after a building scoring, before the next phase header",
                action.column,
            )
        cost = self._check_pub(seat, action)
        player = self.p[seat]
        self._spend(seat, cost)
        player.vp += action.count
        player.pub_vp += action.count
        self.pubs_used.add(seat)
        self.score_claim_open = False

    def _check_pub(self, seat: int, action: Pub) -> int:
        """What the Pub VP cost, once this player may buy that many now. A pub line, ``pub 0`` included, is written
        by a Pub owner, once per building scoring (record-format.md section 2)."""
        player = self.p[seat]
        if not player.owns("Pub"):
            raise self.fail(SPCode.PUB_NOT_OWNED, f"{player.name} owns no Pub", action.column)
        if seat in self.pubs_used:
            raise self.fail(
                SPCode.PUB_TWICE, f"{player.name} has already written a pub line after this scoring", action.column
            )
        cap = self.pub_cap(seat)
        if action.count > cap:
            raise self.fail(
                SPCode.PUB_LIMIT, f"{player.name}'s Pubs buy at most {cap} VP per building scoring", action.count_column
            )
        cost = action.count * self.options.pub_vp_price
        if cost > player.rubles:  # at the count, before the claimed price (reading order)
            raise self.fail(
                SPCode.CANNOT_AFFORD,
                f"{action.count} VP cost {rubles(cost)}; {player.name} has {player.rubles}",
                action.count_column,
            )
        if action.price is not None and action.price != cost:
            self.claim_failed(
                SPCode.PRICE_MISMATCH, f"{action.count} VP cost {rubles(cost)}, not {action.price}", action.price_column
            )
        return cost

    # ------------------------------------------------------------------------------------------ final scoring
    def _final_breakdown(self, player: PlayerState) -> dict[str, int]:
        """One player's final score, part by part (``total`` is the score)."""
        options = self.options
        distinct = len({c.name for c in player.area if c.colour == "red"})
        variety = options.variety_table[min(distinct, len(options.variety_table) - 1)]
        conversion = player.rubles // options.rubles_per_vp
        penalty = options.hand_penalty * len(player.hand)
        return {
            "phase scoring": player.vp - player.pub_vp,
            "pubs": player.pub_vp,
            "aristocrat variety": variety,
            "rubles": conversion,
            "hand penalty": -penalty,
            "total": player.vp + variety + conversion - penalty,
            "rubles left": player.rubles % options.rubles_per_vp,
        }

    def _final_scoring(self) -> Outcome:
        """The final scores and the winner: most VP, then the tie-break on rubles ([D3]), else a shared win."""
        breakdown = {player.name: self._final_breakdown(player) for player in self.p}
        scores = {name: parts["total"] for name, parts in breakdown.items()}
        if self.options.tiebreak_leftover:
            criterion = "rubles left after conversion"
            tiebreak = {name: parts["rubles left"] for name, parts in breakdown.items()}
        else:
            criterion = "total rubles"
            tiebreak = {player.name: player.rubles for player in self.p}
        return rank_by_score(scores, SPTermination.DECK_EXHAUSTED, [(criterion, tiebreak)], breakdown)

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise RuntimeError("the game is not over")
        return self._outcome
