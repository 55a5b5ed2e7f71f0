"""Formatting of the JSON kinds (settings.json, plugin.json, hooks.json, marketplace.json), protocol-free.

Only the whitespace between tokens changes:

- every key and every value is written exactly as it was (``1.0`` stays ``1.0``, ``"\\u00e9"`` stays escaped),
  members and items keep their order, duplicate keys included;
- a container written on one line stays on one line (``["a", "b"]``, ``{}``); any other container gets one member
  per line, indented by one step per level;
- the step is the file's own (a tab, or the smallest indentation of its indented lines), else the editor's
  ``tabSize``/``insertSpaces``; the line break is the file's (``\\r\\n`` when it has one); the file ends with a line
  break when it did (or when it was empty of one and the editor asks for it).

A file with a syntax error is left alone (a half-typed file is not reflowed under the cursor), and a file already
written this way gives no edit. Range formatting formats the smallest container holding the range, at its depth.
The answer is one edit: the changed span between the common prefix and suffix of the old text and the new.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.findings import Range

__all__ = ["Edit", "format_json"]

_INDENTED = re.compile(r"^([ \t]+)\S", re.MULTILINE)


@dataclass(frozen=True)
class Edit:
    """Replace ``range`` (code points) with ``new_text``."""

    range: Range
    new_text: str


def format_json(
    text: str, *, tab_size: int = 2, insert_spaces: bool = True, within: tuple[int, int] | None = None
) -> list[Edit]:
    """The edit that formats ``text`` (or, with ``within`` as offsets, the smallest container holding that span);
    none when it is formatted already or does not parse."""
    document = parse_json(text)
    if document.errors or document.root is None:
        return []
    step = _indent_step(text, tab_size, insert_spaces)
    newline = "\r\n" if "\r\n" in text else "\n"
    node, depth = document.root, 0
    if within is not None:
        node, depth = _enclosing(document, within)
    start, end = node.start, node.end
    formatted = _Printer(document.text, step, newline).node(node, depth)
    if node is document.root:
        start, end = 0, len(text)
        leading = text[: node.start]
        final = newline if text.endswith(("\n", "\r")) else ""
        formatted = leading.lstrip(" \t\r\n") + formatted + final
    return _minimal_edit(document, start, end, formatted)


def _indent_step(text: str, tab_size: int, insert_spaces: bool) -> str:
    widths = [match.group(1) for match in _INDENTED.finditer(text)]
    if widths:
        if any(width.startswith("\t") for width in widths):
            return "\t"
        return " " * min(len(width) for width in widths)
    return " " * tab_size if insert_spaces else "\t"


def _enclosing(document: JsonDocument, within: tuple[int, int]) -> tuple[JsonNode, int]:
    """The innermost container holding the span ``within``, and its depth (the root is 0)."""
    assert document.root is not None
    node, depth = document.root, 0
    while True:
        children: list[JsonNode] = []
        if isinstance(node, JsonObject):
            children = [member.value for member in node.members if member.value is not None]
        elif isinstance(node, JsonArray):
            children = list(node.items)
        inner = next(
            (child for child in children if child.is_container and child.start <= within[0] and within[1] <= child.end),
            None,
        )
        if inner is None:
            return node, depth
        node, depth = inner, depth + 1


class _Printer:
    def __init__(self, text: str, step: str, newline: str) -> None:
        self.text = text
        self.step = step
        self.newline = newline

    def node(self, node: JsonNode, depth: int) -> str:
        if isinstance(node, JsonObject):
            parts = [
                f"{self.text[member.key_start : member.key_end]}: {self.node(member.value, depth + 1)}"
                for member in node.members
                if member.value is not None
            ]
            return self._container("{", "}", parts, node, depth)
        if isinstance(node, JsonArray):
            return self._container("[", "]", [self.node(item, depth + 1) for item in node.items], node, depth)
        return self.text[node.start : node.end]

    def _container(self, opening: str, closing: str, parts: list[str], node: JsonNode, depth: int) -> str:
        if not parts:
            return opening + closing
        if "\n" not in self.text[node.start : node.end] and not any("\n" in part for part in parts):
            return opening + ", ".join(parts) + closing
        inner = self.step * (depth + 1)
        lines = (self.newline + inner).join(part + "," for part in parts)[:-1]
        return f"{opening}{self.newline}{inner}{lines}{self.newline}{self.step * depth}{closing}"


def _minimal_edit(document: JsonDocument, start: int, end: int, formatted: str) -> list[Edit]:
    old = document.text[start:end]
    if old == formatted:
        return []
    prefix = 0
    limit = min(len(old), len(formatted))
    while prefix < limit and old[prefix] == formatted[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == formatted[len(formatted) - 1 - suffix]:
        suffix += 1
    where = document.range_of(start + prefix, end - suffix)
    return [Edit(where, formatted[prefix : len(formatted) - suffix])]
