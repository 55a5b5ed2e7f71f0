"""Folder renames made in the editor's explorer (``workspace/willRenameFiles``), protocol-free.

Clarvis expects a skill's directory to carry its name and a plugin's directory to equal its plugin name. When the
user renames such a directory and the name followed it (the SKILL.md ``name``, the plugin.json ``name`` equal to
the old directory name), the rename of that name is offered with it: the same edits as a rename of the name
(``clarvis_lsp.editor.rename``) without moving anything, since the editor moves the directory itself. A skill's
``name`` and its plugin's ``bootstrapSkill`` follow; a plugin's ``name``, its ``enabledPlugins`` entries,
marketplace entries and ``agent: <plugin>:<agent>`` references follow.

A name that did not follow its directory, a new directory name that is not a valid name, or anything other than a
skill or plugin directory gets no edit: the directory is renamed and the diagnostics say what to fix.
"""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonObject, parse_json
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.text import strip_bom
from clarvis_lsp.editor.advertised import FOLDER_GLOBS
from clarvis_lsp.editor.rename import RenamePlan, RenameRefused, RenameTarget, rename_target
from clarvis_lsp.findings import TextEdit
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.view import WorkspaceView

__all__ = ["FOLDER_GLOBS", "folder_rename_edits"]


def folder_rename_edits(view: WorkspaceView, old: Path, new: Path) -> tuple[TextEdit, ...]:
    """The edits that keep Clarvis finding the skill or plugin in ``old`` once it is renamed to ``new``; none when
    ``old`` is neither, its name did not follow its directory, or ``new``'s name is not a valid name."""
    if old.parent != new.parent or old.name == new.name:
        return ()  # a move to another parent is not a rename of the name
    target = _skill_target(view, old) or _plugin_target(view, old)
    if target is None or target.name != old.name:
        return ()
    try:
        plan: RenamePlan = rename_target(view, target, new.name)
    except RenameRefused:
        return ()
    return plan.edits


def _skill_target(view: WorkspaceView, directory: Path) -> RenameTarget | None:
    skill_md = directory / layout.SKILL_FILE
    if view.kind_of(skill_md) is not FileKind.SKILL:
        return None
    text = view.read_text(skill_md)
    entry = parse_skill(skill_md, strip_bom(text)).entry("name") if text is not None else None
    if entry is None or not entry.is_scalar or not isinstance(entry.value, str):
        return None
    return RenameTarget("skill", entry.value, entry.value_range, skill_md)


def _plugin_target(view: WorkspaceView, directory: Path) -> RenameTarget | None:
    manifest = directory / layout.PLUGIN_MANIFEST
    if view.kind_of(manifest) is not FileKind.PLUGIN:
        return None
    text = view.read_text(manifest)
    document = parse_json(strip_bom(text)) if text is not None else None
    root = document.root if document is not None else None
    node = root.value_of("name") if isinstance(root, JsonObject) else None
    if document is None or node is None or not isinstance(node.value, str):
        return None
    return RenameTarget("plugin", node.value, document.node_range(node), manifest)
