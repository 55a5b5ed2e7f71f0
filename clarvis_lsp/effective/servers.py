"""The MCP servers by effective name: personal and workspace servers merged by name (a trusted workspace entry
replaces the personal one whole), then the servers the plugins declare; each with what it starts and whom it
collides with (``clarvis_lsp.rules.collisions``, the logic ``mcp/name-collision`` reports from).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from clarvis_lsp.documents.jsondoc import JsonNode, JsonObject
from clarvis_lsp.effective.entries import (
    ACTIVE,
    HELD_BACK,
    PLUGIN_NOT_ENABLED,
    REPLACED,
    Clash,
    Inputs,
    McpEntry,
    Place,
    Step,
)
from clarvis_lsp.effective.sources import (
    _enabled_list,
    _Manifest,
    _manifest_map,
    _Settings,
)
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT
from clarvis_lsp.rules.collisions import Meeting, Party, ServerFile, effective_servers, meetings, server_parties


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
    return _with_collisions(tuple(entries), personal, workspace, inputs, manifests, active, trusted)


def _place(party: Party) -> Place:
    return Place(party.path, party.range.start.line, party.range.start.character)


def clashes(found: Mapping[Party, Sequence[Meeting]]) -> dict[Place, tuple[Clash, ...]]:
    """The collisions of each party, by the place its entry is declared at."""
    return {
        _place(party): tuple(
            Clash(meeting.kind, meeting.other.name, meeting.other.origin, _place(meeting.other), meeting.once_trusted)
            for meeting in found_here
        )
        for party, found_here in found.items()
    }


def _with_collisions(
    entries: tuple[McpEntry, ...],
    personal: _Settings,
    workspace: _Settings,
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    active: Sequence[str],
    trusted: bool,
) -> tuple[McpEntry, ...]:
    """Each entry with what it starts and whom it collides with: among the servers in effect in this state, and,
    untrusted, among those in effect once trusted (shown as "would collide")."""
    personal_file = ServerFile("personal", personal.path, personal.document) if personal.document else None
    workspace_file = ServerFile("workspace", workspace.path, workspace.document) if workspace.document else None
    plugin_files: dict[str, ServerFile] = {}
    for name, plugin in inputs.plugins.items():
        document = manifests[name].document
        if plugin.manifest is not None and document is not None:
            plugin_files[name] = ServerFile("plugin", plugin.manifest, document, name)
    everything = [party for file in (personal_file, workspace_file) if file for party in server_parties(file)]
    everything += [party for file in plugin_files.values() for party in server_parties(file)]
    reaches = {_place(party): party.reaches for party in everything}

    def in_effect(names: Sequence[str], state: bool) -> list[Party]:
        files = [plugin_files[name] for name in names if name in plugin_files]
        return effective_servers(personal_file, workspace_file, files, trusted=state)

    later = None
    if not trusted:
        enabled, _ = _enabled_list(personal, workspace, True)
        loaded = [name for name in enabled if name in inputs.plugins and manifests[name].name == name]
        later = in_effect(loaded, True)
    by_place = clashes(meetings(in_effect(active, trusted), later, tools=True))
    return tuple(
        replace(entry, reaches=reaches.get(entry.place), collisions=by_place.get(entry.place, ())) for entry in entries
    )
