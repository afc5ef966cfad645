"""Santorini: New York: what a game's state holds — players, board, position, cards, the round and its order — and
the questions asked of it (whose turn, which turns are legal, what setup still lacks). The rules that change it are
``state``; what people see of it is ``view``; both build on this."""

from __future__ import annotations

from functools import cache

from referee.record import made_once
from referee.santorini_new_york.board import BoardMap, Geometry
from referee.santorini_new_york.cards import Card, DeckList, deck_cards
from referee.santorini_new_york.codes import SNYCode, SNYTermination
from referee.santorini_new_york.engine import Path, Position, Supply, TurnContext, plain_moves
from referee.santorini_new_york.hidden import DECK, DISCARD, OUT, CardError, CardTracker, hand
from referee.santorini_new_york.judge import turn_text
from referee.santorini_new_york.notation import quote_player
from referee.santorini_new_york.options import SNYOptions
from referee.santorini_new_york.professions import legal_turns

SETUP, REVEAL, TURNS, OVER = "setup", "reveal", "turns", "over"


class SNYBase:
    """A game's state and its queries (nothing here changes it)."""

    def __init__(
        self, players: list[str], options: SNYOptions, board: BoardMap, deck_list: DeckList, deck: tuple[str, ...]
    ) -> None:
        self.players = list(players)
        self.seats = {name: seat for seat, name in enumerate(players)}
        self.options = options
        self.board, self.deck_list, self.deck = board, deck_list, deck
        self.geo = Geometry.of(board, options.diagonal_adjacency)
        self.supply, self._contexts = _shared_by(options, self.geo)
        self.tracker = CardTracker(deck_cards(deck, deck_list))
        self.hand_places = _hands(len(players))  # each seat's hand as the tracker names it: every reveal asks
        self.pos = Position.empty(board)
        self.stage = SETUP
        self.round = 1
        self.pairs: dict[int, int] = {}  # seat -> the starting pair he took
        self.dealt: set[int] = set()
        self.needs_skyscraper = "Tour Bus Driver" in deck
        self.setup_skyscraper: int | None = None
        self.played: dict[int, Card] = {}
        self.order: list[int] = []  # this round's turns, lowest card first
        self.turn = 0
        self.holder: int | None = None  # the Statue of Liberty
        self.out: list[int] = []  # eliminated seats, in order
        self.refill_due: set[int] = set()
        self.refill_cards = 0  # cards each player gets at the refill under way
        self.winner: int | None = None
        self.termination: SNYTermination | None = None
        self.final_claimed = False
        self._legal: tuple[tuple, list[Path]] | None = None

    # ------------------------------------------------------------------------------------------------ queries
    def in_game(self) -> list[int]:
        return [seat for seat in range(len(self.players)) if seat not in self.out]

    def actor(self) -> int | None:
        return self.order[self.turn] if self.stage == TURNS else None

    def context(self, seat: int) -> TurnContext:
        """What a seat's turn asks: every turn line asks it, and a seat has a new card every round, so each
        (seat, card, Statue holder) is made once for all the games of the same options (``_shared_by``)."""
        key = (seat, self.played[seat][0], self.holder)
        found = self._contexts.get(key)
        if found is None:
            found = self._contexts[key] = TurnContext(self.geo, self.options, seat, key[1], self.holder, self.supply)
        return found

    def legal_turns(self) -> list[Path]:
        """Every legal complete turn of the player to act (empty: he must lose a worker); cached per position."""
        seat = self.actor()
        if seat is None:
            return []
        key = (self.pos.key(), seat, self.played[seat], self.holder)
        if self._legal is None or self._legal[0] != key:
            self._legal = (key, legal_turns(self.context(seat), self.pos))
        return self._legal[1]

    def losable_workers(self, seat: int) -> list[int]:
        """The workers a player who must lose one may remove: either ([D3]); with loss_player_chooses off, one that
        cannot move at all when there is one."""
        workers = self.pos.workers_of(seat)
        if self.options.loss_player_chooses:
            return workers
        start = Path((), self.pos)
        trapped = [w for w in workers if not any(plain_moves(self.context(seat), start, w))]
        return trapped or workers

    def refill_count(self) -> int:
        """Cards each player still in is dealt at the refill under way."""
        return self.refill_cards

    def setup_missing(self) -> list[str]:
        missing = [f"{self.players[s]} is not placed" for s in range(len(self.players)) if s not in self.pairs]
        missing += [f"{self.players[s]} is not dealt" for s in range(len(self.players)) if s not in self.dealt]
        if self.needs_skyscraper and self.setup_skyscraper is None:
            missing.append("the Tour Bus Driver's skyscraper is not placed")
        return missing

    def skyscraper_problem(self, cell: int) -> tuple[SNYCode, str] | None:
        """Why the setup skyscraper may not go on a space (None: it may)."""
        square = self.board.square(cell)
        if self.pos.occupied(cell):
            return SNYCode.SKYSCRAPER_SPACE, f"{square} is occupied"
        if not self.supply.has_skyscraper(self.pos):
            return SNYCode.NO_PIECES, "no skyscraper is left in the supply"
        free = len(self.free_pairs(self.pos.with_skyscraper(cell)))
        to_place = len(self.players) - len(self.pairs)
        if self.options.setup_skyscraper_keeps_pairs and free < to_place:
            return (
                SNYCode.SKYSCRAPER_BLOCKS_START,
                f"{square} would leave {free} free starting pairs for {to_place} players to place",
            )
        return None

    def free_pairs(self, pos: Position) -> list[int]:
        taken = set(self.pairs.values())
        return [
            n for n, cells in self.board.starts.items() if n not in taken and not any(pos.occupied(c) for c in cells)
        ]

    def card_problem(self, error: CardError) -> str:
        """Why a card cannot be where a statement takes it, in words."""
        if error.where is None:
            return error.reason
        kind, _, seat = error.where.partition(" ")
        name = self.players[int(seat)] if seat else ""
        where = {
            "hand": f"in {name}'s hand",
            "played": f"played by {name} this round",
            DISCARD: "in the discard pile",
            OUT: "out of the game",
            DECK: "in the deck",
        }[kind]
        return f"it is {where}"

    def turn_line(self, seat: int, turn: Path) -> str:
        return f"{quote_player(self.players[seat])}: {turn_text(turn.acts, self.board.square)}"


@cache
def _hands(players: int) -> tuple[str, ...]:
    """The names of the seats' hands."""
    return tuple(hand(seat) for seat in range(players))


Contexts = dict[tuple[int, str, int | None], TurnContext]  # (seat, card, Statue holder) -> the turn's context

# (options, geometry) -> their supply and turn contexts: the games of a file share them (a context is never changed)
_SHARED: dict[tuple[int, int], tuple[tuple[object, ...], tuple[Supply, Contexts]]] = {}


def _shared_by(options: SNYOptions, geo: Geometry) -> tuple[Supply, Contexts]:
    """The supply and the turn contexts of every game under these options on this board (made once)."""
    return made_once(_SHARED, (id(options), id(geo)), (options, geo), lambda: (Supply.of(options), {}))
