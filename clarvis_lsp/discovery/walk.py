"""The one tree walker and the one exclude matcher every walk uses (the ``--check`` file walk and the search for
nested workspaces).

Exclude patterns have ``.gitignore`` semantics (``pathspec``'s ``GitIgnoreSpec``): ``fixtures/`` excludes every
directory named ``fixtures``, ``/fixtures/`` only the top one, ``vendor/**`` everything under ``vendor`` (a
workspace nested there included: its ``.clarvis`` is excluded), ``*.bak`` any file of that name, ``!keep`` puts a
path back. Paths are matched relative to the tree being walked, with ``/`` separators.

The patterns come from a file a repository holds (``.clarvis-lsp.toml``, ``pyproject.toml``), so matching them
must never hang: pathspec translates each pattern into a regular expression, and Python's backtracking engine
takes exponential time on some (``*a*a*a*a*a*a*a*a*a*a*a*a*b`` against a directory named with 40 ``a``s never
finishes). pathspec translates, and RE2 (``google-re2``), whose matching time is linear in the path, matches;
which pattern wins follows ``GitIgnoreSpec``. A pattern that pathspec or RE2 rejects (``!`` alone, a range out
of order, one too large to compile) matches nothing, as Git ignores a pattern it cannot read.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clarvis_lsp.discovery.io import OS_READER, DirectoryReader

if TYPE_CHECKING:
    import re2

SKIPPED_DIRS: frozenset[str] = frozenset({".git", "node_modules", ".venv", "__pycache__"})


@dataclass(frozen=True)
class Excludes:
    """The configured exclude patterns, compiled once. ``base`` is where a walk starts relative to the directory
    the patterns are written for (a ``--check`` of a subdirectory of the workspace): it is prefixed to every path
    asked about."""

    patterns: tuple[str, ...] = ()
    base: str = ""
    outer: Excludes | None = None  # the enclosing tree's patterns (a nested workspace inherits them), or None
    _spec: GitIgnoreMatcher | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.patterns:
            object.__setattr__(self, "_spec", GitIgnoreMatcher(self.patterns))

    @property
    def empty(self) -> bool:
        """No pattern here or in an enclosing tree: nothing is excluded, and a walk need not ask."""
        return self._spec is None and (self.outer is None or self.outer.empty)

    def below(self, base: str) -> Excludes:
        """The same patterns for a walk that starts at ``base`` (relative, ``/`` separators)."""
        outer = self.outer.below(base) if self.outer is not None else None
        return Excludes(self.patterns, _joined(self.base, base), outer)

    def within(self, outer: Excludes) -> Excludes:
        """These patterns and, as well, the enclosing tree's ``outer`` ones."""
        return Excludes(self.patterns, self.base, outer)

    def directory(self, relative: str) -> bool:
        """Whether the directory at ``relative`` (to the walked tree) is excluded."""
        if self.outer is not None and self.outer.directory(relative):
            return True
        path = _joined(self.base, relative)
        return self._spec is not None and bool(path) and self._spec.match_file(path.rstrip("/") + "/")

    def file(self, relative: str) -> bool:
        """Whether the file at ``relative`` is excluded."""
        if self.outer is not None and self.outer.file(relative):
            return True
        return self._spec is not None and self._spec.match_file(_joined(self.base, relative))


class GitIgnoreMatcher:
    """``.gitignore`` patterns matched in time linear in the path: pathspec's translation, RE2's matching.

    The outcome is ``GitIgnoreSpec``'s: the last pattern that matches the path itself decides; when none does,
    the last pattern that matches one of its parent directories (its match ends at the directory marker, a ``/``).
    """

    _DIRECTORY_MARK = "ps_d"  # the group pathspec's regexes set when a pattern matched a parent directory

    def __init__(self, patterns: Iterable[str]) -> None:
        # Imported here: a workspace without exclude patterns never needs either.
        import re2
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

        options = re2.Options()
        options.log_errors = False  # a pattern RE2 rejects is skipped, not logged on the check's stderr
        self._patterns: list[tuple[re2._Regexp[str], bool]] = []
        for line in patterns:
            try:
                with warnings.catch_warnings():  # Python's "possible nested set" on "[[": not the user's to read
                    warnings.simplefilter("ignore")
                    parsed = GitIgnoreSpecPattern(line)
            except (ValueError, re.error):  # GitIgnorePatternError is a ValueError
                continue
            if parsed.include is None or parsed.regex is None:
                continue
            try:
                compiled = re2.compile(_classes_as_python_reads_them(parsed.regex.pattern), options)
            except re2.error:
                continue
            self._patterns.append((compiled, parsed.include))

    def match_file(self, path: str) -> bool:
        """Whether ``path`` (relative, ``/`` separators; a directory ends with ``/``) is excluded."""
        by_parent: bool | None = None
        for compiled, include in reversed(self._patterns):
            match = compiled.search(path)
            if match is None:
                continue
            if not match.groupdict().get(self._DIRECTORY_MARK):
                return include
            if by_parent is None:
                by_parent = include
        return bool(by_parent)


def _classes_as_python_reads_them(regex: str) -> str:
    """pathspec's regex with each ``[`` inside a character class escaped.

    pathspec copies a glob's bracket expression into the regex as it is written, and Python reads a ``[`` there as
    a literal; RE2 reads ``[:alpha:]`` there as a POSIX class, so ``[[:alpha:]]x`` would mean another thing (or
    not compile). Escaping keeps pathspec's meaning. Outside a class pathspec escapes every special character.
    """
    out: list[str] = []
    index = 0
    length = len(regex)
    while index < length:
        char = regex[index]
        if char == "\\":
            out.append(regex[index : index + 2])
            index += 2
            continue
        out.append(char)
        index += 1
        if char != "[":
            continue
        if regex.startswith("^", index):
            out.append("^")
            index += 1
        if regex.startswith("]", index):  # a "]" first in a class is a literal
            out.append("\\]")
            index += 1
        while index < length and regex[index] != "]":
            if regex[index] == "\\":
                out.append(regex[index : index + 2])
                index += 2
                continue
            out.append("\\[" if regex[index] == "[" else regex[index])
            index += 1
        if index < length:
            out.append("]")
            index += 1
    return "".join(out)


def _joined(prefix: str, relative: str) -> str:
    return f"{prefix}/{relative}" if prefix and relative else prefix or relative


class Directory:
    """One directory of a walk: its path, its path relative to the top (empty throughout a walk without exclude
    patterns, where nothing asks), and its entries in sorted order (the subdirectories already pruned of skipped
    and excluded ones). A plain slotted class: a walk makes one per directory, tens of thousands in a large tree,
    and a frozen dataclass costs several times more to build."""

    __slots__ = ("files", "path", "relative", "subdirectories")

    def __init__(
        self, path: str, relative: str, files: list[os.DirEntry[str]], subdirectories: list[os.DirEntry[str]]
    ) -> None:
        self.path = path
        self.relative = relative
        self.files = files
        self.subdirectories = subdirectories

    def child_relative(self, name: str) -> str:
        return f"{self.relative}/{name}" if self.relative else name


def walk_tree(
    top: str,
    excludes: Excludes,
    *,
    keep_directory: Callable[[os.DirEntry[str]], bool] | None = None,
    skip_paths: Iterable[str] = (),
    reader: DirectoryReader = OS_READER,
) -> Iterator[Directory]:
    """Every directory under ``top`` (``top`` first), depth first in sorted order. Never follows a symlinked
    directory, skips ``SKIPPED_DIRS``, excluded directories, ``skip_paths`` and those ``keep_directory`` rejects,
    and silently passes over directories it cannot read. ``reader`` lists each directory (``discovery.io``)."""
    skipped = set(skip_paths)
    stack: list[tuple[str, str]] = [(top, "")]
    list_directory = reader.list_sorted
    # Without patterns a subdirectory's relative path is never asked for: not built for each.
    patterns = not excludes.empty
    while stack:
        directory, relative = stack.pop()
        try:
            entries = list_directory(directory)
        except OSError:
            continue
        files: list[os.DirEntry[str]] = []
        subdirectories: list[os.DirEntry[str]] = []
        for entry in entries:
            try:
                is_directory = entry.is_dir(follow_symlinks=False)
            except OSError:  # pragma: no cover - answered from d_type on every common file system
                continue
            if not is_directory:
                files.append(entry)
                continue
            if entry.name in SKIPPED_DIRS or (skipped and entry.path in skipped):
                continue
            if patterns and excludes.directory(f"{relative}/{entry.name}" if relative else entry.name):
                continue
            if keep_directory is not None and not keep_directory(entry):  # asked after the exclude patterns
                continue
            subdirectories.append(entry)
        current = Directory(directory, relative, files, subdirectories)
        yield current
        if patterns:
            stack.extend((entry.path, current.child_relative(entry.name)) for entry in reversed(subdirectories))
        else:  # nothing will ask where a directory lies: its relative path stays empty
            stack.extend((entry.path, "") for entry in reversed(subdirectories))
