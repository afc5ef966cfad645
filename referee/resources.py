"""Reading user files safely: record files named on the command line, and the files a record itself names
(house-rule variants, boards, deck lists).

Records come from anyone, so a record may make the referee read only

- a resource *registered* by name (shipped in a game's package), or
- a file inside the record's own folder (after resolving ``..`` and symbolic links),

unless the user widens that with ``--allow-dir`` or ``--allow-any-path``. Anything else gets one answer whatever the
file system holds, so a record cannot probe for files. Only regular files are read (never a FIFO, a device or a
folder), and never more than ``max_bytes``: a special file cannot hang the referee and a huge one cannot exhaust its
memory. See docs/security.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from referee.files import CannotWrite, FileExists, write_new_bytes

DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024  # a record file: read line by line, so memory does not grow with it
MAX_LINE_BYTES = 16 * 1024 * 1024  # one line of a record (a longer one is reported, not held)
DEFAULT_MAX_RESOURCE_BYTES = 1024 * 1024  # a variant, board or deck list named by a record


class ReadRefused(Exception):
    """A file that is not read: not a regular file, too large, unreadable. ``reason`` is for people."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def open_regular(path: Path, max_bytes: int) -> BinaryIO:
    """A regular file of at most ``max_bytes`` bytes, opened for reading in binary; ``ReadRefused`` otherwise.

    The file is opened without blocking and checked *after* opening (``fstat`` of the open file), so neither a FIFO
    nor a file swapped for one between a check and the open can hang the reader."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ReadRefused(exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a pipe, device or socket)"
            raise ReadRefused(kind)
        if info.st_size > max_bytes:
            raise ReadRefused(f"larger than the limit of {max_bytes:,} bytes ({info.st_size:,} bytes)")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=1 << 16)
    except BaseException:
        os.close(fd)
        raise


def read_limited(path: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes (opened as ``open_regular`` opens it); anything
    else, or a file that grows past the limit while it is read, raises ``ReadRefused``."""
    chunks: list[bytes] = []
    size = 0
    with open_regular(path, max_bytes) as stream:
        try:
            while chunk := stream.read(1 << 20):
                size += len(chunk)
                if size > max_bytes:  # grew while being read
                    raise ReadRefused(f"larger than the limit of {max_bytes:,} bytes")
                chunks.append(chunk)
        except OSError as exc:
            raise ReadRefused(exc.strerror or str(exc)) from None
    return b"".join(chunks)


@dataclass(frozen=True)
class ReadPolicy:
    """What the referee may read on behalf of a record (set from the command line; the defaults are safe)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_resource_bytes: int = DEFAULT_MAX_RESOURCE_BYTES
    allowed_dirs: tuple[Path, ...] = field(default_factory=tuple)
    allow_any_path: bool = False
    # where a relative reference of a record without a folder (standard input) is found with ``allow_any_path``: the
    # caller's working folder, fixed when the policy is made, so that a worker elsewhere (``--dask``) finds the same
    working_dir: Path | None = None

    def where_files_may_be(self, record_dir: Path | None) -> str:
        """Where ``locate`` looks for a file a reference names, in words, for the error that names none found."""
        if self.allow_any_path:
            return "or a file"
        places = (["inside the record's folder"] if record_dir is not None else []) + (
            ["inside a folder allowed with --allow-dir"] if self.allowed_dirs else []
        )
        if not places:
            return "no file is read for a record without a folder (standard input, a live table)"
        return "or a file " + ", or ".join(places)

    def locate(self, reference: str, registered: Mapping[str, Path], record_dir: Path | None) -> Path | None:
        """The file a record's reference names, or None for anything it may not name (or that does not exist).

        A registered name wins (case-insensitive); otherwise the reference is a path relative to the record's
        folder that must stay inside it (or inside an allowed folder), and must be a regular file.
        """
        found = registered.get(reference.strip().lower())
        if found is not None:
            return found
        if not reference.strip() or "\x00" in reference:
            return None
        candidate = Path(reference)
        roots = [record_dir] if record_dir is not None else []
        roots += list(self.allowed_dirs)
        if candidate.is_absolute():
            paths = [candidate]
        else:
            paths = [root / candidate for root in roots]
            if self.allow_any_path and not paths:
                paths = [(self.working_dir or Path.cwd()) / candidate]
        for path in paths:
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):  # missing, a loop of links, no permission
                continue
            if not self.allow_any_path and not any(_inside(real, root) for root in roots):
                continue
            try:
                if not stat.S_ISREG(real.stat().st_mode):
                    continue
            except OSError:
                continue
            return real
        return None


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.is_relative_to(root.resolve())
    except OSError:
        return False


def copy_beside(source: Path, folder: Path) -> str:
    """A file that a record written by a command names (a variant, a board, a deck list) copied into the record's
    folder, where the referee looks for it when it judges the record; the name to write in the tag. A file of that
    name already there is used when it holds the same bytes and never overwritten otherwise (the copy is then named
    by its content); the copy is written atomically."""
    data = read_limited(source, DEFAULT_MAX_RESOURCE_BYTES)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite(folder / source.name, exc) from None
    digest = hashlib.sha1(data).hexdigest()[:8]
    for name in (source.name, f"{source.stem}-{digest}{source.suffix}"):
        target = folder / name
        if target.exists():
            try:
                if read_limited(target, DEFAULT_MAX_RESOURCE_BYTES) == data:
                    return name
            except ReadRefused:
                pass
            continue
        try:
            write_new_bytes(target, data)
        except FileExists:  # written meanwhile: looked at again as an existing file would be
            if target.exists() and read_limited(target, DEFAULT_MAX_RESOURCE_BYTES) == data:
                return name
            continue
        return name
    raise ReadRefused(f"{folder} holds other files named {source.name} and {source.stem}-{digest}{source.suffix}")


@contextlib.contextmanager
def counterexample_folder(folder: Path, source: Path | None) -> Iterator[str | None]:
    """The folder a command writes counterexample records to, with ``source`` (a variant file the records name)
    copied into it (``copy_beside``); yields the copy's name for the records' tag (None without a source). A run
    that writes no record there leaves nothing behind: the copy it made and the folders it made are removed again
    (a folder only while empty)."""
    made = [folder, *folder.parents]
    made = made[: next((i for i, path in enumerate(made) if path.exists()), len(made))]
    before = _listing(folder)
    name = copy_beside(source, folder) if source is not None else None
    try:
        yield name
    finally:
        if name is not None and name not in before and _listing(folder) == before | {name}:
            with contextlib.suppress(OSError):
                (folder / name).unlink()
        for path in made:  # the deepest first
            try:
                path.rmdir()
            except OSError:
                break


def _listing(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()


DEFAULT_POLICY = ReadPolicy()
# What the user names on the command line (``--variant FILE``, ``--house-rule FILE``) is the user's own choice.
USER_POLICY = ReadPolicy(allow_any_path=True)
