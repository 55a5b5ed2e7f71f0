"""The JSON document model under one name: the tree (``json_tree``), the tolerant parser that keeps every
position (``json_parser``) and the cursor location for completion and hover (``json_cursor``).

Rules and editor features import from here; each part lives in its own module by concern.
"""

from __future__ import annotations

from clarvis_lsp.documents.json_cursor import JsonLocation
from clarvis_lsp.documents.json_parser import MAX_DEPTH, MAX_ERRORS, parse_json
from clarvis_lsp.documents.json_tree import (
    JsonArray,
    JsonDocument,
    JsonMember,
    JsonNode,
    JsonObject,
    JsonSyntaxError,
    PathPart,
    pointer,
    to_python,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_ERRORS",
    "JsonArray",
    "JsonDocument",
    "JsonLocation",
    "JsonMember",
    "JsonNode",
    "JsonObject",
    "JsonSyntaxError",
    "PathPart",
    "parse_json",
    "pointer",
    "to_python",
]
