"""What the report page draws of a San Juan position (``referee report``, docs/report.md): each city with its goods,
each hand — the cards the record named and how many it did not — the trading-house tile and its prices, the roles,
the supply and the discard pile; read from the very state the referee judges with, as plain data in the page's
picture vocabulary. Nothing here changes the state."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from referee.san_juan.base import CHOOSING, OVER
from referee.san_juan.cards import CARDS, GOODS, TILES
from referee.san_juan.state import SJState


@lru_cache(maxsize=1024)
def card(name: str, badge: str | None = None) -> dict[str, Any]:
    """A card as drawn (one shared object per name and badge: the pictures are read, never changed)."""
    found = CARDS.get(name)
    drawn: dict[str, Any] = {"name": name}
    if found is not None:
        drawn["colour"] = found.good if found.production else "violet"
        drawn["note"] = f"cost {found.cost}"
    if badge:
        drawn["badge"] = badge
    return drawn


def city(state: SJState, seat: int) -> list[dict[str, Any]]:
    """The city in building order; a production building holding a good carries it (the first ones of its kind)."""
    player = state.p[seat]
    goods = Counter(player.goods)
    drawn = []
    for name in player.city:
        found = CARDS.get(name)
        badge = None
        if found is not None and found.production and goods[found.good] > 0:
            goods[found.good] -= 1
            badge = f"{found.good} good"
        if name == player.fresh:
            badge = (badge + ", " if badge else "") + "built this phase"
        drawn.append(card(name, badge))
    return drawn


def hand(state: SJState, seat: int) -> list[dict[str, Any]]:
    """The cards the record named, then the forgotten ones (some of a known pool) and the unknown ones as card backs."""
    player = state.p[seat]
    drawn = [card(name) for name, count in sorted(player.hand_known.items()) for _ in range(count)]
    if player.hand_forgotten and player.pool is not None:
        pool = ", ".join(sorted(player.pool.names()) + (["any card"] if player.pool.wild else []))
        drawn += [{"name": "?", "colour": "back", "note": f"one of {pool}"}] * player.hand_forgotten
    drawn += [{"name": "?", "colour": "back", "note": "unknown"}] * player.hand_unknown
    return drawn


def active(state: SJState) -> int | None:
    if state.stage == CHOOSING:
        return state.chooser_due()
    turn = state.current_turn()
    return turn.seat if turn is not None else None


def snapshot(state: SJState) -> dict[str, Any]:
    """The position as the page draws it (see ``referee.report`` for the vocabulary)."""
    vp = [state.score(seat)["total"] for seat in range(len(state.p))]
    tile: dict[str, Any] = {"tile": state.tile or "none turned up yet"}
    if state.tile in TILES:
        tile.update({good: f"{price} card(s)" for good, price in zip(GOODS, TILES[state.tile], strict=True)})
    tile["tiles seen"] = " ".join(state.tiles_seen) or "-"
    blocks: dict[str, Any] = {
        "tile": {"kind": "facts", "title": "Trading house", "items": tile},
        "table": {
            "kind": "facts",
            "title": "Table",
            "items": {
                "governor": state.players[state.governor] if state.governor is not None else "-",
                "roles chosen": ", ".join(state.roles_chosen) or "-",
                "role in play": state.role or "-",
                "supply": state.supply,
                "discard pile": state.discard_size,
            },
        },
    }
    for seat, player in enumerate(state.p):
        notes = []
        if seat == state.governor:
            notes.append("governor")
        if player.tucked:
            notes.append(f"chapel: {player.tucked} card(s) tucked")
        blocks[f"p{seat}"] = {
            "kind": "player",
            "seat": seat,
            "name": player.name,
            "stats": {
                "VP": vp[seat],
                "buildings": len(player.city),
                "goods": player.goods_total,
                "hand": player.hand_size,
                "unknown": player.hand_unknown + player.hand_forgotten,
            },
            "groups": [
                {"title": "city", "key": "city", "cards": city(state, seat)},
                {"title": "hand", "key": "hand", "cards": hand(state, seat)},
            ],
            "notes": notes,
        }
    return {
        "head": state._summary_head(),
        "round": "end" if state.stage == OVER else state.round,
        "active": active(state),
        "score": {"VP": vp},
        "blocks": blocks,
    }
