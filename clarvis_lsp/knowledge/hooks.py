"""Hook events, their classes and the fields of a hook, from ``hook.schema.json`` and ``hooks.schema.json``.

A hook fires only on an exact event name, and what it may do depends on the event's class: only control events
can deny, only tool events have a tool call to ``match``, only ``pre_tool_use`` can rewrite the call. The event
list is the schema's ``enum``; the classes, their effects, the tool events and the rewrite event are its
``x-clarvis-…`` annotations, which tests keep in step with the schema's own ``if``/``then`` conditions.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from clarvis_lsp.knowledge.schemas import load, strings

_HOOK = load("hook")
_PROPERTIES: Mapping[str, Any] = _HOOK["properties"]
_EVENT: Mapping[str, Any] = _PROPERTIES["event"]

EVENTS: tuple[str, ...] = strings(_EVENT["enum"])
"""The events, in the schema's order: control, observer, context, compaction context."""

CLASS_EFFECT: Mapping[str, str] = MappingProxyType(dict(_EVENT["x-clarvis-event-classes"]))
"""What a hook of each event class may do, in class order (``"control"``: ``"may allow, steer or deny"``)."""

EVENT_CLASS: Mapping[str, str] = MappingProxyType(
    dict(zip(EVENTS, strings(_EVENT["x-clarvis-event-class"]), strict=True))
)
"""The class of each event (``"run_end"``: ``"observer"``)."""

CONTROL_CLASS = "control"
"""The class whose hooks may deny; ``on_failure: "deny"`` is allowed on its events only."""


def events_of(event_class: str) -> tuple[str, ...]:
    """The events of one class, in schema order."""
    return tuple(event for event in EVENTS if EVENT_CLASS[event] == event_class)


CONTROL_EVENTS: tuple[str, ...] = events_of(CONTROL_CLASS)
TOOL_EVENTS: tuple[str, ...] = strings(_EVENT["x-clarvis-tool-events"])
"""The events that concern a tool call, the only ones where ``match`` applies."""
REWRITE_EVENT: str = str(_EVENT["x-clarvis-rewrite-event"])
"""The one event whose hook may replace the pending tool arguments (a ``rewrite`` verdict)."""

HOOK_FIELDS: tuple[str, ...] = tuple(_PROPERTIES)
MATCH_FIELDS: tuple[str, ...] = tuple(_PROPERTIES["match"]["properties"])
ON_FAILURE_VALUES: tuple[str, ...] = strings(_PROPERTIES["on_failure"]["enum"])
TIMEOUT_MIN: int = int(_PROPERTIES["timeout_ms"]["minimum"])
TIMEOUT_MAX: int = int(_PROPERTIES["timeout_ms"]["maximum"])

_DOCUMENT = load("hooks")
_LIST = next(form for form in _DOCUMENT["anyOf"] if form.get("type") == "array")
_OBJECT = next(form for form in _DOCUMENT["anyOf"] if form.get("type") == "object")

DOCUMENT_FIELDS: tuple[str, ...] = tuple(_OBJECT["properties"])
"""The fields of a hooks document ``{"hooks": [...]}``."""
MAX_PER_SOURCE: int = int(_LIST["maxItems"])
"""Hooks one settings file or one plugin may declare."""
MAX_PER_RUN: int = int(_DOCUMENT["x-clarvis-run-limit"])
"""Hooks one run uses, personal first, then workspace, then the enabled plugins; the rest do not run."""
