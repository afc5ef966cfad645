"""Who may do what at a live table: the host's and the seats' tokens, and whose line a line is.

A table has one host token (any line, undo) and one token per seat (that player's own actor lines). Tokens are 256
random bits, shown once when the table is made and kept only as SHA-256 hashes (a hash of so many random bits needs
no salt or slow hash: there is nothing to guess), compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from referee.errors import RefereeError
from referee.game import GameType

from .store import TableRow

TOKEN_BYTES = 32
MAX_TOKEN_LENGTH = 256  # characters of a token a request may send (longer: unknown, never hashed)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Holder:
    """Whose token a request carries: the host's (``seat`` None) or a seat's."""

    seat: str | None

    @property
    def is_host(self) -> bool:
        return self.seat is None


def holder_of(row: TableRow, token: str) -> Holder | None:
    """The holder of ``token`` at this table, or None (no token of this table). Every hash of the table is
    compared, each in constant time, so the time taken says nothing about which one matched."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    digest = token_hash(token)
    found: Holder | None = None
    if hmac.compare_digest(digest, row.host_hash):
        found = Holder(None)
    for player, seat_hash in row.seat_hashes.items():
        if hmac.compare_digest(digest, seat_hash):
            found = Holder(player)
    return found


QUOTED_HEAD = re.compile(r'[ \t\f]*("(?:[^"\\]++|\\.)*+")[ \t\f]*:')
BLANKS = " \t\f\r"


def line_player(game: GameType, seats: Mapping[str, int], text: str) -> str | None:
    """The player whose actor line ``text`` is (``PLAYER: ...``), or None for a game statement (``deal: ...``,
    ``round 3``, ``governor: Anna``), which only the host sends.

    The player is the name before the first colon, as the grammar reads an actor line's player: in double quotes, or
    bare. A bare name can also be a statement keyword (a player called ``Deal`` in Saint Petersburg): the line is that
    player's only when it reads as the same statement with the name quoted (quoted, a name is never a keyword), so a
    seat cannot send a game statement under its own name. A line that does not read at all is the player's its head
    names: it is refused either way, and the seat is told why as the host would be."""
    quoted = QUOTED_HEAD.match(text)
    if quoted is not None:
        name = re.sub(r"\\(.)", r"\1", quoted.group(1)[1:-1])
        return name if name in seats else None
    if text.lstrip(BLANKS).startswith('"'):
        return None
    head, colon, _ = text.split("#", 1)[0].partition(":")
    name = head.strip(BLANKS)
    if not colon or name not in seats:
        return None
    parser = game.parser()
    try:
        as_written = parser.resolve(parser.parse(text), dict(seats))
    except RefereeError:
        return name
    as_player = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"' + text[len(head) :]
    try:
        read = parser.parse(as_player)
    except RefereeError:
        return None
    if type(read) is not type(as_written):
        return None
    try:
        return name if game.statement_text(read) == game.statement_text(as_written) else None
    except TypeError:  # a statement the game cannot write: not an actor line it knows
        return None
