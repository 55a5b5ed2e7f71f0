"""The effective configuration where it is written: inlay hints, a hook's or server's state on hover, and the
trust preview on the workspace settings (SPEC §5).

Protocol-free: positions are engine positions (code points), and the facts come from the model of
``clarvis_lsp.effective`` computed over the same buffers the editor holds, so a hint always matches the text.

- after a skill ``name`` with several copies: ``wins · 3 copies`` or ``shadowed by <path>``;
- after a hook's ``event`` value: its class and whether it can block or rewrite;
- after a hook object: ``runs #5``, or why it does not run (``held back until trust``, ``needs approval``…);
- after an ``enabledPlugins`` entry: ``#2 of 3``, ``not installed``, or that this list is not the one in force;
- defaults a field leaves out: ``type: stdio`` on an MCP server without ``type``, ``timeout_ms: 30000`` on a
  capability executable without one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.discovery import SkillRegistry
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import frontmatter_line, frontmatter_lines
from clarvis_lsp.effective.model import HIDDEN, RUNS, Effective, HookEntry, McpEntry
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT
from clarvis_lsp.knowledge.plugin import EXECUTABLE_TIMEOUT_DEFAULT
from clarvis_lsp.rules.hook_run_limit import hook_objects

Show = Callable[[Path], str]


@dataclass(frozen=True)
class Hint:
    """A short label shown at ``position``, with a longer tooltip."""

    position: Position
    label: str
    tooltip: str = ""


@dataclass(frozen=True)
class Note:
    """Markdown about the hook or server under the cursor, and the range it covers."""

    markdown: str
    range: Range


def run_label(hook: HookEntry) -> str:
    """``runs #5``, ``#70 needs approval``, or the state of a hook that does not run."""
    if hook.state == RUNS:
        return f"runs #{hook.position}"
    if hook.position is not None:
        return f"#{hook.position} {hook.state}"
    return hook.state


def event_label(hook: HookEntry) -> str:
    if hook.can_rewrite:
        return f"{hook.event_class} · can block and rewrite"
    if hook.can_block:
        return f"{hook.event_class} · can block"
    return f"{hook.event_class} · cannot block"


# -- where the hooks, servers and executables of a document are -------------------------------------------------


def _hooks_of(kind: FileKind, root: JsonObject | JsonNode | None) -> list[JsonObject]:
    if kind is FileKind.HOOKS:
        return hook_objects(root)
    if not isinstance(root, JsonObject):
        return []
    value = root.value_of("hooks")
    return hook_objects(value) if isinstance(value, (JsonArray, JsonObject)) else []


def _servers_of(root: JsonNode | None) -> JsonObject | None:
    if not isinstance(root, JsonObject):
        return None
    value = root.value_of("mcpServers")
    return value if isinstance(value, JsonObject) else None


def _hook_entries(model: Effective, path: Path) -> dict[int, HookEntry]:
    return {hook.index: hook for hook in model.hooks if hook.place.path == path}


def _server_entries(model: Effective, path: Path) -> dict[str, McpEntry]:
    """The servers declared in ``path`` by the key they have there (a plugin's ``<plugin>:`` prefix dropped)."""
    return {server.name.split(":", 1)[-1]: server for server in model.mcp_servers if server.place.path == path}


def _end(document: JsonDocument, node: JsonNode) -> Position:
    return document.node_range(node).end


# -- inlay hints -------------------------------------------------------------------------------------------------


def inlay_hints(
    model: Effective | None,
    registry: SkillRegistry | None,
    kind: FileKind,
    path: Path,
    text: str,
    show: Show,
) -> list[Hint]:
    """Every hint of the document (the client keeps those in its visible range)."""
    if kind is FileKind.SKILL:
        return list(_skill_hints(registry, path, text, show)) if registry is not None else []
    if kind not in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS) or model is None:
        return []
    document = parse_json(text)
    root = document.root
    hints: list[Hint] = []
    hooks = _hook_entries(model, path)
    for index, hook_object in enumerate(_hooks_of(kind, root), start=1):
        entry = hooks.get(index)
        if entry is None:
            continue
        event = hook_object.value_of("event")
        if event is not None and entry.event:
            hints.append(Hint(_end(document, event), event_label(entry), f"{entry.event}: {entry.event_class} event"))
        hints.append(
            Hint(_end(document, hook_object), run_label(entry), f"Hook {entry.index} of {entry.source}: {entry.state}")
        )
    servers = _servers_of(root)
    if servers is not None and kind is not FileKind.HOOKS:
        hints.extend(
            _default_hints(document, servers, "type", DEFAULT_TRANSPORT, "The transport a server without `type` uses.")
        )
    if kind is FileKind.PLUGIN and isinstance(root, JsonObject):
        executables = root.value_of("capabilityExecutables")
        if isinstance(executables, JsonObject):
            hints.extend(
                _default_hints(
                    document,
                    executables,
                    "timeout_ms",
                    str(EXECUTABLE_TIMEOUT_DEFAULT),
                    "The timeout a capability executable without `timeout_ms` gets.",
                )
            )
    if kind is FileKind.SETTINGS and isinstance(root, JsonObject):
        hints.extend(_enabled_hints(model, document, root, path))
    return sorted(hints, key=lambda hint: hint.position)


def _default_hints(
    document: JsonDocument, entries: JsonObject, field: str, default: str, tooltip: str
) -> Iterator[Hint]:
    """``field: default`` just inside each object of ``entries`` that leaves ``field`` out."""
    for member in entries.members:
        entry = member.value
        if isinstance(entry, JsonObject) and entry.get(field) is None:
            start = document.node_range(entry).start
            yield Hint(Position(start.line, start.character + 1), f"{field}: {default}", tooltip)


def _enabled_hints(model: Effective, document: JsonDocument, root: JsonObject, path: Path) -> Iterator[Hint]:
    listed = root.value_of("enabledPlugins")
    if not isinstance(listed, JsonArray):
        return
    in_force = next((item for item in model.settings if item.name == "enabledPlugins"), None)
    this_list_in_force = in_force is not None and in_force.place is not None and in_force.place.path == path
    plugins = {plugin.name: plugin for plugin in model.plugins if plugin.state != HIDDEN}
    for item in listed.items:
        if item.kind != "string" or not isinstance(item.value, str):
            continue
        name = item.value
        plugin = plugins.get(name)
        if not this_list_in_force:
            if in_force is not None and in_force.held_back is not None and in_force.held_back.path == path:
                label = "held back until trust"
            else:
                label = "not in force: the workspace's list replaces it"
        elif plugin is None or plugin.scope == "none":
            label = "not installed"
        elif plugin.position is not None:
            label = f"#{plugin.position} of {len(model.enabled_plugins)}"
        else:
            label = plugin.state
        yield Hint(_end(document, item), label, f'enabledPlugins "{name}": {label}')


def _skill_hints(registry: SkillRegistry, path: Path, text: str, show: Show) -> Iterator[Hint]:
    lines = LineIndex(text)
    span = frontmatter_lines(lines)
    if span is None:
        return
    for number in span:
        line = frontmatter_line(lines, number)
        if line is None or line.key != "name":
            continue
        value, _start, _end = line.unquoted_value()
        copies = registry.copies(value) if value else []
        if len(copies) < 2:
            return
        winner = registry.winner(value)
        position = Position(number, line.value_end)
        if winner is not None and winner.path == path:
            yield Hint(position, f"wins · {len(copies)} copies", f"This copy of {value} wins over {len(copies) - 1}.")
        elif winner is not None:
            origin = f"{winner.scope}/{winner.source}"
            yield Hint(position, f"shadowed by {show(winner.path)}", f"{winner.path} wins ({origin}).")
        return


# -- hover -------------------------------------------------------------------------------------------------------


def hover_note(model: Effective, kind: FileKind, path: Path, text: str, position: Position) -> Note | None:
    """The state and position of the hook or MCP server under the cursor."""
    if kind not in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS):
        return None
    document = parse_json(text)
    root = document.root
    hooks = _hook_entries(model, path)
    for index, hook_object in enumerate(_hooks_of(kind, root), start=1):
        where = document.node_range(hook_object)
        entry = hooks.get(index)
        if entry is not None and where.contains(position):
            lines = [
                f"**Hook {entry.index} of {entry.source}**: {run_label(entry)}",
                f"`{entry.event}` is a {entry.event_class} event"
                + (", can block and rewrite" if entry.can_rewrite else ", can block" if entry.can_block else ""),
            ]
            failed = next((step for step in entry.checklist if not step.ok), None)
            if failed is not None:
                lines.append(f"Not active: {failed.name}: {failed.detail}")
            return Note("\n\n".join(lines), where)
    servers = _servers_of(root)
    if servers is not None:
        by_key = _server_entries(model, path)
        for member in servers.members:
            where = document.member_range(member)
            server = by_key.get(member.key)
            if server is not None and where.contains(position):
                lines = [f"**MCP server `{server.name}`** ({server.transport}, {server.origin}): {server.state}"]
                if server.replaces is not None:
                    verb = "Replaces" if model.trusted else "Once trusted, replaces"
                    lines.append(f"{verb} the personal server at {server.replaces.path}:{server.replaces.line + 1}")
                if server.replaced_by is not None:
                    lines.append(f"Replaced by {server.replaced_by.path}:{server.replaced_by.line + 1}")
                return Note("\n\n".join(lines), where)
    return None


# -- the trust preview -------------------------------------------------------------------------------------------


def trust_lens(model: Effective, path: Path) -> str | None:
    """The code lens title on the workspace settings.json: the trust preview, or that the workspace is trusted."""
    if path != layout.settings_file(model.workspace):
        return None
    if model.trusted:
        running = sum(1 for hook in model.hooks if hook.state == RUNS)
        return f"Trusted workspace (clarvis.trustWorkspace): {running} hooks run, its servers and plugins apply"
    preview = model.preview
    if preview is None or not (preview.activates or preview.replaces):
        return "Untrusted workspace: approving it would change nothing"
    title = "Untrusted: approving this workspace would activate " + (", ".join(preview.activates) or "nothing")
    if preview.replaces:
        title += " and replace " + ", ".join(preview.replaces)
    return title
