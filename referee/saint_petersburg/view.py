"""What a position offers and how it reads: the legal turns (``legal_actions``), the statements that may come next
as record text, a summary for people and a fingerprint for tests. Nothing here changes the position."""

from __future__ import annotations

from referee.record import NameRef
from referee.saint_petersburg.actions import Actions
from referee.saint_petersburg.cards import DECKS, Card
from referee.saint_petersburg.notation import Action, Buy, Observe, Pass, Play, Take, actor_text, quote_player
from referee.saint_petersburg.position import ACTING, BETWEEN, DEALING, OVER, SETUP, rubles
from referee.saint_petersburg.scoring import ScoringRules


class View(Actions, ScoringRules):
    # ------------------------------------------------------------------------------------------- legal turns
    def legal_actions(self, seat: int | None = None, observe_cards: bool = True) -> list[Action]:
        """Every turn the player to act may take now (Observatory draws listed per card still in the deck)."""
        if self.stage != ACTING:
            return []
        seat = self.to_act if seat is None else seat
        actions = self._display_actions(seat)
        if self.buy_only():
            if not actions and self.options.first_phase_broke_pass:
                actions.append(Pass())
            return actions
        actions += self._hand_actions(seat)
        if observe_cards and self.phase == "building" and self.free_observatories(seat):
            actions += self._observatory_actions(seat)
        actions.append(Pass())
        return actions

    def purchases(self, seat: int, card: Card, from_lower: bool, turning: int = 0) -> list[tuple[NameRef | None, int]]:
        """Every way the player can afford to buy ``card``: (the card it displaces, price), one per upgrade target."""
        ways: list[tuple[NameRef | None, int]]
        if card.upgrade:
            ways = [
                (NameRef(target.name, 0), self.price(seat, card, from_lower, target))
                for target in self.targets(seat, card, turning)
            ]
        else:
            ways = [(None, self.price(seat, card, from_lower, None))]
        return [(over, price) for over, price in ways if price <= self.p[seat].rubles]

    def _display_actions(self, seat: int) -> list[Action]:
        take = self.has_room(seat) and not self.buy_only()
        actions: list[Action] = []
        for row in (self.upper, self.lower):
            for card in dict.fromkeys(row):
                row_name = self._row_for(card, row)
                ref = NameRef(card.name, 0)
                for over, price in self.purchases(seat, card, row is self.lower):
                    actions.append(Buy(ref, row_name, over, price))
                if take:
                    actions.append(Take(ref, row_name))
        return actions

    def _hand_actions(self, seat: int) -> list[Action]:
        return [
            Play(NameRef(card.name, 0), over, price)
            for card in dict.fromkeys(self.p[seat].hand)
            for over, price in self.purchases(seat, card, False)
        ]

    def _observatory_actions(self, seat: int) -> list[Action]:
        take = self.has_room(seat)
        actions: list[Action] = []
        for deck in DECKS:
            if not self.observable(deck):
                continue
            for name, copies in self.decks[deck].items():
                if not copies:
                    continue
                ref = NameRef(name, 0)
                for over, price in self.purchases(seat, self.cards[name], False, turning=1):
                    actions.append(Observe(deck, ref, "buy", over, price))
                if take:
                    actions.append(Observe(deck, ref, "take"))
                actions.append(Observe(deck, ref, "discard"))
        return actions

    def _row_for(self, card: Card, row: list[Card]) -> str | None:
        """The row a turn must name: only when the card lies in both rows."""
        other = self.lower if row is self.upper else self.upper
        if card in other:
            return "upper" if row is self.upper else "lower"
        return None

    # ------------------------------------------------------------------------------------ legal statements
    def legal_statements(self) -> list[str]:
        if self.stage == SETUP:
            return [f"round {self.round}", "tokens: PLAYER PHASE..., ..."]  # the checkpoint may open the record
        if self.stage == OVER:
            return ["final: PLAYER VP, ...", "win: PLAYER"]
        if self.stage == DEALING:
            return [f"deal: {self.due} card(s) from the {DECKS[self.phase_index]} deck"]
        if self.stage == BETWEEN:
            return self._between_statements()
        actions = self.legal_actions(observe_cards=False)
        name = self.players[self.to_act]
        texts = [actor_text(name, action) for action in actions]
        if self.phase == "building" and self.free_observatories(self.to_act) and any(map(self.observable, DECKS)):
            texts.insert(-1, f"{quote_player(name)}: observe DECK: CARD, buy|take|discard")
        if self.deal_allowed:  # right after the header of a phase that deals nothing
            texts.insert(0, "deal: none")
        return texts

    def _between_statements(self) -> list[str]:
        options = [f"{self.phase} phase"]
        if self.phase_index == 0:
            options.insert(0, f"round {self.round}")
        if self.score_claim_open:
            options.append("score: PLAYER +NR +NVP, ...")
        if self.pub_open:
            for seat, player in enumerate(self.p):
                if player.owns("Pub") and seat not in self.pubs_used:
                    most = self.pub_affordable(seat)
                    options.append(f"{quote_player(player.name)}: pub {f'0..{most}' if most else 0}")
        return options

    # ------------------------------------------------------------------------------------------ fingerprint
    def fingerprint(self) -> tuple:
        """Everything that defines the position, as a comparable value (a rejected statement must not change it)."""
        players = tuple(
            (
                p.rubles,
                tuple(c.name for c in p.area),
                tuple(c.name for c in p.hand),
                p.vp,
                p.pub_vp,
                p.observatories_used,
                p.observatories_fresh,
            )
            for p in self.p
        )
        decks = tuple(tuple(sorted((k, v) for k, v in counter.items() if v)) for counter in self.decks.values())
        return (
            players,
            decks,
            tuple(self.deck_size.values()),
            tuple(c.name for c in self.upper),
            tuple(c.name for c in self.lower),
            tuple(c.name for c in self.discards),
            self.round,
            self.phase_index,
            self.stage,
            self.to_act,
            self.passes,
            self.due,
            self.deal_allowed,
            self.end_triggered,
            self.score_claim_open,
            self.pub_open,
            tuple(sorted(self.pubs_used)),
            tuple(sorted(self.holder.items())),
            self.bank,
            self.final_claimed,
            self.display_touched,
        )

    # ---------------------------------------------------------------------------------------------- summary
    def summary(self) -> str:
        def names(cards: list[Card]) -> str:
            return ", ".join(c.name for c in cards) or "-"

        where = {SETUP: "setup", OVER: "game over"}.get(self.stage, f"round {self.round}, {self.phase} phase")
        if self.stage == ACTING:
            where += f", {self.p[self.to_act].name} to act, {self.passes} pass(es) in a row"
        elif self.stage not in (OVER, SETUP):
            where += f" ({self.stage})"
        lines = [where]
        if self.stage != SETUP:
            lines.append(f"display upper: {names(self.upper)} | lower: {names(self.lower)}")
            lines.append(
                "decks: "
                + ", ".join(f"{d} {self.deck_size[d]}" for d in DECKS)
                + (" (end triggered)" if self.end_triggered else "")
            )
        for seat, player in enumerate(self.p):
            tokens = [phase for phase, holder in self.holder.items() if holder == seat]
            lines.append(
                f"{player.name}: {rubles(player.rubles)}, {player.vp} VP, tokens {'/'.join(tokens) or '-'}; "
                f"hand [{names(player.hand)}]; area [{names(player.area)}]"
            )
        return "\n".join(lines)
