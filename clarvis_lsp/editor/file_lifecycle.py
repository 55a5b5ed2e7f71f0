"""Skills created and deleted in the editor's explorer (``workspace/didCreateFiles``, ``workspace/willDeleteFiles``),
protocol-free.

A new, empty ``SKILL.md`` in a skill directory, or a new folder directly in a skill root, is filled with the
frontmatter Clarvis needs: ``name`` from the folder and a ``description`` that is left empty with a comment saying
what it is for, so that ``skill/missing-description`` stays on it until the user writes one. It is done after the
file or folder exists: the protocol lets a ``willCreateFiles`` answer change other files only, never the one being
created. A file that already holds anything is left as it is.

Deleting the copy of a skill that wins (the one Clarvis loads) changes which copy is active, or leaves the name
with none: the notice says which, before the delete happens, so a user who meant to delete a shadowed copy finds
out in time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery.skills import SkillInfo
from clarvis_lsp.editor.advertised import NEW_SKILL_FILE_GLOB, SKILL_FOLDER_GLOB
from clarvis_lsp.editor.places import display_path, root_label
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.view import WorkspaceView

__all__ = [
    "DESCRIPTION_HINT",
    "NEW_SKILL_FILE_GLOB",
    "SKILL_FOLDER_GLOB",
    "NewSkill",
    "deletion_notices",
    "new_skill",
]

DESCRIPTION_HINT = "# what this skill does, and when the agent should use it"
MAX_NOTICES = 5
"""Skills named one by one when a deleted folder holds several; the rest are counted."""


@dataclass(frozen=True)
class NewSkill:
    """The SKILL.md to fill: its path, whether it has to be created first (a new folder), and the text."""

    path: Path
    create: bool
    text: str


def new_skill(view: WorkspaceView, created: Path) -> NewSkill | None:
    """What a newly created ``created`` (a SKILL.md, or a folder in a skill root) is filled with, or None: not a
    skill's place, or it holds something already."""
    if created.name == layout.SKILL_FILE:
        if view.kind_of(created) is not FileKind.SKILL or not _in_a_skill_root(view, created.parent):
            return None
        text = view.read_text(created)
        if text is None or text.strip():
            return None  # the user's text (or a file that cannot be read) is never replaced
        return NewSkill(created, False, frontmatter(created.parent.name))
    if not _in_a_skill_root(view, created) or not os.path.isdir(created) or any(os.scandir(created)):
        return None
    return NewSkill(created / layout.SKILL_FILE, True, frontmatter(created.name))


def frontmatter(name: str) -> str:
    """A SKILL.md's first lines: ``name`` quoted only where YAML needs it, the description still to write."""
    plain = name and all(char.isalnum() or char in "._-" for char in name) and name[0] not in "-."
    written = name if plain else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"---\nname: {written}\ndescription: {DESCRIPTION_HINT}\n---\n\n"


def deletion_notices(view: WorkspaceView, deleted: Path) -> list[str]:
    """What deleting ``deleted`` (a SKILL.md or a folder holding skills) changes: for each winning copy it removes,
    which copy takes over, or that no copy is left. Deleting a shadowed copy changes nothing active: no notice.
    Nothing without discovery (an invalid configuration: the diagnostics say why)."""
    if view.discovered is None:
        return []
    registry = view.discovered.registry
    inside = str(deleted) + os.sep
    removed = [skill for skill in registry.all_skills() if skill.path == deleted or str(skill.path).startswith(inside)]
    gone = {skill.path for skill in removed}
    notices: list[str] = []
    for skill in removed:
        if registry.winner(skill.name) != skill:
            continue
        next_copy = next((other for other in registry.shadowed(skill.name) if other.path not in gone), None)
        notices.append(_notice(view, skill, next_copy))
    if len(notices) > MAX_NOTICES:
        notices[MAX_NOTICES:] = [f"{len(notices) - MAX_NOTICES} more skills lose their active copy too."]
    return notices


def _notice(view: WorkspaceView, skill: SkillInfo, next_copy: SkillInfo | None) -> str:
    where = f"{display_path(skill.path, view)} ({root_label(skill)})"
    if next_copy is None:
        return (
            f'Deleting {where} removes skill "{skill.name}": no other root has a copy, so the agent will no longer '
            "have it."
        )
    return (
        f'Deleting {where} removes the active copy of skill "{skill.name}": the copy in '
        f"{display_path(next_copy.path, view)} ({root_label(next_copy)}) takes over."
    )


def _in_a_skill_root(view: WorkspaceView, directory: Path) -> bool:
    """Whether ``directory`` is a skill directory of one of the workspace's roots (it need not exist yet)."""
    parent = str(directory.parent)
    found = view.discovered
    return found is not None and any(str(scan.root.path) == parent for scan in found.registry.scans)
