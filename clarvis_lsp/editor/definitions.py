"""Go-to-definition and find-references (SPEC §5): what a value names, and every place that names a skill,
an agent or a plugin.

What resolves to what (SPEC §5):

- a SKILL.md ``agent`` value → the agent file (``<name>`` or ``<plugin>:<name>``);
- a plugin.json ``bootstrapSkill`` → that skill's SKILL.md in the plugin (at its ``name``), and a ``hooks``
  path → the hooks document it names;
- a settings.json ``enabledPlugins`` entry → the plugin's plugin.json (at its ``name``), or the first file of
  the plugin directory when it has no manifest;
- a skill's ``name`` → the winning copy's ``name`` (the copy itself when it wins), and its references → every
  copy of that name: each root's copy and the within-root duplicates that were skipped.
"""

from __future__ import annotations

from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonArray, JsonObject, parse_json
from clarvis_lsp.documents.skill import SkillDocument
from clarvis_lsp.documents.text import strip_bom
from clarvis_lsp.editor.places import (
    FILE_START,
    Location,
    name_location,
    on_name,
    on_node,
    on_value,
    plugin_location,
    plugin_skill,
    skill_document,
    string_value,
)
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules.discovery import names_at, skill_name_range
from clarvis_lsp.rules.plugin_paths import path_inside
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.view import WorkspaceView


def definition(
    view: WorkspaceView, path: Path, text: str, position: Position, kind: FileKind | None = None
) -> list[Location]:
    """Where the reference under ``position`` points; empty when nothing there refers to anything."""
    kind = view.kind_of(path) if kind is None else kind
    if kind not in (FileKind.SKILL, FileKind.PLUGIN, FileKind.SETTINGS):
        return []
    found = view.discovered
    if found is None:
        return []
    if kind is FileKind.SKILL:
        return _skill_definition(found, path, skill_document(path, text), position)
    document = parse_json(strip_bom(text))
    if not isinstance(document.root, JsonObject):
        return []
    offset = document.lines.offset(position)
    if kind is FileKind.PLUGIN:
        return _plugin_definition(view, found, path, document.root, offset)
    return _settings_definition(view, found, document.root, offset)


def _skill_definition(found: Discovered, path: Path, document: SkillDocument, position: Position) -> list[Location]:
    agent = document.entry("agent")
    if on_value(agent, position):
        assert agent is not None
        info = found.agents.get(str(agent.value).strip())
        return [Location(info.path, FILE_START)] if info is not None else []
    name = on_name(document, position)
    if name is None or name not in names_at(found.registry, path):
        return []
    winner = found.registry.winner(name)
    return [name_location(winner)] if winner is not None else []


def _plugin_definition(
    view: WorkspaceView, found: Discovered, path: Path, root: JsonObject, offset: int
) -> list[Location]:
    plugin_dir = path.parent
    bootstrap = root.value_of("bootstrapSkill")
    name = string_value(bootstrap)
    if name is not None and on_node(bootstrap, offset):
        skill = plugin_skill(view, found, plugin_dir, name)
        return [name_location(skill)] if skill is not None else []
    hooks = root.value_of("hooks")
    relative = string_value(hooks)
    if relative is not None and on_node(hooks, offset):
        # A path that leaves the plugin is reported (plugin/path-escapes) and never opened (SPEC §9).
        target = path_inside(plugin_dir, relative, follow_symlinks=view.config.follow_symlinks)
        if target is not None and (target.is_file() or target in view.overlay):
            return [Location(target, FILE_START)]
    return []


def _settings_definition(view: WorkspaceView, found: Discovered, root: JsonObject, offset: int) -> list[Location]:
    enabled = root.value_of("enabledPlugins")
    if not isinstance(enabled, JsonArray):
        return []
    for item in enabled.items:
        name = string_value(item)
        if name is None or not on_node(item, offset):
            continue
        plugin = found.plugins.get(name)
        if plugin is None:
            return []
        location = plugin_location(view, plugin.manifest, plugin.directory)
        return [location] if location is not None else []
    return []


def references(
    view: WorkspaceView, path: Path, text: str, position: Position, *, include_declaration: bool = True
) -> list[Location]:
    """On a skill's ``name``: every copy of that name, winner first, then by precedence, then the within-root
    duplicates that were skipped. In an agent file: every skill whose ``agent`` names it. On a plugin.json's
    ``name``: its ``enabledPlugins`` entries and the marketplace entries of that name. ``include_declaration=False``
    leaves out the declaration itself."""
    kind = view.kind_of(path)
    found = view.discovered
    if found is None:
        return []
    if kind is FileKind.AGENT:
        return _agent_references(found, path)
    if kind is FileKind.PLUGIN:
        return _plugin_references(view, path, text, position, include_declaration=include_declaration)
    if kind is not FileKind.SKILL:
        return []
    name = on_name(skill_document(path, text), position)
    registry = found.registry
    if name is None or name not in names_at(registry, path):
        return []
    locations = [name_location(copy) for copy in registry.copies(name)]
    locations.extend(
        Location(item.path, skill_name_range(item.skill))
        for item in registry.skipped
        if item.skill is not None and item.skill.name == name
    )
    if not include_declaration:
        locations = [location for location in locations if location.path != path]
    return locations


def _agent_references(found: Discovered, path: Path) -> list[Location]:
    """Every skill whose ``agent`` names the agent defined at ``path`` (``<name>`` or ``<plugin>:<name>``)."""
    names = {name for name, agent in found.agents.items() if agent.path == path}
    locations: list[Location] = []
    for skill in found.registry.all_skills():
        entry = skill.document.entry("agent")
        if entry is not None and entry.is_scalar and str(entry.value).strip() in names:
            locations.append(Location(skill.path, entry.value_range))
    return locations


def _plugin_references(
    view: WorkspaceView, path: Path, text: str, position: Position, *, include_declaration: bool
) -> list[Location]:
    """On plugin.json's ``name`` value: where the plugin is enabled (workspace and personal settings) and the
    marketplace entries of that name."""
    document = parse_json(strip_bom(text))
    root = document.root
    member = root.get("name") if isinstance(root, JsonObject) else None
    if member is None or member.value is None or not isinstance(member.value.value, str):
        return []
    name_at = document.node_range(member.value)
    if not _contains(name_at, position) and not _contains(document.key_range(member), position):
        return []
    name = member.value.value
    locations = [Location(path, name_at)] if include_declaration else []
    for settings in (layout.settings_file(view.directory), layout.settings_file(view.home)):
        locations += _string_items(view, settings, ("enabledPlugins",), name)
    for marketplace in view.files():
        if view.kind_of(marketplace) is FileKind.MARKETPLACE:
            locations += _marketplace_entries(view, marketplace, name)
    return locations


def _contains(where: Range, position: Position) -> bool:
    key = (position.line, position.character)
    return (where.start.line, where.start.character) <= key <= (where.end.line, where.end.character)


def _string_items(view: WorkspaceView, path: Path, key: tuple[str, ...], value: str) -> list[Location]:
    text = view.read_text(path)
    if text is None:
        return []
    document = parse_json(text)
    node = document.root
    for part in key:
        member = node.get(part) if isinstance(node, JsonObject) else None
        node = member.value if member is not None else None
    if not isinstance(node, JsonArray):
        return []
    return [Location(path, document.node_range(item)) for item in node.items if item.value == value]


def _marketplace_entries(view: WorkspaceView, path: Path, value: str) -> list[Location]:
    text = view.read_text(path)
    if text is None:
        return []
    document = parse_json(text)
    plugins = document.root.get("plugins") if isinstance(document.root, JsonObject) else None
    if plugins is None or not isinstance(plugins.value, JsonArray):
        return []
    locations = []
    for entry in plugins.value.items:
        name = entry.get("name") if isinstance(entry, JsonObject) else None
        if name is not None and name.value is not None and name.value.value == value:
            locations.append(Location(path, document.node_range(name.value)))
    return locations
