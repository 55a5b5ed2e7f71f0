"""marketplace.json fields, of the catalogue and of each entry, from ``marketplace.schema.json``.

marketplace.json is tolerant: Clarvis reports unknown fields and omits an entry it cannot use, so the field
lists are what ``marketplace/unknown-field`` checks against, and the entry's required fields are what
``marketplace/entry-omitted`` asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from clarvis_lsp.knowledge.schemas import Field, fields, load

_SCHEMA = load("marketplace")

ROOT_FIELD: Mapping[str, Field] = MappingProxyType(fields(_SCHEMA))
ROOT_FIELDS: tuple[str, ...] = tuple(ROOT_FIELD)
ENTRY_FIELD: Mapping[str, Field] = MappingProxyType(fields(_SCHEMA["$defs"]["entry"]))
ENTRY_FIELDS: tuple[str, ...] = tuple(ENTRY_FIELD)
