"""settings.json top-level fields and the ones workspace trust holds back, from ``settings.schema.json``.

settings.json is strict: Clarvis rejects an unknown top-level field. In workspace settings the fields that run
or select code (``x-clarvis-trust-gated``) stay inactive until ``/workspace-trust`` approves the workspace.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from clarvis_lsp.knowledge.schemas import Field, SchemaPattern, fields, load, python_pattern

_SCHEMA = load("settings")
_PROPERTIES: Mapping[str, Any] = _SCHEMA["properties"]

FIELD: Mapping[str, Field] = MappingProxyType(fields(_SCHEMA))
FIELDS: tuple[str, ...] = tuple(FIELD)

CAPABILITY_FIELDS: tuple[str, ...] = tuple(
    key for key, member in _PROPERTIES.items() if "provider" in member.get("properties", {})
)
"""The capabilities (``memory``, ``plans``, ``tasks``): objects whose ``provider`` selects who serves them."""

TRUST_GATED: tuple[str, ...] = tuple(key for key, member in _PROPERTIES.items() if member.get("x-clarvis-trust-gated"))
"""Top-level fields held back in workspace settings until ``/workspace-trust``."""

TRUST_GATED_MEMBERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        key: gated
        for key, member in _PROPERTIES.items()
        if (
            gated := tuple(
                inner for inner, sub in member.get("properties", {}).items() if sub.get("x-clarvis-trust-gated")
            )
        )
    }
)
"""Fields held back inside a top-level field (``memory`` → ``("provider",)``)."""

GIT_URL: SchemaPattern = python_pattern(_PROPERTIES["marketplaces"]["items"]["pattern"])
"""A ``marketplaces`` entry: https, http, ssh or git URL, or ``git@host:path``."""


def is_provider_declaration(key: str) -> bool:
    """Whether a top-level key declares subscription providers (``providers``, ``modelProviders``,
    ``subscriptionProviders``, ``provider``): the seed names no field for them, and Clarvis strips them from
    workspace settings before the merge, trusted or not."""
    folded = key.casefold()
    return folded in ("provider", "providers") or folded.endswith("providers")
