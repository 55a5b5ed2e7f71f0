"""The files of a skill's resource directories (``scripts/``, ``references/``, ``assets/``), walked safely.

A skill directory's resources are listed for every skill discovery reads, so the walk is bounded
(``MAX_RESOURCES``), never loops through a symlink cycle, and with ``follow_symlinks`` off never follows or
stats a link: a link is reported (``symlink-ignored``) and skipped.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from clarvis_lsp.discovery.fs import entry_name, reason
from clarvis_lsp.discovery.io import OS_READER, DirectoryReader
from clarvis_lsp.discovery.skills import DiscoveryWarning, WarningKind

MAX_RESOURCES = 10_000
"""Resource files listed per skill at most. A skill with ``assets/node_modules`` must not make discovery (and
every keystroke that re-reads that skill) walk an unbounded tree; no real skill comes near this."""


def collect_resources(
    skill_dir: str,
    present: list[os.DirEntry[str]],
    follow: bool,
    warnings: list[DiscoveryWarning],
    root_index: int,
    reader: DirectoryReader = OS_READER,
) -> tuple[str, ...]:
    """Files under the conventional resource directories, walked depth-first with an explicit stack.

    A directory is a cycle only when it is one of its own ancestors on the current path (compared by
    ``(st_dev, st_ino)``, starting with the skill directory itself); two links to one directory are two
    legitimate resource paths and both are listed. Only a symlink can close a cycle, so a directory is compared
    with its ancestors only when it is a link or lies below one (a real directory reached through a link can be
    an ancestor), and the ancestors' identities are looked up once each: a tree without links costs its
    listings and nothing more. ``MAX_RESOURCES`` bounds files and directories alike, so
    even a tree of links that fans out exponentially stays cheap.
    """
    identities: dict[str, tuple[int, int] | None] = {}
    files: list[str] = []
    budget = MAX_RESOURCES
    # Children are pushed in reverse sorted order so they pop in sorted order: files come out sorted by path.
    # Each entry carries the directories above it (the skill directory first) for the cycle check, and whether
    # one of them was entered through a link.
    top: tuple[str, ...] = (skill_dir,)
    stack: list[tuple[os.DirEntry[str], tuple[str, ...], bool, bool]] = [
        (entry, top, True, False) for entry in sorted(present, key=entry_name, reverse=True)
    ]
    while stack and budget > 0:
        entry, above, top_level, linked = stack.pop()
        kind = _resource_kind(entry, follow, above, linked, identities, warnings, root_index)
        if kind == "file":
            if not top_level:  # a file named "scripts" is not a resource directory
                files.append(entry.path)
                budget -= 1
            continue
        if kind != "dir":
            continue
        budget -= 1
        try:
            listed = reader.list_sorted(entry.path)
        except OSError as error:
            message = f"Resource directory {entry.path} cannot be read: {reason(error)}"
            warnings.append(_warning("unreadable", entry.path, message, root_index))
            continue
        below = (*above, entry.path)
        below_link = linked or _is_symlink(entry)
        stack.extend((child, below, False, below_link) for child in reversed(listed))
    return tuple(files)


def _resource_kind(
    entry: os.DirEntry[str],
    follow: bool,
    ancestors: tuple[str, ...],
    below_link: bool,
    identities: dict[str, tuple[int, int] | None],
    warnings: list[DiscoveryWarning],
    root_index: int,
) -> str:
    """``file``, ``dir`` or ``skip``.

    Records symlink-ignored and unreadable warnings on the way. Anything but a symlink is answered from the
    listing alone; with ``follow`` false no link is ever stat'ed, and with it true a directory that is one of
    its own ancestors (a cycle, through a link) is skipped.
    """
    try:
        is_link = entry.is_symlink()
    except OSError:  # pragma: no cover - d_type based
        return "skip"
    if not is_link:
        if not entry.is_dir(follow_symlinks=False):
            return "file" if entry.is_file(follow_symlinks=False) else "skip"
        if below_link and _is_own_ancestor(_identity(entry.path, identities), ancestors, identities):
            return "skip"  # reached through a link, this directory is one of its own ancestors
        return "dir"
    if not follow:
        message = f"Resource {entry.path} is a symlink; follow_symlinks is off, so it is not read"
        warnings.append(_warning("symlink-ignored", entry.path, message, root_index))
        return "skip"
    try:
        info = os.stat(entry.path)
    except OSError as error:
        message = f"Resource {entry.path} cannot be read: {reason(error)}"
        warnings.append(_warning("unreadable", entry.path, message, root_index))
        return "skip"
    if stat.S_ISDIR(info.st_mode):
        if _is_own_ancestor((info.st_dev, info.st_ino), ancestors, identities):
            return "skip"  # a symlink cycle: this directory contains the link that leads back to it
        return "dir"
    return "file" if stat.S_ISREG(info.st_mode) else "skip"


def _is_own_ancestor(
    key: tuple[int, int] | None, ancestors: tuple[str, ...], identities: dict[str, tuple[int, int] | None]
) -> bool:
    return key is not None and any(_identity(path, identities) == key for path in ancestors)


def _identity(path: str, identities: dict[str, tuple[int, int] | None]) -> tuple[int, int] | None:
    """A directory's ``(st_dev, st_ino)``, following links (None when it cannot be stat'ed), looked up once."""
    if path not in identities:
        try:
            info = os.stat(path)
        except OSError:
            identities[path] = None
        else:
            identities[path] = (info.st_dev, info.st_ino)
    return identities[path]


def _is_symlink(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:  # pragma: no cover - d_type based
        return False


def _warning(kind: WarningKind, path: str, message: str, root_index: int) -> DiscoveryWarning:
    return DiscoveryWarning(kind, Path(path), message, None, root_index)
