"""The prospector phase: the chooser draws 1 card (2 with the Library), then each Gold Mine owner in action order
turns up 4 cards and keeps one only if all 4 costs differ ([D12]: the order and whether keeping is optional)."""

from __future__ import annotations

from collections import Counter

from referee.record import NameRef
from referee.san_juan.base import MINE, PROSPECT, Turn
from referee.san_juan.codes import SJCode
from referee.san_juan.hidden import GOLD_MINE
from referee.san_juan.ledger import Ledger
from referee.san_juan.notation import GoldMineTurn, OwedDraw, is_unknown
from referee.turns import clockwise


class ProspectorPhase(Ledger):
    """Who acts in the prospector phase, the prospector's draw and the Gold Mine turns."""

    def gold_mine_owners(self, chooser: int) -> list[int]:
        return [seat for seat in clockwise(chooser, self.n) if self.works(seat, "Gold Mine")]

    def prospector_turns(self, chooser: int) -> list[Turn]:
        """The prospector phase's turns: the chooser's draw and every Gold Mine owner's, in the order of [D12]."""
        mines = [Turn(seat, MINE) for seat in self.gold_mine_owners(chooser)]
        own = [Turn(chooser, PROSPECT)]
        return own + mines if self.options.gold_mine_after_prospector else mines + own

    def _prospect(self, seat: int, action: OwedDraw) -> None:
        may = self.library(seat).may
        drawn = len(action.draws)
        uses_library = drawn > self.capped(1)
        if uses_library:
            self._library_needed(seat, action.column, "the prospector draws 1 card")
            if not may or drawn > self.capped(2):
                raise self.fail(
                    SJCode.DRAW_COUNT,
                    f"the prospector draws {self.capped(1)} card(s) "
                    + ("(2 with the Library) " if may else "")
                    + f"here, not {drawn}",
                    action.column,
                )
        self._check_draws(action.draws)
        if uses_library:
            self.library_used.add(seat)
        self._draw_into_hand(seat, action.draws)

    def _gold_mine(self, seat: int, action: GoldMineTurn) -> None:
        o = self.options
        due = self.capped(o.gold_mine_cards)
        self._check_count(
            due, o.gold_mine_cards, len(action.cards), action.column, f"a Gold Mine turns up {o.gold_mine_cards} cards"
        )
        cards, open_reading = self._keep_draws(action.cards, action.keeps)
        named = [self.cards[ref.name].cost for ref in cards if not is_unknown(ref)]
        distinct = len(cards) == o.gold_mine_cards and len(set(named)) == len(named)
        if len(action.keeps) > 1:
            raise self.fail(SJCode.GOLD_MINE, "a Gold Mine keeps at most 1 card", action.keeps[1].column)
        if action.keeps:
            ref = action.keeps[0]
            if not distinct:
                raise self.fail(
                    SJCode.GOLD_MINE,
                    "the turned-up cards do not all differ in cost "
                    f"({', '.join(f'{r.name} {self.cards[r.name].cost}' for r in cards if not is_unknown(r))}"
                    "): all are discarded",
                    ref.column,
                )
            if len(named) < len(cards):
                self._check_distinct_costs(cards, ref.column)
        elif distinct and not o.gold_mine_keep_optional and all(not is_unknown(r) for r in cards):
            raise self.fail(SJCode.GOLD_MINE, "the four costs differ: the owner keeps one of the cards", action.column)
        plan = self._plan_keeps(seat, cards, action.keeps)
        plan.open_reading = open_reading
        # --- commit: turn up, keep one, discard the rest
        if action.keeps and len(named) < len(cards):
            self.widen(GOLD_MINE)  # the unnamed cards differ in cost: a bond between their kinds no later check keeps
        self._take_kept(seat, cards, plan)

    def _check_distinct_costs(self, cards: tuple[NameRef, ...], column: int) -> None:
        """A keep needs the four costs to differ: the ``?`` cards must be of costs no named card has, each with a copy
        of such a cost still in the supply (before or after a reshuffle during the turn-up)."""
        named = [ref.name for ref in cards if not is_unknown(ref)]
        used = {self.cards[name].cost for name in named}
        drawn = Counter(named)
        reshuffled = self.supply < len(cards)
        costs = set()
        for name, card in self.cards.items():
            if card.copies and card.cost not in used:
                spare = card.copies - drawn[name] - self._out_of_supply(name, False)
                if reshuffled:
                    spare = max(spare, card.copies - drawn[name] - self._out_of_supply(name, True))
                if spare > 0:
                    costs.add(card.cost)
        blanks = len(cards) - len(named)
        if len(costs) < blanks:
            raise self.fail(
                SJCode.GOLD_MINE,
                f"a keep needs the {len(cards)} costs to differ, but only {len(costs)} other cost(s) "
                f"({', '.join(map(str, sorted(costs))) or 'none'}) have a copy left in the supply for the "
                f"{blanks} unnamed card(s)",
                column,
            )
