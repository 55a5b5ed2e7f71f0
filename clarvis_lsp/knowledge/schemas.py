"""The shipped JSON Schemas as plain data: where every Clarvis fact the linter knows is read from.

Each schema is read with ``json.load`` from the package data the first time it is asked for and kept, so the
``--check`` path pays for no validator and for no schema it does not use. The dicts are shared: read-only.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import regex

SCHEMA_PACKAGE = "clarvis_lsp.schemas"
SCHEMA_SUFFIX = ".schema.json"


@functools.cache
def schema_names() -> tuple[str, ...]:
    """The names of the shipped schemas, sorted (``"hook"``, ``"settings"``, ``"skill-frontmatter"``…)."""
    root = importlib.resources.files(SCHEMA_PACKAGE)
    return tuple(
        sorted(entry.name[: -len(SCHEMA_SUFFIX)] for entry in root.iterdir() if entry.name.endswith(SCHEMA_SUFFIX))
    )


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The parsed schema ``name`` (``"settings"``); ``KeyError`` for a name that is not shipped."""
    if name not in schema_names():
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(schema_names())}")
    resource = importlib.resources.files(SCHEMA_PACKAGE).joinpath(name + SCHEMA_SUFFIX)
    with resource.open("r", encoding="utf-8") as stream:
        data = json.load(stream)
    if not isinstance(data, dict):
        raise ValueError(f"schema {name!r} is not a JSON object")
    return data


@dataclass(frozen=True)
class Field:
    """One property of an object in a schema, as much as a rule needs to check its value.

    ``types`` are the JSON types it accepts, from ``type`` or from the alternatives of ``anyOf`` (``("string",
    "array")`` for a string or a list of strings). ``plain`` is a string with no further constraint (no length,
    pattern or format), which a generic "is it a string" check covers entirely.
    """

    name: str
    types: tuple[str, ...]
    required: bool = False
    min_length: int = 0
    plain: bool = False


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return (declared,)
    found: list[str] = []
    for alternative in schema.get("anyOf", ()):
        for kind in _types(alternative):
            if kind not in found:
                found.append(kind)
    return tuple(found)


def fields(schema: Mapping[str, Any]) -> dict[str, Field]:
    """The ``properties`` of an object schema, in schema order."""
    required = set(strings(schema.get("required", ())))
    found: dict[str, Field] = {}
    for name, member in schema.get("properties", {}).items():
        types = _types(member)
        constrained = any(keyword in member for keyword in ("minLength", "maxLength", "pattern", "format", "enum"))
        found[name] = Field(
            name=name,
            types=types,
            required=name in required,
            min_length=int(member.get("minLength", 0)),
            plain=types == ("string",) and not constrained and name not in required,
        )
    return found


def strings(value: Any) -> tuple[str, ...]:
    """A schema list of strings (an ``enum``, ``required``, an annotation) as a tuple; anything else is a bug."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"expected a list of strings in the schemas, found {value!r}")
    return tuple(value)


SchemaPattern = regex.Pattern[str]
"""A schema ``pattern`` compiled for Python: ``match(text)`` is truthy when the whole text matches."""


def python_pattern(pattern: str) -> SchemaPattern:
    """A schema ``pattern`` anchored as ``^…$`` as a Python regex for ``match``.

    Compiled with ``regex``, not ``re``: schema patterns are ECMAScript, where ``\\p{L}`` (any letter) is
    standard with the ``u`` flag VS Code uses, and Python's ``re`` has no Unicode property classes. ``$`` becomes
    ``\\Z``: in Python ``$`` also matches before a final newline, which the schema's ECMAScript ``$`` does not, so
    ``"git@host:x\\n"`` must not pass.
    """
    if not pattern.startswith("^") or not pattern.endswith("$") or pattern.endswith("\\$"):
        raise ValueError(f"schema pattern {pattern!r} is not anchored with ^ and $")
    return regex.compile(f"(?:{pattern[1:-1]})\\Z", regex.VERSION0)


__all__ = [
    "SCHEMA_PACKAGE",
    "SCHEMA_SUFFIX",
    "Field",
    "SchemaPattern",
    "fields",
    "load",
    "python_pattern",
    "schema_names",
    "strings",
]
