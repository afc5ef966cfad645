"""What the report page draws of a Santorini: New York position (``referee report``, docs/report.md): the board —
each space's level, rooftops, skyscrapers, the workers by player colour — the Statue of Liberty's holder, the cards
played this round and each hand (named cards and unknown ones); read from the very state the referee judges with, as
plain data in the page's picture vocabulary. Nothing here changes the state."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.santorini_new_york.cards import PROFESSIONS, Card, card_text
from referee.santorini_new_york.hidden import DISCARD, hand
from referee.santorini_new_york.state import OVER, SNYState

KIND_COLOUR = {"Engineer": "orange", "Builder": "blue", "Specialist": "violet", "Mover": "green"}


@lru_cache(maxsize=1024)
def card(item: Card) -> dict[str, Any]:
    """A card as drawn (one shared object per card: the pictures are read, never changed)."""
    kind = PROFESSIONS.get(item[0], "")
    return {"name": card_text(item), "colour": KIND_COLOUR.get(kind, "grey"), "note": kind}


def board(state: SNYState) -> dict[str, Any]:
    """The grid north first, as ``view.draw_board`` draws it: None for a void cell."""
    geometry, pos = state.board, state.pos
    cells: list[dict[str, Any] | None] = []
    for row in range(geometry.height - 1, -1, -1):
        for column in range(geometry.width):
            cell = row * geometry.width + column
            if cell not in geometry.spaces:
                cells.append(None)
                continue
            drawn: dict[str, Any] = {"square": geometry.square(cell), "level": pos.height[cell]}
            if cell in pos.roof:
                drawn["roof"] = True
            if cell in pos.sky:
                drawn["sky"] = True
            if cell in pos.workers:
                drawn["worker"] = pos.workers[cell]
            cells.append(drawn)
    return {
        "kind": "grid",
        "title": f"Board {geometry.name}",
        "width": geometry.width,
        "height": geometry.height,
        "cells": cells,
        "legend": [
            {"seat": seat, "name": name, "note": "Statue of Liberty" if seat == state.holder else ""}
            for seat, name in enumerate(state.players)
        ],
    }


def snapshot(state: SNYState) -> dict[str, Any]:
    """The position as the page draws it (see ``referee.report`` for the vocabulary)."""
    pos, tracker = state.pos, state.tracker
    tops = [max((pos.height[c] for c in pos.workers_of(seat)), default=0) for seat in range(len(state.players))]
    played = ", ".join(f"{state.players[s]} {card_text(state.played[s])}" for s in state.order if s in state.played)
    blocks: dict[str, Any] = {
        "board": board(state),
        "table": {
            "kind": "facts",
            "title": "Table",
            "items": {
                "Statue of Liberty": state.players[state.holder] if state.holder is not None else "-",
                "played (turn order)": played or "-",
                "discard pile": tracker.count(DISCARD),
                "out of the game": ", ".join(state.players[s] for s in state.out) or "-",
            },
        },
    }
    for seat, name in enumerate(state.players):
        cards = [card(c) for c in tracker.known_at(hand(seat))]
        cards += [{"name": "?", "colour": "back", "note": "unknown"}] * tracker.hidden_in(seat)
        notes = []
        if seat == state.holder:
            notes.append("holds the Statue of Liberty")
        if seat in state.out:
            notes.append("out of the game")
        blocks[f"p{seat}"] = {
            "kind": "player",
            "seat": seat,
            "name": name,
            "stats": {
                "workers": " ".join(state.board.square(c) for c in pos.workers_of(seat)) or "none",
                "top level": tops[seat],
                "played": card_text(state.played[seat]) if seat in state.played else "-",
                "hand": len(cards),
            },
            "groups": [{"title": "hand", "key": "hand", "cards": cards}],
            "notes": notes,
        }
    return {
        "head": state.summary().split("\n", 1)[0],
        "round": "end" if state.stage == OVER else state.round,
        "active": state.actor(),
        "score": {"top worker level": tops},
        "blocks": blocks,
    }
