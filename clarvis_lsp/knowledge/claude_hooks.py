"""Claude Code's hooks format, and what each of its parts becomes in Clarvis (SPEC §3.3, ``hooks/foreign-format``).

Plugins ported from Claude Code keep its hooks shape, in ``hooks/hooks.json``, in ``plugin.json`` or in
``settings.json``::

    {"hooks": {"PreToolUse": [{"matcher": "Write|Edit",
                               "hooks": [{"type": "command", "command": "./fmt.sh", "timeout": 30}]}]}}

An object keyed by PascalCase event names, each holding matcher groups, each group holding command hooks. Clarvis
reads an array of hook objects instead. This table says which Claude Code events have a Clarvis event of the
same meaning (those convert: ``matcher`` becomes ``match.tool``, ``timeout`` in seconds becomes ``timeout_ms``)
and, for the others, the closest Clarvis event and why it is not the same (those are converted by hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class ClaudeEvent:
    """One Claude Code hook event: the Clarvis event of the same meaning, or None and why not."""

    name: str
    clarvis: str | None
    note: str


_TABLE: tuple[ClaudeEvent, ...] = (
    ClaudeEvent("PreToolUse", "pre_tool_use", "before a tool call runs; may allow or deny it"),
    ClaudeEvent("PostToolUse", "post_tool_use", "after a tool call has run"),
    ClaudeEvent("SessionStart", "session_start", "when a session starts; may add context"),
    ClaudeEvent("PreCompact", "pre_compact", "before the conversation is summarised; may add context to it"),
    ClaudeEvent(
        "Stop",
        None,
        "the closest is pre_finalize, but a Claude Code Stop hook that blocks makes the agent go on working, "
        "which a Clarvis verdict does not",
    ),
    ClaudeEvent(
        "SubagentStop",
        None,
        "the closest is subagent_complete, an observer event: it cannot block as a Claude Code SubagentStop can",
    ),
    ClaudeEvent("SubagentStart", None, "the closest is pre_delegate_task, which runs before a task is delegated"),
    ClaudeEvent(
        "UserPromptSubmit",
        None,
        "the closest is user_steer, an observer event of a running run; Claude Code's fires on every prompt and "
        "may block it",
    ),
    ClaudeEvent("SessionEnd", None, "the closest is run_end, which ends a run, not a session"),
    ClaudeEvent("PostToolUseFailure", None, "Clarvis has no event for a failed tool call alone"),
    ClaudeEvent("Notification", None, "Clarvis has no notification event"),
    ClaudeEvent("PermissionRequest", None, "Clarvis has no permission-dialog event"),
)

EVENTS: Mapping[str, ClaudeEvent] = MappingProxyType({event.name: event for event in _TABLE})
"""Claude Code's hook events this table knows, by name, in the table's order."""

TOOL_MATCHER_EVENTS: frozenset[str] = frozenset({"PreToolUse", "PostToolUse"})
"""The events whose ``matcher`` names tools, as Clarvis's ``match.tool`` does; another event's matcher (a
session source, a compaction trigger) has no Clarvis counterpart."""

MATCH_ALL: frozenset[str] = frozenset({"", "*"})
"""Matchers that match every tool: the same as no ``match`` in Clarvis."""

GROUP_FIELDS: tuple[str, ...] = ("matcher", "hooks")
"""The fields of a matcher group that convert."""
HOOK_FIELDS: tuple[str, ...] = ("type", "command", "timeout")
"""The fields of a Claude Code command hook that convert (``type`` must be ``command``)."""
COMMAND_TYPE = "command"
TIMEOUT_UNIT_MS = 1000
"""Claude Code's ``timeout`` is in seconds; Clarvis's ``timeout_ms`` in milliseconds."""


def mapping_table() -> str:
    """The table as text, one line per event, for ``--explain hooks/foreign-format``."""
    lines = []
    for event in _TABLE:
        becomes = event.clarvis if event.clarvis is not None else "no event of the same meaning"
        lines.append(f"{event.name} → {becomes} ({event.note})")
    return "; ".join(lines)
