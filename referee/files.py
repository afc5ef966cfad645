"""Writing the user's files: atomically, durably, and never over a file the referee did not write.

Every file the referee writes (``-o``, ``--junit``, ``--save``, traces, ``fmt``) is written whole into a temporary
file in the target's folder, flushed to the disk (``fsync``), and only then given its name (``linkat``, or a rename
over a file the referee may replace), after which the folder is flushed too: a reader sees no file or the whole
file, a crash or power cut right after never leaves an empty one, and an interrupted run (Ctrl-C, SIGTERM, a full
disk) leaves nothing behind. Where the system allows (Linux, ``O_TMPFILE``), the temporary file has no name at all,
so even SIGKILL leaves nothing (but for the microseconds a replacement is named ``.NAME.referee.part``: see
``_Temporary.replace``); elsewhere it is a hidden ``.NAME.XXXX.part`` file beside the target, removed on any error or
signal the process survives long enough to handle.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from referee.errors import JobFailed

_PROC_FD = Path("/proc/self/fd")
STALE_AFTER = 60.0  # seconds: a replacement's named moment older than this is a killed run's leftover


class CannotWrite(JobFailed):
    """A file could not be written (a full disk, a read-only or missing folder, no permission)."""

    def __init__(self, path: Path | str, error: OSError) -> None:
        self.path = str(path)
        self.reason = error.strerror or str(error)
        self.errno = error.errno
        super().__init__(f"cannot write {self.path}: {self.reason}")


class FileExists(Exception):
    """The target exists and may not be replaced: referee never overwrites a file it did not write."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} exists; referee never overwrites a file (choose another name)")
        self.path = path


class _Temporary:
    """A temporary file in a folder, named or not, with the folder open (to name the file and to flush the folder)."""

    def __init__(self, folder: Path, name: str, mode: int | None) -> None:
        self.folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
        self.named: str | None = None
        self.made_folders: list[Path] = []  # folders made for the file, removed if it is not written
        self.fd = -1
        try:
            self.fd = self._unnamed(folder, mode)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                self.close()
                raise
        if self.fd < 0:
            try:
                self.fd, path = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
                self.named = os.path.basename(path)
                os.chmod(path, _new_file_mode() if mode is None else mode)
            except OSError:
                self.close()
                raise

    @staticmethod
    def _unnamed(folder: Path, mode: int | None) -> int:
        flag = getattr(os, "O_TMPFILE", 0)
        if not flag or not _PROC_FD.is_dir():
            return -1
        fd = os.open(folder, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o666)  # the umask applies
        if mode is not None:
            os.fchmod(fd, mode)
        return fd

    def flush_to_disk(self) -> None:
        os.fsync(self.fd)

    def link(self, name: str) -> None:
        """Give the file ``name`` in its folder; ``FileExistsError`` when the name is taken."""
        if self.named is None:
            os.link(_PROC_FD / str(self.fd), name, dst_dir_fd=self.folder_fd, follow_symlinks=True)
        else:
            os.link(self.named, name, src_dir_fd=self.folder_fd, dst_dir_fd=self.folder_fd)

    def replace(self, name: str) -> None:
        """Put the file in place of ``name`` (atomically: a reader sees the old file or the new one).

        An unnamed file is renamed over the target from a name of its own, ``.NAME.referee.part``, for the microseconds
        between the two calls (Linux has no call that links a file over another). A SIGKILL in that moment leaves the
        name behind; the next replacement of the same target removes it (named over a minute ago: no run still holds
        it), so such a leftover never stays. Two runs replacing one target at once use a random name for the later."""
        moment = f".{name}.referee.part"
        if self.named is None:
            self._remove_if_stale(moment)
            with contextlib.suppress(FileExistsError):
                self.link(moment)
                self.named = moment
        while self.named is None:
            moment = f".{name}.{secrets.token_hex(6)}.part"
            with contextlib.suppress(FileExistsError):
                self.link(moment)
                self.named = moment
        os.replace(self.named, name, src_dir_fd=self.folder_fd, dst_dir_fd=self.folder_fd)
        self.named = None

    def _remove_if_stale(self, moment: str) -> None:
        """Remove ``moment`` when it is a killed run's leftover: named (its status last changed) over a minute ago."""
        with contextlib.suppress(OSError):
            if time.time() - os.stat(moment, dir_fd=self.folder_fd, follow_symlinks=False).st_ctime > STALE_AFTER:
                os.unlink(moment, dir_fd=self.folder_fd)

    def flush_folder(self) -> None:
        with contextlib.suppress(OSError):  # some file systems cannot flush a folder; the file itself is flushed
            os.fsync(self.folder_fd)

    def close(self) -> None:
        if self.named is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.named, dir_fd=self.folder_fd)
            self.named = None
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        with contextlib.suppress(OSError):
            os.close(self.folder_fd)
        _remove_empty(self.made_folders)


class _Output(io.TextIOWrapper):
    """The text stream of a file being written: a failure to write it names the file it was for."""

    def __init__(self, fd: int, target: Path, newline: str | None = None) -> None:
        super().__init__(io.BufferedWriter(io.FileIO(fd, "w", closefd=False)), encoding="utf-8", newline=newline)
        self.target = target

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as exc:
            raise CannotWrite(self.target, exc) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            raise CannotWrite(self.target, exc) from None


class _WholeWrites(io.RawIOBase):
    """A raw stream that writes all it is given or raises. Standard output unbuffered (``python -u``,
    ``PYTHONUNBUFFERED``, common in containers and CI) is a raw file whose short write — a disk filling up under a
    redirection — its text layer takes as done: the rest of the text was dropped and the run ended with status 0."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:  # still a terminal: the progress bar and the summary table look here
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += os.write(self._fd, view[done:])
        return done


def complete_standard_output() -> None:
    """Make every write to the process's own standard output complete or fail (``_WholeWrites``); a buffered
    standard output already does, and a stream put in its place (a test runner's) is left alone."""
    stream = sys.stdout
    if stream is not sys.__stdout__ or not isinstance(stream, io.TextIOWrapper):
        return
    if not isinstance(stream.buffer, io.RawIOBase):
        return
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError):
        return
    sys.stdout = io.TextIOWrapper(
        _WholeWrites(fd),  # a raw stream, as Python's own unbuffered standard output
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=True,
    )


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def new_file(path: Path, replaceable: Callable[[Path], bool] = lambda _: False) -> Iterator[TextIO]:
    """Write a new file atomically and durably (see the module): the text written in the block is given the name
    ``path`` when the block ends — which fails with ``FileExists`` when the name exists, unless ``replaceable`` says
    the file there is the referee's own earlier output. ``CannotWrite`` for any failure of the system."""
    temporary = _temporary_for(path)
    try:
        out = _Output(temporary.fd, path)
        try:
            yield out
            out.flush()
        finally:
            with contextlib.suppress(OSError, CannotWrite):  # flushed above; a failure here only hides another
                out.close()
        _put_in_place(temporary, path, replaceable)
    finally:
        temporary.close()


def _temporary_for(path: Path, mode: int | None = None) -> _Temporary:
    """The temporary file that becomes ``path``, its folder made when missing (and removed again, when empty, if the
    file is not written: ``_Temporary.close``); ``CannotWrite`` when it cannot be."""
    made: list[Path] = []
    try:
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            made.append(folder)
            folder = folder.parent
        for folder in reversed(made):
            folder.mkdir(exist_ok=True)
        temporary = _Temporary(path.parent, path.name, mode)
    except OSError as exc:
        _remove_empty(made)
        raise CannotWrite(path, exc) from None
    temporary.made_folders = made
    return temporary


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders a failed write made (the deepest first), those still empty only."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _put_in_place(temporary: _Temporary, path: Path, replaceable: Callable[[Path], bool]) -> None:
    try:
        temporary.flush_to_disk()
        if path.exists() and replaceable(path):
            temporary.replace(path.name)
        else:
            try:
                temporary.link(path.name)
            except FileExistsError:
                raise FileExists(path) from None
        temporary.flush_folder()
    except OSError as exc:
        raise CannotWrite(path, exc) from None
    temporary.made_folders = []  # the file is in them: kept


def write_new_file(path: Path, text: str) -> None:
    with new_file(path) as out:
        out.write(text)


def write_new_bytes(path: Path, data: bytes) -> None:
    """``new_file`` for bytes (a copied variant or board file, byte for byte)."""
    temporary = _temporary_for(path)
    try:
        view = memoryview(data)
        while view:
            try:
                written = os.write(temporary.fd, view)
            except OSError as exc:
                raise CannotWrite(path, exc) from None
            view = view[written:]
        _put_in_place(temporary, path, lambda _: False)
    finally:
        temporary.close()


def write_named_by_content(path: Path, text: str) -> None:
    """A file whose name is made from its content (a counterexample record): written as a new file; a file of that
    name is already this text, so it is left as it is."""
    if path.exists():
        return
    with contextlib.suppress(FileExists):  # written meanwhile by another run: the same name, the same text
        write_new_file(path, text)


def replace_file(path: Path, text: str, like: os.stat_result) -> None:
    """Replace a file's content atomically and durably with ``text``, keeping the permissions (and the owner, where
    allowed) of ``like``, its status when it was read. ``CannotWrite`` for any failure of the system."""
    temporary = _temporary_for(path, stat.S_IMODE(like.st_mode))
    try:
        with _Output(temporary.fd, path, newline="") as out:
            out.write(text)
        with contextlib.suppress(OSError):  # only root may give a file away; the permissions are kept all the same
            os.fchown(temporary.fd, like.st_uid, like.st_gid)
        _put_in_place(temporary, path, lambda _: True)
    finally:
        temporary.close()


def written_by_referee(mark: str, within: int) -> Callable[[Path], bool]:
    """Whether a file is an earlier referee run's own output (safe to replace): ``mark`` in its first ``within``
    characters. ``new_file`` takes it as ``replaceable``."""

    def replaceable(path: Path) -> bool:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                return mark in handle.read(within)
        except OSError:
            return False

    return replaceable
