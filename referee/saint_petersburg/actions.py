"""The turns of a phase — buy, take, play, pass, use an Observatory — and the prices and upgrade targets they rest on.

Each check runs before anything changes, so a refused turn leaves the position as it was; ``carry_out`` does the
turn and nothing else (the turn flow decides who acts next).
"""

from __future__ import annotations

from referee.record import NameRef
from referee.saint_petersburg.cards import Card
from referee.saint_petersburg.codes import SPCode
from referee.saint_petersburg.notation import Action, Buy, Observe, Pass, Play, Take
from referee.saint_petersburg.position import Position, rubles


class Actions(Position):
    # ------------------------------------------------------------------------------------------------ prices
    def price(self, seat: int, card: Card, from_lower: bool, over: Card | None) -> int:
        """The one price formula: printed cost less every reduction, never below the minimum (1 ruble)."""
        player = self.p[seat]
        price = card.cost - player.owned.get(card.name, 0)
        if from_lower:
            price -= 1
        if card.colour == "blue" and player.owns("Carpenter Workshop"):
            price -= 1
        if card.colour == "red" and player.owns("Gold Smelter"):
            price -= 1
        if over is not None:
            price -= self.card_value(over)
        return max(price, self.options.min_price)

    def targets(self, seat: int, upgrade: Card, turning: int = 0) -> list[Card]:
        """The distinct cards of a player's area an upgrade may displace (``turning``: Observatories being used
        by this very turn, which are turned and so cannot be displaced)."""
        player = self.p[seat]
        found: dict[str, Card] = {}
        for card in player.area:
            if self._target_problem(seat, upgrade, card, turning) is None:
                found.setdefault(card.name, card)
        return list(found.values())

    def _target_problem(self, seat: int, upgrade: Card, target: Card, turning: int = 0) -> str | None:
        """Why ``upgrade`` may not displace ``target`` (the one statement of the upgrade rule), or None."""
        player = self.p[seat]
        if not player.owns(target.name):
            return f"{player.name} has no {target.name} in their area"
        if target.upgrade:
            return "an upgrade never displaces another upgrade"
        if target.colour != upgrade.colour:
            return f"{upgrade.name} is a {upgrade.colour} upgrade and displaces only a {upgrade.colour} card"
        if upgrade.colour == "green" and target.symbol not in (upgrade.symbol, "any"):
            return (
                f"{upgrade.name} needs a worker with the {upgrade.symbol} symbol (or Czar & Carpenter); "
                f"{target.name} shows {target.symbol}"
            )
        if target.name == "Observatory" and player.owned["Observatory"] <= player.observatories_used + turning:
            return "an Observatory turned this round cannot be displaced"
        return None

    def free_observatories(self, seat: int) -> int:
        """How many Observatory uses the player has left this round."""
        player = self.p[seat]
        owned = player.owned.get("Observatory", 0)
        if not self.options.observatory_same_phase:
            owned -= player.observatories_fresh
        if self.options.observatory_each_once:
            return max(owned - player.observatories_used, 0)
        return 1 if owned > 0 and player.observatories_used == 0 else 0

    def observable(self, deck: str) -> bool:
        """Whether an Observatory may draw from ``deck``: never a deck's last card."""
        return self.deck_size[deck] >= 2

    # ------------------------------------------------------------------------------------------------- turns
    def carry_out(self, seat: int, action: Action) -> None:
        """Judge and do one turn of the player to act (whose turn it is was checked by the turn flow)."""
        if isinstance(action, Pass):
            self._check_pass(seat, action)
            return
        if self.buy_only() and not isinstance(action, Buy):
            raise self.fail(
                SPCode.MUST_BUY, "in round 1's worker phase every turn buys a card from the display", action.column
            )
        if isinstance(action, Buy):
            self._buy(seat, action)
        elif isinstance(action, Take):
            self._take(seat, action)
        elif isinstance(action, Play):
            self._play(seat, action)
        elif isinstance(action, Observe):
            self._observe(seat, action)
        else:
            raise TypeError(action)

    def _check_pass(self, seat: int, action: Pass) -> None:
        """A pass is free but in a buy-only phase, where only a player who can afford nothing passes ([D6])."""
        if not self.buy_only():
            return
        affordable = any(
            self.price(seat, card, row is self.lower, None) <= self.p[seat].rubles
            for row in (self.upper, self.lower)
            for card in row
        )
        if affordable or not self.options.first_phase_broke_pass:
            raise self.fail(
                SPCode.MUST_BUY,
                "in round 1's worker phase every turn buys a card from the "
                "display; passing is allowed only to a player who can afford none",
                action.column,
            )

    def _buy(self, seat: int, action: Buy) -> None:
        card = self.cards[action.card.name]
        row = self._locate(card, action.row, action.card.column, "buy")
        target = self._resolve_target(seat, card, action.over, action.card.column)
        price = self.price(seat, card, row is self.lower, target)
        self._check_payment(seat, card, price, action.price, action.price_column, action.card.column)
        row.remove(card)
        self.display_touched = True
        self._place(seat, card, target, price)

    def _take(self, seat: int, action: Take) -> None:
        card = self.cards[action.card.name]
        row = self._locate(card, action.row, action.card.column, "take")
        if not self.has_room(seat):
            raise self.fail(
                SPCode.HAND_FULL,
                f"{self.p[seat].name} already holds {len(self.p[seat].hand)} "
                f"card(s), the limit is {self.hand_limit(seat)}",
                action.column,
            )
        row.remove(card)
        self.display_touched = True
        self.p[seat].hand.append(card)

    def _play(self, seat: int, action: Play) -> None:
        card = self.cards[action.card.name]
        if card not in self.p[seat].hand:
            raise self.fail(SPCode.NOT_IN_HAND, f"{self.p[seat].name} holds no {card.name}", action.card.column)
        target = self._resolve_target(seat, card, action.over, action.card.column)
        price = self.price(seat, card, False, target)
        self._check_payment(seat, card, price, action.price, action.price_column, action.card.column)
        self.p[seat].hand.remove(card)
        self._place(seat, card, target, price)

    def _observe(self, seat: int, action: Observe) -> None:
        """An Observatory turn: draw the named card from a deck, then buy (no row discount), take or discard it."""
        card = self._check_observation(seat, action)
        target = None
        price = 0
        if action.choice == "buy":
            target = self._resolve_target(seat, card, action.over, action.card.column, turning=1)
            price = self.price(seat, card, False, target)
            self._check_payment(seat, card, price, action.price, action.price_column, action.card.column)
        elif action.choice == "take" and not self.has_room(seat):
            raise self.fail(
                SPCode.HAND_FULL,
                f"{self.p[seat].name}'s hand is full (limit {self.hand_limit(seat)}); discard or buy the observed card",
                action.column,
            )
        self.decks[action.deck][card.name] -= 1
        self.deck_size[action.deck] -= 1
        self.p[seat].observatories_used += 1
        if action.choice == "buy":
            self._place(seat, card, target, price)
        elif action.choice == "take":
            self.p[seat].hand.append(card)
        else:
            self.discards.append(card)

    def _check_observation(self, seat: int, action: Observe) -> Card:
        """The drawn card, once the Observatory may be used now and the deck can give that card."""
        if self.phase != "building":
            raise self.fail(
                SPCode.OBSERVATORY_UNAVAILABLE, "an Observatory is used only in the building phase", action.column
            )
        if self.free_observatories(seat) == 0:
            why = (
                "owns no Observatory"
                if not self.p[seat].owns("Observatory")
                else "has already used their Observatory this round"
                if self.p[seat].observatories_used
                else "cannot use an Observatory in the phase it was bought"
            )
            raise self.fail(SPCode.OBSERVATORY_UNAVAILABLE, f"{self.p[seat].name} {why}", action.column)
        deck = action.deck
        if not self.observable(deck):
            left = self.deck_size[deck]
            holds = "is empty" if left == 0 else "holds its last card" if left == 1 else f"holds {left} cards"
            raise self.fail(
                SPCode.OBSERVATORY_LAST_CARD,
                f"the {deck} deck {holds}; the Observatory may not draw a deck's last card",
                action.column,
            )
        card = self.cards[action.card.name]
        if card.deck != deck or self.decks[deck][card.name] == 0:
            where = f"belongs to the {card.deck} deck" if card.deck != deck else "has no copy left in that deck"
            raise self.fail(SPCode.OBSERVED_CARD_UNAVAILABLE, f"{card.name} {where}", action.card.column)
        return card

    # ------------------------------------------------------------------------------------------------ checks
    def _locate(self, card: Card, row: str | None, column: int, verb: str) -> list[Card]:
        """The display row a card is bought or taken from: the written one, or the only one holding it."""
        in_upper, in_lower = card in self.upper, card in self.lower
        if row == "upper" or (row is None and in_upper and not in_lower):
            if not in_upper:
                raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the upper row", column)
            return self.upper
        if row == "lower" or (row is None and in_lower and not in_upper):
            if not in_lower:
                raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the lower row", column)
            return self.lower
        if in_upper and in_lower:
            raise self.fail(
                SPCode.AMBIGUOUS_ROW,
                f"{card.name} lies in both rows: write '{verb} upper {card.name}' or '{verb} lower {card.name}'",
                column,
            )
        raise self.fail(SPCode.NOT_IN_DISPLAY, f"there is no {card.name} in the display", column)

    def _resolve_target(
        self, seat: int, card: Card, over: NameRef | None, column: int, turning: int = 0
    ) -> Card | None:
        """The card an upgrade displaces (None for any other card), once ``over`` may name it."""
        if not card.upgrade:
            if over is not None:
                raise self.fail(
                    SPCode.NOT_AN_UPGRADE, f"{card.name} is not an upgrade card and displaces nothing", over.column
                )
            return None
        if over is None:
            raise self.fail(
                SPCode.UPGRADE_NEEDS_TARGET,
                f"{card.name} is an upgrade: write 'over CARD' naming the {card.colour} card it displaces",
                column,
            )
        target = self.cards[over.name]
        problem = self._target_problem(seat, card, target, turning)
        if problem:
            raise self.fail(SPCode.BAD_TARGET, problem, over.column)
        return target

    def _check_payment(
        self, seat: int, card: Card, price: int, claimed: int | None, claim_column: int, column: int
    ) -> None:
        """Check the player's money, then a price claim (no change yet): in reading order, the card comes before its
        claimed price."""
        if price > self.p[seat].rubles:
            raise self.fail(
                SPCode.CANNOT_AFFORD,
                f"{card.name} costs {rubles(price)}; {self.p[seat].name} has {self.p[seat].rubles}",
                column,
            )
        if claimed is not None and claimed != price:
            self.claim_failed(
                SPCode.PRICE_MISMATCH,
                f"{card.name} costs {self.p[seat].name} {rubles(price)} here, not {claimed}",
                claim_column,
            )

    # ------------------------------------------------------------------------------------------------ change
    def _place(self, seat: int, card: Card, target: Card | None, price: int) -> None:
        """Pay for a card and put it in the player's area, over ``target`` (which goes to the discards)."""
        player = self.p[seat]
        self._spend(seat, price)
        if target is not None:
            player.area.remove(target)
            player.owned[target.name] -= 1
            self.discards.append(target)
        player.area.append(card)
        player.owned[card.name] += 1
        if card.name == "Observatory":
            player.observatories_fresh += 1
