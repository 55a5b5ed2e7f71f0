"""How discovery reads the file system and spreads its work: two small abstractions with plain defaults.

Discovery is the seed's algorithm (SPEC §2): list each root in sorted order, read each directory's SKILL.md and
resources, keep the first copy of each name. What differs between callers is *how* directories are read and *how*
the per-directory work is mapped, never *what* is decided:

- a ``DirectoryReader`` lists, tests and reads (``OS_READER``: the operating system, what the language server and the
  library use; a headless run passes a reader that lists each directory once for all of its walks);
- a ``ScanStrategy`` maps the work of reading a root's directories over their names (``SEQUENTIAL``: here, in
  order; a headless run may spread a large root over processes);
- a ``DirectoryVisit`` is called with each directory's result where it was read, for work a caller wants done on
  the parse while it is fresh (and may hand back a lighter copy of the result to keep, once it is done with it).

Nothing here knows about processes, pickling or rules; those live with the callers that need them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from clarvis_lsp.discovery.fs import list_sorted, read_regular_file

if TYPE_CHECKING:
    from clarvis_lsp.discovery.skill_config import SkillRoot
    from clarvis_lsp.discovery.skills import DirScan


class DirectoryReader(Protocol):
    """What discovery asks of the file system. Every path is a normalised absolute path string."""

    rereads: bool
    """Whether a SKILL.md discovery did not parse keeps no copy of its bytes, and is read again when its document
    is asked for: a long-lived process keeps every skill it found (at 50,000 realistic skills, 290 MiB of SKILL.md
    files), and asks for few of their documents."""

    def list_sorted(self, directory: str) -> list[os.DirEntry[str]]:
        """The entries of ``directory`` sorted by name (raises ``OSError`` as ``os.scandir`` does)."""
        ...

    def lexists(self, path: str) -> bool:
        """``os.path.lexists(path)``: a broken symlink exists."""
        ...

    def read(self, path: str, follow_symlinks: bool) -> tuple[bytes | None, str]:
        """A regular file's bytes, or None and why (``fs.read_regular_file``)."""
        ...

    def path(self, text: str) -> Path:
        """The ``Path`` of a file discovery reports."""
        ...


class OsReader:
    """The operating system, asked every time: a tree that changes under the reader (an editor's) is read as it is."""

    __slots__ = ("rereads",)

    def __init__(self, *, rereads: bool = False) -> None:
        self.rereads = rereads

    def list_sorted(self, directory: str) -> list[os.DirEntry[str]]:
        return list_sorted(directory)

    def lexists(self, path: str) -> bool:
        return os.path.lexists(path)

    def read(self, path: str, follow_symlinks: bool) -> tuple[bytes | None, str]:
        return read_regular_file(path, follow_symlinks)

    def path(self, text: str) -> Path:
        return Path(text)


OS_READER: DirectoryReader = OsReader()
REREADING_OS_READER: DirectoryReader = OsReader(rereads=True)
"""The operating system, keeping no copy of an unparsed SKILL.md's bytes (the language server's engines)."""

DirectoryWork = Callable[[Sequence[str]], "dict[str, DirScan | None]"]
"""Reads the named directories of one root and returns each one's result (None: nothing there to report)."""


class DirectoryVisit(Protocol):
    """Sees each directory's result where it is read (in the order of the root's listing within one worker)."""

    def reads_document(self, skill_md: str) -> bool:
        """Whether the visit will read the document of the SKILL.md at this path: it is then parsed as it is read,
        rather than after a quick look at its name and description (``simple_identity``) that would be wasted."""
        ...

    def __call__(self, scan: DirScan) -> DirScan | None:
        """Do the work; return what discovery keeps for this directory instead of ``scan`` (the same skills,
        warnings and problems: a copy whose document is left to be read again when asked for, say), or None to
        keep ``scan``."""
        ...


class ScanStrategy(Protocol):
    """Maps a root's directory work over its directory names; the results must be what ``work(names)`` returns."""

    def __call__(
        self, work: DirectoryWork, names: Sequence[str], root: SkillRoot, root_index: int
    ) -> dict[str, DirScan | None]: ...


def sequential(
    work: DirectoryWork, names: Sequence[str], root: SkillRoot, root_index: int
) -> dict[str, DirScan | None]:
    """Every directory here, in order: the seed's algorithm as written, and what a strict scan always uses (it stops
    at the first problem in order)."""
    return work(names)


SEQUENTIAL: ScanStrategy = sequential
