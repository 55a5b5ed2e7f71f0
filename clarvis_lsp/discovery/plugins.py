"""Installed plugins, the ``enabledPlugins`` setting, and the skill roots enabled plugins contribute.

Seed (extensions reference): plugins live in ``~/.clarvis/plugins/<name>/`` (personal) and
``.clarvis/plugins/<name>/`` (workspace), and a workspace plugin hides a personal one of the same name. A plugin
contribution is active only when the plugin is installed and listed in ``enabledPlugins``; among enabled plugins
a later name has higher precedence, and every plugin contribution stays below the personal and workspace
configuration. So ``plugin_skill_roots`` yields roots the caller must put *before* (below) the standalone ones.

Reading settings here is deliberately tolerant (invalid JSON gives no plugins): reporting a broken
settings.json is the linter's job, discovery only needs the best answer it can get.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery.fs import (
    entry_kind,
    is_symlink,
    list_dir,
    read_regular_file,
    reason,
    symlinked_component,
    symlinked_directory,
)
from clarvis_lsp.discovery.scan import normalise_overlay
from clarvis_lsp.discovery.skill_config import SkillRootInput, SkillScope
from clarvis_lsp.discovery.skills import DiscoveryWarning
from clarvis_lsp.documents.text import decode, strip_bom
from clarvis_lsp.knowledge.layout import AGENTS_DIR, PLUGIN_MANIFEST, SKILLS_DIR, plugins_dir, settings_file


@dataclass(frozen=True)
class PluginInfo:
    """An installed plugin: its directory (named after the plugin) and where its contributions live.

    ``manifest`` is ``plugin.json`` when present (a directory without one is still an installed plugin, so a
    rule can report the missing manifest). ``hides`` is the personal plugin of the same name that this
    workspace plugin hides, so a rule can say so.
    """

    name: str
    directory: Path
    manifest: Path | None
    scope: SkillScope
    skills_dir: Path
    agents_dir: Path
    hides: PluginInfo | None = None
    manifest_name: str | None = None
    """The ``name`` its plugin.json declares, when that is a string (read tolerantly: None otherwise)."""

    @property
    def not_loaded(self) -> str | None:
        """Why Clarvis does not load this plugin at all, or None: its manifest's name must equal its directory's
        (SPEC §3.5), so none of its skills, agents, servers or hooks is in effect when they differ."""
        if self.manifest_name is None or self.manifest_name == self.name:
            return None
        return (
            f'plugin.json names the plugin "{self.manifest_name}", not "{self.name}" (its directory), so Clarvis does '
            "not load it"
        )


@dataclass(frozen=True)
class PluginScan:
    """``discover_plugins`` with its by-products: the hidden personal plugins and the warnings."""

    plugins: dict[str, PluginInfo]
    hidden: tuple[PluginInfo, ...]
    warnings: tuple[DiscoveryWarning, ...]


def plugin_locations(
    workspace_dir: str | Path, home: str | Path, *, include_user: bool = True
) -> list[tuple[SkillScope, Path]]:
    """The plugin directories to scan, lowest precedence first: personal, then workspace.

    When the workspace is the home directory the two are one directory, scanned once as the workspace's.
    """
    workspace = plugins_dir(workspace_dir)
    personal = plugins_dir(home)
    locations: list[tuple[SkillScope, Path]] = []
    if include_user and os.path.normpath(personal) != os.path.normpath(workspace):
        locations.append(("user", personal))
    locations.append(("workspace", workspace))
    return locations


def scan_plugins(
    workspace_dir: str | Path,
    home: str | Path,
    *,
    include_user: bool = True,
    follow_symlinks: bool = True,
    overlay: Mapping[Path, str] | None = None,
) -> PluginScan:
    """Every installed plugin directory; a workspace plugin replaces a personal one of the same name. Each
    manifest's ``name`` is read (``overlay``: the editor's buffers) to know whether Clarvis loads the plugin."""
    plugins: dict[str, PluginInfo] = {}
    hidden: list[PluginInfo] = []
    warnings: list[DiscoveryWarning] = []
    bases = (os.fspath(workspace_dir), os.fspath(home))
    for scope, location in plugin_locations(workspace_dir, home, include_user=include_user):
        link = None if follow_symlinks else symlinked_directory(str(location), bases)
        if link is not None:
            # Not listed: a symlinked ``.clarvis/plugins`` is reported here, a symlinked ``.clarvis`` by the skill
            # root below it (``.clarvis/skills``), once.
            if link == os.path.normpath(location):
                warnings.append(
                    DiscoveryWarning(
                        "symlink-ignored",
                        location,
                        f"Plugin directory {location} is a symlink; follow_symlinks is off, so it is not read",
                    )
                )
            continue
        entries, error = list_dir(str(location))
        if error is not None:
            warnings.append(
                DiscoveryWarning("unreadable", location, f"Plugin directory {location} cannot be read: {reason(error)}")
            )
        for entry in entries or []:
            kind = entry_kind(entry, follow_symlinks)
            if kind == "symlink":
                warnings.append(
                    DiscoveryWarning(
                        "symlink-ignored",
                        Path(entry.path),
                        f"Plugin {entry.path} is a symlink; follow_symlinks is off, so it is not read",
                    )
                )
                continue
            if kind != "dir":
                continue
            directory = Path(entry.path)
            manifest = _manifest(directory, follow_symlinks, warnings)
            previous = plugins.get(entry.name)
            if previous is not None:
                hidden.append(previous)
            plugins[entry.name] = PluginInfo(
                name=entry.name,
                directory=directory,
                manifest=manifest,
                scope=scope,
                skills_dir=directory / SKILLS_DIR,
                agents_dir=directory / AGENTS_DIR,
                hides=previous,
                manifest_name=_manifest_name(manifest, overlay, follow_symlinks) if manifest is not None else None,
            )
    return PluginScan(plugins, tuple(hidden), tuple(warnings))


def discover_plugins(
    workspace_dir: str | Path, home: str | Path, *, include_user: bool = True, follow_symlinks: bool = True
) -> dict[str, PluginInfo]:
    """Installed plugins by name (personal ones hidden by a workspace plugin of the same name are left out)."""
    return scan_plugins(workspace_dir, home, include_user=include_user, follow_symlinks=follow_symlinks).plugins


def _manifest(directory: Path, follow_symlinks: bool, warnings: list[DiscoveryWarning]) -> Path | None:
    path = directory / PLUGIN_MANIFEST
    try:
        is_link = path.is_symlink()
        if is_link and not follow_symlinks:
            warnings.append(
                DiscoveryWarning(
                    "symlink-ignored", path, f"{path} is a symlink; follow_symlinks is off, so it is not read"
                )
            )
            return None
        return path if path.is_file() else None
    except OSError:  # pragma: no cover - is_file/is_symlink swallow most errors themselves
        return None


def read_enabled_plugins(
    settings_path: str | Path, overlay: Mapping[Path, str] | None = None, *, follow_symlinks: bool = True
) -> list[str]:
    """The ``enabledPlugins`` of one settings.json, in order, first occurrence of each name kept.

    Tolerant: a missing, unreadable or invalid file, or a field that is not a list, gives ``[]``; entries that
    are not strings are dropped. ``overlay`` (editor buffers) replaces the file's content.
    """
    return _enabled_field(settings_path, overlay, follow_symlinks) or []


def effective_enabled_plugins(
    workspace_dir: str | Path,
    home: str | Path,
    include_user: bool = True,
    overlay: Mapping[Path, str] | None = None,
    *,
    follow_symlinks: bool = True,
    trusted: bool = True,
) -> list[str]:
    """The ``enabledPlugins`` in force: the workspace settings' list when it has the field, else the personal one.

    Workspace settings override personal settings field by field, so a workspace file without
    ``enabledPlugins`` leaves the personal list in force. ``trusted`` (the default: the rules check what will be
    active once ``/workspace-trust`` approves the workspace) says whether the workspace's list counts at all;
    untrusted, it is held back and the personal list stays in force (SPEC §2.1).
    """
    if trusted:
        found = _enabled_field(settings_file(workspace_dir), overlay, follow_symlinks)
        if found is not None:
            return found
    if not include_user:
        return []
    personal = _enabled_field(settings_file(home), overlay, follow_symlinks)
    return personal or []


def plugin_skill_roots(plugins: Mapping[str, PluginInfo], enabled: list[str]) -> list[SkillRootInput]:
    """``<plugin>/skills`` roots of the enabled, installed plugins, ascending (a later ``enabledPlugins`` entry wins).

    Source is ``plugin:<name>`` and scope the plugin's. Put these before (below) the standalone roots. A name
    listed twice counts at its first position; an enabled name with no installed plugin is skipped, and so is a
    plugin Clarvis does not load (``PluginInfo.not_loaded``: ``unloaded_plugins`` says which and why).
    """
    roots: list[SkillRootInput] = []
    seen: set[str] = set()
    for name in enabled:
        plugin = plugins.get(name)
        if plugin is None or name in seen or plugin.not_loaded is not None:
            continue
        seen.add(name)
        roots.append(SkillRootInput(str(plugin.skills_dir), plugin.scope, f"plugin:{name}"))
    return roots


def unloaded_plugins(plugins: Mapping[str, PluginInfo], enabled: list[str]) -> list[PluginInfo]:
    """The enabled, installed plugins that Clarvis does not load (``PluginInfo.not_loaded``), in ``enabled`` order:
    their skills would otherwise be in effect, so a listing says why they are not."""
    found: list[PluginInfo] = []
    for name in dict.fromkeys(enabled):
        plugin = plugins.get(name)
        if plugin is not None and plugin.not_loaded is not None:
            found.append(plugin)
    return found


def _manifest_name(manifest: Path, overlay: Mapping[Path, str] | None, follow_symlinks: bool) -> str | None:
    """The ``name`` of a plugin.json, when it parses and is a string (tolerant: the plugin rules report the rest)."""
    text = _settings_text(manifest, overlay, follow_symlinks)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def _enabled_field(
    settings_path: str | Path, overlay: Mapping[Path, str] | None, follow_symlinks: bool
) -> list[str] | None:
    """The ``enabledPlugins`` list when the file has one (None when absent, unreadable or not a list)."""
    text = _settings_text(settings_path, overlay, follow_symlinks)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    value = data.get("enabledPlugins")
    if not isinstance(value, list):
        return None
    names: list[str] = []
    seen: set[str] = set()
    for item in value:
        if isinstance(item, str) and item not in seen:
            seen.add(item)
            names.append(item)
    return names


def _settings_text(settings_path: str | Path, overlay: Mapping[Path, str] | None, follow_symlinks: bool) -> str | None:
    key = os.path.normpath(os.path.abspath(os.fspath(settings_path)))
    buffers = normalise_overlay(overlay)
    # ``<dir>/.clarvis/settings.json``: with symlinks off a symlinked ``.clarvis`` is not read through either,
    # and an open buffer of a symlinked settings file does not count (the file it stands for is ignored).
    within = os.path.dirname(os.path.dirname(key))
    if key in buffers:
        if not follow_symlinks and (is_symlink(key) or symlinked_component(key, within) is not None):
            return None
        return strip_bom(buffers[key])
    data, _problem = read_regular_file(key, follow_symlinks, within=within)
    if data is None:
        return None
    return decode(data).text
