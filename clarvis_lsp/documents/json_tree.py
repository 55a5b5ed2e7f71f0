"""The JSON document model: the document with its errors and duplicate keys, and the walks over a tree (its
Python value, a node's path) that need no parser. The nodes themselves live in ``json_nodes`` and are named here
too.

Offsets are indexes into the Python ``str`` (code points), as everywhere in the engine; ``JsonDocument`` turns
them into ``Range``s through its ``LineIndex``. ``json_parser.parse_json`` builds a document; ``json_cursor``
answers "where is this offset" for completion and hover (it reads only the nodes, so this module imports it and
not the other way round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clarvis_lsp.documents.json_cursor import JsonLocation, locate
from clarvis_lsp.documents.json_nodes import JsonArray, JsonMember, JsonNode, JsonObject, PathPart
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Range

__all__ = [
    "JsonArray",
    "JsonDocument",
    "JsonMember",
    "JsonNode",
    "JsonObject",
    "JsonSyntaxError",
    "PathPart",
    "pointer",
    "to_python",
]


@dataclass(frozen=True, slots=True)
class JsonSyntaxError:
    """A syntax problem at ``[start, end)`` (``str`` offsets); the message says what to do."""

    message: str
    start: int
    end: int


@dataclass
class JsonDocument:
    """The result of ``parse_json``: the tree, its syntax errors and duplicate keys."""

    text: str
    lines: LineIndex
    root: JsonNode | None
    errors: list[JsonSyntaxError]
    duplicates: list[tuple[JsonMember, JsonMember]]  # (first member with that key, a later one), per object

    def range_of(self, start: int, end: int) -> Range:
        return self.lines.range(start, end)

    def node_range(self, node: JsonNode) -> Range:
        return self.lines.range(node.start, node.end)

    def key_range(self, member: JsonMember) -> Range:
        return self.lines.range(member.key_start, member.key_end)

    def member_range(self, member: JsonMember) -> Range:
        """From the key to the end of the value (or of the colon / key when those are missing)."""
        end = member.key_end
        if member.value is not None:
            end = member.value.end
        elif member.colon is not None:
            end = member.colon + 1
        return self.lines.range(member.key_start, end)

    def error_range(self, error: JsonSyntaxError) -> Range:
        return self.lines.range(error.start, error.end)

    def find(self, path: Sequence[PathPart]) -> JsonNode | None:
        """The node at ``path`` (last duplicate key wins), or ``None``."""
        node = self.root
        for part in path:
            if isinstance(node, JsonObject) and isinstance(part, str):
                node = node.value_of(part)
            elif isinstance(node, JsonArray) and isinstance(part, int) and 0 <= part < len(node.items):
                node = node.items[part]
            else:
                return None
        return node

    def path_at(self, offset: int) -> JsonLocation:
        """Where ``offset`` sits in the tree (for completion and hover); see ``json_cursor.locate``."""
        return locate(self, offset)


def to_python(node: JsonNode | None) -> object:
    """The Python value of ``node`` (dicts, lists, scalars), built without recursion.

    As ``JSON.parse``/``json.loads`` do, the last of duplicate keys wins. Members whose value is missing are
    left out; invalid values become ``None``.
    """
    if node is None:
        return None
    if isinstance(node, JsonObject):
        result: object = {}
    elif isinstance(node, JsonArray):
        result = []
    else:
        return node.value
    pending: list[tuple[JsonNode, object]] = [(node, result)]
    while pending:
        source, target = pending.pop()
        if isinstance(source, JsonObject):
            assert isinstance(target, dict)
            for member in source.members:
                child = member.value
                if child is None:
                    continue
                if isinstance(child, JsonObject):
                    inner: object = {}
                    pending.append((child, inner))
                elif isinstance(child, JsonArray):
                    inner = []
                    pending.append((child, inner))
                else:
                    inner = child.value
                target[member.key] = inner
        elif isinstance(source, JsonArray):
            assert isinstance(target, list)
            for child in source.items:
                if isinstance(child, JsonObject):
                    inner = {}
                    pending.append((child, inner))
                elif isinstance(child, JsonArray):
                    inner = []
                    pending.append((child, inner))
                else:
                    inner = child.value
                target.append(inner)
    return result


def pointer(target: JsonNode | JsonMember) -> list[PathPart]:
    """The path from the root to ``target``: object keys and array indexes, e.g. ``["hooks", 0, "event"]``.

    For a member, the path of its value (ending with its key).
    """
    parts: list[PathPart] = []
    node: JsonNode | None
    if isinstance(target, JsonMember):
        parts.append(target.key)
        node = target.parent
    else:
        node = target
    while node is not None:
        if node.member is not None:
            parts.append(node.member.key)
        elif node.index is not None:
            parts.append(node.index)
        node = node.parent
    parts.reverse()
    return parts
