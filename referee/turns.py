"""Seat order, once for every game: seats are numbered 0..n-1 in the order of the ``Players`` tag, which is clockwise.

Games build their turn flow from these few functions — a phase's action order from its first player (Saint
Petersburg's token holder, San Juan's chooser), the next player to act, passing a token to the left, the players
still in (Santorini: New York's eliminated players) — so seat arithmetic lives in one place.
"""

from __future__ import annotations

from collections.abc import Collection


def clockwise(start: int, seats: int, out: Collection[int] = ()) -> list[int]:
    """Every seat once, from ``start`` going clockwise, leaving out the seats in ``out``."""
    return [(start + k) % seats for k in range(seats) if (start + k) % seats not in out]


def next_seat(seat: int, seats: int, out: Collection[int] = ()) -> int:
    """The seat to the left of ``seat`` (clockwise), skipping the seats in ``out``; ``seat`` itself when alone."""
    for k in range(1, seats + 1):
        candidate = (seat + k) % seats
        if candidate not in out:
            return candidate
    return seat


def left_of(seat: int, seats: int) -> int:
    """Where a token passed to the left goes."""
    return (seat + 1) % seats
