"""Which Clarvis file kind a path is, exactly as SPEC §3 recognises them.

Recognition is by place, not by name alone: only ``.clarvis/settings.json`` is a settings file, so a
``.vscode/settings.json`` never gets a finding, and a ``plugin.json`` counts only in a plugin directory. The
names are Clarvis's on-disk layout (``clarvis_lsp.knowledge.layout``).
"""

from __future__ import annotations

import enum
import os
from pathlib import Path

from clarvis_lsp.knowledge.layout import (
    AGENT_SUFFIX,
    AGENTS_DIR,
    CLARVIS_DIR,
    HOOKS_DIR,
    HOOKS_FILE,
    MARKETPLACE_FILE,
    PLUGIN_MANIFEST,
    PLUGINS_DIR,
    SETTINGS_FILE,
    SKILL_FILE,
)


class FileKind(str, enum.Enum):
    SKILL = "skill"
    SETTINGS = "settings"
    PLUGIN = "plugin"
    HOOKS = "hooks"
    MARKETPLACE = "marketplace"
    AGENT = "agent"


def file_kind(
    path: Path, *, workspace_dirs: frozenset[Path] = frozenset(), plugin_dirs: frozenset[Path] = frozenset()
) -> FileKind | None:
    """The kind of ``path`` (absolute), or None when it is no Clarvis file.

    ``workspace_dirs`` are the checked roots (the editor's workspace folders, the paths given to ``--check``):
    a ``plugin.json`` directly in one is a plugin being developed. ``plugin_dirs`` holds extra directories
    known to be plugins (pointed to by a marketplace entry).
    """
    name = path.name
    if name == SKILL_FILE:  # before ``parent``: a check asks this of every SKILL.md in the tree
        return FileKind.SKILL
    parent = path.parent
    if name == SETTINGS_FILE:
        return FileKind.SETTINGS if parent.name == CLARVIS_DIR else None
    if name == MARKETPLACE_FILE:
        return FileKind.MARKETPLACE
    if name == PLUGIN_MANIFEST:
        if parent.parent.name == PLUGINS_DIR or parent in plugin_dirs or parent in workspace_dirs:
            return FileKind.PLUGIN
        return None
    if name == HOOKS_FILE and parent.name == HOOKS_DIR and os.path.lexists(parent.parent / PLUGIN_MANIFEST):
        return FileKind.HOOKS
    if name == HOOKS_FILE and parent.name == HOOKS_DIR and parent.parent.parent.name == PLUGINS_DIR:
        return FileKind.HOOKS
    if (
        path.suffix == AGENT_SUFFIX
        and parent.name == AGENTS_DIR
        and (parent.parent.name == CLARVIS_DIR or parent.parent.parent.name == PLUGINS_DIR)
    ):
        return FileKind.AGENT
    return None
