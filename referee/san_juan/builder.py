"""The builder phase: a building, its cost and its payment — the chooser's privilege (doubled by the Library), the
Smithy and the Quarry, the Crane building over one of the owner's buildings, the Black Market spending goods — and
the draws it earns (Carpenter, Poor House)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from referee.san_juan.base import LibraryUse
from referee.san_juan.cards import Card
from referee.san_juan.codes import SJCode
from referee.san_juan.notation import Build
from referee.san_juan.owed import OwedDraws


@dataclass(frozen=True)
class Price:
    """What a building costs a builder here, in hand cards: without the Library's doubled privilege, with it, and
    every count he may pay ([D9]: exactly the reduced cost, or anything up to the unreduced one)."""

    plain: int
    doubled: int
    allowed: set[int]


class BuilderPhase(OwedDraws):
    """A builder turn: what the building costs this builder, how he pays, what he covers."""

    def build_cost(
        self, seat: int, card: Card, covered: Card | None = None, library: bool = False, reductions: bool = True
    ) -> int:
        """Cards to discard for a building before Black Market goods: cost less every reduction, never below 0."""
        cost = card.cost - (covered.cost if covered is not None else 0)
        if reductions:
            if seat == self.chooser and self.role == "builder":
                cost -= 2 if library else 1
            if card.production and self.works(seat, "Smithy", covered):
                cost -= 1
            if card.violet and self.works(seat, "Quarry", covered):
                cost -= 1
        return max(cost, 0)

    def price(self, seat: int, card: Card, covered: Card | None) -> Price:
        """The card counts this builder may pay for ``card`` (over ``covered``) before Black Market goods."""
        return Price(*self._price(seat, card, covered, self.library(seat)))

    def _price(self, seat: int, card: Card, covered: Card | None, library: LibraryUse) -> tuple[int, int, set[int]]:
        """``price`` as its three parts, with the builder's Library already looked up (``_build`` asks once)."""
        o = self.options
        plain = self.build_cost(seat, card, covered, False)
        doubled = self.build_cost(seat, card, covered, True) if (library.may or library.used) else plain
        if o.cost_reductions_mandatory:
            if library.may and not self.library_optional(seat):
                allowed = {doubled}
            elif library.may:
                allowed = {plain, doubled}
            else:
                allowed = {plain}
        else:
            low = doubled if library.may else plain
            allowed = set(range(low, self.build_cost(seat, card, covered, reductions=False) + 1))
        return plain, doubled, allowed

    def _build(self, seat: int, action: Build) -> None:
        player = self.p[seat]
        card = self.cards[action.card.name]
        covered = self._crane_target(seat, action) if action.over is not None else None
        if not card.production and player.owned.get(card.name):  # violet
            raise self.fail(
                SJCode.DUPLICATE_VIOLET,
                f"{player.name} already has a {card.name}; a violet building is built only once per city",
                action.card.column,
            )
        plan = self._plan_removal(seat, (action.card, *action.paying), "the building and its payment")
        goods = self._black_market_goods(seat, action, covered) if action.goods else None
        if self._check_payment(seat, action, card, covered):
            self.library_used.add(seat)
        # --- commit
        self._remove(seat, plan)
        self._to_discard_all(action.paying)
        if goods:
            for good, k in goods.items():
                player.goods[good] -= k
                self._discard_goods(k)
        if covered is not None:
            self._cover(seat, covered)
        player.city.append(card.name)
        player.owned[card.name] += 1
        player.fresh = card.name
        carpenter = not card.production and self.works(seat, "Carpenter")
        poor_house = self.works(seat, "Poor House") and player.hand_size <= 1
        if carpenter or poor_house:
            owed = {"carpenter": 1} if carpenter else {}
            if poor_house:
                owed["poor house"] = 1
            self.owed_seat, self.owed = seat, owed
        else:  # nothing owed (``_set_owed`` with nothing above 0)
            self.owed_seat, self.owed = None, {}

    def _crane_target(self, seat: int, action: Build) -> Card | None:
        """The building a Crane builds over: one of the builder's own, with a working Crane ([D4]: not the Crane)."""
        if action.over is None:
            return None
        player = self.p[seat]
        if not self.works(seat, "Crane"):
            raise self.fail(
                SJCode.NO_CRANE, f"{player.name} has no working Crane to build over a building", action.over.column
            )
        if not player.owned[action.over.name]:
            raise self.fail(SJCode.CRANE_TARGET, f"{player.name}'s city has no {action.over.name}", action.over.column)
        if action.over.name == "Crane" and not self.options.crane_over_crane:
            raise self.fail(SJCode.CRANE_TARGET, "the Crane may not build over the Crane itself", action.over.column)
        return self.cards[action.over.name]

    def _black_market_goods(self, seat: int, action: Build, covered: Card | None) -> Counter:
        """The goods a Black Market spends (good -> count): 1 or 2 of the builder's own, named by their buildings."""
        player = self.p[seat]
        goods: Counter = Counter()
        if not action.goods:
            return goods
        if not self.works(seat, "Black Market", covered):
            raise self.fail(
                SJCode.NO_BLACK_MARKET,
                f"{player.name} has no working Black Market to pay with goods",
                action.goods[0].column,
            )
        if len(action.goods) > 2:
            raise self.fail(
                SJCode.BLACK_MARKET_GOODS, "the Black Market spends at most 2 goods", action.goods[2].column
            )
        for ref in action.goods:
            building = self.cards[ref.name]
            if not building.production:
                raise self.fail(
                    SJCode.NOT_PRODUCTION, f"{ref.name} is not a production building and holds no good", ref.column
                )
            goods[building.good] += 1
            if goods[building.good] > player.goods[building.good]:
                raise self.fail(
                    SJCode.BLACK_MARKET_GOODS,
                    f"{player.name} has {player.goods[building.good]} {building.good} good(s) to spend",
                    ref.column,
                )
        return goods

    def _check_payment(self, seat: int, action: Build, card: Card, covered: Card | None) -> bool:
        """Refuse a payment (hand cards + goods) the price does not allow; say whether it spends the Library's
        doubled privilege (the caller records the use when it commits)."""
        player = self.p[seat]
        library = self.library(seat)
        plain, doubled, allowed = self._price(seat, card, covered, library)
        spent = len(action.goods)
        paid = len(action.paying)
        total = paid + spent
        if not self.options.black_market_only_needed and spent and not paid and spent >= min(allowed):
            total = min(allowed)
        if total in allowed:
            return library.may and total == doubled and doubled != plain
        if library.used and total == doubled:
            raise self.fail(
                SJCode.LIBRARY_USED,
                f"{player.name} has already used the Library this round; {card.name} costs {plain} card(s) without it",
                action.column,
            )
        due = " or ".join(str(a) for a in sorted(allowed)) if len(allowed) <= 3 else f"{min(allowed)} to {max(allowed)}"
        extra = f" + {spent} good(s)" if spent else ""
        why = "goods may pay only what the cost still requires; " if spent > max(allowed) else ""
        raise self.fail(
            SJCode.PAYMENT if not spent or spent <= max(allowed) else SJCode.BLACK_MARKET_GOODS,
            f"{why}{card.name} costs {player.name} {due} card(s) here ({self._cost_story(seat, card, covered)}); "
            f"the record pays {paid} card(s){extra}",
            action.column,
        )

    def _cost_story(self, seat: int, card: Card, covered: Card | None) -> str:
        parts = [f"cost {card.cost}"]
        if covered is not None:
            parts.append(f"-{covered.cost} {covered.name} covered")
        if seat == self.chooser:
            parts.append("-1 privilege" + (" (-2 with the Library)" if self.library(seat).may else ""))
        if card.production and self.works(seat, "Smithy", covered):
            parts.append("-1 Smithy")
        if card.violet and self.works(seat, "Quarry", covered):
            parts.append("-1 Quarry")
        return " ".join(parts)

    def _cover(self, seat: int, covered: Card) -> None:
        """The Crane's covered building leaves the city: to the discard pile ([D3]) with its good."""
        player = self.p[seat]
        player.city.remove(covered.name)
        player.owned[covered.name] -= 1
        if self.options.crane_covered_to_discard:
            self.discard_known[covered.name] += 1
        else:
            self.under_known[covered.name] += 1
        if covered.production and player.goods[covered.good] > player.production(covered.good):
            # a building of that kind was empty if any was: the good is lost only when all were full
            player.goods[covered.good] -= 1
            self._discard_goods(1)
        if covered.name == "Chapel" and not self.options.chapel_cards_stay and player.tucked:
            # the tucked cards go to the discard pile: the named ones stay known there, and the candidates of a pool
            # that went under the Chapel are in the pile now
            self.discard_known += player.tucked_known
            self.discard_unknown += player.tucked - sum(player.tucked_known.values())
            player.tucked, player.tucked_known = 0, Counter()
            for pool in self.pools:
                if pool.owner == seat:
                    pool.away += pool.fixed
                    pool.fixed = 0
