"""The turn flow: setup, rounds, role choice, the order of a phase's turns, the governor, the start of a round
(Chapel tucks, hand-limit discards) and the end of the game.

A round: from the governor clockwise each player chooses a role not yet chosen (2 players: governor, other,
governor); after each choice every player's turn of that phase is written in action order, the chooser first. The
phases' own rules live in one module per role (``builder.py``, ``producer.py``, ``trader.py``, ``councillor.py``,
``prospector.py``); this module routes each actor line to them and ends the turn, the phase, the round, the game.
"""

from __future__ import annotations

from functools import cache

from referee.errors import IllegalStatement
from referee.record import quote_player
from referee.san_juan.base import ACT, ACTING, CHOOSING, MINE, OVER, PROSPECT, SETUP, TILE, Turn
from referee.san_juan.builder import BuilderPhase
from referee.san_juan.codes import SJCode
from referee.san_juan.councillor import CouncillorPhase
from referee.san_juan.hidden import TUCKED
from referee.san_juan.notation import (
    Action,
    Actor,
    Build,
    Council,
    Discard,
    GoldMineTurn,
    GovernorMark,
    HandDeal,
    OwedDraw,
    Pass,
    Produce,
    RoleChoice,
    RoundMark,
    Sell,
    Tuck,
    is_unknown,
)
from referee.san_juan.producer import ProducerPhase
from referee.san_juan.prospector import ProspectorPhase
from referee.san_juan.trader import TraderPhase
from referee.turns import clockwise, left_of

ACTION_OF_ROLE: dict[str, type] = {"builder": Build, "producer": Produce, "trader": Sell, "councillor": Council}
_ROUND_START_OR_CHOICE = (Tuck, Discard, RoleChoice)  # the actor lines that are no turn of a phase
VERB_OF_ROLE = {"builder": "build", "producer": "produce", "trader": "sell", "councillor": "draws ...; keeps ..."}


@cache
def _act_turns(chooser: int, seats: int) -> tuple[Turn, ...]:
    """A phase's turns, every player once in action order from the chooser (made once per chooser and table)."""
    return tuple(Turn(seat, ACT) for seat in clockwise(chooser, seats))


class TurnFlow(BuilderPhase, ProducerPhase, TraderPhase, CouncillorPhase, ProspectorPhase):
    """Setup lines, checkpoints, role choices and the order of turns; routes each turn to its phase's rules."""

    # ------------------------------------------------------------------------------------------------ queries
    def is_terminal(self) -> bool:
        return self.stage == OVER

    def roles_per_round(self) -> int:
        return self.options.two_player_roles if self.n == 2 else self.n

    def chooser_due(self) -> int:
        """Who chooses the next role: the governor, then clockwise and round again (2 players: governor, other,
        governor)."""
        return ((self.governor or 0) + len(self.roles_chosen)) % self.n  # clockwise from the governor, round again

    def round_start(self) -> bool:
        return self.stage == CHOOSING and not self.roles_chosen

    def opening(self) -> bool:
        """The start of a round, before its first role choice — also right after a complete setup, while the stage
        is still ``SETUP`` (it moves on with the first actor line): round 1's checkpoint, tucks and discards."""
        return self.round_start() or (
            self.stage == SETUP and self.governor is not None and all(p.dealt for p in self.p)
        )

    def current_turn(self) -> Turn | None:
        if self.stage != ACTING or self.turn_index >= len(self.turns):
            return None
        return self.turns[self.turn_index]

    def hand_limit(self, seat: int) -> int:
        return self.options.tower_hand_limit if self.works(seat, "Tower") else self.options.hand_limit

    # ------------------------------------------------------------------------------------------- setup lines
    def _apply_governor(self, st: GovernorMark) -> None:
        seat = self.seat_of(st.player)
        if self.stage == SETUP and self.governor is None:
            self.governor = seat
            self.chooser = seat
            return
        # later (a repeated setup line included): a checkpoint naming the current governor at the start of a round
        if self.stage != SETUP and not self.round_start():
            raise self.fail(
                SJCode.MISPLACED_GOVERNOR,
                "a 'governor:' checkpoint stands only at the start of a round, before its first role choice",
                st.column,
            )
        if seat != self.governor:
            self.claim_failed(
                SJCode.GOVERNOR_MISMATCH,
                f"the governor of round {self.round} is {self.players[self.governor or 0]}, not {st.player.name}",
                st.player.column,
            )

    def _apply_hand(self, st: HandDeal) -> None:
        seat = self.seat_of(st.player)
        if self.stage != SETUP:
            raise self.fail(
                SJCode.MISPLACED_SETUP, "hands are dealt once, at setup, before the first role choice", st.column
            )
        if self.p[seat].dealt:
            raise self.fail(SJCode.MISPLACED_SETUP, f"{st.player.name}'s hand is already dealt", st.column)
        if len(st.cards) != self.options.start_hand:
            raise self.fail(
                SJCode.HAND_SIZE,
                f"each player is dealt {self.options.start_hand} cards, not {len(st.cards)}",
                st.column,
            )
        self._check_draws(st.cards)
        self._draw_into_hand(seat, st.cards)
        self.p[seat].dealt = True

    def _check_setup_done(self, column: int) -> None:
        missing = []
        if self.governor is None:
            missing.append("'governor: PLAYER'")
        missing += [f"'hand {quote_player(p.name)}: ...'" for p in self.p if not p.dealt]
        if missing:
            raise self.fail(
                SJCode.SETUP_INCOMPLETE, "setup is incomplete: " + ", ".join(missing) + " must come before play", column
            )
        self.stage = CHOOSING

    def _apply_round(self, st: RoundMark) -> None:
        if not (self.stage == SETUP or self.round_start()):
            raise self.fail(
                SJCode.MISPLACED_ROUND,
                "'round N' stands only at the start of a round, before its first role choice"
                + (f"; {self._turn_missing()}" if self.stage == ACTING else ""),
                st.column,
            )
        if any(p.tucked_this_round or p.discarded_this_round for p in self.p):
            raise self.fail(
                SJCode.MISPLACED_ROUND,
                "'round N' stands at the start of its round, before the round's Chapel tucks and hand-limit discards",
                st.column,
            )
        if st.number != self.round:
            self.claim_failed(
                SJCode.ROUND_MISMATCH, f"this is round {self.round}, not round {st.number}", st.number_column
            )

    # --------------------------------------------------------------------------------------------- actors
    def _apply_actor(self, st: Actor) -> None:
        """Route an actor line: a due Archive discard, an owed draw, the round start's tucks and discards, a role
        choice, or a turn of the current phase."""
        seat = self.seats.get(st.player.name)
        if seat is None:
            seat = self.seat_of(st.player)  # unknown-player
        action = st.action
        if self.archive_due is not None:
            self._archive_discard(self.archive_due, seat, action, st.player.column)
            self._end_turn()
            return
        if self.owed_seat == seat and isinstance(action, OwedDraw) and action.source in self.owed:
            self._owed_draw(seat, action)
            return
        stage = self.stage
        if stage == SETUP:
            self._check_setup_done(st.player.column)
            stage = self.stage
        if stage == ACTING and not isinstance(action, _ROUND_START_OR_CHOICE):
            self._phase_turn(seat, st)  # the common case first: a turn of the phase under way
        elif isinstance(action, Tuck):
            self._tuck(seat, action)
        elif isinstance(action, Discard):
            self._hand_limit_discard(seat, action)
        elif isinstance(action, RoleChoice):
            self._choose(seat, action, st.player.column)
        else:
            self._phase_turn(seat, st)

    def _phase_turn(self, seat: int, st: Actor) -> None:
        """A turn of the current phase, by the player whose turn it is: the phase's action or a pass."""
        action = st.action
        if self.stage == CHOOSING:
            if isinstance(action, OwedDraw):
                raise self._not_owed(seat, action)
            raise self.fail(
                SJCode.ROLE_EXPECTED, f"{self.p[self.chooser_due()].name} chooses the next role first", st.player.column
            )
        if self.stage == TILE:
            raise self.fail(SJCode.TILE_MISSING, "the trader phase starts with the 'tile:' line", st.player.column)
        turn = self.turns[self.turn_index]
        if seat != turn.seat:
            raise self._out_of_turn(seat, st, turn)
        if not isinstance(action, Pass):
            # the phase's own action, judged by its role's rules (``_role_turn`` for anything else)
            role = self.role
            if turn.kind != ACT:
                self._role_turn(seat, turn.kind, action)
            elif role == "builder" and isinstance(action, Build):
                self._build(seat, action)
            elif role == "producer" and isinstance(action, Produce):
                self._produce(seat, action)
            elif role == "trader" and isinstance(action, Sell):
                self._sell(seat, action)
            elif role == "councillor" and isinstance(action, Council):
                self._council(seat, action)
            else:
                self._role_turn(seat, turn.kind, action)
        if self.archive_due is None:  # an Archive councillor's turn ends with his discard
            self.turn_index += 1
            if self.turn_index >= len(self.turns):
                self._end_phase()

    def _role_turn(self, seat: int, kind: str, action: Action) -> None:
        """The phase's own action, judged by its role's rules."""
        if kind == PROSPECT:
            if not isinstance(action, OwedDraw) or action.source != "prospector":
                raise self._wrong_action(action, "the prospector draws 'draws CARD (prospector)' or passes")
            self._prospect(seat, action)
            return
        if kind == MINE:
            if not isinstance(action, GoldMineTurn):
                raise self._wrong_action(
                    action, "a Gold Mine owner writes 'gold mine C1, C2, C3, C4; keeps ...' or passes"
                )
            self._gold_mine(seat, action)
            return
        role = self.role or ""
        if not isinstance(action, ACTION_OF_ROLE[role]):
            if isinstance(action, OwedDraw):
                raise self._not_owed(seat, action)
            raise self._wrong_action(action, f"in the {role} phase a turn is '{VERB_OF_ROLE[role]}' or 'pass'")
        if isinstance(action, Build):
            self._build(seat, action)
        elif isinstance(action, Produce):
            self._produce(seat, action)
        elif isinstance(action, Sell):
            self._sell(seat, action)
        elif isinstance(action, Council):
            self._council(seat, action)

    def _out_of_turn(self, seat: int, st: Actor, turn: Turn) -> IllegalStatement:
        action = st.action
        if isinstance(action, OwedDraw):
            return self._not_owed(seat, action)
        done = [earlier.seat for earlier in self.turns[: self.turn_index]]
        if self.role == "builder" and isinstance(action, Build) and seat in done:
            return self.fail(
                SJCode.ONE_BUILDING,
                f"{st.player.name} has had a turn in this builder phase; one building per player per builder phase",
                action.column,
            )
        return self.fail(
            SJCode.NOT_YOUR_TURN,
            f"it is {self.p[turn.seat].name}'s turn in the {self.role} phase, not {st.player.name}'s",
            st.player.column,
        )

    def _wrong_action(self, action: Action, why: str) -> IllegalStatement:
        return self.fail(SJCode.WRONG_ACTION, why, action.column)

    # ---------------------------------------------------------------------------------------- round start
    def _tuck(self, seat: int, action: Tuck) -> None:
        player = self.p[seat]
        if not self.round_start():
            raise self.fail(
                SJCode.TUCK,
                "Chapel cards are tucked only at the start of a round, before the first role choice",
                action.column,
            )
        if not self.works(seat, "Chapel"):
            raise self.fail(SJCode.TUCK, f"{player.name} has no working Chapel", action.column)
        if player.tucked_this_round:
            raise self.fail(SJCode.TUCK, f"{player.name} has already tucked a card this round", action.column)
        if action.more:
            raise self.fail(
                SJCode.TUCK,
                f"the Chapel takes one card a round; {player.name} tucks {1 + len(action.more)}",
                action.more[0].column,
            )
        if player.discarded_this_round:
            raise self.fail(
                SJCode.TUCK, f"{player.name} tucks before their own hand-limit discards, not after", action.column
            )
        plan = self._plan_removal(seat, (action.card,), "the tuck", TUCKED)
        self._remove(seat, plan)
        player.tucked += 1
        player.tucked_this_round = True
        if not is_unknown(action.card):
            player.tucked_known[action.card.name] += 1

    def _hand_limit_discard(self, seat: int, action: Discard) -> None:
        player = self.p[seat]
        if not self.round_start():
            raise self.fail(
                SJCode.MISPLACED_DISCARD,
                "'discards' stands at the start of a round (hand limit) or right after an Archive councillor turn",
                action.column,
            )
        limit = self.hand_limit(seat)
        if player.discarded_this_round or player.hand_size <= limit:
            raise self.fail(
                SJCode.HAND_LIMIT,
                f"{player.name} holds {player.hand_size} card(s), limit {limit}: no discard is due",
                action.column,
            )
        excess = player.hand_size - limit
        if len(action.cards) != excess:
            raise self.fail(
                SJCode.HAND_LIMIT,
                f"{player.name} holds {player.hand_size} card(s), limit {limit}: "
                f"discard exactly {excess}, not {len(action.cards)}",
                action.column,
            )
        plan = self._plan_removal(seat, action.cards, "the discard")
        self._remove(seat, plan)
        self._to_discard_all(action.cards)
        player.discarded_this_round = True

    # ------------------------------------------------------------------------------------------ role choice
    def _turn_missing(self) -> str:
        turn = self.turns[self.turn_index]
        return f"the {self.role} phase is not over: {self.p[turn.seat].name}'s turn (action or pass) is not written yet"

    def _choose(self, seat: int, action: RoleChoice, column: int) -> None:
        if self.stage == TILE:
            raise self.fail(SJCode.TILE_MISSING, "the trader phase starts with the 'tile:' line", action.column)
        if self.stage == ACTING:
            raise self.fail(SJCode.PHASE_NOT_OVER, self._turn_missing(), action.column)
        due = self.chooser_due()
        if seat != due:
            raise self.fail(
                SJCode.NOT_YOUR_TURN, f"{self.p[due].name} chooses the next role, not {self.p[seat].name}", column
            )
        if action.role in self.roles_chosen:
            raise self.fail(
                SJCode.ROLE_TAKEN,
                f"the {action.role} has already been chosen this round ({', '.join(self.roles_chosen)})",
                action.column,
            )
        if not self.roles_chosen:
            self._check_hand_limits(column)
        self.roles_chosen.append(action.role)
        self.role = action.role
        self.chooser = seat
        if action.role == "prospector":
            self.turns = self.prospector_turns(seat)
        else:
            self.turns = list(_act_turns(seat, self.n))
        self.turn_index = 0
        if action.role == "trader":
            self.stage = TILE
        else:
            self.stage = ACTING
            self._skip_empty_phase()

    def _check_hand_limits(self, column: int) -> None:
        """The first role choice of a round waits for every hand-limit discard."""
        o = self.options
        lowest = min(o.hand_limit, o.tower_hand_limit)
        for seat, player in enumerate(self.p):
            size = player.hand_size
            if size <= lowest:  # within either limit: no need to ask for a Tower
                continue
            limit = self.hand_limit(seat)
            if size > limit:
                raise self.fail(
                    SJCode.HAND_LIMIT,
                    f"{player.name} holds {player.hand_size} cards, over the "
                    f"limit of {limit}: the 'discards' line comes before the first role choice",
                    column,
                )

    def _skip_empty_phase(self) -> None:
        if not self.turns:
            self._end_phase()

    # ------------------------------------------------------------------------------------------ turn flow
    def _end_turn(self) -> None:
        self.turn_index += 1
        if self.turn_index >= len(self.turns):
            self._end_phase()

    def _end_phase(self) -> None:
        """The phase is over: the game ends after a builder phase that completes a city; the round after its last
        role (the roles return, the governor passes left)."""
        if self.pending_known or self.pending_unknown:
            self._flush_pending()
        if self.role == "builder":
            for player in self.p:
                player.fresh = None
            if any(len(player.city) >= self.options.end_buildings for player in self.p):
                self.stage = OVER
                self.role = None
                return
        self.role = None
        self.turns = []
        self.turn_index = 0
        self.stage = CHOOSING
        if len(self.roles_chosen) >= self.roles_per_round():
            self._end_round()

    def _end_round(self) -> None:
        self.roles_chosen = []
        self.governor = left_of(self.governor or 0, self.n)
        self.round += 1
        self.library_used = set()
        for player in self.p:
            player.tucked_this_round = player.discarded_this_round = False
