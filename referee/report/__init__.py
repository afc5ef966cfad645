"""The tournament report: one self-contained HTML page (``referee report PATH... -o report.html``, docs/report.md).

- ``collect``: a ``ReplayVisitor`` that takes a picture of the state after every statement while the one replay loop
  judges a game, the record text beside it, the score charts; the per-player standings.
- ``page``: the page itself — the overview as JSON, each game's details compressed (deflate + base64, decoded by the
  browser only when the game is opened), the styles and the script inline, nothing fetched.
- ``command``: the ``referee report`` command (registered lazily in ``referee.cli``).

A game draws its positions through its ``Game.picture_module``: a module with ``snapshot(state) -> dict``, plain data
in the page's picture vocabulary (described in docs/report.md)::

    {"head": "round 2, building phase, Anna to act",     # one line: where the game stands
     "round": 2,                                         # the x of the score charts ("end" once over)
     "active": 0,                                        # the seat to act, or None
     "score": {"VP": [3, 5]},                            # one chart per label, one value per seat
     "blocks": {"display": {"kind": "cards", ...},       # drawn in this order
                "p0": {"kind": "player", ...},
                "board": {"kind": "grid", ...},
                "table": {"kind": "facts", ...}}}

The page's script only draws these snapshots; it knows no rule and no game. A game without a picture module gets the
summary text of each position instead (``{"head": ..., "text": state.summary()}``).
"""

from __future__ import annotations
