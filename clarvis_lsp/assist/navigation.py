"""Navigation over a workspace: definitions, references, document and workspace symbols, the override lens.

Engine-level and protocol-free: every answer is a ``Location`` (a path and a code-point ``Range``) or a
``Symbol`` tree, computed from a ``WorkspaceEngine``'s discovery and the document's current text (an open
buffer's unsaved text included). ``clarvis_lsp.server.features.navigation`` turns them into LSP messages.

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

import enum
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from clarvis_lsp.discovery import SkillInfo, SkillRoot, StartupError
from clarvis_lsp.discovery.scan import scan_root
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.documents.skill import FrontmatterEntry, SkillDocument, parse_skill
from clarvis_lsp.documents.text import LineIndex, strip_bom
from clarvis_lsp.engine import Discovered, WorkspaceEngine
from clarvis_lsp.kinds import FileKind
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT
from clarvis_lsp.model import Position, Range
from clarvis_lsp.rules.discovery import name_range, names_at

__all__ = [
    "Location",
    "OverrideLens",
    "Symbol",
    "SymbolKind",
    "WorkspaceSymbol",
    "definition",
    "display_path",
    "document_symbols",
    "match_score",
    "override_lenses",
    "references",
    "workspace_symbols",
]

MAX_DOCUMENT_SYMBOLS = 5000  # a 10 MB JSON file has far more nodes than an outline can show
MAX_SYMBOL_DEPTH = 64
MAX_WORKSPACE_SYMBOLS = 1000
_LABEL_LENGTH = 80
_START = Range.point(0, 0)


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
class Location:
    """A place in a file: code-point range, as the engine counts."""

    path: Path
    range: Range


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


@dataclass(frozen=True)
class OverrideLens:
    """The inline override note on a skill's ``name``: its title and the copies a click goes to."""

    range: Range
    title: str
    locations: tuple[Location, ...]


# -- helpers -----------------------------------------------------------------------------------------------------


def _discovered(engine: WorkspaceEngine) -> Discovered | None:
    """The engine's discovery, or None when the configuration is invalid (the diagnostics say why)."""
    try:
        return engine.discovered
    except StartupError:
        return None


def _skill_document(path: Path, text: str) -> SkillDocument:
    return parse_skill(path, strip_bom(text))


def _on_value(entry: FrontmatterEntry | None, position: Position) -> bool:
    return entry is not None and entry.is_scalar and entry.value_range.contains(position)


def _on_name(document: SkillDocument, position: Position) -> str | None:
    """The skill name when ``position`` is on the ``name`` entry (its key or its value)."""
    entry = document.entry("name")
    if entry is None or not (entry.key_range.contains(position) or entry.value_range.contains(position)):
        return None
    return document.name


def _on(node: JsonNode | None, offset: int) -> bool:
    return node is not None and node.start <= offset <= node.end


def _string(node: JsonNode | None) -> str | None:
    if node is not None and node.kind == "string" and isinstance(node.value, str) and node.value.strip():
        return node.value
    return None


def _name_location(skill: SkillInfo) -> Location:
    return Location(skill.path, name_range(skill.document))


def display_path(path: Path, engine: WorkspaceEngine) -> str:
    """``path`` as a person reads it: relative to the workspace, else ``~/…``, else absolute."""
    for base, prefix in ((engine.directory, ""), (engine.home, "~/")):
        try:
            return prefix + path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def root_label(skill: SkillInfo) -> str:
    """The root a copy comes from, as ``--list`` prints it: ``workspace/clarvis``, ``user/plugin:p``…"""
    return f"{skill.scope}/{skill.source}" if skill.source else skill.scope


def _first_file(directory: Path, budget: int = 1000) -> Path | None:
    """The first regular file of ``directory`` in sorted order, files before subdirectories, breadth-first."""
    pending = [directory]
    while pending and budget > 0:
        current = pending.pop(0)
        try:
            with os.scandir(current) as iterator:
                entries = sorted(iterator, key=lambda entry: entry.name)
        except OSError:
            continue
        budget -= len(entries)
        subdirectories: list[Path] = []
        for entry in entries:
            try:
                if entry.is_file():
                    return Path(entry.path)
                if entry.is_dir(follow_symlinks=False):
                    subdirectories.append(Path(entry.path))
            except OSError:
                continue
        pending.extend(subdirectories)
    return None


def _plugin_location(engine: WorkspaceEngine, manifest: Path | None, directory: Path) -> Location | None:
    """The plugin's manifest at its ``name`` value (the file's start when it has none), else its first file."""
    if manifest is None:
        first = _first_file(directory)
        return Location(first, _START) if first is not None else None
    text = engine.read_text(manifest)
    if text is not None:
        document = parse_json(text)
        if isinstance(document.root, JsonObject):
            name = document.root.value_of("name")
            if name is not None:
                return Location(manifest, document.node_range(name))
    return Location(manifest, _START)


def _plugin_skill(engine: WorkspaceEngine, found: Discovered, plugin_dir: Path, name: str) -> SkillInfo | None:
    """The skill ``name`` of the plugin in ``plugin_dir``: from discovery when it scanned the plugin (enabled),
    else from a scan of the plugin's ``skills/`` alone."""
    skills_dir = os.path.normpath(plugin_dir / layout.SKILLS_DIR)
    registry = found.registry
    for scan in registry.scans:
        if os.path.normpath(scan.root.path) == skills_dir:
            return scan.skills.get(name)
    root = SkillRoot(skills_dir, "workspace", f"plugin:{plugin_dir.name}")
    return scan_root(root, 0, registry.config, engine.overlay).skills.get(name)


# -- definition and references ------------------------------------------------------------------------------------


def definition(
    engine: WorkspaceEngine, path: Path, text: str, position: Position, kind: FileKind | None = None
) -> list[Location]:
    """Where the reference under ``position`` points; empty when nothing there refers to anything."""
    kind = engine.kind_of(path) if kind is None else kind
    if kind not in (FileKind.SKILL, FileKind.PLUGIN, FileKind.SETTINGS):
        return []
    found = _discovered(engine)
    if found is None:
        return []
    if kind is FileKind.SKILL:
        return _skill_definition(found, path, _skill_document(path, text), position)
    document = parse_json(strip_bom(text))
    if not isinstance(document.root, JsonObject):
        return []
    offset = document.lines.offset(position)
    if kind is FileKind.PLUGIN:
        return _plugin_definition(engine, found, path, document.root, offset)
    return _settings_definition(engine, found, document.root, offset)


def _skill_definition(found: Discovered, path: Path, document: SkillDocument, position: Position) -> list[Location]:
    agent = document.entry("agent")
    if _on_value(agent, position):
        assert agent is not None
        info = found.agents.get(str(agent.value).strip())
        return [Location(info.path, _START)] if info is not None else []
    name = _on_name(document, position)
    if name is None or name not in names_at(found.registry, path):
        return []
    winner = found.registry.winner(name)
    return [_name_location(winner)] if winner is not None else []


def _plugin_definition(
    engine: WorkspaceEngine, found: Discovered, path: Path, root: JsonObject, offset: int
) -> list[Location]:
    plugin_dir = path.parent
    bootstrap = root.value_of("bootstrapSkill")
    name = _string(bootstrap)
    if name is not None and _on(bootstrap, offset):
        skill = _plugin_skill(engine, found, plugin_dir, name)
        return [_name_location(skill)] if skill is not None else []
    hooks = root.value_of("hooks")
    relative = _string(hooks)
    if relative is not None and _on(hooks, offset):
        target = Path(os.path.normpath(plugin_dir / relative))
        if target.is_file() or target in engine.overlay:
            return [Location(target, _START)]
    return []


def _settings_definition(engine: WorkspaceEngine, found: Discovered, root: JsonObject, offset: int) -> list[Location]:
    enabled = root.value_of("enabledPlugins")
    if not isinstance(enabled, JsonArray):
        return []
    for item in enabled.items:
        name = _string(item)
        if name is None or not _on(item, offset):
            continue
        plugin = found.plugins.get(name)
        if plugin is None:
            return []
        location = _plugin_location(engine, plugin.manifest, plugin.directory)
        return [location] if location is not None else []
    return []


def references(
    engine: WorkspaceEngine, path: Path, text: str, position: Position, *, include_declaration: bool = True
) -> list[Location]:
    """On a skill's ``name``: every copy of that name, winner first, then by precedence, then the within-root
    duplicates that were skipped. In an agent file: every skill whose ``agent`` names it. On a plugin.json's
    ``name``: its ``enabledPlugins`` entries and the marketplace entries of that name. ``include_declaration=False``
    leaves out the declaration itself."""
    kind = engine.kind_of(path)
    found = _discovered(engine)
    if found is None:
        return []
    if kind is FileKind.AGENT:
        return _agent_references(found, path)
    if kind is FileKind.PLUGIN:
        return _plugin_references(engine, path, text, position, include_declaration=include_declaration)
    if kind is not FileKind.SKILL:
        return []
    name = _on_name(_skill_document(path, text), position)
    registry = found.registry
    if name is None or name not in names_at(registry, path):
        return []
    locations = [_name_location(copy) for copy in registry.copies(name)]
    locations.extend(
        Location(item.path, name_range(item.skill.document))
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
    engine: WorkspaceEngine, path: Path, text: str, position: Position, *, include_declaration: bool
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
    for settings in (layout.settings_file(engine.directory), layout.settings_file(engine.home)):
        locations += _string_items(engine, settings, ("enabledPlugins",), name)
    for marketplace in engine.files():
        if engine.kind_of(marketplace) is FileKind.MARKETPLACE:
            locations += _marketplace_entries(engine, marketplace, name)
    return locations


def _contains(where: Range, position: Position) -> bool:
    key = (position.line, position.character)
    return (where.start.line, where.start.character) <= key <= (where.end.line, where.end.character)


def _string_items(engine: WorkspaceEngine, path: Path, key: tuple[str, ...], value: str) -> list[Location]:
    text = engine.read_text(path)
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


def _marketplace_entries(engine: WorkspaceEngine, path: Path, value: str) -> list[Location]:
    text = engine.read_text(path)
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


# -- the override lens --------------------------------------------------------------------------------------------


def override_lenses(engine: WorkspaceEngine, path: Path, text: str) -> list[OverrideLens]:
    """The note on a skill's ``name``: "overrides N copies" on a winner, "shadowed by <path>" on a loser and
    "skipped: <path> declares this name first" on a within-root duplicate; nothing on a skill with one copy."""
    if engine.kind_of(path) is not FileKind.SKILL:
        return []
    found = _discovered(engine)
    if found is None:
        return []
    document = _skill_document(path, text)
    if document.entry("name") is None:
        return []
    here = name_range(document)
    registry = found.registry
    info = registry.by_path(path)
    if info is not None:
        winner = registry.winner(info.name)
        if winner is None:
            return []
        if winner.path != info.path:
            title = f"shadowed by {display_path(winner.path, engine)}"
            return [OverrideLens(here, title, (_name_location(winner),))]
        losers = registry.shadowed(info.name)
        if not losers:
            return []
        count = len(losers)
        title = f"overrides {count} {'copy' if count == 1 else 'copies'}"
        return [OverrideLens(here, title, tuple(_name_location(loser) for loser in losers))]
    skipped = registry.skipped_by_path(path)
    if skipped is None or skipped.skill is None or skipped.warning.other is None:
        return []
    kept = registry.by_path(skipped.warning.other)
    if kept is None:
        return []
    title = f"skipped: {display_path(kept.path, engine)} declares this name first"
    return [OverrideLens(here, title, (_name_location(kept),))]


# -- workspace symbols --------------------------------------------------------------------------------------------


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
    engines: Iterable[WorkspaceEngine], query: str, *, limit: int = MAX_WORKSPACE_SYMBOLS
) -> list[WorkspaceSymbol]:
    """Skills (every loaded copy, shadowed ones included), plugins and agents of ``engines`` matching
    ``query``, best matches first; at most ``limit``."""
    query = query.strip()
    ranked: list[tuple[int, str, int, str, WorkspaceSymbol]] = []
    seen: set[tuple[SymbolKind, str, Path]] = set()

    def add(name: str, kind: SymbolKind, location: Location, container: str, precedence: int = 0) -> None:
        key = (kind, name, location.path)
        score = match_score(query, name)
        if score is None or key in seen:
            return
        seen.add(key)
        symbol = WorkspaceSymbol(name, kind, location, container)
        ranked.append((score, name.lower(), -precedence, str(location.path), symbol))

    for engine in engines:
        found = _discovered(engine)
        if found is None:
            continue
        registry = found.registry
        for skill in registry.all_skills():
            winner = registry.winner(skill.name)
            container = root_label(skill)
            if winner is not None and winner.path != skill.path:
                container += f", shadowed by {display_path(winner.path, engine)}"
            # Copies of one name in precedence order: the winner first, as ``references`` lists them.
            add(skill.name, SymbolKind.FUNCTION, _name_location(skill), container, skill.root_index + 1)
        for plugin in found.plugins.values():
            if match_score(query, plugin.name) is None:
                continue  # locating a plugin reads its manifest: only for the ones that match
            location = _plugin_location(engine, plugin.manifest, plugin.directory)
            if location is None:
                continue
            state = "enabled" if plugin.name in found.enabled_plugins else "not enabled"
            add(plugin.name, SymbolKind.PACKAGE, location, f"plugin ({plugin.scope}, {state})")
        for agent in found.agents.values():
            container = f"agent of plugin {agent.plugin}" if agent.plugin else f"agent ({agent.scope})"
            add(agent.name, SymbolKind.CLASS, Location(agent.path, _START), container)
    ranked.sort(key=lambda item: item[:4])
    return [item[4] for item in ranked[:limit]]


# -- document symbols ---------------------------------------------------------------------------------------------


def document_symbols(kind: FileKind | None, path: Path, text: str) -> list[Symbol]:
    """The outline of a document of ``kind``: SKILL.md frontmatter keys and Markdown headings, a member tree
    for the JSON kinds. Never raises on broken input: what parsed is shown."""
    text = strip_bom(text)
    if kind in (FileKind.SKILL, FileKind.AGENT):
        # An agent file is frontmatter plus Markdown too: its closing `---` must not make the last key a heading.
        return _skill_symbols(_skill_document(path, text))
    if kind in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE):
        return _json_symbols(parse_json(text), kind)
    return []


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
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
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
            title = _ATX_CLOSE.sub("", text[atx.end() :]).strip()
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
                detail = f"{_string(value.value_of('type')) or DEFAULT_TRANSPORT} server"
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
            event = _string(item.value_of("event"))
            named = _string(item.value_of("name"))
            if hooks and event is not None:
                command = _string(item.value_of("command"))
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
