"""How completion writes what it inserts: JSON text, LSP snippet syntax (tab stops, choices, escapes) and the
plain preview of a snippet shown in the item's documentation."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from clarvis_lsp.schema_docs import PropertyDoc

__all__ = [
    "has_placeholder_key",
    "json_string",
    "json_value",
    "plain_escape",
    "preview",
    "snippet_json",
    "snippet_members",
    "snippet_string",
    "type_label",
    "unique_snippets",
    "value_snippet",
]


def snippet_json(value: Any, indent: str = "", step: str = "  ") -> str:
    """A ``defaultSnippets`` body as JSON text in LSP snippet syntax (placeholders kept inside the strings)."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        inner = indent + step
        members = [f"{inner}{snippet_string(str(k))}: {snippet_json(v, inner, step)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(not isinstance(item, (Mapping, list)) for item in value):
            return "[" + ", ".join(snippet_json(item, indent, step) for item in value) + "]"
        inner = indent + step
        return "[\n" + ",\n".join(inner + snippet_json(item, inner, step) for item in value) + "\n" + indent + "]"
    if isinstance(value, str):
        return snippet_string(value)
    return json.dumps(value)


def snippet_members(body: Mapping[str, Any], step: str = "  ") -> str:
    """The members of an object snippet without its braces (for a key position inside an existing object)."""
    return ",\n".join(f"{snippet_string(str(k))}: {snippet_json(v, '', step)}" for k, v in body.items())


def snippet_string(value: str) -> str:
    # A JSON string whose ``$``-placeholders stay live; a backslash must be doubled for JSON and escaped for
    # the snippet grammar alike.
    escaped = value.replace("\\", "\\\\\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def plain_escape(text: str) -> str:
    """Text inserted literally through a snippet: ``$``, ``}`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def has_placeholder_key(body: Any) -> bool:
    return isinstance(body, Mapping) and any("$" in str(key) for key in body)


def json_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def json_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def type_label(doc: PropertyDoc) -> str:
    if doc.enum:
        return " | ".join(json_value(item.value) for item in doc.enum)
    return " | ".join(doc.types) if doc.types else "any"


def value_snippet(doc: PropertyDoc) -> str:
    """The value part of a property snippet, shaped by the property's type."""
    if doc.enum:
        values = [item.value for item in doc.enum]
        if len(values) > 1 and all(isinstance(value, str) and not re.search(r"[,|$}\\]", value) for value in values):
            return '"${1|' + ",".join(str(value) for value in values) + '|}"'
        if len(values) == 1:
            return plain_escape(json_value(values[0]))
    types = doc.types
    if types == ("string",):
        return '"$1"'
    if types == ("object",):
        return "{$1}"
    if types == ("array",):
        return "[$1]"
    if types == ("boolean",):
        return "${1|false,true|}" if doc.has_default and doc.default is False else "${1|true,false|}"
    if types in (("integer",), ("number",)):
        number = doc.default if doc.has_default else 0
        return "${1:" + plain_escape(json_value(number)) + "}"
    return "$1"


def unique_snippets(doc: PropertyDoc) -> list[Mapping[str, Any]]:
    seen: set[str] = set()
    result = []
    for snippet in doc.snippets:
        key = json.dumps(snippet, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            result.append(snippet)
    return result


def preview(snippet: str) -> str:
    """A snippet as the text it inserts with its defaults (for the item's documentation)."""
    previous = None
    text = snippet
    while previous != text:
        previous = text
        text = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", text)
        text = re.sub(r"\$\{\d+\|([^,|]*)[^|]*\|\}", r"\1", text)
    text = re.sub(r"\$\{?\d+\}?", "", text)
    return text.replace("\\$", "$").replace("\\}", "}")
