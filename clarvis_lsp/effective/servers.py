"""The MCP servers by effective name: personal and workspace servers merged by name (a trusted workspace entry
replaces the personal one whole), then the servers the plugins declare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clarvis_lsp.documents.jsondoc import JsonNode, JsonObject
from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    PLUGIN_NOT_ENABLED,
    REPLACED,
    Inputs,
    McpEntry,
    Place,
    Step,
)
from clarvis_lsp.effective.sources import (
    _Manifest,
    _manifest_map,
    _Settings,
)
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT


def _transport(server: JsonNode | None) -> str:
    if isinstance(server, JsonObject):
        kind = server.value_of("type")
        if kind is not None and isinstance(kind.value, str):
            return kind.value
    return DEFAULT_TRANSPORT


def _mcp_servers(
    personal: _Settings,
    workspace: _Settings,
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    active: Sequence[str],
    trusted: bool,
) -> tuple[McpEntry, ...]:
    p_map = personal.value("mcpServers")
    w_map = workspace.value("mcpServers")
    p_servers = {m.key: m for m in p_map.members} if isinstance(p_map, JsonObject) else {}
    w_servers = {m.key: m for m in w_map.members} if isinstance(w_map, JsonObject) else {}
    entries: list[McpEntry] = []

    def place_of(settings: _Settings, key: str, members: Mapping[str, object]) -> Place:
        member = members[key]
        assert settings.document is not None
        start = settings.document.key_range(member).start  # type: ignore[arg-type]
        return Place(settings.path, start.line, start.character)

    for key in sorted(p_servers.keys() | w_servers.keys()):
        p_place = place_of(personal, key, p_servers) if key in p_servers else None
        w_place = place_of(workspace, key, w_servers) if key in w_servers else None
        if p_place is not None:
            replaced = w_place is not None and trusted
            steps = [Step("discovered", True, "declared in personal settings")]
            if replaced:
                steps.append(Step("not shadowed", False, "replaced by the workspace server of the same name"))
            entries.append(
                McpEntry(
                    key,
                    _transport(p_servers[key].value),
                    "personal",
                    None,
                    REPLACED if replaced else ACTIVE,
                    p_place,
                    None,
                    w_place if replaced else None,
                    tuple(steps),
                )
            )
        if w_place is not None:
            steps = [Step("discovered", True, "declared in workspace settings")]
            if trusted:
                steps.append(Step("workspace trusted", True, "the workspace is trusted"))
            else:
                steps.append(Step("workspace trusted", False, "workspace mcpServers are held back until trust"))
            entries.append(
                McpEntry(
                    key,
                    _transport(w_servers[key].value),
                    "workspace",
                    None,
                    ACTIVE if trusted else HELD_BACK,
                    w_place,
                    p_place,
                    None,
                    tuple(steps),
                )
            )
    for name in sorted(inputs.plugins):
        manifest = manifests[name]
        servers = _manifest_map(manifest, "mcpServers")
        if servers is None or manifest.document is None or inputs.plugins[name].manifest is None:
            continue
        manifest_path = inputs.plugins[name].manifest
        assert manifest_path is not None
        for member in servers.members:
            start = manifest.document.key_range(member).start
            steps = [Step("discovered", True, f"declared by plugin {name}")]
            is_active = name in active
            steps.append(
                Step("enabled", is_active, f"plugin {name} is active" if is_active else f"plugin {name} is not active")
            )
            entries.append(
                McpEntry(
                    f"{name}:{member.key}",
                    _transport(member.value),
                    "plugin",
                    name,
                    ACTIVE if is_active else PLUGIN_NOT_ENABLED,
                    Place(manifest_path, start.line, start.character),
                    None,
                    None,
                    tuple(steps),
                )
            )
    return tuple(entries)
