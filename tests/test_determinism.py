"""Same arguments, same bytes, in any process: generated games do not depend on hash randomisation."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from referee.registry import GAMES


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_play_writes_the_same_record_under_any_hash_seed(game_id: str) -> None:
    game = GAMES[game_id]
    players = str(min(game.max_players, max(game.min_players, 3)))
    command = [sys.executable, "-m", "referee.cli", "play", game_id, "-n", players, "-s", "7", "--games", "3"]
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True, timeout=120)
        outputs.add(done.stdout)
    assert len(outputs) == 1
