"""Folding ranges, protocol-free: the blocks of a document an editor can fold, by whole lines.

- a SKILL.md or agent file: the frontmatter block (from the opening ``---`` to the closing one), each top-level
  entry whose value spans lines (a block scalar, a list), each Markdown section of the body (a heading to the line
  before the next heading of the same or a higher level, blank lines at its end left out) and each fenced code
  block (a heading inside a fence is code, not a section);
- the JSON kinds: each object and array that spans lines, folded up to the line before its closing bracket so
  the bracket stays visible (as VS Code's JSON server does), or to the closing line when more follows it there.

Lines are read as typed: an unclosed frontmatter or fence folds to the end of the document, and the tolerant JSON
parser gives the containers of a half-typed file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from clarvis_lsp.documents.jsondoc import JsonArray, JsonNode, JsonObject
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import frontmatter_lines, parsed_json
from clarvis_lsp.editor.occurrences import JSON_KINDS
from clarvis_lsp.knowledge.files import FileKind

__all__ = ["Fold", "folding_ranges"]

MAX_FOLDS = 5000  # VS Code's default rangeLimit
_MAX_DEPTH = 64  # containers nested deeper are not folded one by one

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})")
KEY_LINE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*[ \t]*:")
"""A top-level frontmatter line that starts an entry (``key:``)."""

FoldKind = Literal["region", "comment", "imports"]


@dataclass(frozen=True, order=True)
class Fold:
    """Lines ``start`` to ``end`` (0-based, inclusive) fold; ``kind`` as LSP's FoldingRangeKind, when one fits."""

    start: int
    end: int
    kind: FoldKind | None = None


def folding_ranges(kind: FileKind | None, text: str) -> list[Fold]:
    """The document's folds in order of their first line, at most ``MAX_FOLDS``; never raises."""
    lines = LineIndex(text)
    folds: list[Fold] = []
    if kind is FileKind.SKILL or kind is FileKind.AGENT:
        folds = _markdown_folds(lines)
    elif kind in JSON_KINDS:
        document = parsed_json(text)
        _json_folds(document.root, lines, folds, 0)
    return sorted(fold for fold in folds if fold.end > fold.start)[:MAX_FOLDS]


# -- SKILL.md and agent files ------------------------------------------------------------------------------------


def _markdown_folds(lines: LineIndex) -> list[Fold]:
    folds: list[Fold] = []
    inside = frontmatter_lines(lines)
    body = 0
    if inside is not None:
        closed = inside.stop < lines.line_count
        folds.append(Fold(0, inside.stop if closed else lines.line_count - 1, "region"))
        folds += _entry_folds(lines, inside)
        body = inside.stop + 1 if closed else lines.line_count
    folds += _body_folds(lines, body)
    return folds


def _entry_folds(lines: LineIndex, inside: range) -> list[Fold]:
    """Top-level entries whose value continues on the lines below the key (indented lines, list items)."""
    folds: list[Fold] = []
    start: int | None = None
    last_content = 0
    for line in inside:
        text = lines.line_text(line)
        if KEY_LINE.match(text):
            if start is not None and last_content > start:
                folds.append(Fold(start, last_content))
            start = last_content = line
        elif text.strip():
            last_content = line
    if start is not None and last_content > start:
        folds.append(Fold(start, last_content))
    return folds


def _body_folds(lines: LineIndex, first: int) -> list[Fold]:
    folds: list[Fold] = []
    open_sections: list[tuple[int, int]] = []  # (level, line) of the headings whose section is still open
    last_content = first - 1
    fence: tuple[str, int, int] | None = None  # (character, length, line) of the open fence
    for line in range(first, lines.line_count):
        text = lines.line_text(line)
        if fence is not None:
            stripped = text.strip()
            if (
                stripped
                and set(stripped) == {fence[0]}
                and len(stripped) >= fence[1]
                and len(text) - len(text.lstrip(" ")) <= 3
            ):
                folds.append(Fold(fence[2], line))
                fence = None
            last_content = line
            continue
        opened = _FENCE_OPEN.match(text)
        if opened is not None and not (opened.group(1)[0] == "`" and "`" in text[opened.end() :]):
            fence = (opened.group(1)[0], len(opened.group(1)), line)
            last_content = line
            continue
        heading = _HEADING.match(text)
        if heading is not None:
            level = len(heading.group(1))
            while open_sections and open_sections[-1][0] >= level:
                _, start = open_sections.pop()
                folds.append(Fold(start, last_content))
            open_sections.append((level, line))
        if text.strip():
            last_content = line
    if fence is not None:
        folds.append(Fold(fence[2], lines.line_count - 1))
    for _, start in open_sections:
        folds.append(Fold(start, last_content))
    return folds


# -- the JSON kinds ----------------------------------------------------------------------------------------------


def _json_folds(node: JsonNode | None, lines: LineIndex, folds: list[Fold], depth: int) -> None:
    if node is None or depth > _MAX_DEPTH or len(folds) > MAX_FOLDS:
        return
    children: list[JsonNode | None] = []
    if isinstance(node, JsonObject):
        children = [member.value for member in node.members]
    elif isinstance(node, JsonArray):
        children = list(node.items)
    else:
        return
    start = lines.position(node.start).line
    end_position = lines.position(max(node.start, node.end - 1)) if node.closed else lines.position(node.end)
    end = end_position.line
    if node.closed and end > start:
        before_bracket = lines.line_text(end)[: end_position.character]
        if not before_bracket.strip():
            end -= 1  # the closing bracket starts its line: it stays visible
    if end > start:
        folds.append(Fold(start, end))
    for child in children:
        _json_folds(child, lines, folds, depth + 1)
