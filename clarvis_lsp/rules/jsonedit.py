"""Text edits on a parsed JSON document that keep it valid JSON: the building blocks of the JSON quick fixes.

Every helper returns one ``TextEdit`` for the file at ``path`` (``JsonDocument`` does not know its path). The
edits touch only what their name says: removing a member also removes the comma that separated it from its
neighbour, and nothing else, so the rest of the file (indentation, comments, line ends) stays as it was.

Removal assumes a well-formed container around the member (``--fix`` never touches a file with syntax errors).
"""

from __future__ import annotations

import json
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.findings import TextEdit

__all__ = [
    "json_string",
    "member_end",
    "remove_item",
    "remove_member",
    "rename_key",
    "replace_value",
    "source_offsets",
]


def json_string(text: str) -> str:
    """``text`` as a JSON string literal (non-ASCII kept as written)."""
    return json.dumps(text, ensure_ascii=False)


def member_end(member: JsonMember) -> int:
    """The offset just after a member: after its value, else its colon, else its key."""
    if member.value is not None:
        return member.value.end
    if member.colon is not None:
        return member.colon + 1
    return member.key_end


def _inner_span(container: JsonNode) -> tuple[int, int]:
    """Everything between a container's brackets (up to its end when it is not closed)."""
    end = container.end - 1 if container.closed else container.end
    return container.start + 1, max(end, container.start + 1)


def _remove_span(
    document: JsonDocument, path: Path, index: int, starts: list[int], ends: list[int], container: JsonNode
) -> TextEdit:
    """Remove element ``index`` of a container whose elements span ``[starts[i], ends[i])``, with one comma."""
    if index + 1 < len(starts):
        # Not the last: remove up to the next element, taking the comma after this one with it.
        start, end = starts[index], starts[index + 1]
    elif index > 0:
        # The last of several: remove from the end of the previous element, taking the comma before this one.
        start, end = ends[index - 1], ends[index]
    else:
        # The only one: empty the container.
        start, end = _inner_span(container)
    return TextEdit(path, document.range_of(start, end), "")


def remove_member(document: JsonDocument, member: JsonMember, path: Path) -> TextEdit:
    """An edit deleting ``member`` and its separating comma, leaving valid JSON."""
    parent: JsonObject = member.parent
    members = parent.members
    index = next(i for i, candidate in enumerate(members) if candidate is member)
    starts = [candidate.key_start for candidate in members]
    ends = [member_end(candidate) for candidate in members]
    return _remove_span(document, path, index, starts, ends, parent)


def remove_item(document: JsonDocument, item: JsonNode, path: Path) -> TextEdit:
    """An edit deleting one array item and its separating comma, leaving valid JSON."""
    parent = item.parent
    assert isinstance(parent, JsonArray), "remove_item needs an array item"
    items = parent.items
    index = next(i for i, candidate in enumerate(items) if candidate is item)
    return _remove_span(document, path, index, [node.start for node in items], [node.end for node in items], parent)


def replace_value(document: JsonDocument, node: JsonNode, new_json_text: str, path: Path) -> TextEdit:
    """An edit replacing the value ``node`` with ``new_json_text`` (already JSON: quote strings with json_string)."""
    return TextEdit(path, document.node_range(node), new_json_text)


def rename_key(document: JsonDocument, member: JsonMember, new_key: str, path: Path) -> TextEdit:
    """An edit replacing ``member``'s key (with its quotes) by ``new_key`` as a JSON string."""
    return TextEdit(path, document.key_range(member), json_string(new_key))


def source_offsets(document: JsonDocument, node: JsonNode) -> list[int] | None:
    """For a closed double-quoted string, the source offset of each decoded character (plus one for the end).

    Lets a rule underline a part of a string value (``${1X}`` in an env value, the bad ``(`` of a regex) even
    when JSON escapes precede it. ``None`` when the mapping is not reliable (unclosed or single-quoted strings,
    a decoded length that does not match): callers then use the whole value.
    """
    text = document.text
    if node.kind != "string" or not node.closed or not isinstance(node.value, str):
        return None
    if node.end - node.start < 2 or text[node.start] != '"' or text[node.end - 1] != '"':
        return None
    offsets: list[int] = []
    index = node.start + 1
    end = node.end - 1
    while index < end:
        offsets.append(index)
        if text[index] != "\\":
            index += 1
            continue
        if text.startswith("u", index + 1):
            high = text[index + 2 : index + 6]
            index += 6
            if (
                len(high) == 4
                and high[0] in "dD"
                and high[1] in "89abAB"
                and text.startswith("\\u", index)
                and text[index + 2 : index + 3] in ("d", "D")
            ):
                index += 6  # a surrogate pair decodes to one character
        else:
            index += 2
    offsets.append(end)
    if len(offsets) - 1 != len(node.value):
        return None
    return offsets
