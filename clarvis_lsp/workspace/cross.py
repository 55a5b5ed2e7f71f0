"""A workspace's cross-file findings by file, kept in two families so that an edit recomputes only its own.

Discovery's findings (duplicate names, shadowed copies) depend on the skill registry: a SKILL.md edit recomputes
those of the names it declared before and after. The context's findings (the manifest warnings, ``hooks/run-limit``
and the name collisions) depend on the settings, the plugins and the agents: a settings.json or plugin.json edit
recomputes those, a handful of files. Keeping the context's apart means such an edit touches the files the
context's findings were or are on, never every file of a 50,000-skill workspace.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from clarvis_lsp.findings import Diagnostic


def by_path(found: Iterable[Diagnostic]) -> dict[Path, list[Diagnostic]]:
    grouped: dict[Path, list[Diagnostic]] = {}
    for diagnostic in found:
        grouped.setdefault(diagnostic.path, []).append(diagnostic)
    return grouped


@dataclass
class CrossFindings:
    """``files``: every cross-file finding by the file it concerns (both families); ``context``: the context's
    alone, by file, to take them out again when the context changes."""

    files: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    context: dict[Path, list[Diagnostic]] = field(default_factory=dict)

    @classmethod
    def of(cls, discovery: Iterable[Diagnostic], context: Iterable[Diagnostic]) -> CrossFindings:
        cross = cls(files=by_path(discovery))
        cross.replace_context(context)
        return cross

    def replace_discovery(self, paths: Iterable[Path], found: Iterable[Diagnostic]) -> None:
        """Discovery's findings on ``paths`` are ``found`` now (which may only concern those paths)."""
        for path in paths:  # what is on a path and not the context's is discovery's
            context = self.context.get(path, [])
            self._set(path, [item for item in self.files.get(path, []) if item in context])
        for diagnostic in found:
            self.files.setdefault(diagnostic.path, []).append(diagnostic)

    def replace_context(self, found: Iterable[Diagnostic]) -> set[Path]:
        """The context's findings are ``found`` now; answers the files whose cross-file findings changed."""
        before, after = self.context, by_path(found)
        changed: set[Path] = set()
        for path in before.keys() | after.keys():
            old, new = before.get(path, []), after.get(path, [])
            if old == new:
                continue
            changed.add(path)
            rest = [item for item in self.files.get(path, []) if item not in old]
            self._set(path, rest + new)
        self.context = after
        return changed

    def _set(self, path: Path, items: list[Diagnostic]) -> None:
        if items:
            self.files[path] = items
        else:
            self.files.pop(path, None)
