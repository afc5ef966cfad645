"""The trader phase: the trading-house tile turned up (the five tiles each once, then again in the same order), then
goods sold — 1, +1 the chooser's privilege (doubled by the Library), +1 Trading Post — for the tile's price in cards;
the Market Stand's and Market Hall's draws."""

from __future__ import annotations

from collections import Counter

from referee.san_juan.base import ACTING, TILE
from referee.san_juan.cards import GOODS
from referee.san_juan.codes import SJCode
from referee.san_juan.notation import Sell, TileMark
from referee.san_juan.owed import OwedDraws


class TraderPhase(OwedDraws):
    """The tile line and a trader turn: how many goods, which kinds, for how many cards."""

    def sell_limit(self, seat: int, library: bool) -> int:
        limit = 1 + (1 if self.works(seat, "Trading Post") else 0)
        if seat == self.chooser:
            limit += 2 if library else 1
        return limit

    def _apply_tile(self, st: TileMark) -> None:
        """The trader phase starts with the tile turned up: one of the five, in their cycle."""
        if self.stage != TILE:
            raise self.fail(
                SJCode.MISPLACED_TILE, "'tile:' stands only right after the trader role is chosen", st.column
            )
        if st.tile not in self.tiles:
            raise self.fail(
                SJCode.BAD_TILE, f"'{st.tile}' is not a trading-house tile (tiles: {', '.join(self.tiles)})", st.column
            )
        k = len(self.tiles_seen)
        if k < len(self.tiles) and st.tile in self.tiles_seen:
            raise self.fail(
                SJCode.TILE_CYCLE,
                f"tile {st.tile} has already turned up; the {len(self.tiles)} tiles each turn up "
                f"once before the cycle repeats (seen: {', '.join(self.tiles_seen)})",
                st.column,
            )
        if k >= len(self.tiles) and st.tile != self.tiles_seen[k - len(self.tiles)]:
            raise self.fail(
                SJCode.TILE_CYCLE,
                f"the tiles repeat in order: trader phase {k + 1} turns up "
                f"{self.tiles_seen[k - len(self.tiles)]}, not {st.tile}",
                st.column,
            )
        self.tiles_seen.append(st.tile)
        self.tile = st.tile
        self.stage = ACTING

    def _sell(self, seat: int, action: Sell) -> None:
        player = self.p[seat]
        count = len(action.goods)
        doubled = self._check_privilege_count(
            seat, action.goods, self.sell_limit, SJCode.SELL_LIMIT, "sell", action.column
        )
        sold: Counter = Counter()
        for good in action.goods:
            sold[good.name] += 1
            if sold[good.name] > player.goods[good.name]:
                message = f"{player.name} has {player.goods[good.name]} {good.name} good(s)"
                raise self.fail(SJCode.NO_GOOD, message, good.column)
        prices = self.tiles[self.tile or next(iter(self.tiles))]
        wanted = sum(prices[GOODS.index(good.name)] for good in action.goods)
        due = self.capped(wanted, count)
        self._check_count(
            due,
            wanted,
            len(action.draws),
            action.column,
            lambda: f"selling {', '.join(sold.elements())} at tile {self.tile} draws {wanted} card(s)",
        )
        self._check_draws(action.draws, count)
        # --- commit: the goods are discarded before the draws
        if doubled:
            self.library_used.add(seat)
        player.goods -= sold
        self._discard_goods(count)
        self._draw_into_hand(seat, action.draws)
        hall = count if self.options.market_hall_per_good else 1
        self._set_owed(
            seat,
            {
                "market stand": 1 if count >= 2 and self.works(seat, "Market Stand") else 0,
                "market hall": hall if self.works(seat, "Market Hall") else 0,
            },
        )
