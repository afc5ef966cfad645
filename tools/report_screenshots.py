"""The screenshots of docs/report.md: a report of the records corpus opened in the system's Chromium.

python tools/report_screenshots.py            # writes docs/report-*.png
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from referee.replay import Referee, find_records
from referee.report.browser import chromium_path, launch
from referee.report.build import write_report

ROOT = Path(__file__).resolve().parent.parent
FILES = [
    "records/saint-petersburg/golden",
    "records/san-juan/generated/sj-3p-seed01.rec",
    "records/san-juan/illegal/sj-well-not-owned.rec",
    "records/santorini-new-york/generated/sny-2p-manhattan-seed00.rec",
    "records/saint-petersburg/illegal",
]
SHOTS = [  # (file, step, picture)
    ("records/saint-petersburg/golden/golden-3p-1st-edition-tiebreak.rec", 64, "report-saint-petersburg.png"),
    ("records/santorini-new-york/generated/sny-2p-manhattan-seed00.rec", 30, "report-santorini.png"),
]


def main() -> int:
    executable = chromium_path()
    if executable is None:
        print("no Chromium found", file=sys.stderr)
        return 1
    os.chdir(ROOT)  # the page names the files as given: relative to the project
    work = Path(tempfile.mkdtemp(prefix="referee-shots-"))
    page = work / "report.html"
    with open(page, "w", encoding="utf-8") as out:
        write_report(find_records(FILES), Referee(), out, title="Club night", arguments=FILES)
    text = page.read_text(encoding="utf-8")
    start = text.index('id="referee-overview">') + len('id="referee-overview">')
    rows = json.loads(text[start : text.index("</script>", start)])["games"]
    with sync_playwright() as playwright:
        context = launch(playwright, work / "profile", executable, viewport={"width": 1360, "height": 860})
        tab = context.new_page()
        tab.goto(page.as_uri())
        tab.wait_for_selector("body[data-ready=true]")
        tab.screenshot(path=str(ROOT / "docs" / "report-overview.png"))
        for file, step, name in SHOTS:
            number = next(row["id"] for row in rows if row["file"] == file)
            tab.evaluate(f"location.hash = '#game={number}&step={step}'")
            tab.wait_for_function(
                "(s) => document.getElementById('step-label').textContent.startsWith(s)", arg=f"step {step} "
            )
            tab.locator("#game-title").scroll_into_view_if_needed()
            tab.screenshot(path=str(ROOT / "docs" / name))
        context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
