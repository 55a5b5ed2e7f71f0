"""MCP server objects: transports, fields and what each transport requires or forbids, from ``mcp-server.schema.json``.

A stdio server is a local process, an http or sse server a URL; Clarvis rejects a server that mixes them. The
schema says so in its ``allOf`` conditions (``if`` the type is these transports, ``then`` these fields are
required and those are ``not`` allowed), which editors validating the schema apply too: this module reads the
same conditions, so the rules and the editors cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from clarvis_lsp.knowledge.schemas import Field, SchemaPattern, fields, load, python_pattern, strings

_SERVER = load("mcp-server")
_TYPE: Mapping[str, Any] = _SERVER["properties"]["type"]

TRANSPORTS: tuple[str, ...] = strings(_TYPE["enum"])
DEFAULT_TRANSPORT: str = str(_TYPE["default"])
"""The transport of a server without ``type``."""

FIELD: Mapping[str, Field] = MappingProxyType(fields(_SERVER))
FIELDS: tuple[str, ...] = tuple(FIELD)
URL_PATTERN: SchemaPattern = python_pattern(_SERVER["properties"]["url"]["pattern"])
"""A remote server's ``url``: an http:// or https:// address."""


def _conditions() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    required: dict[str, tuple[str, ...]] = dict.fromkeys(TRANSPORTS, ())
    forbidden: dict[str, tuple[str, ...]] = dict.fromkeys(TRANSPORTS, ())
    for condition in _SERVER.get("allOf", ()):
        wanted = condition["if"]["properties"]["type"]
        transports = (str(wanted["const"]),) if "const" in wanted else strings(wanted["enum"])
        then = condition["then"]
        not_allowed = tuple(name for name, rule in then.get("properties", {}).items() if rule.get("not") == {})
        for transport in transports:
            required[transport] += strings(then.get("required", ()))
            forbidden[transport] += not_allowed
    return required, forbidden


_REQUIRED, _FORBIDDEN = _conditions()
REQUIRED: Mapping[str, tuple[str, ...]] = MappingProxyType(_REQUIRED)
"""The fields each transport requires (stdio: ``command``; http and sse: ``url``)."""
FORBIDDEN: Mapping[str, tuple[str, ...]] = MappingProxyType(_FORBIDDEN)
"""The fields each transport does not allow (stdio: ``url``, ``headers``; http and sse: the stdio fields)."""


def transports_allowing(field: str) -> tuple[str, ...]:
    """The transports on which ``field`` may appear."""
    return tuple(transport for transport in TRANSPORTS if field not in FORBIDDEN[transport])
