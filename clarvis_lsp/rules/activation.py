"""Activation and precedence across sources (SPEC §2.1): who replaces whom, and who serves a capability.

Three notices, each about one file and the other file it concerns (its related location); the fourth of SPEC
§2.1, ``agent/overrides``, is in ``clarvis_lsp.rules.agent``:

- ``settings/unknown-provider``: ``memory``/``plans``/``tasks`` ``provider`` names no active plugin that declares
  that capability in ``capabilityExecutables``, so the capability service stays inert;
- ``mcp/overrides-personal``: a workspace MCP server replaces the personal server of the same name once the
  workspace is trusted (``mcpServers`` are merged by server name);
- ``plugin/shadowed``: a personal plugin is hidden by the workspace plugin of the same name, reported on the
  personal plugin's manifest (like ``discovery/shadowed`` on the losing copy of a skill).

The other file is read through the engine's reader (``JsonFileContext.read_text``: open buffers first), never
outside the personal and workspace configuration and the plugins discovery resolved.
"""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonDocument, JsonObject, parse_json
from clarvis_lsp.findings import Fix, Position, Range, Related, Severity
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import settings as facts
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.json_values import is_string, opening
from clarvis_lsp.rules.jsonedit import json_string, replace_value

UNKNOWN_PROVIDER = rule(
    "settings/unknown-provider",
    Severity.WARNING,
    "`memory`/`plans`/`tasks` `provider` names no active plugin that declares that capability.",
    why="A capability service stays inert until its plugin is installed, listed in enabledPlugins and declares the "
    "capability in `capabilityExecutables`; a provider naming anything else silently leaves the capability "
    "without a service.",
    example='{"enabledPlugins": ["notes"], "memory": {"provider": "notes"}}   // notes declares only "tasks"',
    fix="Name an enabled plugin whose plugin.json declares this capability in `capabilityExecutables` (the "
    "quick fix offers one when there is), enable the plugin, or add the executable to its manifest.",
    file_kind="settings",
)
OVERRIDES_PERSONAL = rule(
    "mcp/overrides-personal",
    Severity.INFORMATION,
    "A workspace MCP server replaces the personal server of the same name once the workspace is trusted.",
    why="`mcpServers` are merged by server name: once you approve the workspace with `/workspace-trust`, the "
    "repository's server of this name is started instead of yours, with its own command or URL.",
    example='~/.clarvis/settings.json: {"mcpServers": {"search": {"command": "my-search"}}}\n'
    '.clarvis/settings.json:   {"mcpServers": {"search": {"type": "http", "url": "https://…"}}}',
    fix="Nothing to fix when the replacement is intended; rename the workspace server to keep both.",
    file_kind="settings",
)
PLUGIN_SHADOWED = rule(
    "plugin/shadowed",
    Severity.WARNING,
    "A personal plugin is hidden by the workspace plugin of the same name.",
    why="A workspace plugin hides a personal plugin of the same name: in this workspace Clarvis loads the "
    "workspace's copy and none of this plugin's skills, agents, servers or hooks.",
    example="~/.clarvis/plugins/lint/plugin.json and .clarvis/plugins/lint/plugin.json",
    fix="Nothing to fix when the workspace's copy is meant to win; rename one of the plugins to use both.",
    file_kind="plugin",
)


def _start(path: Path) -> Range:
    return Range(Position(0, 0), Position(0, 0))


def _read(context: JsonFileContext, path: Path) -> JsonDocument | None:
    if context.read_text is None:
        return None
    text = context.read_text(path)
    return parse_json(text) if text is not None else None


def check_providers(document: JsonDocument, root: JsonObject, context: JsonFileContext, findings: Findings) -> None:
    """``settings/unknown-provider`` on each capability ``provider`` of a settings file (trusted view: the
    enabledPlugins in force once the workspace is approved)."""
    enabled = list(context.enabled_plugins)
    declares: dict[str, tuple[str, ...]] = {}
    manifests: dict[str, Path] = {}
    for name in enabled:
        plugin = context.plugins.get(name)
        if plugin is None or plugin.manifest is None:
            continue
        manifest = _read(context, plugin.manifest)
        executables = (
            manifest.root.value_of("capabilityExecutables")
            if manifest and isinstance(manifest.root, JsonObject)
            else None
        )
        declares[name] = tuple(executables.keys()) if isinstance(executables, JsonObject) else ()
        manifests[name] = plugin.manifest
    for capability in facts.CAPABILITY_FIELDS:
        holder = root.value_of(capability)
        if not isinstance(holder, JsonObject):
            continue
        member = holder.get("provider")
        node = member.value if member is not None else None
        if node is None or not is_string(node) or not str(node.value):
            continue
        name = str(node.value)
        if name in declares and capability in declares[name]:
            continue
        serving = [plugin for plugin in enabled if capability in declares.get(plugin, ())]
        related: list[Related] = []
        if name not in context.plugins:
            problem = f'no plugin named "{name}" is installed'
        elif name not in enabled:
            problem = f'the plugin "{name}" is not in enabledPlugins'
        else:
            problem = f'the plugin "{name}" declares no "{capability}" in capabilityExecutables'
            manifest_path = manifests.get(name)
            if manifest_path is not None:
                manifest = _read(context, manifest_path)
                where = opening(manifest, manifest.root) if manifest is not None and manifest.root else None
                related.append(Related(manifest_path, where or _start(manifest_path), f'plugin "{name}"'))
        fixes = [
            Fix(
                f'Use the enabled plugin "{plugin}", which serves {capability}',
                (replace_value(document, node, json_string(plugin), findings.path),),
                safe=False,  # choosing a service is the user's decision
            )
            for plugin in serving[:3]
        ]
        advice = f" Enabled plugins that serve it: {', '.join(serving)}." if serving else ""
        findings.add(
            UNKNOWN_PROVIDER.code,
            document.node_range(node),
            f'{capability}.provider "{name}" stays inert: {problem}. Name an enabled plugin that declares '
            f'"{capability}" in capabilityExecutables.{advice}',
            related=related,
            fixes=fixes,
        )


def check_mcp_overrides(
    document: JsonDocument, servers: JsonObject, context: JsonFileContext, findings: Findings
) -> None:
    """``mcp/overrides-personal`` on each workspace server whose name the personal settings also declare."""
    personal_path = layout.settings_file(context.home)
    if personal_path == findings.path:
        return
    personal = _read(context, personal_path)
    if personal is None or not isinstance(personal.root, JsonObject):
        return
    theirs = personal.root.value_of("mcpServers")
    if not isinstance(theirs, JsonObject):
        return
    for member in servers.members:
        other = theirs.get(member.key)
        if other is None or servers.get(member.key) is not member:
            continue
        findings.add(
            OVERRIDES_PERSONAL.code,
            document.key_range(member),
            f'The workspace MCP server "{member.key}" replaces your personal server of the same name once this '
            "workspace is approved with /workspace-trust (until then yours stays in force).",
            related=[Related(personal_path, personal.key_range(other), f'your personal server "{member.key}"')],
        )


def check_plugin_shadowed(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """``plugin/shadowed`` on the manifest of a personal plugin that a workspace plugin of the same name hides."""
    for hidden in context.hidden_plugins:
        if hidden.manifest != findings.path:
            continue
        winner = context.plugins.get(hidden.name)
        if winner is None:
            continue
        root = document.root
        name = root.get("name") if isinstance(root, JsonObject) else None
        where = document.key_range(name) if name is not None else _start(findings.path)
        target = winner.manifest or winner.directory
        findings.add(
            PLUGIN_SHADOWED.code,
            where,
            f'This personal plugin "{hidden.name}" is hidden in this workspace by the workspace plugin of the same '
            "name: Clarvis loads that one and none of this plugin's contributions. Rename one of them to use both.",
            related=[Related(target, _start(target), f'the workspace plugin "{hidden.name}"')],
        )
