"""Write the generated Santorini: New York games of this corpus (run from the repository root):

    .venv/bin/python records/santorini-new-york/generate.py

Game i plays the deck Engineer + BUILDERS[i % 5] + SPECIALISTS[(i // 5 + i) % 5] + MOVERS[i % 3] with 2 + i % 4
players, on square-5x5 (when i // 4 is odd) or the default board, seed i. Each record carries its Seed, Board,
DeckList and Deck tags; `Game.play` with those tags writes it again (the generator is deterministic)."""

from __future__ import annotations

import random
from pathlib import Path

from referee.santorini_new_york import SantoriniNewYork
from referee.santorini_new_york.cards import PROFESSIONS

NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Elena"]
KINDS = {kind: [p for p, k in PROFESSIONS.items() if k == kind] for kind in ("Builder", "Specialist", "Mover")}
GAMES = 34


def main() -> None:
    folder = Path(__file__).parent / "generated"
    folder.mkdir(exist_ok=True)
    for i in range(GAMES):
        deck = ("Engineer", KINDS["Builder"][i % 5], KINDS["Specialist"][(i // 5 + i) % 5], KINDS["Mover"][i % 3])
        board = "square-5x5" if (i // 4) % 2 else "manhattan"
        players = NAMES[: 2 + i % 4]
        tags = {"Event": "referee generated corpus", "Ruleset": "standard", "Seed": str(i), "Board": board}
        tags["Deck"] = ", ".join(deck)
        text = SantoriniNewYork.play(players, random.Random(i), SantoriniNewYork.ruleset(None), tags)
        (folder / f"sny-{len(players)}p-{board}-seed{i:02d}.rec").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
