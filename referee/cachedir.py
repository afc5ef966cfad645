"""Where the referee keeps what it can always rebuild: the analysed LALR tables of the games' grammars.

Building a game's LALR parser from its grammar takes 50–90 ms, paid by every process that checks a record of the
game (every ``--jobs`` worker too). Lark can store the analysed grammar and load it back (its ``cache`` option);
the stored file is a pickle, so it is kept only in a folder that belongs to the user alone (never the shared temporary
folder, where another user could put a file in its place). Lark checks the stored file against the grammar's text,
the files it imports, its options and its own version, and rebuilds it when any differs.

The folder is ``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``;
``REFEREE_CACHE_DIR=""`` (empty) turns the cache off. A folder that cannot be made, or that others could write to, is
not used: the grammar is then built in memory as before.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def cache_dir() -> Path | None:
    """The user's own cache folder for the referee (made when missing), or None when there is none to use."""
    configured = os.environ.get("REFEREE_CACHE_DIR")
    if configured is not None:
        if not configured.strip():
            return None
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or ""
        folder = Path(base) / "referee" if base.strip() else Path.home() / ".cache" / "referee"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except (OSError, RuntimeError):  # no home, a read-only file system, no permission
        return None
    owned = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    if not stat.S_ISDIR(info.st_mode) or not owned or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return folder


def grammar_cache(grammar_file: Path, starts: list[str]) -> str | bool:
    """Lark's ``cache`` option for one game grammar: a file in the user's cache folder, or False (no cache)."""
    folder = cache_dir()
    if folder is None:
        return False
    key = hashlib.sha256(f"{grammar_file.resolve()}\0{','.join(starts)}".encode()).hexdigest()[:20]
    return str(folder / f"lark-{grammar_file.stem}-{key}.pickle")
