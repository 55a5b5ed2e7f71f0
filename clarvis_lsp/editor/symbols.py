"""Document outlines (frontmatter keys, Markdown headings, JSON members) and the workspace-wide symbol search
(skill copies, plugins, agents), bounded for huge files."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import yaml

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.skill import FrontmatterEntry, SkillDocument
from clarvis_lsp.documents.text import LineIndex, strip_bom
from clarvis_lsp.editor.places import (
    FILE_START,
    Location,
    display_path,
    name_location,
    plugin_location,
    root_label,
    skill_document,
    string_value,
)
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT
from clarvis_lsp.workspace.plugin_skills import plugin_skills
from clarvis_lsp.workspace.view import WorkspaceView

MAX_DOCUMENT_SYMBOLS = 5000  # a 10 MB JSON file has far more nodes than an outline can show
MAX_SYMBOL_DEPTH = 64
MAX_WORKSPACE_SYMBOLS = 1000
_LABEL_LENGTH = 80


class SymbolKind(enum.IntEnum):
    """Symbol kinds, numbered as LSP numbers them (as ``Severity`` is) so the server passes them through."""

    FILE = 1
    MODULE = 2
    NAMESPACE = 3
    PACKAGE = 4
    CLASS = 5
    PROPERTY = 7
    FUNCTION = 12
    VARIABLE = 13
    STRING = 15
    NUMBER = 16
    BOOLEAN = 17
    ARRAY = 18
    OBJECT = 19
    KEY = 20
    NULL = 21
    EVENT = 24


@dataclass(frozen=True)
class Symbol:
    """One node of a document outline. ``selection_range`` (the name) always lies inside ``range``."""

    name: str
    kind: SymbolKind
    range: Range
    selection_range: Range
    detail: str | None = None
    children: tuple[Symbol, ...] = ()


@dataclass(frozen=True)
class WorkspaceSymbol:
    """A skill copy, plugin or agent found by a workspace-wide symbol search."""

    name: str
    kind: SymbolKind
    location: Location
    container: str


def match_score(query: str, name: str) -> int | None:
    """How well ``name`` matches ``query`` (lower is better), or None: exact, prefix, substring, then the
    query's characters in order (fuzzy), all case-insensitive. An empty query matches everything."""
    if not query:
        return 0
    wanted = query.lower()
    candidate = name.lower()
    if candidate == wanted:
        return 0
    if candidate.startswith(wanted):
        return 1
    if wanted in candidate:
        return 2
    remaining = iter(candidate)
    if all(char in remaining for char in wanted):
        return 3
    return None


def workspace_symbols(
    views: Iterable[WorkspaceView], query: str, *, limit: int = MAX_WORKSPACE_SYMBOLS
) -> list[WorkspaceSymbol]:
    """Skills (every loaded copy, shadowed ones included), plugins and agents of the workspaces ``views`` show,
    matching ``query``, best matches first; at most ``limit``."""
    query = query.strip()
    # Ranked first, located after: a skill's location is its name in its frontmatter, which needs the document
    # parsed; only the ``limit`` symbols returned are located, so a search of 10,000 skills parses at most that many.
    ranked: list[tuple[int, str, int, str, str, SymbolKind, Callable[[], Location], str]] = []
    seen: set[tuple[SymbolKind, str, Path]] = set()

    def add(
        name: str, kind: SymbolKind, path: Path, locate: Callable[[], Location], container: str, precedence: int = 0
    ) -> None:
        key = (kind, name, path)
        score = match_score(query, name)
        if score is None or key in seen:
            return
        seen.add(key)
        ranked.append((score, name.lower(), -precedence, str(path), name, kind, locate, container))

    for view in views:
        found = view.discovered
        if found is None:
            continue
        registry = found.registry
        for skill in registry.all_skills():
            if match_score(query, skill.name) is None:
                continue  # before its container is worked out: a query looks at 50,000 copies, and few match
            winner = registry.winner(skill.name)
            container = root_label(skill)
            if winner is not None and winner.path != skill.path:
                container += f", shadowed by {display_path(winner.path, view)}"
            # Copies of one name in precedence order: the winner first, as ``references`` lists them.
            add(
                skill.name,
                SymbolKind.FUNCTION,
                skill.path,
                partial(name_location, skill),
                container,
                skill.root_index + 1,
            )
        for name in found.held_back_plugins:  # found still, marked: they contribute nothing until trust
            held = found.plugins[name]
            for skill in plugin_skills(registry, held.directory, view.overlay, scope=held.scope).skills.values():
                container = f"{root_label(skill)}, held back until trust"
                add(skill.name, SymbolKind.FUNCTION, skill.path, partial(name_location, skill), container)
        for plugin in found.plugins.values():
            if match_score(query, plugin.name) is None:
                continue  # locating a plugin reads its manifest: only for the ones that match
            location = plugin_location(view, plugin.manifest, plugin.directory)
            if location is None:
                continue
            if plugin.name in found.plugins_in_force:
                state = "enabled"
            elif plugin.name in found.enabled_plugins:
                state = "enabled, held back until trust"  # only the untrusted workspace enables it
            else:
                state = "not enabled"
            container = f"plugin ({plugin.scope}, {state})"
            add(plugin.name, SymbolKind.PACKAGE, location.path, partial(_located, location), container)
        for agent in found.agents.values():
            container = f"agent of plugin {agent.plugin}" if agent.plugin else f"agent ({agent.scope})"
            add(agent.name, SymbolKind.CLASS, agent.path, partial(Location, agent.path, FILE_START), container)
    ranked.sort(key=lambda item: item[:4])
    return [
        WorkspaceSymbol(name, kind, locate(), container)
        for _score, _lower, _precedence, _path, name, kind, locate, container in ranked[:limit]
    ]


def _located(location: Location) -> Location:
    return location


def document_symbols(kind: FileKind | None, path: Path, text: str) -> list[Symbol]:
    """The outline of a document of ``kind``: SKILL.md frontmatter keys and Markdown headings, a member tree
    for the JSON kinds. Never raises on broken input: what parsed is shown."""
    text = strip_bom(text)
    if kind in (FileKind.SKILL, FileKind.AGENT):
        # An agent file is frontmatter plus Markdown too: its closing `---` must not make the last key a heading.
        return _skill_symbols(skill_document(path, text))
    if kind in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE):
        return _json_symbols(parse_json(text), kind)
    return []


def without_closing_sequence(text: str) -> str:
    """An ATX heading's text without its optional closing sequence (``## Title ##``): a run of ``#`` at the end,
    before trailing blanks, and preceded by a blank or nothing. String methods rather than a regex searched from
    every blank of the line (quadratic in a heading of blanks)."""
    stripped = text.rstrip(" \t")
    body = stripped.rstrip("#")
    if len(body) == len(stripped) or (body and body[-1] not in " \t"):
        return text
    return body


def _label(text: str, empty: str = '""') -> str:
    """A one-line, non-empty symbol name (editors reject empty names)."""
    flat = " ".join(text.split())
    if len(flat) > _LABEL_LENGTH:
        flat = flat[: _LABEL_LENGTH - 1] + "…"
    return flat or empty


def _span(start: Range, end: Range) -> Range:
    return Range(start.start, max(start.end, end.end))


# SKILL.md


def _skill_symbols(document: SkillDocument) -> list[Symbol]:
    lines = document.lines
    symbols: list[Symbol] = []
    if document.has_frontmatter:
        end_line = document.close_line if document.close_line is not None else lines.line_count - 1
        full = _span(lines.line_range(document.open_line), lines.line_range(end_line))
        children = tuple(_entry_symbol(document, entry) for entry in document.entries)
        symbols.append(
            Symbol("frontmatter", SymbolKind.NAMESPACE, full, lines.line_range(document.open_line), None, children)
        )
    symbols.extend(_heading_symbols(lines, document.body_start_line))
    return symbols


def _yaml_range(node: yaml.Node, lines: LineIndex) -> Range:
    """A frontmatter node's range (the frontmatter starts on line 1), as ``documents.skill`` computes it."""
    base = lines.line_start(1)
    start = lines.position(base + node.start_mark.index)
    end = lines.position(base + node.end_mark.index)
    if end.character == 0 and end.line > start.line:
        end = Position(end.line - 1, lines.line_end(end.line - 1) - lines.line_start(end.line - 1))
    return Range(start, max(start, end))


def _yaml_detail(node: yaml.Node) -> str | None:
    if isinstance(node, yaml.ScalarNode):
        return _label(str(node.value), empty="") or None
    if isinstance(node, yaml.SequenceNode):
        return f"list of {len(node.value)}"
    if isinstance(node, yaml.MappingNode):
        return f"mapping of {len(node.value)}"
    return None


def _entry_symbol(document: SkillDocument, entry: FrontmatterEntry) -> Symbol:
    full = _span(entry.key_range, entry.value_range)
    children: list[Symbol] = []
    node = entry.node
    if isinstance(node, yaml.SequenceNode):
        for item in node.value[:MAX_DOCUMENT_SYMBOLS]:
            item_range = _yaml_range(item, document.lines)
            name = _label(str(item.value)) if isinstance(item, yaml.ScalarNode) else _yaml_detail(item) or "item"
            children.append(Symbol(name, SymbolKind.STRING, item_range, item_range, None))
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value[:MAX_DOCUMENT_SYMBOLS]:
            key_range = _yaml_range(key, document.lines)
            name = _label(str(key.value)) if isinstance(key, yaml.ScalarNode) else "key"
            whole = _span(key_range, _yaml_range(value, document.lines))
            children.append(Symbol(name, SymbolKind.PROPERTY, whole, key_range, _yaml_detail(value)))
    return Symbol(_label(entry.key), SymbolKind.PROPERTY, full, entry.key_range, _yaml_detail(node), tuple(children))


# Markdown headings: ATX (`## Title`) and setext (a paragraph underlined with === or ---), outside fenced code.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_NOT_PARAGRAPH = re.compile(r" {0,3}(?:[-+*>]|\d{1,9}[.)])(?:[ \t]|$)| {4}|\t")


@dataclass
class _Heading:
    level: int
    name: str
    start_line: int
    selection: Range
    children: list[_Heading]
    end: Position | None = None

    def symbol(self, lines: LineIndex) -> Symbol:
        end = self.end or self.selection.end
        return Symbol(
            self.name,
            SymbolKind.STRING,
            Range(Position(self.start_line, 0), end),
            self.selection,
            None,
            tuple(child.symbol(lines) for child in self.children),
        )


def _heading_symbols(lines: LineIndex, first_line: int) -> list[Symbol]:
    headings: list[tuple[int, int, str, Range]] = []  # level, first line, name, selection
    fence: str | None = None
    paragraph_start: int | None = None
    for line in range(first_line, lines.line_count):
        text = lines.line_text(line)
        if fence is not None:
            stripped = text.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        opening = _FENCE.match(text)
        if opening is not None:
            fence = opening.group(1)
            paragraph_start = None
            continue
        atx = _ATX.match(text)
        if atx is not None:
            title = without_closing_sequence(text[atx.end() :]).strip()
            headings.append((len(atx.group(1)), line, _label(title, empty=atx.group(1)), _trimmed(lines, line)))
            paragraph_start = None
            continue
        setext = _SETEXT.match(text)
        if setext is not None and paragraph_start is not None:
            title = " ".join(lines.line_text(index).strip() for index in range(paragraph_start, line))
            level = 1 if setext.group(1).startswith("=") else 2
            selection = _span(_trimmed(lines, paragraph_start), _trimmed(lines, line - 1))
            headings.append((level, paragraph_start, _label(title), selection))
            paragraph_start = None
            continue
        if not text.strip() or _NOT_PARAGRAPH.match(text):
            paragraph_start = None
        elif paragraph_start is None:
            paragraph_start = line
        if len(headings) >= MAX_DOCUMENT_SYMBOLS:
            break
    return _nest(headings, lines)


def _trimmed(lines: LineIndex, line: int) -> Range:
    """The line's content without leading and trailing blanks (the whole line when it is blank)."""
    text = lines.line_text(line)
    start = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    if end <= start:
        return lines.line_range(line)
    return Range(Position(line, start), Position(line, end))


def _nest(headings: list[tuple[int, int, str, Range]], lines: LineIndex) -> list[Symbol]:
    """Nest headings by level; each one's range runs to the line before the next heading of its level or above."""
    top: list[_Heading] = []
    stack: list[_Heading] = []
    last_line = lines.line_count - 1
    for level, start_line, name, selection in headings:
        while stack and stack[-1].level >= level:
            stack.pop().end = _line_end(lines, start_line - 1)
        heading = _Heading(level, name, start_line, selection, [])
        (stack[-1].children if stack else top).append(heading)
        stack.append(heading)
    for heading in stack:
        heading.end = _line_end(lines, last_line)
    return [heading.symbol(lines) for heading in top]


def _line_end(lines: LineIndex, line: int) -> Position:
    return Position(line, lines.line_end(line) - lines.line_start(line))


# JSON


def _json_symbols(document: JsonDocument, kind: FileKind) -> list[Symbol]:
    budget = [MAX_DOCUMENT_SYMBOLS]
    root = document.root
    if isinstance(root, JsonObject):
        return _member_symbols(document, root, budget, 0, None)
    if isinstance(root, JsonArray):
        return _item_symbols(document, root, budget, 0, hooks=kind is FileKind.HOOKS)
    return []


def _scalar(document: JsonDocument, node: JsonNode) -> tuple[SymbolKind, str]:
    if node.kind == "string" and isinstance(node.value, str):
        return SymbolKind.STRING, node.value
    kind = {
        "number": SymbolKind.NUMBER,
        "boolean": SymbolKind.BOOLEAN,
        "null": SymbolKind.NULL,
    }.get(node.kind, SymbolKind.VARIABLE)
    return kind, document.text[node.start : node.end]


def _member_symbols(
    document: JsonDocument, obj: JsonObject, budget: list[int], depth: int, parent_key: str | None
) -> list[Symbol]:
    symbols: list[Symbol] = []
    for member in obj.members:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        value = member.value
        full = document.member_range(member)
        selection = document.key_range(member)
        detail: str | None = None
        children: tuple[Symbol, ...] = ()
        if value is None:
            kind = SymbolKind.PROPERTY
        elif isinstance(value, JsonObject):
            kind = SymbolKind.MODULE
            if parent_key == "mcpServers":
                kind = SymbolKind.OBJECT
                detail = f"{string_value(value.value_of('type')) or DEFAULT_TRANSPORT} server"
            if depth < MAX_SYMBOL_DEPTH:
                children = tuple(_member_symbols(document, value, budget, depth + 1, member.key))
        elif isinstance(value, JsonArray):
            kind = SymbolKind.ARRAY
            if depth < MAX_SYMBOL_DEPTH:
                children = tuple(_item_symbols(document, value, budget, depth + 1, hooks=member.key == "hooks"))
        else:
            kind, text = _scalar(document, value)
            detail = _label(text, empty="") or None
        symbols.append(Symbol(_label(member.key), kind, full, selection, detail, children))
    return symbols


def _item_symbols(
    document: JsonDocument, array: JsonArray, budget: list[int], depth: int, *, hooks: bool
) -> list[Symbol]:
    symbols: list[Symbol] = []
    for index, item in enumerate(array.items):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        full = document.node_range(item)
        children: tuple[Symbol, ...] = ()
        if isinstance(item, JsonObject):
            event = string_value(item.value_of("event"))
            named = string_value(item.value_of("name"))
            if hooks and event is not None:
                command = string_value(item.value_of("command"))
                name, kind = (f"{event}: {command}" if command else event), SymbolKind.EVENT
            else:
                name, kind = (named if named is not None else str(index)), SymbolKind.MODULE
            if depth < MAX_SYMBOL_DEPTH:
                children = tuple(_member_symbols(document, item, budget, depth + 1, None))
        elif isinstance(item, JsonArray):
            name, kind = str(index), SymbolKind.ARRAY
            if depth < MAX_SYMBOL_DEPTH:
                children = tuple(_item_symbols(document, item, budget, depth + 1, hooks=False))
        else:
            kind, name = _scalar(document, item)
        symbols.append(Symbol(_label(name), kind, full, full, None, children))
    return symbols
