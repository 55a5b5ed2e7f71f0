"""SKILL.md frontmatter keys, from ``skill-frontmatter.schema.json``.

Clarvis silently ignores a key it does not know, so the list of keys is what ``skill/unknown-field`` checks
against and what completion offers. ``tools`` is an alias of ``allowed-tools`` (``x-clarvis-alias-of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from clarvis_lsp.knowledge.schemas import Field, SchemaPattern, fields, load, python_pattern, strings

_SCHEMA = load("skill-frontmatter")
_PROPERTIES: Mapping[str, Any] = _SCHEMA["properties"]

FIELD: Mapping[str, Field] = MappingProxyType(fields(_SCHEMA))
FIELDS: tuple[str, ...] = tuple(FIELD)
REQUIRED: tuple[str, ...] = strings(_SCHEMA["required"])

ALIASES: Mapping[str, str] = MappingProxyType(
    {key: str(member["x-clarvis-alias-of"]) for key, member in _PROPERTIES.items() if "x-clarvis-alias-of" in member}
)
"""Alias → the field it stands for (``tools`` → ``allowed-tools``): with both, one silently replaces the other."""

NAME_PATTERN: SchemaPattern = python_pattern(_PROPERTIES["name"]["pattern"])
"""What a skill name may hold, for ``re.match``: it becomes a slash command and a registry key."""
NAME_MAX_LENGTH: int = int(_PROPERTIES["name"]["maxLength"])
