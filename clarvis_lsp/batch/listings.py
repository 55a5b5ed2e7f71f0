"""The directory listings one headless run shares between its walks and discovery.

The search for nested workspaces, the file walk and discovery each list the same skill directories; a run reads a
snapshot of the tree, so each listing is made once. ``Listings`` is a ``discovery.io.DirectoryReader``: discovery
and the walks take it where they would take the operating system. The language server does not use one: its
tree changes under it.
"""

from __future__ import annotations

import bisect
import os
from pathlib import Path

from clarvis_lsp.discovery.fs import entry_name, list_sorted, read_regular_file


class Listings:
    """Directory listings kept for one run. Only successful listings are kept: a directory that cannot be listed is
    asked again, so each caller meets the error and reports it its own way."""

    rereads = False  # a run is short: a SKILL.md's bytes are kept rather than read twice

    def __init__(self) -> None:
        self._sorted: dict[str, list[os.DirEntry[str]]] = {}
        self._paths: dict[str, Path] = {}

    def path(self, text: str) -> Path:
        """One ``Path`` for each file a run meets, whichever of discovery and the walk meets it first: a Path costs
        more to build, print and hash than the rest of a clean SKILL.md's bookkeeping, and both meet every one."""
        found = self._paths.get(text)
        if found is None:
            found = self._paths[text] = Path(text)
        return found

    def list_sorted(self, directory: str) -> list[os.DirEntry[str]]:
        """The entries of ``directory`` sorted by name (raises ``OSError`` as ``os.scandir`` does)."""
        entries = self._sorted.get(directory)
        if entries is None:
            entries = self._sorted[directory] = list_sorted(directory)
        return entries

    def lexists(self, path: str) -> bool:
        """``os.path.lexists(path)`` for a normalised absolute path, answered from its directory's listing when the
        run has one (a link to a skill's references/ names a file the scan listed): a listed name exists. Any
        other answer is asked of the file system, which also knows a name written in other case on a file system
        that ignores case."""
        entries = self._sorted.get(os.path.dirname(path))
        if entries is not None:
            name = os.path.basename(path)
            index = bisect.bisect_left(entries, name, key=entry_name)
            if index < len(entries) and entries[index].name == name:
                return True
        return os.path.lexists(path)

    def read(self, path: str, follow_symlinks: bool) -> tuple[bytes | None, str]:
        """A file's bytes, read each time: every file is read once in a run anyway."""
        return read_regular_file(path, follow_symlinks)
