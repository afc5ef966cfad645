"""Santorini: New York: the rules of a game's flow — setup, the reveal, turn order, worker loss, elimination, refills
and the end — over the state ``base`` holds. The turns themselves are judged by the engine
(``professions.legal_turns``) and ``judge``; the cards by the card tracker (``hidden``).

``apply`` validates a statement fully before it changes anything (the card tracker and the position are copied and
only stored at the end), so a rejected statement leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar

from referee.errors import RecordCode, RefereeError, malformed
from referee.game import ALTERNATIVES_SHOWN, GameState, Outcome
from referee.record import NameRef
from referee.santorini_new_york import view
from referee.santorini_new_york.base import OVER, REVEAL, SETUP, TURNS, SNYBase
from referee.santorini_new_york.cards import Card, card_text
from referee.santorini_new_york.codes import SNYCode, SNYTermination
from referee.santorini_new_york.engine import Path
from referee.santorini_new_york.hidden import DISCARD, CardError, CardTracker
from referee.santorini_new_york.judge import Written, explain, find_turn, match, ranked, written_steps
from referee.santorini_new_york.notation import (
    CardRef,
    FinalClaim,
    HandDeal,
    LossLine,
    Place,
    PlayEntry,
    Reveal,
    RoundMark,
    SetupSkyscraper,
    Square,
    TurnLine,
    WinClaim,
)
from referee.santorini_new_york.quick import quick_turn

TERMINATIONS = {"climb": SNYTermination.CLIMB, "engineer-rooftop": SNYTermination.ENGINEER_ROOFTOP}


def names_in(statement: Any) -> tuple[NameRef | CardRef, ...]:
    """The players and cards a statement names, in reading order (claims check their own names)."""
    if isinstance(statement, Place):
        return tuple(entry.player for entry in statement.entries)
    if isinstance(statement, HandDeal):
        return (statement.player, *statement.cards)
    if isinstance(statement, Reveal):
        return tuple(ref for entry in statement.entries for ref in (entry.player, entry.card))
    if isinstance(statement, (TurnLine, LossLine)):
        return (statement.player,)
    return ()


class SNYState(SNYBase, GameState):
    handlers: ClassVar[dict[type, str]] = {
        Place: "_apply_place",
        SetupSkyscraper: "_apply_setup_skyscraper",
        HandDeal: "_apply_hand",
        RoundMark: "_apply_round",
        Reveal: "_apply_reveal",
        TurnLine: "_apply_turn",
        LossLine: "_apply_loss",
        WinClaim: "apply_win_claim",
        FinalClaim: "apply_final_claim",
    }

    # ------------------------------------------------------------------------------------------------ queries
    def is_terminal(self) -> bool:
        return self.stage == OVER

    # The replay loop asks these of every statement; here each is one comparison, so the general path is skipped.
    def apply(self, statement: Any) -> None:
        try:
            if self.stage == OVER:
                super().apply(statement)  # only claims may follow the end
            else:
                handler = _HANDLERS.get(type(statement))
                if handler is None:  # pragma: no cover - the grammar yields only handled types
                    self.dispatch(statement)
                else:
                    handler(self, statement)  # ``GameState.dispatch`` without looking the method up by name
        except RefereeError:
            # An unknown name makes the statement malformed wherever it stands (record format, section 1; ruling 14):
            # the first in reading order is reported, whatever else the statement breaks. Judged here, on the error
            # path only, as an accepted statement has had every name looked up.
            self.check_names(names_in(statement))
            raise

    def settled(self) -> bool:
        return self.stage == OVER

    def settled_before(self, statement: Any) -> bool:
        return self.stage == OVER  # no statement may follow the end but claims (``open_after_end``)

    def outcome(self) -> Outcome:
        assert self.winner is not None and self.termination is not None
        return Outcome([self.players[self.winner]], self.termination, None, detail=self.termination.description)

    # ------------------------------------------------------------------------------------------------ helpers
    def space(self, square: Square) -> int:
        cell = self.board.cell(square.name)
        if not self.board.is_space(cell):
            raise self.fail(
                SNYCode.NO_SUCH_SPACE, f"{square.name} is not a space of the board {self.board.name!r}", square.column
            )
        return cell

    def check_names(self, refs: Iterable[NameRef | CardRef]) -> None:
        """The names of a statement, in reading order, before anything else is judged: an unknown player or a card
        the deck list does not print makes the statement malformed wherever it stands (record format, section 1;
        ruling 14), as an unknown profession does at parsing."""
        seats, index = self.seats, self.tracker.index
        for ref in refs:
            if isinstance(ref, NameRef):
                if ref.name not in seats:
                    self.seat_of(ref)  # raises: not a player
            elif ref.profession is not None and (ref.profession, ref.number) not in index:
                self.printed(ref)

    def printed(self, ref: CardRef) -> None:
        """A card the deck list prints (else an unknown card, malformed, at its number)."""
        assert ref.profession is not None
        numbers = self.deck_list.numbers.get(ref.profession, ())
        if ref.number not in numbers:
            printed = ", ".join(map(str, numbers)) or "none"
            raise malformed(
                RecordCode.UNKNOWN_CARD,
                f"the deck list {self.deck_list.name!r} prints no {ref.profession} {ref.number} "
                f"({ref.profession} numbers: {printed})",
                ref.number_column or ref.column,
            )

    def card_of(self, ref: CardRef) -> Card:
        """A named card: printed in the deck list (else an unknown card, malformed) and in this game's deck."""
        assert ref.profession is not None
        card = (ref.profession, ref.number)
        if card in self.tracker.index:  # the game's cards: its deck's professions, each with the numbers printed
            return card
        self.printed(ref)
        if ref.profession not in self.deck:
            raise self.fail(
                SNYCode.NOT_IN_DECK, f"{ref.profession} is not in this game's deck ({', '.join(self.deck)})", ref.column
            )
        return card

    # ------------------------------------------------------------------------------------------------ setup
    def _apply_place(self, st: Place) -> None:
        if self.stage != SETUP:
            raise self.fail(SNYCode.MISPLACED_SETUP, "'place:' is a setup line, before the first 'play:'", st.column)
        pairs, pos = dict(self.pairs), self.pos
        for entry in st.entries:
            seat = self.seat_of(entry.player)
            if seat in pairs:
                raise self.fail(SNYCode.PLACED_TWICE, f"{entry.player.name} is placed already", entry.player.column)
            first, second = self.space(entry.squares[0]), self.space(entry.squares[1])
            number = self.board.pair_of(first)
            if number is None:
                raise self.fail(
                    SNYCode.NOT_A_START_PAIR,
                    f"{entry.squares[0].name} is not a starting space",
                    entry.squares[0].column,
                )
            if second == first or self.board.pair_of(second) != number:
                pair = " ".join(self.board.square(c) for c in self.board.starts[number])
                raise self.fail(
                    SNYCode.NOT_A_START_PAIR,
                    f"the second worker goes on the other space of starting pair {number} ({pair})",
                    entry.squares[1].column,
                )
            if number in pairs.values():
                owner = next(self.players[s] for s, n in pairs.items() if n == number)
                raise self.fail(
                    SNYCode.PAIR_TAKEN, f"starting pair {number} is taken by {owner}", entry.squares[0].column
                )
            for cell, square in zip((first, second), entry.squares, strict=True):
                if pos.occupied(cell):
                    raise self.fail(SNYCode.PAIR_TAKEN, f"{square.name} is occupied (a skyscraper)", square.column)
            pairs[seat] = number
            pos = pos.with_worker(first, seat).with_worker(second, seat)
        self.pairs, self.pos = pairs, pos

    def _apply_setup_skyscraper(self, st: SetupSkyscraper) -> None:
        if self.stage != SETUP:
            raise self.fail(
                SNYCode.MISPLACED_SETUP, "'skyscraper:' is a setup line, before the first 'play:'", st.column
            )
        if not self.needs_skyscraper:
            raise self.fail(
                SNYCode.SKYSCRAPER_SETUP, "only a deck with the Tour Bus Driver places a setup skyscraper", st.column
            )
        if self.setup_skyscraper is not None:
            raise self.fail(SNYCode.SKYSCRAPER_SETUP, "the setup skyscraper is placed already", st.column)
        cell = self.space(st.square)
        problem = self.skyscraper_problem(cell)
        if problem is not None:
            raise self.fail(problem[0], problem[1], st.square.column)
        after = self.pos.with_skyscraper(cell)
        self.pos, self.setup_skyscraper = after, cell

    # ------------------------------------------------------------------------------------------------ cards
    def _apply_hand(self, st: HandDeal) -> None:
        seat = self.seats.get(st.player.name)
        if seat is None:
            seat = self.seat_of(st.player)  # raises: not a player
        count, what = self._deal_of(seat, st)
        tracker = self.tracker.copy()
        index = tracker.index
        for position, ref in enumerate(st.cards):
            if position == count:
                raise self.fail(SNYCode.HAND_SIZE, f"{what} is {count} cards; this is card {position + 1}", ref.column)
            card: Card | None = None
            if ref.profession is not None:
                card = (ref.profession, ref.number)
                if card not in index:  # not one of the game's cards: ``card_of`` says why
                    card = self.card_of(ref)
            try:
                tracker.deal(seat, card)
            except CardError as error:
                name = "a card" if card is None else card_text(card)
                where = "the deck" if self.stage == SETUP else "the discard pile"
                raise self.fail(
                    SNYCode.CARD_UNAVAILABLE,
                    f"{name} cannot be dealt from {where}: {self.card_problem(error)}",
                    ref.column,
                ) from None
        if len(st.cards) < count:
            raise self.fail(
                SNYCode.HAND_SIZE, f"{what} is {count} cards, not {len(st.cards)}", st.end_column or st.column
            )
        self.tracker = tracker
        if self.stage == SETUP:
            self.dealt.add(seat)
        else:
            self.refill_due.discard(seat)

    def _deal_of(self, seat: int, st: HandDeal) -> tuple[int, str]:
        """How many cards a 'hand' line deals, and its name; or why no deal is due."""
        name = self.players[seat]
        if self.stage == SETUP:
            if seat in self.dealt:
                raise self.fail(SNYCode.MISPLACED_HAND, f"{name}'s setup hand is dealt already", st.column)
            return self.options.hand_size, "a setup deal"
        if self.stage == TURNS:
            raise self.fail(SNYCode.ROUND_NOT_OVER, "the round's turns are not over", st.column)
        if seat in self.out:
            raise self.fail(SNYCode.ELIMINATED, f"{name} is out of the game and gets no refill", st.player.column)
        if seat not in self.refill_due:
            period = self.options.refill_period
            why = f"{name}'s refill is dealt already" if self.refill_due else f"refills follow every {period}th round"
            raise self.fail(SNYCode.MISPLACED_HAND, f"no deal is due for {name} here: {why}", st.column)
        return self.refill_count(), "a refill"

    # ------------------------------------------------------------------------------------------------ rounds
    def _apply_round(self, st: RoundMark) -> None:
        if self.stage == TURNS:
            raise self.fail(
                SNYCode.MISPLACED_ROUND, f"round {self.round} is being played: its turns are not over", st.column
            )
        if st.number != self.round:
            self.claim_failed(
                SNYCode.ROUND_MISMATCH, f"the next round is round {self.round}, not {st.number}", st.number_column
            )

    def _apply_reveal(self, st: Reveal) -> None:
        if self.stage == TURNS:
            raise self.fail(SNYCode.ROUND_NOT_OVER, "the round's turns are not over", st.column)
        if self.stage == SETUP and self.setup_missing():
            raise self.fail(SNYCode.SETUP_INCOMPLETE, "; ".join(self.setup_missing()), st.column)
        if self.refill_due:
            names = ", ".join(self.players[s] for s in sorted(self.refill_due))
            raise self.fail(SNYCode.REFILL_MISSING, f"the refill of {names} comes first", st.column)
        cards = self._named_in_hands(st)
        tracker = self.tracker if cards is not None else self.tracker.copy()  # (None: see ``_named_in_hands``)
        if self.stage == SETUP:
            tracker.begin()  # the cards not dealt start the discard pile
        if cards is not None:
            for seat, card in cards.items():
                tracker.play(seat, card)  # known in the hand: one lookup, nothing can fail
        else:
            cards = self._take_played(st, tracker)
        self.tracker, self.played, self.stage = tracker, cards, TURNS
        self.order = [seat for _, seat in sorted([(card[1], seat) for seat, card in cards.items()])]
        self.turn = 0
        self.holder = self.order[-1]
        if len(cards) < 2:  # (a reveal removes no one: ``_check_last_player`` with the players still in)
            self._check_last_player()

    def _named_in_hands(self, st: Reveal) -> dict[int, Card] | None:
        """The reveal's cards by seat when each is known to be in its player's hand (the common case: the state then
        takes them with no copy of the tracker, as nothing can fail); None to let ``_take_played`` judge it. The
        errors raised are the ones ``_take_played`` raises first, in the same order."""
        cards: dict[int, Card] = {}
        known, hand_places = self.tracker.known, self.hand_places  # (the tracker's names of the places)
        for _entry, seat, card in self._revealed(st, cards):
            if known.get(card) != hand_places[seat]:
                return None
            cards[seat] = card
        self._check_reveal_players(st, cards)
        return cards

    def _take_played(self, st: Reveal, tracker: CardTracker) -> dict[int, Card]:
        """The reveal's cards by seat, each taken from its player's hand (``tracker``: a copy, kept only when the
        whole line is legal)."""
        cards: dict[int, Card] = {}
        for entry, seat, card in self._revealed(st, cards):
            try:
                tracker.play(seat, card)
            except CardError as error:
                raise self.fail(
                    SNYCode.NOT_IN_HAND,
                    f"{card_text(card)} is not in {entry.player.name}'s hand: {self.card_problem(error)}",
                    entry.card.column,
                ) from None
            cards[seat] = card
        self._check_reveal_players(st, cards)
        return cards

    def _revealed(self, st: Reveal, cards: dict[int, Card]) -> Iterator[tuple[PlayEntry, int, Card]]:
        """Each entry of a reveal with its seat and card, checked as it comes (a player still in, one card each —
        ``cards``: those the caller has taken so far —, a card of the game), so that an entry's own error comes
        after the caller's error for an earlier one."""
        seats, index = self.seats, self.tracker.index
        for entry in st.entries:
            seat = seats.get(entry.player.name)
            if seat is None:
                seat = self.seat_of(entry.player)  # raises: not a player
            if seat in self.out:
                raise self.fail(SNYCode.ELIMINATED, f"{entry.player.name} is out of the game", entry.player.column)
            if seat in cards:
                raise self.fail(SNYCode.REVEAL_PLAYERS, f"{entry.player.name} plays one card", entry.player.column)
            ref = entry.card
            card = (ref.profession, ref.number)
            if card not in index:  # not one of the game's cards: ``card_of`` says why
                card = self.card_of(ref)
            yield entry, seat, card

    def _check_reveal_players(self, st: Reveal, cards: dict[int, Card]) -> None:
        """Every player still in plays a card."""
        left = self.in_game() if self.out else range(len(self.players))
        missing = [self.players[s] for s in left if s not in cards] if len(cards) != len(left) else ()
        if missing:
            raise self.fail(
                SNYCode.REVEAL_PLAYERS, f"the reveal leaves out {', '.join(missing)}", st.end_column or st.column
            )

    # ------------------------------------------------------------------------------------------------ turns
    def _turn_seat(self, player: NameRef) -> int:
        seat = self.seats.get(player.name)
        if seat is None:
            seat = self.seat_of(player)  # raises: not a player
        if seat in self.out:
            raise self.fail(SNYCode.ELIMINATED, f"{player.name} is out of the game", player.column)
        if self.stage != TURNS:
            raise self.fail(SNYCode.PLAY_EXPECTED, "a round starts with the 'play:' reveal", player.column)
        if seat != self.order[self.turn]:
            due = self.players[self.order[self.turn]]
            raise self.fail(SNYCode.NOT_YOUR_TURN, f"{due} plays the lowest card still to act", player.column)
        return seat

    def _apply_turn(self, st: TurnLine) -> None:
        """``judge_turn`` then ``_finish_turn``; the common case in this one frame: the player due (no error of
        ``_turn_seat`` can arise), a line the quick judge is sure of, a turn that neither wins, removes a worker nor
        ends the round."""
        seat = self.seats.get(st.player.name)
        if seat is not None and self.stage == TURNS and seat == self.order[self.turn] and seat not in self.out:
            turn = quick_turn(self.context(seat), self.pos, st.steps)
            if turn is not None:
                if turn.winner is None and turn.removed is None and self.turn + 1 < len(self.order):
                    self.pos = turn.pos
                    self.turn += 1
                    return
                self._finish_turn(seat, turn)
                return
        seat, turn = self.judge_turn(st)
        self._finish_turn(seat, turn)

    def judge_turn(self, st: TurnLine) -> tuple[int, Path]:
        """The seat playing a turn line and the legal turn it is; raises the line's error (nothing is changed)."""
        seat = self._turn_seat(st.player)
        context = self.context(seat)
        turn = quick_turn(context, self.pos, st.steps)  # the common lines, checked directly (a yes or a don't know)
        if turn is not None:
            return seat, turn
        written = written_steps(st.steps, self.board)
        turn = find_turn(context, self.pos, written)
        return seat, turn if turn is not None else self._judge_on_the_list(seat, st, written)

    def _judge_on_the_list(self, seat: int, st: TurnLine, written: list[Written]) -> Path:
        """A line ``find_turn`` found illegal, matched against every legal turn for its error (ruling 4: the first
        wrong token, the rule it breaks, the legal alternatives). (Should it match after all, it is that turn.)"""
        legal = self.legal_turns()
        card = card_text(self.played[seat])
        if not legal:
            raise self.fail(
                SNYCode.MUST_LOSE,
                f"{card} allows {self.players[seat]} no complete turn with either worker: the line is 'loses SQ'",
                written[0].columns[0],
            )
        found = match(written, legal)
        if found.turn is None:
            failure = explain(self.context(seat), self.pos, written, found, st.end_column, card)
            error = self.fail(failure.kind, failure.message, failure.column)
            error.alternatives = [self.turn_line(seat, turn) for turn in ranked(legal, written)[:ALTERNATIVES_SHOWN]]
            error.alternatives_left = max(len(legal) - ALTERNATIVES_SHOWN, 0)
            raise error
        return found.turn

    def _finish_turn(self, seat: int, turn: Path) -> None:
        self.pos = turn.pos
        if turn.winner is not None:
            self._end(turn.winner, TERMINATIONS[turn.win_kind or "climb"])
            return
        if turn.removed is not None and not self.pos.workers_of(seat):
            self._eliminate(seat)
        if self.stage != OVER:
            self._advance()

    def _apply_loss(self, st: LossLine) -> None:
        seat = self._turn_seat(st.player)
        legal = self.legal_turns()
        if legal:
            error = self.fail(
                SNYCode.LOSS_NOT_ALLOWED,
                f"{card_text(self.played[seat])} allows {len(legal)} complete turn(s); a worker is lost only when "
                "none exists",
                st.column,
            )
            error.alternatives = [self.turn_line(seat, turn) for turn in legal[:ALTERNATIVES_SHOWN]]
            error.alternatives_left = max(len(legal) - ALTERNATIVES_SHOWN, 0)
            raise error
        cell = self.space(st.square)
        if cell not in self.pos.workers:
            raise self.fail(SNYCode.NO_WORKER, f"no worker stands on {st.square.name}", st.square.column)
        if self.pos.workers[cell] != seat:
            raise self.fail(
                SNYCode.NOT_YOUR_WORKER, f"the worker on {st.square.name} is not {st.player.name}'s", st.square.column
            )
        losable = self.losable_workers(seat)
        if cell not in losable:
            names = ", ".join(self.board.square(w) for w in losable)
            raise self.fail(SNYCode.LOSS_WORKER, f"the worker that cannot move is lost: {names}", st.square.column)
        self.pos = self.pos.without_worker(cell)
        if not self.pos.workers_of(seat):
            self._eliminate(seat)
        if self.stage != OVER:
            self._advance()

    def _eliminate(self, seat: int) -> None:
        """A player without workers is out: his hand leaves at once ([D12]); the Statue stays or passes ([D12])."""
        self.out.append(seat)
        self.tracker.eliminate(seat, self.options.eliminated_hand_to_discard)
        if self.holder == seat and not self.options.statue_stays_with_eliminated:
            still = [s for s in self.order if s not in self.out]
            self.holder = still[-1] if still else None
        self._check_last_player()

    def _check_last_player(self) -> None:
        """Win condition 3 ([D13]): the only player with workers wins (holding the Statue, with the option on)."""
        left = self.in_game()
        if len(left) == 1 and (not self.options.last_player_needs_statue or self.holder == left[0]):
            self._end(left[0], SNYTermination.LAST_PLAYER)
        elif not left:
            self._end(self.out[-1], SNYTermination.LAST_PLAYER)

    def _advance(self) -> None:
        self.turn += 1
        if self.turn < len(self.order):
            return
        self.tracker.end_round(list(self.played.values()))  # this round's reveal, every card of it named
        if self.round % self.options.refill_period == 0:
            self.tracker.shuffle()
            self.refill_due = set(self.in_game())
            # fewer than refill_size only if the discard pile cannot give every player as many
            self.refill_cards = min(self.options.refill_size, self.tracker.count(DISCARD) // len(self.refill_due))
        self.played, self.order, self.turn = {}, [], 0
        self.round += 1
        self.stage = REVEAL

    def _end(self, seat: int, termination: SNYTermination) -> None:
        self.winner, self.termination, self.stage = seat, termination, OVER

    # ------------------------------------------------------------------------------------------------ views
    def summary(self) -> str:
        return view.summary(self)

    def legal_statements(self) -> list[str]:
        return view.legal_statements(self)

    def all_legal_statements(self) -> list[str]:
        shown = self.legal_statements()  # first, in their order: completion offers what an error lists first
        listed = set(shown)
        return shown + [text for text in view.legal_statements(self, limit=None) if text not in listed]

    def fingerprint(self) -> tuple:
        return (
            self.stage,
            self.round,
            self.pos.key(),
            tuple(sorted(self.pairs.items())),
            tuple(sorted(self.dealt)),
            self.setup_skyscraper,
            self.tracker.key(),
            tuple(sorted(self.played.items())),
            tuple(self.order),
            self.turn,
            self.holder,
            tuple(self.out),
            tuple(sorted(self.refill_due)),
            self.refill_cards,
            self.winner,
            self.final_claimed,
        )


# statement class -> its handler (``SNYState.handlers``, the functions themselves)
_HANDLERS: dict[type, Callable[[SNYState, Any], None]] = {
    kind: getattr(SNYState, name) for kind, name in SNYState.handlers.items()
}

__all__ = ["OVER", "REVEAL", "SETUP", "TURNS", "SNYState"]
