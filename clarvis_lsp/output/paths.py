"""How ``--check`` shows a path: the way the user wrote the paths on the command line.

A finding's own path, its related locations and the paths written inside its message must read alike: a message
that says "Shadowed by /home/me/repo/.clarvis/skills/x/SKILL.md" under a line that starts with
".agents/skills/x/SKILL.md" makes the user wonder whether they are the same tree. So every path is shown
relative to the argument it was found under (``given`` joined with the rest), else relative to the working
directory when the user gave relative arguments (pre-commit passes single files: the winning copy of a shadowed
skill is then outside every argument), else absolute.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from clarvis_lsp.findings import Diagnostic, Related


@dataclass(frozen=True)
class PathDisplay:
    """Turns absolute paths, alone or inside a message, into the text the user sees."""

    targets: tuple[tuple[str, str], ...]
    """(as typed, absolute and normalised), one per command-line argument."""
    cwd: str
    relative_input: bool
    """Some argument was relative: paths outside every argument are shown relative to ``cwd`` too."""

    @classmethod
    def for_arguments(cls, arguments: Sequence[tuple[str, Path]], cwd: Path) -> PathDisplay:
        targets = tuple((given, str(absolute)) for given, absolute in arguments)
        relative = any(not os.path.isabs(os.path.expanduser(given)) for given, _ in arguments)
        return cls(targets, os.path.normpath(str(cwd)), relative)

    def path(self, path: Path | str) -> str:
        text = str(path)
        for given, absolute in self.targets:
            if text == absolute:
                return given
            if _under(text, absolute):
                return os.path.normpath(os.path.join(given, os.path.relpath(text, absolute)))
        if self.relative_input and _under(text, self.cwd):
            return os.path.relpath(text, self.cwd)
        return text

    def message(self, text: str) -> str:
        """``text`` with every absolute path under an argument (or the working directory) shown as ``path``
        shows it. Prefixes are replaced longest first, so a nested argument wins over the one holding it."""
        if os.sep not in text:
            return text
        for prefix, shown in self._prefixes:
            if prefix in text:
                text = text.replace(prefix, shown)
        return text

    def diagnostic(self, diagnostic: Diagnostic) -> Diagnostic:
        """The finding with its message and its related locations' messages displayed (paths stay absolute in
        the fields: the output formats show those through ``path``)."""
        message = self.message(diagnostic.message)
        related = tuple(
            item if (shown := self.message(item.message)) == item.message else Related(item.path, item.range, shown)
            for item in diagnostic.related
        )
        if message == diagnostic.message and related == diagnostic.related:
            return diagnostic
        return replace(diagnostic, message=message, related=related)

    @cached_property
    def _prefixes(self) -> list[tuple[str, str]]:
        prefixes: list[tuple[str, str]] = []
        for given, absolute in self.targets:
            if os.path.isdir(absolute) and absolute != os.sep:
                shown = os.path.normpath(given)
                prefixes.append((absolute + os.sep, "" if shown == os.curdir else shown + os.sep))
        if self.relative_input and self.cwd != os.sep:
            prefixes.append((self.cwd + os.sep, ""))
        return sorted(prefixes, key=lambda pair: len(pair[0]), reverse=True)


def _under(path: str, directory: str) -> bool:
    """``path`` lies strictly inside ``directory`` (both absolute and normalised): a string test, because
    ``Path.parents`` builds every parent and dominates a check of thousands of files."""
    return path.startswith(directory.rstrip(os.sep) + os.sep)
