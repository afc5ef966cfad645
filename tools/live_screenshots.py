"""The screenshots of docs/live.md: the scorekeeper page of a ``referee serve`` (on a new database in a temporary
folder) in the system's Chromium, a San Juan table in play (wide, the completion open) and a Santorini: New York
table on a phone, a refused line shown.

python tools/live_screenshots.py            # writes docs/live-page.png and docs/live-phone.png
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from referee.live.spawn import ServerProcess
from referee.record import iter_games
from referee.registry import GAMES
from referee.report.browser import chromium_path, launch
from referee.table import NOT_TABLE_TAGS

ROOT = Path(__file__).resolve().parent.parent
SHOTS = [  # (game, players, seed, lines sent, what is typed, refused line, viewport, file)
    ("san-juan", ["Anna", "Boris", "Clara"], 11, 40, "Boris: ", None, {"width": 1360, "height": 900}, "live-page.png"),
    (
        "santorini-new-york",
        ["Anna", "Boris"],
        7,
        14,
        None,
        "Boris: move d4-d6; build d5",
        {"width": 390, "height": 844},
        "live-phone.png",
    ),
]


def main() -> int:
    executable = chromium_path()
    if executable is None:
        print("no Chromium found", file=sys.stderr)
        return 1
    work = Path(tempfile.mkdtemp(prefix="referee-live-shots-"))
    with ServerProcess(work / "tables.db") as server, sync_playwright() as playwright:
        context = launch(playwright, work / "profile", executable)
        for game_id, players, seed, count, typed, refused, viewport, name in SHOTS:
            game = GAMES[game_id]
            (record,) = iter_games(game.play(players, random.Random(seed), game.ruleset(None), {}))
            tags = {key: value for key, value in record.tag_values().items() if key.lower() not in NOT_TABLE_TAGS}
            tags["Event"] = "Club night"
            lines = [text for _, text in record.body if isinstance(text, str) and text.strip() and text[0] != "#"]
            created = httpx.post(f"{server.url}/tables", json={"game": game_id, "players": players, "tags": tags})
            table = created.json()
            for number, text in enumerate(lines[:count]):
                reply = httpx.post(
                    f"{server.url}/tables/{table['id']}/lines",
                    json={"text": text, "expect": number},
                    headers={"Authorization": f"Bearer {table['host_token']}"},
                )
                reply.raise_for_status()
            tab = context.new_page()
            tab.set_viewport_size(viewport)
            tab.goto(f"{server.url}/#table={table['id']}&token={table['host_token']}")
            tab.wait_for_selector("body[data-ready=table]")
            tab.wait_for_selector("#connection[data-state=live]")
            if refused:
                tab.fill("#line", refused)
                tab.press("#line", "Enter")
                tab.wait_for_selector("#refusal:not([hidden])")
            if typed:
                tab.fill("#line", typed)
                tab.press("#line", "ArrowDown")
            tab.screenshot(path=str(ROOT / "docs" / name))
            tab.close()
        context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
