"""Which Clarvis file kind a path is, exactly as SPEC §3 recognises them.

Recognition is by place, not by name alone: only ``.clarvis/settings.json`` is a settings file, so a
``.vscode/settings.json`` never gets a finding, and a ``plugin.json`` counts only in a plugin directory.
"""

from __future__ import annotations

import enum
from pathlib import Path


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
    parent = path.parent
    if name == "SKILL.md":
        return FileKind.SKILL
    if name == "settings.json":
        return FileKind.SETTINGS if parent.name == ".clarvis" else None
    if name == "marketplace.json":
        return FileKind.MARKETPLACE
    if name == "plugin.json":
        if parent.parent.name == "plugins" or parent in plugin_dirs or parent in workspace_dirs:
            return FileKind.PLUGIN
        return None
    if name == "hooks.json" and parent.name == "hooks" and (parent.parent / "plugin.json").exists():
        return FileKind.HOOKS
    if name == "hooks.json" and parent.name == "hooks" and parent.parent.parent.name == "plugins":
        return FileKind.HOOKS
    if (
        path.suffix == ".md"
        and parent.name == "agents"
        and (parent.parent.name == ".clarvis" or parent.parent.parent.name == "plugins")
    ):
        return FileKind.AGENT
    return None
