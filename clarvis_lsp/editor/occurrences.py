"""Where a document names a skill, an agent, a plugin or an MCP server, protocol-free: for semantic tokens and
document highlight.

Read from the text as typed, so a half-typed document still answers: a SKILL.md or agent frontmatter line by line
(``common.frontmatter_line``; a one-line flow mapping through the YAML parse), the JSON kinds through the tolerant
parser. Each occurrence is the name itself (inside quotes), on one line, and says whether it declares the name:

- SKILL.md: ``name`` declares the skill; ``agent: x`` names an agent, ``agent: p:x`` the plugin ``p`` and its
  agent ``x``; an agent file's ``name`` declares the agent;
- plugin.json: ``name`` declares the plugin, ``bootstrapSkill`` names a skill, the keys of ``mcpServers`` declare
  MCP servers;
- settings.json: each ``enabledPlugins`` entry and ``memory.provider`` name a plugin, the keys of ``mcpServers``
  declare MCP servers;
- marketplace.json: each entry's ``name`` names a plugin.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import frontmatter_line, frontmatter_lines, parsed_json
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind

__all__ = ["FrontmatterItem", "NameKind", "Occurrence", "frontmatter_items", "json_inner", "occurrences"]

NameKind = Literal["skill", "agent", "plugin", "mcp-server"]
JSON_KINDS = frozenset({FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE})


@dataclass(frozen=True)
class Occurrence:
    """A name written in the document: what it names, the name, its one-line range, and whether it declares it."""

    kind: NameKind
    name: str
    range: Range
    declaration: bool = False


@dataclass(frozen=True)
class FrontmatterItem:
    """A top-level frontmatter key as written, with its value (unquoted) when it is on the key's line."""

    key: str
    key_range: Range
    value: str
    value_range: Range | None


def occurrences(kind: FileKind | None, path: Path, text: str) -> list[Occurrence]:
    """Every name of a skill, agent, plugin or MCP server written in the document, in document order."""
    if kind is FileKind.SKILL or kind is FileKind.AGENT:
        return _frontmatter_occurrences(kind, path, text)
    if kind in JSON_KINDS:
        return sorted(_json_occurrences(kind, parsed_json(text)), key=lambda item: item.range.start)
    return []


# -- SKILL.md and agent files ------------------------------------------------------------------------------------


def frontmatter_items(path: Path, text: str, lines: LineIndex | None = None) -> list[FrontmatterItem]:
    """The frontmatter's top-level keys, line by line (so while the YAML does not parse); a frontmatter written as
    one flow mapping (``{name: x, description: y}``) is read through the YAML parse."""
    lines = lines or LineIndex(text)
    inside = frontmatter_lines(lines)
    if inside is None:
        return []
    items: list[FrontmatterItem] = []
    for line in inside:
        found = frontmatter_line(lines, line)
        if found is None or not found.key or found.colon is None:
            continue
        value, start, end = found.unquoted_value()
        key_range = Range(Position(line, found.key_start), Position(line, found.key_end))
        value_range: Range | None = Range(Position(line, start), Position(line, end)) if value else None
        items.append(FrontmatterItem(found.key, key_range, value, value_range))
    if not items and lines.line_text(inside.start).lstrip().startswith("{"):
        document = parse_skill(path, text)
        for entry in document.entries:
            value_range = entry.value_range
            value = entry.value if entry.is_scalar and isinstance(entry.value, str) else ""
            if not value or value_range is None or value_range.start.line != value_range.end.line:
                value_range = None
            else:
                written = lines.text[lines.offset(value_range.start) : lines.offset(value_range.end)]
                if written[:1] in "\"'":
                    value_range = Range(
                        Position(value_range.start.line, value_range.start.character + 1),
                        Position(value_range.end.line, value_range.end.character - 1),
                    )
            items.append(FrontmatterItem(entry.key, entry.key_range, value, value_range))
    return items


def _frontmatter_occurrences(kind: FileKind, path: Path, text: str) -> list[Occurrence]:
    found: list[Occurrence] = []
    for item in frontmatter_items(path, text):
        where = item.value_range
        if where is None or not item.value.strip():
            continue
        if item.key == "name":
            found.append(Occurrence("skill" if kind is FileKind.SKILL else "agent", item.value, where, True))
        elif item.key == "agent" and kind is FileKind.SKILL:
            plugin, colon, agent = item.value.partition(":")
            start = where.start
            if colon and plugin and agent:
                plugin_end = Position(start.line, start.character + len(plugin))
                found.append(Occurrence("plugin", plugin, Range(start, plugin_end)))
                agent_start = Position(start.line, plugin_end.character + 1)
                found.append(Occurrence("agent", item.value, Range(agent_start, where.end)))
            else:
                found.append(Occurrence("agent", item.value, where))
    return found


# -- the JSON kinds ----------------------------------------------------------------------------------------------


def json_inner(document: JsonDocument, node: JsonNode) -> Range | None:
    """A closed one-line JSON string's range without its quotes; None for anything else."""
    if node.kind != "string" or not node.closed or node.end - node.start < 2:
        return None
    where = document.range_of(node.start + 1, node.end - 1)
    return where if where.start.line == where.end.line else None


def _string(
    document: JsonDocument, node: JsonNode | None, kind: NameKind, declaration: bool = False
) -> list[Occurrence]:
    if node is None or not isinstance(node.value, str) or not node.value.strip():
        return []
    where = json_inner(document, node)
    return [Occurrence(kind, node.value, where, declaration)] if where is not None else []


def _json_occurrences(kind: FileKind, document: JsonDocument) -> list[Occurrence]:
    root = document.root
    if not isinstance(root, JsonObject):
        return []
    found: list[Occurrence] = []
    if kind is FileKind.PLUGIN:
        found += _string(document, root.value_of("name"), "plugin", declaration=True)
        found += _string(document, root.value_of("bootstrapSkill"), "skill")
    if kind is FileKind.SETTINGS:
        enabled = root.value_of("enabledPlugins")
        for item in enabled.items if isinstance(enabled, JsonArray) else []:
            found += _string(document, item, "plugin")
        memory = root.value_of("memory")
        if isinstance(memory, JsonObject):
            found += _string(document, memory.value_of("provider"), "plugin")
    if kind in (FileKind.PLUGIN, FileKind.SETTINGS):
        servers = root.value_of("mcpServers")
        for member in servers.members if isinstance(servers, JsonObject) else []:
            if member.key.strip() and member.key_end - member.key_start >= 2:
                where = document.range_of(member.key_start + 1, member.key_end - 1)
                if where.start.line == where.end.line:
                    found.append(Occurrence("mcp-server", member.key, where, True))
    if kind is FileKind.MARKETPLACE:
        plugins = root.value_of("plugins")
        for entry in plugins.items if isinstance(plugins, JsonArray) else []:
            if isinstance(entry, JsonObject):
                found += _string(document, entry.value_of("name"), "plugin")
    return found
