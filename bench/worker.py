"""One measured job of the benchmark, run by ``python -m bench`` in a fresh interpreter (never imported by it).

    python bench/worker.py MODE ARGS...

Each mode does one piece of work and prints one JSON object on stdout: what it counted and the seconds of its timed
section (``inner``). The parent times the whole process from the outside and takes its peak memory from the kernel.

Modes (the referee modes import ``referee.cli`` first, the chess modes ``chess.pgn``, so that the whole-process time
minus the time of ``python -c "import referee.cli"`` (or ``"import chess.pgn"``) is the time of the work itself):

    corpus GAME ACTIONS SEED FILE     generate games (seeds SEED, SEED+1, ...) until ACTIONS actions; write FILE
    generate GAME GAMES SEED          generate the same GAMES games again (timed); print the text's SHA-256
    parse FILE                        split FILE into games and parse every body line (no rules)
    check FILE                        parse and judge every game of FILE (``referee.replay.check_text``)
    table FILE                        the same a line at a time, through the live API (``referee.Table.play``)
    hidden-corpus ACTIONS SEED RATE NAMED HIDDEN
                                      Santorini: New York games with every dealt card named until ACTIONS actions
                                      (NAMED), and the same with each dealt card written '?' with chance RATE (HIDDEN)
    chess-corpus PLIES SEED CAP FILE  random legal chess games until PLIES plies (at most CAP plies a game), as PGN
    chess-read READING FILE           read and validate every game of FILE one of python-chess's ways
                                      (bench/yardstick.py READINGS; the yardstick: BoardBuilder + outcome())
    noop-referee / noop-chess         the imports only (for checking the startup subtraction)
"""

from __future__ import annotations

import hashlib
import json
import resource
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the game classes' type only: the referee is imported by each mode, after its baseline imports
    from referee.game import GameType

# Player names for generated games, in seat order (enough for any player count a game may allow).
NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Fyodor", "Galina", "Hector"]


def player_names(count: int) -> list[str]:
    return NAMES[:count] + [f"Player{i}" for i in range(len(NAMES) + 1, count + 1)]


def player_count(game: GameType, index: int) -> int:
    """Player counts cycle through the game's whole range: min, min+1, ..., max, min, ..."""
    return game.min_players + index % (game.max_players - game.min_players + 1)


def play(game: GameType, index: int, first_seed: int) -> str:
    """Game number ``index`` of a corpus: seed ``first_seed + index``, the default ruleset."""
    import random

    count = player_count(game, index)
    seed = first_seed + index
    return game.play(player_names(count), random.Random(seed), game.ruleset(None), {"Seed": str(seed)})


def is_action(statement: object) -> bool:
    """An actor line (``PLAYER: action``): the one kind of statement that has a player and no column of its own.

    This is the core's own convention (``referee.game.statement_column``: "its own column, or its player's for an
    actor line"); other statements that name a player (``governor: Anna``) carry their own column."""
    return getattr(statement, "column", None) is None and getattr(statement, "player", None) is not None


def _game(game_id: str) -> GameType:
    from referee.registry import GAMES

    try:
        return GAMES[game_id]
    except KeyError:
        raise SystemExit(f"bench worker: no game {game_id!r} registered (games: {', '.join(GAMES)})") from None


def _emit(**data: object) -> None:
    data["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(data))


def mode_corpus(game_id: str, actions: str, seed: str, out: str) -> None:
    from referee.record import is_blank_statement, split_games

    game = _game(game_id)
    parser = game.parser()
    target, first = int(actions), int(seed)
    texts: list[str] = []
    per_game: list[int] = []
    players: dict[int, int] = {}
    total = lines = 0
    start = time.perf_counter()
    while total < target or not texts:
        index = len(texts)
        count = player_count(game, index)
        text = play(game, index, first)
        counted = 0
        for record in split_games(text):
            for _, line in record.body:
                lines += 1
                if not isinstance(line, str):  # the generator's own text: a bug in it, not a record to judge
                    raise SystemExit(f"bench worker: {game_id} game {index + 1}: unreadable line ({line.reason})")
                statement = parser.parse(line)
                if not is_blank_statement(statement) and is_action(statement):
                    counted += 1
        texts.append(text)
        per_game.append(counted)
        players[count] = players.get(count, 0) + 1
        total += counted
    elapsed = time.perf_counter() - start
    text = "\n".join(texts)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(text)
    _emit(
        games=len(texts),
        actions=total,
        lines=lines,
        players={str(k): v for k, v in sorted(players.items())},
        actions_per_game=per_game,
        lengths=[len(t) for t in texts],
        bytes=len(text.encode("utf-8")),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        inner=elapsed,
    )


def mode_hidden_corpus(actions: str, seed: str, rate: str, named_out: str, hidden_out: str) -> None:
    """The hidden-card line: Santorini: New York games (the corpus's seeds and player counts) generated with every
    dealt card named, until ACTIONS actions; then the same text with each card of a ``hand`` line written ``?`` with
    chance RATE (its own seeded draws), so the two files hold the same games and differ only in what they name."""
    import random

    from referee.record import is_blank_statement, split_games
    from referee.santorini_new_york.play import play_record

    game = _game("santorini-new-york")
    parser = game.parser()
    target, first, chance = int(actions), int(seed), float(rate)
    texts: list[str] = []
    total = 0
    while total < target or not texts:
        index = len(texts)
        count = player_count(game, index)
        game_seed = first + index
        text = play_record(
            player_names(count), random.Random(game_seed), game.ruleset(None), {"Seed": str(game_seed)}, hide=0.0
        )
        for record in split_games(text):
            for _, line in record.body:
                statement = parser.parse(line)
                if not is_blank_statement(statement) and is_action(statement):
                    total += 1
        texts.append(text)
    named = "\n".join(texts)
    draw = random.Random(first)
    dealt = hidden = 0
    lines = named.split("\n")
    for number, line in enumerate(lines):
        if line.startswith("hand "):
            head, _, cards = line.partition(": ")
            written = []
            for card in cards.split(", "):
                dealt += 1
                if draw.random() < chance:
                    hidden += 1
                    card = "?"
                written.append(card)
            lines[number] = f"{head}: {', '.join(written)}"
    for path, text in ((named_out, named), (hidden_out, "\n".join(lines))):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    _emit(games=len(texts), actions=total, dealt=dealt, hidden=hidden, bytes=len(named.encode("utf-8")))


def mode_generate(game_id: str, games: str, seed: str) -> None:
    game = _game(game_id)
    first = int(seed)
    start = time.perf_counter()
    texts = []
    for index in range(int(games)):
        texts.append(play(game, index, first))
    elapsed = time.perf_counter() - start
    text = "\n".join(texts)
    _emit(games=len(texts), sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), inner=elapsed)


def mode_parse(path: str) -> None:
    from pathlib import Path

    from referee.errors import RefereeError
    from referee.record import is_blank_statement, read_text, split_games
    from referee.registry import find_game

    start = time.perf_counter()
    text = read_text(Path(path))
    parsers: dict[str | None, object] = {}
    games = lines = actions = errors = 0
    for record in split_games(text, path):
        games += 1
        name = record.tag("Game")
        parser = parsers.get(name)
        if parser is None:
            game = find_game(name or "")
            if game is None:
                raise SystemExit(f"bench worker: {path} game {games}: unknown game {name!r}")
            parser = parsers[name] = game.parser()
        parse = parser.parse  # type: ignore[attr-defined]
        for _, line in record.body:
            lines += 1
            try:
                statement = parse(line)
            except RefereeError:
                errors += 1
                continue
            if not is_blank_statement(statement) and is_action(statement):
                actions += 1
    elapsed = time.perf_counter() - start
    _emit(games=games, lines=lines, actions=actions, errors=errors, inner=elapsed)


def mode_check(path: str) -> None:
    from pathlib import Path

    from referee.record import read_text
    from referee.replay import check_text

    start = time.perf_counter()
    reports = check_text(read_text(Path(path)), path)
    elapsed = time.perf_counter() - start
    verdicts: dict[str, int] = {}
    for report in reports:
        verdicts[report.verdict.value] = verdicts.get(report.verdict.value, 0) + 1
    first_bad = next((r for r in reports if r.verdict.value != "valid"), None)
    bad = None
    if first_bad is not None:
        error = first_bad.error
        bad = f"game {first_bad.index}: {first_bad.verdict.value}" + (
            f" at line {error.line} [{error.code}] {error.message}" if error else ""
        )
    statements = sum(r.statements for r in reports)
    _emit(games=len(reports), statements=statements, verdicts=verdicts, first_bad=bad, inner=elapsed)


def mode_table(path: str) -> None:
    """Every game of FILE played into a live table (``referee.Table``) a line at a time, as a scorekeeper enters it:
    the tags given at creation, each body statement line judged by ``play``."""
    from pathlib import Path

    from referee.record import iter_games, read_text
    from referee.table import NOT_TABLE_TAGS, Table

    start = time.perf_counter()
    games = statements = valid = 0
    for record in iter_games(read_text(Path(path)), path):
        tags = {name: value for name, value in record.tag_values().items() if name.lower() not in NOT_TABLE_TAGS}
        players = [name.strip() for name in (record.tag("Players") or "").split(",")]
        table = Table(record.tag("Game") or "", players, tags)
        for _, line in record.body:
            stripped = line.strip() if isinstance(line, str) else ""
            if stripped and stripped[0] != "#":
                table.play(line)
                statements += 1
        games += 1
        valid += table.verdict.value == "valid"
    _emit(games=games, statements=statements, valid=valid, inner=time.perf_counter() - start)


def mode_chess_corpus(plies: str, seed: str, cap: str, out: str) -> None:
    import yardstick  # bench/yardstick.py (this script's folder is sys.path[0])

    start = time.perf_counter()
    games, total = yardstick.write_random_games(out, int(plies), int(seed), int(cap))
    _emit(games=games, plies=total, inner=time.perf_counter() - start)


def mode_chess_read(reading: str, path: str) -> None:
    import yardstick

    visitor_type = yardstick.READINGS.get(reading)
    if visitor_type is None:
        known = ", ".join(yardstick.READINGS)
        raise SystemExit(f"bench worker: no python-chess reading {reading!r} (readings: {known})")
    start = time.perf_counter()
    try:
        games, plies = yardstick.read(path, visitor_type)
    except yardstick.InvalidGame as error:
        raise SystemExit(f"bench worker: {path} {error}") from None
    _emit(games=games, plies=plies, inner=time.perf_counter() - start)


MODES: dict[str, Callable[..., None]] = {
    "corpus": mode_corpus,
    "generate": mode_generate,
    "parse": mode_parse,
    "check": mode_check,
    "table": mode_table,
    "hidden-corpus": mode_hidden_corpus,
    "chess-corpus": mode_chess_corpus,
    "chess-read": mode_chess_read,
    "noop-referee": lambda: _emit(inner=0.0),
    "noop-chess": lambda: _emit(inner=0.0),
}


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in MODES:
        raise SystemExit(f"usage: worker.py {{{','.join(MODES)}}} ARGS...")
    mode = argv[0]
    # The same imports as the startup baseline the parent subtracts.
    if mode.startswith("chess") or mode == "noop-chess":
        import chess.pgn  # noqa: F401
    else:
        import referee.cli  # noqa: F401
    MODES[mode](*argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
