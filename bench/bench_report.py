"""``python -m bench.bench_report``: how big a report page of many games is and how fast it opens (docs/report.md).

Generates N complete random games (every registered game in turn, 2 to 4 players, one file per game and player
count), writes the report page, then opens it from disk in the system's Chromium (headless, through Playwright) and
measures, inside the page: the time from navigation to the overview being ready, filtering (a search word, then a
verdict), sorting, opening a game (inflating its details and drawing the first position) and one step. Each browser
figure is the median of several runs. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.registry import GAMES
from referee.replay import Referee, find_records
from referee.report.browser import chromium_path, launch
from referee.report.build import write_report

OPEN_GAME = """async (id) => {
  const start = performance.now();
  location.hash = '#game=' + id;
  for (;;) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const label = document.getElementById('step-label').textContent;
    if (!document.getElementById('game-view').hidden && label.startsWith('step')) break;
  }
  return performance.now() - start;
}"""

PAINTED = "performance.getEntriesByName('referee-painted')[0].startTime"

TIMED = """async (action) => {
  const start = performance.now();
  action === 'step' ? document.getElementById('next').click()
    : action === 'sort' ? document.querySelector('#games th[data-sort=players]').click()
    : action === 'verdict' ? (() => { const s = document.getElementById('filter-verdict');
        s.value = 'valid'; s.dispatchEvent(new Event('change')); })()
    : (() => { const i = document.getElementById('filter-text');
        i.value = action; i.dispatchEvent(new Event('input')); })();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  return performance.now() - start;
}"""


def generate(folder: Path, count: int, seed: int) -> None:
    games = list(GAMES.values())
    files: dict[str, list[str]] = {}
    for k in range(count):
        game = games[k % len(games)]
        players = 2 + (k // len(games)) % 3
        players = max(game.min_players, min(game.max_players, players))
        names = ["Anna", "Boris", "Clara", "Dmitri"][:players]
        tags = {"Event": "bench", "Seed": str(seed + k)}
        text = game.play(names, random.Random(seed + k), game.ruleset(None), tags)
        files.setdefault(f"{game.id}-{players}p.rec", []).append(text)
    for name, texts in files.items():
        (folder / name).write_text("\n".join(texts), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the report (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for writing the report")
    parser.add_argument("--repeats", type=int, default=5, help="browser runs per figure (the median is shown)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the records and the page in this folder")
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="referee-bench-report-"))
    work.mkdir(parents=True, exist_ok=True)
    records = work / "records"
    records.mkdir(exist_ok=True)
    started = time.perf_counter()
    generate(records, args.games, args.seed)
    generated = time.perf_counter() - started
    page = work / "report.html"
    page.unlink(missing_ok=True)
    started = time.perf_counter()
    with open(page, "w", encoding="utf-8") as out:
        counts = write_report(find_records([records]), Referee(), out, arguments=[str(records)], jobs=args.jobs)
    written = time.perf_counter() - started
    size = page.stat().st_size
    record_bytes = sum(path.stat().st_size for path in records.glob("*.rec"))
    rows = [
        ("games", f"{sum(counts.values()):,}"),
        ("record files", f"{record_bytes / 1e6:.1f} MB"),
        ("generating the records", f"{generated:.1f} s"),
        (f"writing the page (-j {args.jobs})", f"{written:.1f} s"),
        ("page size", f"{size / 1e6:.1f} MB ({size / max(1, sum(counts.values())) / 1e3:.1f} kB per game)"),
    ]
    executable = chromium_path()
    if executable is None:
        print("bench_report: no Chromium found; browser figures skipped", file=sys.stderr)
    else:
        rows += browser_figures(page, executable, args.repeats, sum(counts.values()), work)
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0


def browser_figures(page: Path, executable: str, repeats: int, games: int, work: Path) -> list[tuple[str, str]]:
    from playwright.sync_api import sync_playwright

    samples: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        samples.setdefault(name, []).append(value)

    with sync_playwright() as playwright:
        for run in range(repeats):
            context = launch(playwright, work / f"profile-{run}", executable, viewport={"width": 1400, "height": 900})
            tab = context.new_page()
            tab.goto(page.as_uri())
            tab.wait_for_function("() => performance.getEntriesByName('referee-painted').length > 0")
            note("open: navigation to the overview drawn", tab.evaluate(PAINTED))
            note("filter: a search word", tab.evaluate(TIMED, "anna"))
            note("filter: clear the search", tab.evaluate(TIMED, ""))
            note("filter: one verdict", tab.evaluate(TIMED, "verdict"))
            note("sort by a column", tab.evaluate(TIMED, "sort"))
            note("open a game (inflate, draw)", tab.evaluate(OPEN_GAME, (run * 97 + games // 2) % games))
            note("one step", tab.evaluate(TIMED, "step"))
            context.close()
    return [(name, f"{statistics.median(values):.0f} ms") for name, values in samples.items()]


if __name__ == "__main__":
    sys.exit(main())
