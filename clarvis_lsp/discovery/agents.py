"""Agents: ``~/.clarvis/agents/<name>.md``, ``.clarvis/agents/<name>.md`` and ``<plugin>/agents/<name>.md``.

Discovered only so that references resolve (a skill's ``agent`` field, go-to-definition). A workspace agent
overrides a personal one of the same name; a plugin agent is named ``<plugin>:<name>`` and so never collides
with a standalone one. Plugin agents are listed for every installed plugin, enabled or not, with ``enabled`` set,
so a rule can tell "no such agent" from "that plugin is not enabled".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery.fs import entry_kind, list_dir, symlinked_directory
from clarvis_lsp.discovery.plugins import PluginInfo
from clarvis_lsp.discovery.scan import normalise_overlay
from clarvis_lsp.discovery.skill_config import SkillScope
from clarvis_lsp.discovery.skills import DiscoveryWarning
from clarvis_lsp.knowledge.layout import AGENT_SUFFIX, agents_dir


@dataclass(frozen=True)
class AgentInfo:
    """One agent definition. ``name`` is qualified: ``<name>``, or ``<plugin>:<name>`` for a plugin's agent.

    ``overrides`` is the personal agent a workspace agent of the same name replaces.
    """

    name: str
    path: Path
    scope: SkillScope
    plugin: str | None = None
    enabled: bool = True
    overrides: AgentInfo | None = None


def discover_agents(
    workspace_dir: str | Path,
    home: str | Path,
    plugins: Mapping[str, PluginInfo],
    enabled: list[str],
    *,
    include_user: bool = True,
    follow_symlinks: bool = True,
    overlay: Mapping[Path, str] | None = None,
    warnings: list[DiscoveryWarning] | None = None,
) -> dict[str, AgentInfo]:
    """Every agent by qualified name: personal, then workspace (which wins), then each installed plugin's.

    ``overlay`` paths (unsaved buffers) of ``<agents dir>/<name>.md`` count as agents even before they exist on
    disk. With ``follow_symlinks`` false a symlinked agent file is left out, and so is every agent of a directory
    reached through a symlink (a symlinked ``.clarvis``, ``.clarvis/agents`` or plugin directory): it is not listed.
    A symlinked agents directory itself is a ``symlink-ignored`` warning in ``warnings`` (a symlinked ``.clarvis``
    or plugin directory above it is reported where the skills and plugins are scanned).
    """
    buffers = normalise_overlay(overlay)
    bases = (os.fspath(workspace_dir), os.fspath(home))
    agents: dict[str, AgentInfo] = {}
    workspace = agents_dir(workspace_dir)
    personal = agents_dir(home)
    locations: list[tuple[SkillScope, Path]] = []
    if include_user and os.path.normpath(personal) != os.path.normpath(workspace):
        locations.append(("user", personal))
    locations.append(("workspace", workspace))
    for scope, directory in locations:
        for name, path in _agent_files(directory, follow_symlinks, bases, buffers, warnings):
            previous = agents.get(name)
            agents[name] = AgentInfo(name, path, scope, overrides=previous)
    enabled_set = set(enabled)
    for plugin_name in sorted(plugins):
        plugin = plugins[plugin_name]
        for name, path in _agent_files(plugin.agents_dir, follow_symlinks, bases, buffers, warnings):
            qualified = f"{plugin_name}:{name}"
            agents[qualified] = AgentInfo(qualified, path, plugin.scope, plugin_name, plugin_name in enabled_set)
    return agents


def _agent_files(
    directory: Path,
    follow_symlinks: bool,
    bases: tuple[str, str],
    buffers: Mapping[str, str],
    warnings: list[DiscoveryWarning] | None,
) -> list[tuple[str, Path]]:
    """The agents of ``directory`` (unsaved buffers there included). With ``follow_symlinks`` false none when a
    directory on the way from the workspace or the home (``bases``) to it is a symlink."""
    if not follow_symlinks and (link := symlinked_directory(str(directory), bases)) is not None:
        if warnings is not None and os.path.normpath(link) == os.path.normpath(directory):
            message = f"The agents directory {link} is a symlink; follow_symlinks is off, so its agents are not read"
            warnings.append(DiscoveryWarning("symlink-ignored", Path(link), message))
        return []
    found: dict[str, Path] = {}
    entries, _error = list_dir(str(directory))
    for entry in entries or []:
        if (
            len(entry.name) > len(AGENT_SUFFIX)
            and entry.name.endswith(AGENT_SUFFIX)
            and entry_kind(entry, follow_symlinks) == "file"
        ):
            found[entry.name[: -len(AGENT_SUFFIX)]] = Path(entry.path)
    prefix = os.path.normpath(os.path.abspath(directory)) + os.sep
    for key in buffers:
        rest = key[len(prefix) :] if key.startswith(prefix) else ""
        if rest.endswith(AGENT_SUFFIX) and os.sep not in rest and rest[: -len(AGENT_SUFFIX)]:
            found.setdefault(rest[: -len(AGENT_SUFFIX)], Path(key))
    return sorted(found.items())
