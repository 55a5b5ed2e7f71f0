"""Selection ranges, protocol-free: what "expand selection" grows through from a position, innermost first.

- the JSON kinds: a string's text (inside its quotes) → the value → the member (``"key": value``) → the object or
  array holding it → its member → … → the whole document; on a key: the key's text → the key → the member → …;
- a SKILL.md or agent file: in the frontmatter, a value's text → the entry's line (``key: value`` and the lines
  its value continues on) → the lines inside the fences → the frontmatter with its fences → the document; in the
  body, the line → the Markdown section → the document.

Each range contains the one before it and differs from it (equal ranges are given once), as LSP requires. A
half-typed document is read as typed (the tolerant JSON parser; the frontmatter line by line).
"""

from __future__ import annotations

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.common import frontmatter_lines, parsed_json
from clarvis_lsp.editor.folding import KEY_LINE, folding_ranges
from clarvis_lsp.editor.occurrences import JSON_KINDS
from clarvis_lsp.findings import Position, Range
from clarvis_lsp.knowledge.files import FileKind

__all__ = ["selection_ranges"]

_MAX_DEPTH = 256


def selection_ranges(kind: FileKind | None, text: str, position: Position) -> list[Range]:
    """The ranges around ``position``, innermost first, ending with the whole document."""
    lines = LineIndex(text)
    document_range = lines.range(0, len(text))
    spans: list[tuple[int, int]] = []
    if kind in JSON_KINDS:
        document = parsed_json(text)
        spans = _json_spans(document, lines.offset(position))
    elif kind is FileKind.SKILL or kind is FileKind.AGENT:
        spans = _markdown_spans(kind, text, lines, position)
    ranges: list[Range] = []
    previous: tuple[int, int] | None = None
    for start, end in [*spans, (0, len(text))]:
        if previous is not None and (start > previous[0] or end < previous[1] or (start, end) == previous):
            continue  # not larger than the last one (a half-typed container may end before its member)
        ranges.append(lines.range(start, end))
        previous = (start, end)
    return ranges or [document_range]


# -- the JSON kinds ----------------------------------------------------------------------------------------------


def _json_spans(document: JsonDocument, offset: int) -> list[tuple[int, int]]:
    """Offsets of the enclosing spans, innermost first."""
    outer: list[tuple[int, int]] = []
    node: JsonNode | None = document.root
    depth = 0
    while node is not None and node.start <= offset <= node.end and depth < _MAX_DEPTH:
        depth += 1
        outer.append((node.start, node.end))
        inner: JsonNode | None = None
        if isinstance(node, JsonObject):
            for member in node.members:
                end = member.value.end if member.value is not None else member.key_end
                if member.key_start <= offset <= end:
                    outer.append((member.key_start, end))
                    if member.key_start <= offset <= member.key_end:
                        outer.append((member.key_start, member.key_end))
                        closed = document.text[member.key_end - 1 : member.key_end] == '"'
                        end = (
                            member.key_end - 1 if closed and member.key_end - member.key_start >= 2 else member.key_end
                        )
                        outer.append((member.key_start + 1, end))
                    else:
                        inner = member.value
                    break
        elif isinstance(node, JsonArray):
            inner = next((item for item in node.items if item.start <= offset <= item.end), None)
        elif node.kind == "string" and node.closed and node.end - node.start >= 2:
            outer.append((node.start + 1, node.end - 1))
        node = inner
    return list(reversed(outer))


# -- SKILL.md and agent files ------------------------------------------------------------------------------------


def _markdown_spans(kind: FileKind, text: str, lines: LineIndex, position: Position) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    inside = frontmatter_lines(lines)
    closed = inside is not None and inside.stop < lines.line_count
    if inside is not None and position.line < (inside.stop + 1 if closed else lines.line_count):
        if position.line in inside:
            spans += _entry_spans(lines, inside, position)
            if len(inside):
                spans.append((lines.line_start(inside.start), lines.line_end(inside.stop - 1)))
        last = inside.stop if closed else lines.line_count - 1
        spans.append((0, lines.line_end(last)))
        return spans
    line = position.line
    if lines.line_text(line).strip():
        spans.append((lines.line_start(line), lines.line_end(line)))
    for fold in sorted(folding_ranges(kind, text), key=lambda item: item.end - item.start):
        if fold.start <= line <= fold.end and fold.start > (inside.stop if inside is not None else -1):
            spans.append((lines.line_start(fold.start), lines.line_end(fold.end)))
    return spans


def _entry_spans(lines: LineIndex, inside: range, position: Position) -> list[tuple[int, int]]:
    """The value's text and the entry holding ``position`` (its key line and the lines its value continues on)."""
    first = position.line
    while first > inside.start and not KEY_LINE.match(lines.line_text(first)):
        first -= 1
    last = first
    for line in range(first + 1, inside.stop):
        text = lines.line_text(line)
        if KEY_LINE.match(text):
            break
        if text.strip():
            last = line
    spans: list[tuple[int, int]] = []
    if first == position.line:
        text = lines.line_text(first)
        colon = text.find(":")
        value = text[colon + 1 :].strip() if colon >= 0 else ""
        if value and position.character > colon:
            value_start = text.index(value, colon + 1)
            start, end = value_start, value_start + len(value)
            if value[0] in "\"'" and len(value) >= 2 and value[-1] == value[0]:
                spans.append((lines.line_start(first) + start + 1, lines.line_start(first) + end - 1))
            spans.append((lines.line_start(first) + start, lines.line_start(first) + end))
    elif lines.line_text(position.line).strip():
        spans.append((lines.line_start(position.line), lines.line_end(position.line)))
    spans.append((lines.line_start(first), lines.line_end(last)))
    return spans
