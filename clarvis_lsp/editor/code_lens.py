"""The override lens on a skill's ``name``: which copies it shadows or is shadowed by, and where they are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.editor.places import (
    Location,
    display_path,
    name_location,
    skill_document,
)
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules.discovery import name_range
from clarvis_lsp.workspace.view import WorkspaceView


@dataclass(frozen=True)
class OverrideLens:
    """The inline override note on a skill's ``name``: its title and the copies a click goes to."""

    range: Range
    title: str
    locations: tuple[Location, ...]


def override_lenses(view: WorkspaceView, path: Path, text: str) -> list[OverrideLens]:
    """The note on a skill's ``name``: "overrides N copies" on a winner, "shadowed by <path>" on a loser and
    "skipped: <path> declares this name first" on a within-root duplicate; nothing on a skill with one copy."""
    if view.kind_of(path) is not FileKind.SKILL:
        return []
    found = view.discovered
    if found is None:
        return []
    document = skill_document(path, text)
    if document.entry("name") is None:
        return []
    here = name_range(document)
    registry = found.registry
    info = registry.by_path(path)
    if info is not None:
        winner = registry.winner(info.name)
        if winner is None:
            return []
        if winner.path != info.path:
            title = f"shadowed by {display_path(winner.path, view)}"
            return [OverrideLens(here, title, (name_location(winner),))]
        losers = registry.shadowed(info.name)
        if not losers:
            return []
        count = len(losers)
        title = f"overrides {count} {'copy' if count == 1 else 'copies'}"
        return [OverrideLens(here, title, tuple(name_location(loser) for loser in losers))]
    skipped = registry.skipped_by_path(path)
    if skipped is None or skipped.skill is None or skipped.warning.other is None:
        return []
    kept = registry.by_path(skipped.warning.other)
    if kept is None:
        return []
    title = f"skipped: {display_path(kept.path, view)} declares this name first"
    return [OverrideLens(here, title, (name_location(kept),))]
