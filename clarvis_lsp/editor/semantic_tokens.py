"""Semantic tokens, protocol-free: what each meaningful word of a Clarvis file is, with LSP's standard token types
and modifiers only, so every editor theme colours them.

The legend (README, "Language server"):

=========================================  ===========  ==========================================
what                                       type         modifiers
=========================================  ===========  ==========================================
a frontmatter key Clarvis knows            property
a frontmatter key it does not know         variable
``tools`` (alias of ``allowed-tools``)     property     deprecated
a skill name / a reference to one          function     declaration on the ``name`` that defines it
an agent name / a reference to one         class        declaration on the agent file's ``name``
a plugin name / a reference to one         namespace    declaration on plugin.json's ``name``
an MCP server name                         interface    declaration
a hook event, by class                     event        control: modification; observer: readonly;
                                                        context: documentation; compaction context:
                                                        documentation, static
an MCP transport (``type``)                enumMember
``${VAR}`` in a JSON string                variable     readonly
``$ARGUMENTS`` in a SKILL.md body          parameter
``{baseDir}``, ``${CLAUDE_SKILL_DIR}``,    macro
``${CLAUDE_PLUGIN_ROOT}`` in a body
a body link target that resolves           string
a body link target that does not           string       deprecated
=========================================  ===========  ==========================================

Tokens are single-line and never overlap (where two would, the first written wins), as clients without
``overlappingTokenSupport`` or ``multilineTokenSupport`` require. Columns are code points; the server converts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Container, Iterator
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.documents.skill import parse_skill
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.advertised import TOKEN_MODIFIERS, TOKEN_TYPES
from clarvis_lsp.editor.common import HOOK_KINDS, frontmatter_lines, parsed_json
from clarvis_lsp.editor.occurrences import JSON_KINDS, NameKind, frontmatter_items, json_inner, occurrences
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge import hooks as hook_facts
from clarvis_lsp.knowledge import mcp as mcp_facts
from clarvis_lsp.knowledge import skill as skill_facts
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.rules import skill_links

__all__ = ["TOKEN_MODIFIERS", "TOKEN_TYPES", "Token", "semantic_tokens"]

MAX_TOKENS = 20_000  # an editor colours every token: a huge generated file gets the first ones
_MAX_DEPTH = 8  # how deep hook objects and MCP servers are looked for in a JSON document

_NAME_TYPE: dict[NameKind, str] = {
    "skill": "function",
    "agent": "class",
    "plugin": "namespace",
    "mcp-server": "interface",
}
_EVENT_MODIFIERS: dict[str, tuple[str, ...]] = {
    "control": ("modification",),
    "observer": ("readonly",),
    "context": ("documentation",),
    "compaction context": ("documentation", "static"),
}
_INTERPOLATION = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-[^}]*)?\}")
_BODY_PLACEHOLDER = re.compile(
    r"(?P<parameter>\$ARGUMENTS\b)|(?P<macro>\{baseDir\}|\$\{CLAUDE_SKILL_DIR\}|\$\{CLAUDE_PLUGIN_ROOT\})"
)


@dataclass(frozen=True, order=True)
class Token:
    """One token: its line, start column and length in code points, its type and modifiers (legend names)."""

    line: int
    start: int
    length: int
    type: str
    modifiers: tuple[str, ...] = ()


def semantic_tokens(kind: FileKind | None, path: Path, text: str, open_files: Container[Path] = ()) -> list[Token]:
    """The document's tokens in order, at most ``MAX_TOKENS``; never raises on a half-typed document.
    ``open_files``: documents open in the editor, whose unsaved files make a link resolve."""
    lines = LineIndex(text)
    found: list[Token] = []
    if kind is FileKind.SKILL or kind is FileKind.AGENT:
        found += _frontmatter_tokens(kind, path, text, lines)
        if kind is FileKind.SKILL:
            found += _body_tokens(path, text, lines, open_files)
    elif kind in JSON_KINDS:
        document = parsed_json(text)
        found += _names(kind, path, text)
        found += _json_tokens(kind, document)
    return _without_overlaps(found)[:MAX_TOKENS]


def _token(where: Range, type_: str, modifiers: tuple[str, ...] = ()) -> list[Token]:
    length = where.end.character - where.start.character
    if where.start.line != where.end.line or length <= 0:
        return []
    return [Token(where.start.line, where.start.character, length, type_, modifiers)]


def _names(kind: FileKind | None, path: Path, text: str) -> list[Token]:
    found: list[Token] = []
    for item in occurrences(kind, path, text):
        found += _token(item.range, _NAME_TYPE[item.kind], ("declaration",) if item.declaration else ())
    return found


def _without_overlaps(tokens: list[Token]) -> list[Token]:
    kept: list[Token] = []
    for token in sorted(tokens):
        last = kept[-1] if kept else None
        if last is not None and last.line == token.line and token.start < last.start + last.length:
            continue
        kept.append(token)
    return kept


# -- SKILL.md and agent files ------------------------------------------------------------------------------------


def _frontmatter_tokens(kind: FileKind, path: Path, text: str, lines: LineIndex) -> list[Token]:
    found: list[Token] = []
    for item in frontmatter_items(path, text, lines):
        if kind is FileKind.SKILL:
            if item.key in skill_facts.ALIASES:
                found += _token(item.key_range, "property", ("deprecated",))
            else:
                found += _token(item.key_range, "property" if item.key in skill_facts.FIELD else "variable")
        else:
            found += _token(item.key_range, "property")
    return found + _names(kind, path, text)


def _body_tokens(path: Path, text: str, lines: LineIndex, open_files: Container[Path]) -> list[Token]:
    inside = frontmatter_lines(lines)
    body_line = 0 if inside is None else min(inside.stop + 1, lines.line_count)
    body_start = lines.line_start(body_line) if body_line < lines.line_count else len(text)
    found: list[Token] = []
    document = parse_skill(path, text)
    exists: dict[str, bool] = {}
    for link in skill_links.body_links(document):
        if link.resolved is None:
            continue
        start, end = link.start, link.end
        if link.written.startswith("<") and link.written.endswith(">"):
            start, end = start + 1, end - 1
        resolved = exists.get(link.resolved)
        if resolved is None:
            resolved = exists[link.resolved] = Path(link.resolved) in open_files or os.path.exists(link.resolved)
        found += _token(lines.range(start, end), "string", () if resolved else ("deprecated",))
    for match in _BODY_PLACEHOLDER.finditer(text, body_start):
        type_ = "parameter" if match.group("parameter") else "macro"
        found += _token(lines.range(match.start(), match.end()), type_)
    return found


# -- the JSON kinds ----------------------------------------------------------------------------------------------


def _json_tokens(kind: FileKind, document: JsonDocument) -> Iterator[Token]:
    yield from _walk(kind, document, document.root, 0)


def _walk(kind: FileKind, document: JsonDocument, node: JsonNode | None, depth: int) -> Iterator[Token]:
    if node is None or depth > _MAX_DEPTH + 4:
        return
    if isinstance(node, JsonObject):
        is_hook = kind in HOOK_KINDS and node.value_of("event") is not None
        is_server = _is_mcp_server(node)
        for member in node.members:
            value = member.value
            if value is None:
                continue
            if is_hook and member.key == "event" and isinstance(value.value, str):
                event_class = hook_facts.EVENT_CLASS.get(value.value)
                where = json_inner(document, value)
                if event_class is not None and where is not None:
                    yield from _token(where, "event", _EVENT_MODIFIERS.get(event_class, ()))
                    continue
            if is_server and member.key == "type" and value.value in mcp_facts.TRANSPORTS:
                where = json_inner(document, value)
                if where is not None:
                    yield from _token(where, "enumMember")
                    continue
            yield from _walk(kind, document, value, depth + 1)
    elif isinstance(node, JsonArray):
        for item in node.items:
            yield from _walk(kind, document, item, depth + 1)
    elif node.kind == "string" and node.closed:
        raw = document.text[node.start + 1 : node.end - 1]
        if "${" in raw:
            for match in _INTERPOLATION.finditer(raw):
                begin = node.start + 1 + match.start()
                yield from _token(document.range_of(begin, begin + len(match.group())), "variable", ("readonly",))


def _is_mcp_server(node: JsonObject) -> bool:
    """Whether ``node`` is the value of a member of an ``mcpServers`` object (a server, keyed by its name)."""
    servers = node.member.parent if node.member is not None else None
    return servers is not None and servers.member is not None and servers.member.key == "mcpServers"
