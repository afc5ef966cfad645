"""The command-line options several commands share: what a record may make the referee read, where the work runs,
and the record paths argument. Below ``cli`` (the command group) and every lazily loaded command module."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import click

from referee.resources import DEFAULT_MAX_BYTES, ReadPolicy


class ByteSize(click.ParamType[int]):
    """A size in bytes: ``65536``, ``64K``, ``64M``, ``1G``."""

    name = "size"
    UNITS: ClassVar[dict[str, int]] = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        match = re.fullmatch(r"\s*(\d+)\s*([kKmMgG]?)[bB]?\s*", str(value))
        if not match:
            self.fail(f"{value!r} is not a size (e.g. 65536, 64K, 64M)", param, ctx)
        size = int(match.group(1)) * self.UNITS[match.group(2).lower()]
        if size < 1:
            self.fail("the size must be at least 1 byte", param, ctx)
        return size


class OutputFile(click.ParamType[Path | None]):
    """A file a command writes. ``-`` is standard output where the command writes there without the option (it then
    converts to None), and is refused where standard output carries the run's own report (``--junit``, ``--save``)
    or the command has no standard-output form (``report -o``): never a file literally named ``-``."""

    name = "file"

    def __init__(self, stdout: bool) -> None:
        self.stdout = stdout

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path | None:
        if isinstance(value, Path) or value is None:
            return value
        if str(value) == "-":
            if self.stdout:
                return None
            self.fail("'-' (standard output) cannot take this file here; name a file", param, ctx)
        path: Path = click.Path(dir_okay=False, path_type=Path).convert(value, param, ctx)
        return path


def running_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Where the work runs (docs/performance.md); read by ``_judged``."""
    command = click.option(
        "--dask",
        metavar="ADDRESS",
        default=None,
        help="Judge on a Dask distributed cluster (its scheduler's address, e.g. tcp://10.0.0.5:8786); the workers "
        "read the record files, so they must see them.",
    )(command)
    command = click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        help="Worker processes (default: every core). Output is the same as with one job, in the same order.",
    )(command)
    return command


def reading_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """What a record may make the referee read (docs/security.md)."""
    command = click.option(
        "--allow-any-path",
        is_flag=True,
        help="Let records name files anywhere (house-rule variants, boards); default: registered names and files "
        "inside the record's own folder only.",
    )(command)
    command = click.option(
        "--allow-dir",
        "allow_dirs",
        multiple=True,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="Also let records name files inside this folder (repeatable).",
    )(command)
    return click.option(
        "--max-size",
        type=ByteSize(),
        default=DEFAULT_MAX_BYTES,
        show_default="2G",
        help="Refuse record files larger than this (e.g. 64M).",
    )(command)


def read_policy(max_size: int, allow_dirs: tuple[Path, ...], allow_any_path: bool) -> ReadPolicy:
    """The policy of the command line, its folders absolute: a worker in another working folder (``--dask``) reads
    what the caller means."""
    return ReadPolicy(
        max_bytes=max_size,
        allowed_dirs=tuple(folder.absolute() for folder in allow_dirs),
        allow_any_path=allow_any_path,
        working_dir=Path.cwd(),
    )


def _stdin_once(ctx: click.Context, param: click.Parameter, paths: tuple[str, ...]) -> tuple[str, ...]:
    """Standard input can be read once: a second ``-`` would be an empty game, not the same text again."""
    if paths.count("-") > 1:
        raise click.BadParameter("'-' (standard input) is named more than once", ctx, param)
    return paths


RECORD_PATHS = click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True), callback=_stdin_once
)
