"""The turn flow: setup (start tokens), rounds and their checkpoint, phase headers, deals, whose turn it is, and the
end of a phase and of a round. It decides *when* a statement may stand; what a turn does is ``actions``', what a
phase pays is ``scoring``'s."""

from __future__ import annotations

from collections import Counter

from referee.errors import IllegalStatement
from referee.saint_petersburg.actions import Actions
from referee.saint_petersburg.cards import DECKS, PHASES, Card
from referee.saint_petersburg.codes import SPCode
from referee.saint_petersburg.notation import Action, Actor, Deal, Pass, PhaseHeader, Pub, RoundMark, Tokens
from referee.saint_petersburg.position import ACTING, BETWEEN, DEALING, OVER, SETUP
from referee.saint_petersburg.scoring import ScoringRules
from referee.turns import left_of

# How many start tokens each player holds, by player count (in any seat order).
TOKEN_SPREAD: dict[int, tuple[int, ...]] = {2: (2, 2), 3: (1, 1, 2), 4: (1, 1, 1, 1)}
SPREAD_WORDS = {2: "two tokens each", 3: "one token each and one player a second", 4: "one token each"}


class TurnFlow(Actions, ScoringRules):
    # ------------------------------------------------------------------------------------------------- setup
    def _apply_tokens(self, st: Tokens) -> None:
        if self.stage != SETUP:
            raise self.fail(
                SPCode.MISPLACED_TOKENS, "the start tokens are dealt once, before the first phase", st.column
            )
        holder: dict[str, int] = {}
        counts: Counter[int] = Counter()
        for grant in st.grants:
            seat = self.seat_of(grant.player)
            for ref in grant.phases:
                if ref.name in holder:
                    raise self.fail(SPCode.BAD_TOKENS, f"the {ref.name} token is given twice", ref.column)
                holder[ref.name] = seat
                counts[seat] += 1
        missing = [phase for phase in PHASES if phase not in holder]
        if missing:
            raise self.fail(SPCode.BAD_TOKENS, f"no player holds the {', '.join(missing)} token", st.column)
        n = len(self.players)
        wanted = TOKEN_SPREAD.get(n)
        if wanted is not None and tuple(sorted(counts[s] for s in range(n))) != wanted:
            raise self.fail(SPCode.BAD_TOKENS, f"with {n} players the tokens go {SPREAD_WORDS[n]}", st.column)
        self.holder = holder
        self.stage = BETWEEN
        self.phase_index = 0

    # ------------------------------------------------------------------------------------ rounds and phases
    def _apply_round(self, st: RoundMark) -> None:
        if not (self.stage in (SETUP, BETWEEN) and self.phase_index == 0):
            raise self.fail(
                SPCode.MISPLACED_ROUND, "'round N' stands only right before a round's worker phase", st.column
            )
        if st.number != self.round:
            self.claim_failed(
                SPCode.ROUND_MISMATCH, f"this is round {self.round}, not round {st.number}", st.number_column
            )

    def _apply_header(self, st: PhaseHeader) -> None:
        if self.stage == SETUP:
            raise self.fail(SPCode.TOKENS_REQUIRED, "the 'tokens:' line must come before the first phase", st.column)
        if self.stage == DEALING:
            raise self.fail(SPCode.DEAL_MISSING, f"{self.due} card(s) are due: write the 'deal:' line", st.column)
        if self.stage == ACTING:
            raise self.fail(
                SPCode.PHASE_NOT_OVER,
                f"the {self.phase} phase is not over: "
                f"{self.p[self.to_act].name} is to act ({self.passes} pass(es) in a row so far)",
                st.column,
            )
        if st.phase != self.phase:
            raise self.fail(
                SPCode.WRONG_PHASE, f"the {self.phase} phase comes next, not the {st.phase} phase", st.column
            )
        self._start_phase()

    def cards_due(self) -> int:
        """How many cards the phase starting now deals: the refill up to the display size (round 1's worker phase:
        so many per player; [D2]: none when the display was untouched), at most what the deck holds."""
        options = self.options
        if self.first_worker_phase():
            due = options.first_deal_per_player * len(self.players)
        else:
            due = max(options.display_size - len(self.upper) - len(self.lower), 0)
            if options.refill_skip_when_untouched and not self.display_touched:
                due = 0
        return min(due, self.deck_size[DECKS[self.phase_index]])

    def _start_phase(self) -> None:
        self.due = self.cards_due()
        self.display_touched = False
        self.score_claim_open = self.pub_open = False
        self.last_scoring = None
        self.passes = 0
        self.to_act = self.holder[self.phase]
        for player in self.p:
            player.observatories_fresh = 0
        self.stage = DEALING if self.due else ACTING
        self.deal_allowed = True

    # --------------------------------------------------------------------------------------------------- deal
    def _apply_deal(self, st: Deal) -> None:
        if not (self.stage == DEALING or (self.stage == ACTING and self.deal_allowed)):
            raise self.fail(SPCode.MISPLACED_DEAL, "'deal:' stands only right after a phase header", st.column)
        deck = DECKS[self.phase_index]
        cards = self._dealt_cards(st, deck)
        left = self.decks[deck]
        for card in cards:
            left[card.name] -= 1
        self.deck_size[deck] -= len(cards)
        self.upper.extend(cards)
        if cards and self.deck_size[deck] == 0:
            self.end_triggered = True
        self.stage = ACTING
        self.deal_allowed = False

    def _dealt_cards(self, st: Deal, deck: str) -> list[Card]:
        """The cards a deal draws, once they are the number due, all from the phase's deck, and still in it."""
        if len(st.cards) != self.due:
            left = self.deck_size[deck]
            why = f"{self.due} card(s) are due" + (f" ({left} left in the {deck} deck)" if left < 8 else "")
            column = st.cards[self.due].column if self.due < len(st.cards) else st.column  # the first card too many
            raise self.fail(SPCode.DEAL_COUNT, f"{why}, the deal draws {len(st.cards)}", column)
        table, in_deck = self.cards, self.decks[deck]
        taken: dict[str, int] = {}
        cards: list[Card] = []
        for ref in st.cards:
            card = table[ref.name]
            if card.deck != deck:
                raise self.fail(
                    SPCode.DEAL_WRONG_DECK,
                    f"{card.name} belongs to the {card.deck} deck; the {self.phase} phase deals from the {deck} deck",
                    ref.column,
                )
            count = taken[card.name] = taken.get(card.name, 0) + 1
            if count > in_deck[card.name]:
                raise self.fail(
                    SPCode.DEAL_EXHAUSTED,
                    f"the {deck} deck holds no more {card.name} ({card.copies} in the game)",
                    ref.column,
                )
            cards.append(card)
        return cards

    # -------------------------------------------------------------------------------------------------- turns
    def _apply_actor(self, st: Actor) -> None:
        seat = self.seat_of(st.player)
        action = st.action
        if isinstance(action, Pub):
            self._apply_pub(seat, action)  # pubs follow a scoring, in any player order
            return
        if self.stage != ACTING:
            raise self._no_turn_now(st)
        if seat != self.to_act:
            raise self.fail(
                SPCode.NOT_YOUR_TURN,
                f"it is {self.p[self.to_act].name}'s turn, not {st.player.name}'s",
                st.player.column,
            )
        self.apply_action(seat, action)

    def _no_turn_now(self, st: Actor) -> IllegalStatement:
        """Why no player acts at this point of the flow."""
        if self.stage == SETUP:
            return self.fail(SPCode.TOKENS_REQUIRED, "the 'tokens:' line must come first", st.player.column)
        if self.stage == DEALING:
            return self.fail(
                SPCode.DEAL_MISSING, f"{self.due} card(s) are due: the 'deal:' line comes first", st.player.column
            )
        return self.fail(
            SPCode.HEADER_EXPECTED,
            f"the {PHASES[self.phase_index - 1] if self.phase_index else 'upgrade'} phase is over; "
            f"the {self.phase} phase header comes next",
            st.player.column,
        )

    def apply_action(self, seat: int, action: Action) -> None:
        """Judge and carry out one turn of the player to act, then pass the turn on (the OpenSpiel
        ``apply_action``)."""
        self.carry_out(seat, action)
        self._end_turn(passed=isinstance(action, Pass))

    def _end_turn(self, passed: bool) -> None:
        n = len(self.players)
        self.deal_allowed = False
        self.passes = self.passes + 1 if passed else 0
        self.to_act = left_of(self.to_act, n)  # the next player clockwise: no seat is ever left out
        # the display is seldom empty: look at it before asking whether the phase ends so
        if self.passes >= n or (not self.upper and not self.lower and self.first_phase_ends_when_empty()):
            self._end_phase()

    # ------------------------------------------------------------------------------------ end of phase, round
    def _end_phase(self) -> None:
        if self.phase_index < 3:
            self._score_phase()
            self.phase_index += 1
            self.stage = BETWEEN
        elif self.end_triggered:
            self.stage = OVER
            self._outcome = self._final_scoring()
        else:
            self._end_round()

    def _end_round(self) -> None:
        """The lower row is discarded, the upper row moves down, tokens pass left, Observatories turn face up."""
        if self.options.discard_lower_row:
            self.discards.extend(self.lower)
            self.lower = self.upper
        else:
            self.lower = self.lower + self.upper
        self.upper = []
        n = len(self.players)
        self.holder = {phase: left_of(seat, n) for phase, seat in self.holder.items()}
        for player in self.p:
            player.observatories_used = 0
        self.round += 1
        self.phase_index = 0
        self.stage = BETWEEN
        self.score_claim_open = self.pub_open = False
