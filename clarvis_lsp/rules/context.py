"""What a JSON file's rules may know beyond the file itself: the workspace's plugins, skills and agents.

The engine builds one ``JsonFileContext`` per checked file from its discovery results, so rules never read
the filesystem for cross-file facts on their own (and never outside the workspace, the personal roots and the
plugins discovery resolved).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from clarvis_lsp.discovery import AgentInfo, PluginInfo, SkillRegistry
from clarvis_lsp.discovery.owner import PluginOwner

SettingsScope = Literal["workspace", "personal"]


@dataclass(frozen=True)
class JsonFileContext:
    """Facts about the workspace a JSON file belongs to."""

    path: Path
    workspace_dir: Path
    home: Path
    plugins: Mapping[str, PluginInfo]  # installed plugins by name (workspace hides personal)
    hidden_plugins: Sequence[PluginInfo]  # personal plugins hidden by a workspace plugin of the same name
    enabled_plugins: Sequence[str]  # the enabledPlugins in force, ascending precedence
    registry: SkillRegistry
    agents: Mapping[str, AgentInfo]
    extra_settings_fields: tuple[str, ...] = ()
    read_text: Callable[[Path], str | None] | None = None  # another file's text, open buffers first (the engine's)
    overlay: Mapping[Path, str] = field(default_factory=dict)  # the open buffers, for a directory scanned here
    plugin_owner: PluginOwner | None = None
    """The plugin this file belongs to (``discovery.owner``): the one every message about it names."""

    @property
    def settings_scope(self) -> SettingsScope:
        """``personal`` for ``~/.clarvis/settings.json``, else ``workspace`` (trust applies)."""
        return "personal" if self.path.parent.parent == self.home else "workspace"
