"""plugin.json fields, capability executables and run policies, from ``plugin.schema.json``.

plugin.json is tolerant: Clarvis reports an unknown field and never acts on it, so the field lists are what
``plugin/unknown-field`` checks against. The platforms an executable may override are Node.js's
``process.platform`` values (``x-clarvis-platforms``): an override under any other key never applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clarvis_lsp.knowledge.schemas import SchemaPattern, load, python_pattern, strings

_SCHEMA = load("plugin")
_PROPERTIES: Mapping[str, Any] = _SCHEMA["properties"]
_EXECUTABLE: Mapping[str, Any] = _SCHEMA["$defs"]["executable"]["properties"]

FIELDS: tuple[str, ...] = tuple(_PROPERTIES)
NAME_PATTERN: SchemaPattern = python_pattern(_PROPERTIES["name"]["pattern"])
"""A plugin name: a lowercase identifier, also the name of its directory and its namespace."""
VERSION_PATTERN: SchemaPattern = python_pattern(_PROPERTIES["version"]["pattern"])
"""A semantic version, MAJOR.MINOR.PATCH with optional pre-release and build."""

EXECUTABLE_FIELDS: tuple[str, ...] = tuple(_EXECUTABLE)
OVERRIDE_FIELDS: tuple[str, ...] = tuple(_SCHEMA["$defs"]["executableOverride"]["properties"])
"""The fields a platform override may replace."""
EXECUTABLE_TIMEOUT_DEFAULT: int = int(_EXECUTABLE["timeout_ms"]["default"])
PLATFORMS: tuple[str, ...] = strings(_EXECUTABLE["platforms"]["x-clarvis-platforms"])

RUN_POLICIES: tuple[str, ...] = strings(_PROPERTIES["capabilityRunPolicies"]["additionalProperties"]["enum"])
"""The run policies of a plugin's Plans skills."""
