"""python-chess, the benchmark's yardstick: the random games it reads and the ways it reads them (docs/performance.md).

The yardstick is python-chess at its fastest faithful validation of a PGN file, the reading a user checking an
archive would write: ``chess.pgn.read_game(handle, Visitor=BoardBuilder)`` and ``board.outcome()``. The reader
parses every move token against the position with ``Board.parse_san``, which returns a legal move or the null move
and raises on anything else (illegal, ambiguous, unreadable SAN), and BoardBuilder keeps python-chess's default
``handle_error``, which raises: the reading stops at the first bad move. The referee's check does the same kind of
work (parse, judge every action, the outcome, the ``Result`` tag), so the visitors here add the two things python-chess
leaves out and the referee does: a null move (``--``) is refused, and the ``Result`` tag and the movetext's result
marker must be the outcome of the end position. (Text that does not look like a move at all, ``Ke9`` say, is skipped
by python-chess's reader before ``parse_san``: a limit of the yardstick, which the referee does not share.)

A reading is a visitor type; ``read(path, visitor_type)`` reads a file with it, returning (games, plies) and raising
``InvalidGame`` at the first invalid game. ``READINGS`` names them for ``bench/worker.py chess-read NAME FILE``;
``bench.run.CHESS_READINGS`` says which is the yardstick. tests/test_bench.py checks that each rejects corrupted games.

Imported by the chess jobs only (after ``chess.pgn``, the startup baseline), never by the referee's.
"""

from __future__ import annotations

from typing import Any

import chess
import chess.pgn


class InvalidGame(Exception):
    """The first invalid game of a file: its number (from 1) and what python-chess or the end check found."""

    def __init__(self, number: int, error: Exception) -> None:
        super().__init__(f"game {number}: {error}")
        self.number = number
        self.error = error


def write_random_games(path: str, plies: int, seed: int, cap: int) -> tuple[int, int]:
    """Random legal games (a seeded random legal move until the game is over or ``cap`` plies) until ``plies``
    plies, written as PGN with their ``Result`` tags: (games, plies)."""
    import random  # here: the reading jobs import this module and need no random numbers

    rng = random.Random(seed)
    total = games = 0
    with open(path, "w", encoding="utf-8") as handle:
        while total < plies:
            board = chess.Board()
            while not board.is_game_over(claim_draw=False) and board.ply() < cap:
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "referee bench"
            game.headers["Round"] = str(games + 1)
            game.headers["Result"] = board.result(claim_draw=False)
            print(game, file=handle, end="\n\n")
            total += board.ply()
            games += 1
    return games, total


class RecordChecks(chess.pgn.BaseVisitor[Any]):
    """What a validating reading checks besides python-chess's own move parsing (the referee checks the same of its
    records): no null move, and the ``Result`` tag and the result marker the outcome of the end position.

    A mixin before BoardBuilder or GameBuilder; ``end`` is the end position once a game has been read."""

    end: chess.Board
    result_tag: str | None
    result_marker: str | None

    def begin_game(self) -> None:
        super().begin_game()
        self.result_tag = self.result_marker = None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if tagname == "Result":
            self.result_tag = tagvalue
        super().visit_header(tagname, tagvalue)

    def visit_result(self, result: str) -> None:
        self.result_marker = result
        super().visit_result(result)

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        move = board.parse_san(san)  # legal, or the null move: anything else raises
        if move.from_square == move.to_square:  # the null move ("--", "Z0", "0000", "@@@@"), never a legal one
            raise chess.IllegalMoveError(f"null move {san!r} in {board.fen()}")
        return move

    def check_end(self, board: chess.Board) -> None:
        """The game's end: its outcome (automatic draws only, as the generator stops) against the tag and marker."""
        self.end = board
        outcome = board.outcome(claim_draw=False)
        result = "*" if outcome is None else outcome.result()
        if self.result_tag != result:
            raise ValueError(f"Result tag {self.result_tag!r}, but the end position's result is {result!r}")
        if self.result_marker is not None and self.result_marker != result:
            raise ValueError(f"result marker {self.result_marker!r}, but the end position's result is {result!r}")


class ValidatingBoardBuilder(RecordChecks, chess.pgn.BoardBuilder):
    """The yardstick: BoardBuilder (only the board, the mainline on its move stack; variations skipped; an error
    raises) with the record checks."""

    def end_game(self) -> None:
        super().end_game()
        self.check_end(self.board)


class ValidatingGameBuilder(RecordChecks, chess.pgn.GameBuilder[chess.pgn.Game]):
    """The default reading, for context: GameBuilder builds the game tree and collects errors in ``game.errors``
    (checked at the end of each game), the end position replayed from the tree (``game.end().board()``)."""

    def end_game(self) -> None:
        super().end_game()
        if self.game.errors:
            raise self.game.errors[0]
        self.check_end(self.game.end().board())


def read(path: str, visitor_type: type[RecordChecks]) -> tuple[int, int]:
    """Every game of a PGN file read with one visitor (``begin_game`` resets it for each game): (games, plies).
    Raises ``InvalidGame`` at the first game python-chess or the end check rejects."""
    visitor = visitor_type()
    games = plies = 0
    with open(path, encoding="utf-8") as handle:
        while True:
            try:
                if chess.pgn.read_game(handle, Visitor=lambda: visitor) is None:
                    return games, plies
            except ValueError as error:  # python-chess's move errors are ValueErrors, as is the end check's
                raise InvalidGame(games + 1, error) from None
            games += 1
            plies += len(visitor.end.move_stack)


READINGS: dict[str, type[RecordChecks]] = {
    "board-builder": ValidatingBoardBuilder,
    "game-builder": ValidatingGameBuilder,
}
