"""The nodes of a JSON tree: values that keep their offsets, and the members of objects.

Offsets are indexes into the Python ``str`` (code points), as everywhere in the engine. This module imports no
other part of the JSON model, so the document (``json_tree``), the parser (``json_parser``) and the cursor walk
(``json_cursor``) all build on it in one direction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = ["JsonArray", "JsonMember", "JsonNode", "JsonObject", "PathPart"]

PathPart: TypeAlias = str | int


@dataclass(eq=False, slots=True)
class JsonNode:
    """A value in the tree.

    ``kind`` is one of ``object``, ``array``, ``string``, ``number``, ``boolean``, ``null`` or ``invalid`` (a
    bare word or malformed number that has no JSON value). ``start``/``end`` are ``str`` offsets; for an
    unclosed string or container ``end`` is where it stops and ``closed`` is false. ``value`` is the Python
    value of a scalar, ``None`` for containers and invalid nodes. ``member`` is the member whose value this is
    (``None`` for the root and array items); ``index`` the position in the parent array.
    """

    kind: str
    start: int
    end: int
    value: object
    parent: JsonNode | None
    closed: bool = True
    member: JsonMember | None = None
    index: int | None = None

    @property
    def is_container(self) -> bool:
        return self.kind == "object" or self.kind == "array"


@dataclass(eq=False, slots=True)
class JsonMember:
    """One ``"key": value`` pair of an object, as written (duplicates are kept)."""

    key: str  # decoded key text
    key_start: int  # span of the key including its quotes
    key_end: int
    value: JsonNode | None  # None when the value is missing
    colon: int | None  # offset of ':' if present
    parent: JsonObject


@dataclass(eq=False, slots=True)
class JsonObject(JsonNode):
    """An object; ``members`` holds every member in source order, duplicates included."""

    members: list[JsonMember] = field(default_factory=list)
    _by_key: dict[str, JsonMember] = field(default_factory=dict, init=False, repr=False)

    def get(self, key: str) -> JsonMember | None:
        """The last member named ``key`` (the one ``JSON.parse`` keeps), or ``None``."""
        return self._by_key.get(key)

    def keys(self) -> list[str]:
        """Distinct keys in order of first appearance (the order of ``json.loads``'s dict)."""
        return list(self._by_key)

    def value_of(self, key: str) -> JsonNode | None:
        """The value node of the last member named ``key``, or ``None`` when absent or missing."""
        member = self._by_key.get(key)
        return None if member is None else member.value


@dataclass(eq=False, slots=True)
class JsonArray(JsonNode):
    """An array; ``items`` in source order."""

    items: list[JsonNode] = field(default_factory=list)
