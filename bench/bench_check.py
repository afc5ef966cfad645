"""Throughput of parse + full rules check, in actions (actor statements) per second.

    python bench/bench_check.py [--games 200] [--game saint-petersburg] [--repeat 3]

One process, one game: the cold number is the first check (the line cache starts empty), the warm ones re-check the
same text. The full benchmark (every game, fresh processes, python-chess, memory) is ``python -m bench``; see
docs/performance.md.
"""

from __future__ import annotations

import argparse
import time

from worker import is_action, play  # bench/worker.py: the same corpus and action count as python -m bench

from referee.record import is_blank_statement, split_games
from referee.registry import find_game
from referee.replay import check_text


def corpus(game_name: str, games: int) -> str:
    game = find_game(game_name)
    if game is None:
        raise SystemExit(f"unknown game {game_name!r}")
    return "\n".join(play(game, seed, 0) for seed in range(games))


def count_actions(text: str) -> int:
    """Actor lines, counted through each game's own parser (no game keywords here)."""
    count = 0
    for record in split_games(text):
        game = find_game(record.tag("Game") or "")
        parser = game.parser()
        for _, line in record.body:
            statement = parser.parse(line)
            if not is_blank_statement(statement) and is_action(statement):
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="saint-petersburg")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = corpus(args.game, args.games)
    lines = sum(1 for line in text.splitlines() if line.strip())
    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        reports = check_text(text, "bench")
        runs.append(time.perf_counter() - start)
        bad = [r for r in reports if r.verdict.value != "valid"]
        assert not bad, bad[0].error
    actions = count_actions(text)  # after the timed checks: counting parses every line and would warm the cache
    for run, elapsed in enumerate(runs):
        label = "cold" if run == 0 else "warm"
        print(
            f"{label}: {len(reports)} games, {lines} lines, {actions} actions in {elapsed:.3f} s = "
            f"{actions / elapsed:,.0f} actions/s, {lines / elapsed:,.0f} lines/s"
        )


if __name__ == "__main__":
    main()
