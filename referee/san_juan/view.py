"""What a person or a program sees of a position: the statements that could legally come next (the "legal
alternatives" shown with an error, ``?`` for cards), the state summary, and the fingerprint that proves a rejected
statement changed nothing. Queries only: nothing here changes the state."""

from __future__ import annotations

from collections import Counter

from referee.errors import RefereeError
from referee.record import NameRef, quote_player
from referee.san_juan.base import ACT, CHOOSING, MINE, OVER, PROSPECT, SETUP, TILE
from referee.san_juan.cards import BUILDING_OF_GOOD, GOODS, Card
from referee.san_juan.flow import TurnFlow
from referee.san_juan.notation import (
    ROLES,
    Action,
    Build,
    Council,
    Discard,
    GoldMineTurn,
    OwedDraw,
    Pass,
    Produce,
    RoleChoice,
    Sell,
    Tuck,
    actor_text,
)


class View(TurnFlow):
    """Queries for people and tests: alternatives, summary, fingerprint."""

    # ---------------------------------------------------------------------------------------- alternatives
    def legal_statements(self) -> list[str]:
        """Statements (record text, ``?`` for cards) that could legally come next."""
        texts = self._owed_statements()
        if texts and self.mandatory_owed() is not None:  # effects mandatory: the owed draw comes first
            return texts
        if self.stage == SETUP:
            if self.governor is None:
                texts.append("governor: PLAYER")
            texts += [f"hand {quote_player(p.name)}: {self.options.start_hand} cards" for p in self.p if not p.dealt]
            if texts:
                return texts
            # setup is complete: round 1 opens (its checkpoint, its discards when a dealt hand is over the limit, the
            # first role choice; the stage moves on with the first actor line)
        if self.stage == OVER:
            return [*texts, "final: PLAYER VP, ...", "win: PLAYER"]
        if self.archive_due is not None:
            due = self.archive_due
            return [actor_text(self.players[due.seat], Discard(self._blanks(due.excess)))]
        if self.stage == TILE:
            k = len(self.tiles_seen)
            if k >= len(self.tiles):
                return [f"tile: {self.tiles_seen[k - len(self.tiles)]}"]
            return [f"tile: {tile}" for tile in self.tiles if tile not in self.tiles_seen]
        if self.stage in (CHOOSING, SETUP):
            texts += self._round_start_statements()
            if self._discards_due():  # the hand-limit discards come before the first role choice
                return texts
            chooser = self.players[self.chooser_due()]
            return texts + [actor_text(chooser, RoleChoice(role)) for role in ROLES if role not in self.roles_chosen]
        turn = self.turns[self.turn_index]
        return texts + [
            actor_text(self.players[turn.seat], action) for action in self.legal_actions(turn.seat, turn.kind)
        ]

    def _owed_statements(self) -> list[str]:
        if self.owed_seat is None:
            return []
        name = self.players[self.owed_seat]
        mandatory = not self.options.effects_optional
        return [
            actor_text(name, OwedDraw(source, self._blanks(self.capped(count))))
            for source, count in self.owed.items()
            if self.capped(count) and not (mandatory and source == "poor house" and "carpenter" in self.owed)
        ]

    def _round_start_statements(self) -> list[str]:
        """The round checkpoint (before the round's tucks and discards), Chapel tucks and hand-limit discards that may
        open a round (round 1: right after the setup)."""
        if not self.opening():
            return []
        started = any(p.tucked_this_round or p.discarded_this_round for p in self.p)
        texts = [] if started else [f"round {self.round}"]
        for seat, player in enumerate(self.p):
            if (
                self.works(seat, "Chapel")
                and not player.tucked_this_round
                and not player.discarded_this_round
                and player.hand_size
            ):
                texts.append(actor_text(player.name, Tuck(NameRef("?", 0))))
            excess = player.hand_size - self.hand_limit(seat)
            if excess > 0 and not player.discarded_this_round:
                texts.append(actor_text(player.name, Discard(self._blanks(excess))))
        return texts

    def _discards_due(self) -> bool:
        return self.opening() and any(
            player.hand_size > self.hand_limit(seat) and not player.discarded_this_round
            for seat, player in enumerate(self.p)
        )

    @staticmethod
    def _blanks(count: int) -> tuple[NameRef, ...]:
        return tuple(NameRef("?", 0) for _ in range(count))

    def legal_actions(self, seat: int, kind: str) -> list[Action]:
        """Representative legal turns for the player to act (cards the record does not know are written ``?``)."""
        player = self.p[seat]
        actions: list[Action] = []
        avail = self.available()
        if kind == PROSPECT:
            counts = (1, 2) if self.library(seat).may else (1,)  # the Library doubles the draw
            for count in dict.fromkeys(self.capped(c) for c in counts):
                if count:
                    actions.append(OwedDraw("prospector", self._blanks(count)))
        elif kind == MINE:
            actions.append(GoldMineTurn(self._blanks(self.capped(self.options.gold_mine_cards)), ()))
        elif self.role == "builder":
            actions += self._legal_builds(seat)
        elif self.role == "producer":
            empty = [BUILDING_OF_GOOD[g] for g in GOODS for _ in range(player.production(g) - player.goods[g])]
            limit = min(self.produce_limit(seat, self.library(seat).may), len(empty), avail)
            if limit:
                actions.append(Produce(tuple(NameRef(n, 0) for n in empty[:limit])))
        elif self.role == "trader":
            goods = [g for g in GOODS for _ in range(player.goods[g])]
            limit = min(self.sell_limit(seat, self.library(seat).may), len(goods))
            if limit and self.tile:
                sold = goods[-limit:]
                wanted = sum(self.tiles[self.tile][GOODS.index(g)] for g in sold)
                actions.append(Sell(tuple(NameRef(g, 0) for g in sold), self._blanks(self.capped(wanted, limit))))
        elif self.role == "councillor":
            drawn = self.capped(max(self.council_counts(seat)))
            if drawn:
                actions.append(Council(self._blanks(drawn), self._blanks(min(self.keep_limit(seat), drawn))))
        actions.append(Pass())
        return actions

    def _legal_builds(self, seat: int) -> list[Action]:
        """Every building in the hand the builder can pay for (at its mandatory cost): in hand cards, over each
        building a working Crane may cover, and with the Black Market's goods where they pay part of it; the
        2-player governor, who may use his Library here or save it for a later phase, at both costs."""
        player = self.p[seat]
        may = self.library(seat).may
        optional = may and self.library_optional(seat)
        builds: list[Action] = []
        pool = player.pool if player.pool is not None and player.hand_forgotten else None
        pooled = pool.names() if pool is not None else set()
        # cards the record never named, or a pool's wild candidates (a kept '?'): any building whose copies allow it
        unseen = player.hand_unknown > 0 or (pool is not None and any(pool.wild.values()))
        covers: list[str | None] = [None, *self._crane_covers(seat)]
        for name in sorted(self.cards if unseen else set(player.hand_known) | pooled):
            card = self.cards[name]
            if card.copies == 0 or (card.violet and player.owned[name]):  # no copy in this game (a house rule)
                continue
            for over in covers:
                covered = self.cards[over] if over is not None else None
                costs = (False, True) if optional else (may,)
                for cost in dict.fromkeys(self.build_cost(seat, card, covered, library) for library in costs):
                    for goods in self._black_market_spends(seat, covered, cost):
                        if cost - len(goods) > player.hand_size - 1:
                            continue
                        build = Build(
                            NameRef(name, 0),
                            over=NameRef(over, 0) if over is not None else None,
                            paying=self._blanks(cost - len(goods)),
                            goods=goods,
                        )
                        if not player.hand_known[name] and not self._may_leave(seat, (build.card, *build.paying)):
                            continue
                        builds.append(build)
        return builds

    def _crane_covers(self, seat: int) -> list[str]:
        """The buildings (by name) a working Crane may build over: the owner's own, not the Crane ([D4])."""
        if not self.works(seat, "Crane"):
            return []
        owned = self.p[seat].owned
        return sorted(n for n, k in owned.items() if k and (n != "Crane" or self.options.crane_over_crane))

    def _black_market_spends(self, seat: int, covered: Card | None, cost: int) -> list[tuple[NameRef, ...]]:
        """The payments' goods to offer: none, and where a working Black Market may pay part of the cost, as many
        goods as it may spend (at most 2, [D5] at most the cost), named by their production buildings."""
        spends: list[tuple[NameRef, ...]] = [()]
        if not self.works(seat, "Black Market", covered):
            return spends
        goods = [BUILDING_OF_GOOD[g] for g in GOODS for _ in range(self.p[seat].goods[g])]
        count = min(2, len(goods), cost if self.options.black_market_only_needed else 2)
        if count:
            spends.append(tuple(NameRef(building, 0) for building in goods[:count]))
        return spends

    def _may_leave(self, seat: int, refs: tuple[NameRef, ...]) -> bool:
        """Whether these cards can leave the hand now (the check a build makes; nothing changes)."""
        self.probing = True
        try:
            self._plan_removal(seat, refs, "the building and its payment")
        except RefereeError:
            return False
        finally:
            self.probing = False
        return True

    # --------------------------------------------------------------------------------------------- identity
    def fingerprint(self) -> tuple:
        """Everything that defines the position, as a comparable value (a rejected statement must not change it)."""

        def counter(c: Counter) -> tuple:
            return tuple(sorted((k, v) for k, v in c.items() if v))

        players = tuple(
            (
                tuple(p.city),
                counter(p.hand_known),
                p.hand_unknown,
                counter(p.born),
                p.pool.key() if p.pool is not None else None,
                p.hand_forgotten,
                counter(p.goods),
                p.tucked,
                counter(p.tucked_known),
                p.fresh,
                p.tucked_this_round,
                p.discarded_this_round,
                p.dealt,
            )
            for p in self.p
        )
        return (
            players,
            counter(self.located),
            self.supply,
            counter(self.discard_known),
            self.discard_unknown,
            counter(self.pending_known),
            self.pending_unknown,
            counter(self.under_known),
            tuple(pool.key() for pool in self.pools),
            self.epoch,
            tuple(counter(peak) if peak is not None else None for peak in self.peaks),
            tuple(self.reshuffle_rounds),
            self.inexact,
            self.down_peak is not None,
            self.down_count,
            self.down_room,
            self.down_short,
            self.governor,
            self.round,
            self.stage,
            tuple(self.roles_chosen),
            self.role,
            self.chooser,
            tuple(self.turns),
            self.turn_index,
            tuple(self.tiles_seen),
            self.tile,
            tuple(sorted(self.library_used)),
            self.owed_seat,
            tuple(sorted(self.owed.items())),
            self.archive_due,
            self.final_claimed,
        )

    # --------------------------------------------------------------------------------------------- summary
    def summary(self) -> str:
        lines = [self._summary_head()]
        if self.owed and self.owed_seat is not None:
            lines.append(
                f"owed draws of {self.players[self.owed_seat]}: "
                + ", ".join(f"{source} {count}" for source, count in self.owed.items())
            )
        known = ", ".join(f"{name} x{k}" if k > 1 else name for name, k in sorted(self.discard_known.items()) if k)
        lines.append(
            f"supply {self.supply}, discard pile {self.discard_size}"
            + (f" (known: {known})" if known else "")
            + (f", tiles seen: {' '.join(self.tiles_seen)}" if self.tiles_seen else "")
        )
        for player in self.p:
            goods = ", ".join(f"{g} {k}" for g, k in player.goods.items() if k) or "none"
            lines.append(
                f"{player.name}: city ({len(player.city)}) [{', '.join(player.city)}]; goods {goods}; "
                f"hand {player.hand_size} [{player.hand_text()}]"
                + (f"; chapel {player.tucked}" if player.tucked else "")
            )
        return "\n".join(lines)

    def _summary_head(self) -> str:
        """Where the game stands: the round, the governor, the roles chosen, the phase and who is to act."""
        if self.stage == SETUP and (self.governor is None or not all(p.dealt for p in self.p)):
            return "setup"  # once the governor and every hand are written, round 1 stands ready (below)
        if self.stage == OVER:
            return "game over"
        gov = self.players[self.governor or 0]
        head = f"round {self.round}, governor {gov}, roles chosen: {', '.join(self.roles_chosen) or '-'}"
        turn = self.current_turn()
        if not self.role:
            return head + f"; {self.players[self.chooser_due()]} chooses a role"
        head += f"; {self.role} phase (chosen by {self.players[self.chooser]})"
        if self.stage == TILE:
            head += ", tile due"
        elif turn:
            head += f", {self.players[turn.seat]} to act" + (f" ({turn.kind})" if turn.kind != ACT else "")
        return head
