"""Small filesystem primitives shared by the scanners, each safe against what a hostile tree can contain.

Every function here turns ``OSError`` into a value (None and a reason, or an empty listing): discovery reports
problems, it never raises for what it finds on disk.
"""

from __future__ import annotations

import operator
import os
import stat
from collections.abc import Callable, Iterable

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


SYMLINK_REFUSED = "is a symlink and follow_symlinks is off"


MEGABYTE = 1024 * 1024
OVER_THE_LIMIT = "over the size limit of the files Clarvis checks (maxFileSizeMB): not checked"
"""The end of the reason a file over ``read_regular_file``'s limit gives."""


def read_regular_file(
    path: str, follow_symlinks: bool, limit: int | None = None, *, within: str | None = None
) -> tuple[bytes | None, str]:
    """Read a regular file's bytes, or return None and the reason in words.

    ``O_NONBLOCK`` keeps a FIFO with a recognised name from blocking the scan (it is then refused as not a
    regular file); with ``follow_symlinks`` false, ``O_NOFOLLOW`` refuses a symlink even if one was swapped in
    after the directory was listed. ``O_NOFOLLOW`` guards the last component only: ``within`` (a workspace or
    home directory) makes every directory between it and ``path`` checked too, so a symlinked ``.clarvis`` does
    not lead the read elsewhere. ``limit``: a file larger than that many bytes is not read (its first part would
    read as a broken file), and the reason says how large it is (``OVER_THE_LIMIT``).
    """
    if not follow_symlinks and within is not None:
        linked = symlinked_component(path, within)
        if linked is not None:
            return None, f"{linked} {SYMLINK_REFUSED}"
    flags = _OPEN_FLAGS | (0 if follow_symlinks else _NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):
            return None, f"{path} is a broken symlink"
        return None, f"{path} disappeared during the scan"
    except OSError as error:
        if not follow_symlinks and os.path.islink(path):
            return None, f"{path} {SYMLINK_REFUSED}"
        return None, f"{path} cannot be read: {reason(error)}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, f"{path} is not a regular file"
        if limit is not None and info.st_size > limit:
            return None, f"{path} is {info.st_size / MEGABYTE:,.1f} MB, {OVER_THE_LIMIT}"
        chunks: list[bytes] = []
        size = max(info.st_size, 0) + 1
        remaining = limit
        while remaining is None or remaining > 0:
            wanted = size if remaining is None else min(size, remaining)
            chunk = os.read(fd, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            if remaining is not None:
                remaining -= len(chunk)
            if len(chunk) < wanted:  # a regular file reads short only at its end: no second read to learn it
                break
            size = 1 << 16
        return b"".join(chunks), ""
    except OSError as error:
        return None, f"{path} cannot be read: {reason(error)}"
    finally:
        os.close(fd)


def symlinked_component(path: str, within: str) -> str | None:
    """The first directory strictly between ``within`` and ``path`` that is a symlink (``lstat``, nothing is
    followed), or None. A ``path`` outside ``within`` is not examined: the caller decided to read it."""
    base = os.path.normpath(within)
    target = os.path.normpath(path)
    if not is_within(target, base) or target == base:
        return None
    current = base
    for part in os.path.relpath(os.path.dirname(target), base).split(os.sep):
        if part in ("", "."):
            continue
        current = os.path.join(current, part)
        if is_symlink(current):
            return current
    return None


def symlinked_directory(directory: str, bases: Iterable[str]) -> str | None:
    """The first symlink on the way to ``directory``, ``directory`` itself included, below the innermost of
    ``bases`` (the workspace, the home) that contains it (``lstat``: nothing is followed), or None.

    With symlinks off a workspace must not redirect ``.clarvis``, ``.clarvis/plugins`` or ``.agents/skills``
    elsewhere. The components above the base are the caller's choice (a home on a symlinked mount) and are not
    checked; a directory outside every base has only its own last component checked."""
    target = os.path.normpath(directory)
    base: str | None = None
    for candidate in bases:
        candidate = os.path.normpath(candidate)
        if is_within(target, candidate) and (base is None or len(candidate) > len(base)):
            base = candidate
    if base is None:
        base = os.path.dirname(target)
    if target == base:
        return None
    current = base
    for part in os.path.relpath(target, base).split(os.sep):
        current = os.path.join(current, part)
        if is_symlink(current):
            return current
    return None


def is_symlink(path: str) -> bool:
    """Whether ``path`` itself is a symlink (``lstat``: the link is never followed)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def is_regular_file(path: str, follow_symlinks: bool) -> bool:
    """Whether ``path`` is a regular file; with ``follow_symlinks`` false a symlink is not, and is not followed."""
    try:
        mode = os.stat(path).st_mode if follow_symlinks else os.lstat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(mode)


def list_sorted(directory: str) -> list[os.DirEntry[str]]:
    """The entries of ``directory`` sorted by name (raises ``OSError`` as ``os.scandir`` does)."""
    with os.scandir(directory) as iterator:
        return sorted(iterator, key=entry_name)


entry_name: Callable[[os.DirEntry[str]], str] = operator.attrgetter("name")
"""The sort key of listings: the entry's name (an attribute getter in C: a listing sorts every entry it holds)."""


def list_dir(path: str) -> tuple[list[os.DirEntry[str]] | None, OSError | None]:
    """The entries of a directory sorted by name; (None, None) when it does not exist or is not a directory."""
    try:
        return list_sorted(path), None
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as error:
        return None, error


def entry_kind(entry: os.DirEntry[str], follow_symlinks: bool) -> str:
    """``dir``, ``file``, ``symlink`` (a link not to be followed), ``broken`` or ``other`` for a listed entry.

    With ``follow_symlinks`` false the answer comes from the listing alone (``d_type``), so no link is followed.
    """
    try:
        if entry.is_symlink():
            if not follow_symlinks:
                return "symlink"
            try:
                mode = os.stat(entry.path).st_mode
            except OSError:
                return "broken"
        elif entry.is_dir(follow_symlinks=False):
            return "dir"
        elif entry.is_file(follow_symlinks=False):
            return "file"
        else:
            return "other"
    except OSError:  # pragma: no cover - DirEntry answers from d_type on the platforms we run on
        return "other"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def is_within(path: str, directory: str) -> bool:
    """Whether normalised ``path`` is ``directory`` or lies under it (a string test, no filesystem access)."""
    if path == directory:
        return True
    prefix = directory if directory.endswith(os.sep) else directory + os.sep
    return path.startswith(prefix)


def reason(error: OSError) -> str:
    """An ``OSError`` in words, without the path (messages put the path where it reads best)."""
    return error.strerror or type(error).__name__
