"""What the report page draws of a Saint Petersburg position (``referee report``, docs/report.md): both display rows,
each player's cards by colour, rubles, VP, hand and phase tokens, the decks and the bank — read from the very state
the referee judges with, as plain data in the page's picture vocabulary. Nothing here changes the state."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.saint_petersburg.cards import DECKS, Card
from referee.saint_petersburg.position import ACTING, OVER
from referee.saint_petersburg.state import SPState

COLOURS = (("green", "workers"), ("blue", "buildings"), ("red", "aristocrats"))


@lru_cache(maxsize=1024)
def card(item: Card) -> dict[str, Any]:
    """A card as drawn (one shared object per card: the pictures are read, never changed)."""
    drawn: dict[str, Any] = {"name": item.name, "colour": item.colour, "note": f"{item.cost} R"}
    if item.upgrade:
        drawn["badge"] = "upgrade"
    return drawn


def snapshot(state: SPState) -> dict[str, Any]:
    """The position as the page draws it (see ``referee.report`` for the vocabulary)."""
    over = state.stage == OVER
    vp = [player.vp for player in state.p]
    if over:
        scores = state.outcome().scores or {}
        vp = [scores.get(player.name, player.vp) for player in state.p]
    blocks: dict[str, Any] = {
        "display": {
            "kind": "cards",
            "title": "Display",
            "groups": [
                {"title": "upper row", "key": "upper", "cards": [card(c) for c in state.upper]},
                {"title": "lower row", "key": "lower", "cards": [card(c) for c in state.lower]},
            ],
        },
        "table": {
            "kind": "facts",
            "title": "Table",
            "items": {
                **{f"{deck} deck": state.deck_size[deck] for deck in DECKS},
                "bank": "unlimited" if state.bank is None else state.bank,
                "discards": len(state.discards),
                "end triggered": "yes" if state.end_triggered else "no",
            },
        },
    }
    for seat, player in enumerate(state.p):
        tokens = [phase for phase, holder in state.holder.items() if holder == seat]
        groups = [
            {"title": title, "key": colour, "cards": [card(c) for c in player.area if c.colour == colour]}
            for colour, title in COLOURS
        ]
        groups.append({"title": "hand", "key": "hand", "cards": [card(c) for c in player.hand]})
        blocks[f"p{seat}"] = {
            "kind": "player",
            "seat": seat,
            "name": player.name,
            "stats": {"rubles": player.rubles, "VP": vp[seat], "hand": len(player.hand)},
            "groups": groups,
            "notes": [f"tokens: {', '.join(tokens)}"] if tokens else [],
        }
    return {
        "head": state.summary().split("\n", 1)[0],
        "round": "end" if over else state.round,
        "active": state.to_act if state.stage == ACTING else None,
        "score": {"VP": vp, "rubles": [player.rubles for player in state.p]},
        "blocks": blocks,
    }
