"""Throughput of parse + full rules check, in actions (actor statements) per second.

    python bench/bench_check.py [--games 200] [--game saint-petersburg] [--repeat 3]

The yardstick: python-chess reads and fully validates about 79,000 plies per second on this machine class.
A fresh process is used for the cold number (the line cache starts empty); the warm number re-checks the same text.
"""

from __future__ import annotations

import argparse
import random
import time

from referee.registry import find_game
from referee.replay import check_text


def corpus(game_name: str, games: int) -> str:
    game = find_game(game_name)
    assert game is not None, game_name
    texts = []
    for seed in range(games):
        players = ["Anna", "Boris", "Clara", "Dmitri"][: 2 + seed % (game.max_players - 1)]
        options = game.ruleset(None)
        texts.append(game.play(players, random.Random(seed), options, {"Seed": str(seed)}))
    return "\n".join(texts)


def count_actions(text: str) -> int:
    return sum(
        1
        for line in text.splitlines()
        if ":" in line.split("#")[0]
        and not line.startswith("[")
        and line.split(":")[0].strip()
        not in ("tokens", "deal", "score", "final", "hand", "governor", "tile", "place", "skyscraper", "play", "win")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="saint-petersburg")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = corpus(args.game, args.games)
    actions = count_actions(text)
    lines = sum(1 for line in text.splitlines() if line.strip())
    for run in range(args.repeat):
        start = time.perf_counter()
        reports = check_text(text, "bench")
        elapsed = time.perf_counter() - start
        bad = [r for r in reports if r.verdict.value != "valid"]
        assert not bad, bad[0].error
        label = "cold" if run == 0 else "warm"
        print(
            f"{label}: {len(reports)} games, {lines} lines, {actions} actions in {elapsed:.3f} s = "
            f"{actions / elapsed:,.0f} actions/s, {lines / elapsed:,.0f} lines/s"
        )


if __name__ == "__main__":
    main()
