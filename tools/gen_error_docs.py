"""Regenerate the code tables of docs/errors.md from the error catalogue (the prose above the marker is kept).

python tools/gen_error_docs.py
"""

from __future__ import annotations

from pathlib import Path

from referee.errors import CATALOGUE, ErrorKind
from referee.registry import GAMES

MARKER = "<!-- generated below by tools/gen_error_docs.py -->"


def tables() -> str:
    list(GAMES.values())  # loading the games registers their codes
    groups: dict[type, list[ErrorKind]] = {}
    for kind in CATALOGUE.values():
        groups.setdefault(type(kind), []).append(kind)
    out = []
    for enum, kinds in groups.items():
        title = (enum.__doc__ or enum.__name__).strip().splitlines()[0]
        out.append(f"\n## {enum.__name__} — {title}\n")
        out.append("| code | verdict | rule |")
        out.append("|---|---|---|")
        for kind in kinds:
            out.append(f"| `{kind.code}` | {kind.verdict.value} | {kind.summary} |")
    return "\n".join(out) + "\n"


def main() -> None:
    path = Path(__file__).parent.parent / "docs" / "errors.md"
    head = path.read_text(encoding="utf-8").split(MARKER)[0] if path.exists() else "# Error codes\n\n"
    path.write_text(head.rstrip() + "\n\n" + MARKER + "\n" + tables(), encoding="utf-8")


if __name__ == "__main__":
    main()
