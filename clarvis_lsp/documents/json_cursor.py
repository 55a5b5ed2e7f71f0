"""Where an offset sits in a possibly half-typed JSON document: the innermost container, whether a key or a value
goes there, and the token being typed. What completion and hover ask before anything else."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Protocol

from clarvis_lsp.documents.json_nodes import JsonArray, JsonMember, JsonNode, JsonObject, PathPart

__all__ = ["JsonLocation", "ParsedText", "locate"]


class ParsedText(Protocol):
    """What the cursor walk reads of a parsed document: its text and its root (a ``json_tree.JsonDocument``).

    A protocol rather than the document class itself, so that ``json_tree`` can offer ``path_at`` by importing
    this module without this module importing it back.
    """

    @property
    def text(self) -> str: ...

    @property
    def root(self) -> JsonNode | None: ...


@dataclass(slots=True)
class JsonLocation:
    """Where an offset sits in a (possibly half-typed) document, for completion and hover.

    - ``path``/``container``: the innermost object or array holding the offset (``[]``/``None`` at top level).
    - ``in_key``: the offset is where a property name goes (inside a key, possibly an unclosed quote, or
      between members). Otherwise it is a value position.
    - ``member``: in a key, the member whose key it is (``None`` between members); in a value position inside
      an object, the member whose value it is (its ``value`` may be ``None`` when not typed yet).
    - ``node``: the value under the offset, if any (a scalar, or a container when on its bracket).
    - ``index``: in a value position inside an array, the item's index.
    - ``prefix``: the raw text typed so far in the token under the cursor, without its opening quote.
    - ``start``/``end``: the span of that token including quotes (what a completion replaces);
      ``start == end == offset`` when the cursor is not on a token. ``quoted``: the token starts with a quote.
    """

    path: list[PathPart]
    container: JsonObject | JsonArray | None
    in_key: bool
    member: JsonMember | None
    node: JsonNode | None
    index: int | None
    prefix: str
    start: int
    end: int
    quoted: bool

    @property
    def target_path(self) -> list[PathPart]:
        """The path of the thing being typed: the object for a key, else the value's own path."""
        if self.in_key:
            return list(self.path)
        if self.member is not None:
            return [*self.path, self.member.key]
        if self.index is not None:
            return [*self.path, self.index]
        return list(self.path)


def _inner_end(node: JsonNode, limit: int) -> int:
    """The last offset still inside ``node`` (just before its closer; for an unclosed one, ``limit``)."""
    return node.end - 1 if node.closed else limit


def _inside(node: JsonNode | None, offset: int, limit: int) -> bool:
    return node is not None and node.is_container and node.start < offset <= _inner_end(node, limit)


def _previous_char(text: str, offset: int, floor: int) -> str:
    index = offset - 1
    while index > floor and text[index] in " \t\r\n":
        index -= 1
    return text[index] if index >= floor else ""


def _token_location(
    text: str,
    path: list[PathPart],
    container: JsonObject | JsonArray | None,
    member: JsonMember | None,
    node: JsonNode,
    index: int | None,
    offset: int,
) -> JsonLocation:
    """A value position on ``node`` (the cursor is on it or at one of its ends)."""
    quoted = node.kind == "string" and text[node.start] in "\"'"
    if node.is_container:
        prefix = ""
    elif quoted:
        content_end = node.end - 1 if node.closed else node.end
        prefix = text[node.start + 1 : max(node.start + 1, min(offset, content_end))]
    else:
        prefix = text[node.start : offset]
    return JsonLocation(path, container, False, member, node, index, prefix, node.start, node.end, quoted)


def locate(document: ParsedText, offset: int) -> JsonLocation:
    """The location of ``offset`` (clamped to the text) in ``document``."""
    text = document.text
    offset = min(max(offset, 0), len(text))
    root = document.root
    limit = len(text)
    if not _inside(root, offset, limit):
        if root is not None and root.start <= offset <= root.end:
            return _token_location(text, [], None, None, root, None, offset)
        return JsonLocation([], None, False, None, None, None, "", offset, offset, False)
    assert root is not None
    path: list[PathPart] = []
    current: JsonNode = root
    while True:
        inner = _inner_end(current, limit)
        if isinstance(current, JsonObject):
            members = current.members
            count = bisect.bisect_left(members, offset, key=lambda m: m.key_start)
            if count == 0:
                return JsonLocation(path, current, True, None, None, None, "", offset, offset, False)
            member = members[count - 1]
            if offset <= member.key_end:
                quoted = text[member.key_start] in "\"'"
                key_closed = (
                    quoted
                    and member.key_end - member.key_start >= 2
                    and (text[member.key_end - 1] == text[member.key_start])
                )
                content_start = member.key_start + 1 if quoted else member.key_start
                content_end = member.key_end - 1 if key_closed else member.key_end
                prefix = text[content_start : max(content_start, min(offset, content_end))]
                return JsonLocation(
                    path, current, True, member, None, None, prefix, member.key_start, member.key_end, quoted
                )
            child = member.value
            if child is not None and child.start <= offset:
                if _inside(child, offset, inner):
                    path.append(member.key)
                    current = child
                    limit = inner
                    continue
                if offset <= child.end:
                    return _token_location(text, path, current, member, child, None, offset)
            previous = _previous_char(text, offset, current.start)
            if previous == ":" or (previous != "," and member.colon is None and member.value is None):
                return JsonLocation(path, current, False, member, None, None, "", offset, offset, False)
            return JsonLocation(path, current, True, None, None, None, "", offset, offset, False)
        assert isinstance(current, JsonArray)
        items = current.items
        count = bisect.bisect_right(items, offset, key=lambda n: n.start)
        if count:
            item = items[count - 1]
            if _inside(item, offset, inner):
                path.append(count - 1)
                current = item
                limit = inner
                continue
            if offset <= item.end:
                return _token_location(text, path, current, None, item, count - 1, offset)
        return JsonLocation(path, current, False, None, None, count, "", offset, offset, False)
