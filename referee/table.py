"""A game judged while it is played, one line at a time — the live referee (python-chess's ``Board`` for records).

A ``Table`` holds a game's tags, the lines accepted so far and the state after them. ``play`` judges one more line with
the very steps ``referee check`` takes for that line in the record so far (``replay.Replay``): a line the table refuses
is the line ``check`` reports, with the same code, message, column and legal alternatives, and a refused line changes
nothing. A line costs what it costs in ``check``: nothing is replayed from the start, except by ``undo``.

>>> table = Table("san-juan", ["Anna", "Boris"])
>>> table.play("governor: Anna")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.errors import RecordCode, RefereeError, Verdict, malformed
from referee.game import GameState, GameType, Outcome
from referee.record import GameRecord, excerpt, iter_games, write_record
from referee.registry import GAMES, find_game
from referee.replay import GameReport, Referee, Replay, setup
from referee.resources import DEFAULT_POLICY, MAX_LINE_BYTES, ReadPolicy

# Tags a table does not take: the game and its players are its own arguments, and what a record claims about its end
# or how it should be judged is for records written after the fact.
NOT_TABLE_TAGS = frozenset({"game", "players", "result", "expect"})


def line_as_read(text: str) -> str:
    """A line as ``check`` reads it in a record file: a BOM opening it is ignored (``record.iter_lines``: text pasted
    from a file saved with one), so a table judges and keeps the very statement ``check`` judges."""
    return text[1:] if text[:1] == "\ufeff" else text


class TableError(ValueError):
    """A request a table cannot take that is no statement to judge: bad arguments when it is set up (an unknown game,
    a bad player list), or a line that is not one body statement (a tag line, a blank or comment line, two lines at
    once) or that would make the record larger than the reading policy allows. Nothing is judged or changed."""


class Table:
    """One game being played: ``play`` a line, ask what is ``legal``, ``undo``, read the ``record`` so far.

    ``game`` is a game id or title; ``players`` the names in seat order; ``tags`` the record's other tags (Ruleset,
    Variant, the game's own such as Board or Deck, and any tag that is only kept, such as Event). Files are named
    as ``policy`` allows, with no record folder: by default only registered variants, boards and deck lists.
    A setup the rules refuse (a player count the game does not allow, an unknown ruleset) raises the
    ``RefereeError`` that ``check`` reports at the tag; arguments that cannot form a record raise ``TableError``.
    """

    def __init__(
        self,
        game: str | GameType,
        players: Sequence[str],
        tags: Mapping[str, str] | None = None,
        *,
        policy: ReadPolicy = DEFAULT_POLICY,
        referee: Referee | None = None,
    ) -> None:
        found = game if isinstance(game, type) else find_game(game)
        if found is None:
            raise TableError(f"unknown game {excerpt(str(game))} (games: {', '.join(GAMES)})")
        self.game: GameType = found
        self.players: tuple[str, ...] = tuple(players)
        for name in self.players:  # what a Players tag cannot hold (the rest is judged as check judges the tag)
            if not isinstance(name, str):
                raise TableError(f"a player name is text, not {excerpt(repr(name))}")
            if "," in name or "\n" in name or not name.strip() or name != name.strip():
                raise TableError(
                    f"a player name is not empty, has no comma, no line break and no space around it: {excerpt(name)}"
                )
        given = dict(tags or {})
        for name, value in given.items():
            if name.lower() in NOT_TABLE_TAGS:
                raise TableError(
                    f"a table takes no {name} tag (the game and players are given apart; a table's "
                    "result is what its lines give)"
                )
            if not name or not name[0].isalpha() or not all(c.isalnum() or c in "_-" for c in name):
                raise TableError(f"{excerpt(name)} is not a tag name (letters, digits, _ and -)")
            if not isinstance(value, str) or not value.isprintable():
                raise TableError(f"the {name} tag's value is one line of printable text")
        self.tags: dict[str, str] = {"Game": found.title, "Players": ", ".join(self.players), **given}
        self.policy = policy
        self.referee = referee if referee is not None else Referee(policy)
        self._lines: list[str] = []
        self._start()  # (first: the players are judged as check judges the tag, a name that is no text among them)
        self._size = len(self._header().encode("utf-8"))

    # -- what a table is -------------------------------------------------------------------------------------
    @property
    def lines(self) -> tuple[str, ...]:
        """The accepted lines, in order."""
        return tuple(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    @property
    def state(self) -> GameState:
        """The game's state after the accepted lines (read it; change it only through ``play``)."""
        return self._replay.state

    @property
    def ruleset(self) -> str:
        """The rules the table is judged by, in words ("2nd edition", "2nd edition + sp-rich-start")."""
        return self._ruleset

    @property
    def verdict(self) -> Verdict:
        """``valid`` once the game has ended, ``unfinished`` before (a table never holds a refused line)."""
        return Verdict.VALID if self.state.is_terminal() else Verdict.UNFINISHED

    @property
    def outcome(self) -> Outcome | None:
        """Scores (for games with scores), winners and how the game ended, once it has; None before."""
        return self.state.outcome() if self.state.is_terminal() else None

    def legal(self, prefix: str | None = None) -> list[str]:
        """The statements (record text) that could legally come next, as an error lists them (a game may shorten a
        long list: Santorini's turns); with ``prefix``, every legal statement that starts with it (``""``: all)."""
        if prefix is None:
            return self.state.legal_statements()
        return [text for text in self.state.all_legal_statements() if text.startswith(prefix)]

    def summary(self) -> str:
        """Where the game stands, in a few lines a person reads."""
        return self.state.summary()

    def record(self) -> str:
        """The table as a record file: its tag section, then the accepted lines (``check`` judges it alike)."""
        return write_record(self.tags, self._lines, game_tags=self.game.tag_options)

    def line_number(self, index: int | None = None) -> int:
        """The file line of accepted line ``index`` (0-based; the next line's when None) in ``record()``."""
        return self._first_line + (len(self._lines) if index is None else index)

    # -- playing ---------------------------------------------------------------------------------------------
    def play(self, text: str) -> Any:
        """Judge one body line and keep it: the statement it read. Raises the ``IllegalStatement`` or
        ``MalformedStatement`` that ``check`` reports for it (placed on its line in ``record()``), and changes
        nothing; ``TableError`` for text that is not one body line. The line is read as ``check`` reads it in a
        file (``line_as_read``), and kept so."""
        if isinstance(text, str):
            text = line_as_read(text)
        self._check_line(text)
        number = self.line_number()
        try:
            statement = self._replay.feed(number, text)
        except RefereeError as error:
            if error.kind is RecordCode.INTERNAL:  # a referee bug may have left the state half-changed
                self._start()
            raise
        self._lines.append(text)
        self._size += len(text.encode("utf-8")) + 1
        return statement

    def undo(self) -> str:
        """Withdraw the last accepted line (replaying the others): its text. ``IndexError`` when there is none."""
        if not self._lines:
            raise IndexError("no line to undo")
        last = self._lines.pop()
        self._size -= len(last.encode("utf-8")) + 1
        self._start()
        return last

    def _check_line(self, text: str) -> None:
        if not isinstance(text, str):
            raise TableError("a line is text")
        if "\n" in text or "\r" in text:
            raise TableError("one line at a time: the text holds a line break")
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            raise TableError("a blank or comment line is no statement; send statements only")
        if stripped.startswith("["):
            raise TableError("tag lines are given when the table is set up, not sent as lines")
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError as error:  # a lone surrogate: JSON's \ud800 escape, which no UTF-8 file holds
            raise TableError(
                f"a line is text: {error.object[error.start]!r} at column {error.start + 1} is no character"
            ) from None
        if size > MAX_LINE_BYTES:
            raise malformed(RecordCode.LINE_TOO_LONG, f"the line is longer than {MAX_LINE_BYTES:,} bytes").at(
                self.line_number()
            )
        if self._size + size + 1 > self.policy.max_bytes:
            raise TableError(f"the record would be larger than the limit of {self.policy.max_bytes:,} bytes")

    # -- the replay behind it --------------------------------------------------------------------------------
    def _header(self) -> str:
        return write_record(self.tags, [], game_tags=self.game.tag_options)

    def _start(self) -> None:
        """Set the game up from the tags and replay the accepted lines (at creation, and after ``undo``)."""
        header = self._header()
        (record,) = iter_games(header, "<table>")
        game, state, self._ruleset = setup(record, None, self.referee.house_rule, self.policy)
        state.check_claims = self.referee.check_claims
        report = GameReport(record.file, 1, record.first_line, game.id, Verdict.UNFINISHED)
        self._record: GameRecord = record
        self._first_line = header.count("\n") + 1
        self._replay = Replay(self.referee, record, game, state, report)
        for index, text in enumerate(self._lines):
            self._replay.feed(self._first_line + index, text)

    @classmethod
    def restore(
        cls,
        game: str | GameType,
        players: Sequence[str],
        tags: Mapping[str, str] | None,
        lines: Sequence[str],
        *,
        policy: ReadPolicy = DEFAULT_POLICY,
    ) -> Table:
        """A table rebuilt from its stored lines (each is judged again, so a stored table the rules no longer
        accept raises the first line's error)."""
        table = cls(game, players, tags, policy=policy)
        for text in lines:
            table.play(text)
        return table
