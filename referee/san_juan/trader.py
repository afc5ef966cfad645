"""The trader phase: the trading-house tile turned up (the five tiles each once, then again in the same order), then
goods sold — 1, +1 the chooser's privilege (doubled by the Library), +1 Trading Post — for the tile's price in cards;
the Market Stand's and Market Hall's draws."""

from __future__ import annotations

from referee.san_juan.base import ACTING, TILE
from referee.san_juan.cards import GOOD_INDEX
from referee.san_juan.codes import SJCode
from referee.san_juan.ledger import subtract_counts
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
        # one good is always within the limit (it is at least 1): the privilege's count check only for more
        doubled = count > 1 and self._check_privilege_count(
            seat, action.goods, self.sell_limit, SJCode.SELL_LIMIT, "sell", action.column
        )
        sold: dict[str, int] = {}
        goods = player.goods
        for good in action.goods:
            name = good.name
            k = sold[name] = sold.get(name, 0) + 1
            if k > goods.get(name, 0):
                message = f"{player.name} has {goods.get(name, 0)} {name} good(s)"
                raise self.fail(SJCode.NO_GOOD, message, good.column)
        prices = self.tiles[self.tile or next(iter(self.tiles))]
        wanted = 0
        for good in action.goods:
            wanted += prices[GOOD_INDEX[good.name]]
        due = self.capped(wanted, count)
        if due != wanted or len(action.draws) != due:  # else ``_check_count`` finds nothing wrong
            self._check_count(
                due,
                wanted,
                len(action.draws),
                action.column,
                lambda: (
                    f"selling {', '.join(name for name, k in sold.items() for _ in range(k))} at tile {self.tile} "
                    f"draws {wanted} card(s)"
                ),
            )
        self._check_draws(action.draws, count)
        # --- commit: the goods are discarded before the draws
        if doubled:
            self.library_used.add(seat)
        subtract_counts(goods, sold)
        self._discard_goods(count)
        self._draw_into_hand(seat, action.draws)
        stand = count >= 2 and self.works(seat, "Market Stand")
        hall = (count if self.options.market_hall_per_good else 1) if self.works(seat, "Market Hall") else 0
        if stand or hall > 0:
            owed = {"market stand": 1} if stand else {}
            if hall > 0:
                owed["market hall"] = hall
            self.owed_seat, self.owed = seat, owed
        else:  # nothing owed (``_set_owed`` with nothing above 0)
            self.owed_seat, self.owed = None, {}
