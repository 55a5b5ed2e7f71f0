"""``hooks/foreign-format``: a hooks value written in Claude Code's shape, with what each entry becomes.

A plugin ported from Claude Code keeps ``{"PreToolUse": [{"matcher": …, "hooks": [{"type": "command", …}]}]}``
(inside ``{"hooks": …}`` in its ``hooks/hooks.json``). Clarvis reads an array of hook objects, so without this
rule the file got one "must be an array" error and, in plugin.json, advice about a ``hooks`` key and unknown
fields named after events. One finding instead says what the value is and what each matcher group becomes,
following ``clarvis_lsp.knowledge.claude_hooks``; when every entry has a Clarvis event of the same meaning an
unsafe fix writes the converted array in its place (unsafe: the commands are kept as written, and a command that
reads Claude Code's input or ``${CLAUDE_PLUGIN_ROOT}`` needs a look).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject
from clarvis_lsp.findings import Fix, Range, Severity
from clarvis_lsp.knowledge import claude_hooks as claude
from clarvis_lsp.knowledge.hooks import TIMEOUT_MAX, TIMEOUT_MIN
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.json_values import opening
from clarvis_lsp.rules.jsonedit import replace_value

FOREIGN_FORMAT = rule(
    "hooks/foreign-format",
    Severity.ERROR,
    "A hooks value in Claude Code's shape (events as keys, matcher groups, command hooks).",
    why="Clarvis reads an array of hook objects; Claude Code's object of events is not read at all, so none of "
    "its hooks runs. The finding says what each entry becomes. Claude Code's events map to Clarvis events as "
    f"follows: {claude.mapping_table()}. A `matcher` becomes `match.tool` (names separated by `|` become a list, "
    "a trailing `.*` becomes `*`, an empty or `*` matcher means every tool and is left out); `timeout` in seconds "
    f"becomes `timeout_ms` ({TIMEOUT_MIN} to {TIMEOUT_MAX}); `command` is kept as written.",
    example='{"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": '
    '"./fmt.sh", "timeout": 30}]}]}}',
    fix="When every entry maps, the unsafe quick fix (`--fix --unsafe-fixes`, or the editor's code action) writes "
    'the array, here [{"event": "pre_tool_use", "command": "./fmt.sh", "match": {"tool": ["Write", "Edit"]}, '
    '"timeout_ms": 30000}]; check that each command works under Clarvis (its input and `${CLAUDE_PLUGIN_ROOT}` '
    "are Claude Code's). Entries without a Clarvis event of the same meaning are named in the message: convert "
    "those by hand.",
    file_kind="hooks",
)

_MAX_LISTED = 8
"""Entries the message describes one by one; the rest are counted."""


@dataclass
class _Conversion:
    """What a Claude Code hooks object becomes: the Clarvis hooks, what each entry becomes, what does not map."""

    hooks: list[dict[str, object]] = field(default_factory=list)
    described: list[str] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)


def is_claude_hooks(node: JsonNode | None) -> bool:
    """Whether ``node`` is an object in Claude Code's hooks shape: keyed by events (one this table knows, or
    any key whose value is a list of matcher groups ``{"hooks": [...]}``)."""
    if not isinstance(node, JsonObject) or not node.members:
        return False
    for member in node.members:
        if member.key in claude.EVENTS:
            return True
        value = member.value
        if isinstance(value, JsonArray) and any(
            isinstance(item, JsonObject) and isinstance(item.value_of("hooks"), JsonArray) for item in value.items
        ):
            return True
    return False


def report_foreign_hooks(document: JsonDocument, node: JsonNode, findings: Findings, *, owner: str) -> bool:
    """Report ``node`` when it is Claude Code's hooks shape (the value of a ``hooks`` key, or a whole hooks
    file); whether it was (the caller then checks nothing more of it as Clarvis hooks)."""
    if not isinstance(node, JsonObject) or not is_claude_hooks(node):
        return False
    conversion = _convert(node)
    message = (
        f"This is Claude Code's hooks format; Clarvis expects an array of hook objects, so none of the hooks of "
        f"{owner} runs. {_described(conversion.described, conversion.unmapped)}"
    )
    fixes: list[Fix] = []
    if conversion.unmapped:
        message += f" Not converted: {'; '.join(conversion.unmapped)}. Convert those by hand (no quick fix is offered)."
    else:
        message += " The quick fix writes that array (check each command under Clarvis)."
        count = len(conversion.hooks)
        fixes.append(
            Fix(
                f"Convert to {count} Clarvis hook {'object' if count == 1 else 'objects'}",
                (replace_value(document, node, _json_text(document, node, conversion.hooks), findings.path),),
                safe=False,
            )
        )
    findings.add(FOREIGN_FORMAT.code, _where(document, node), message, fixes=fixes)
    return True


def _where(document: JsonDocument, node: JsonNode) -> Range:
    """The key holding the value (``"hooks"``), else the value's opening brace."""
    return document.key_range(node.member) if node.member is not None else opening(document, node)


def _described(described: list[str], unmapped: list[str]) -> str:
    if not described:
        return "No entry converts." if unmapped else "It holds no hook entry."
    listed = described[:_MAX_LISTED]
    more = len(described) - len(listed)
    tail = f"; and {more} more" if more else ""
    return "Each entry becomes: " + "; ".join(listed) + tail + "."


def _convert(events: JsonObject) -> _Conversion:
    """Each matcher group of each event, in file order, as Clarvis hooks, or the reason it does not map."""
    conversion = _Conversion()
    for member in events.members:
        name = member.key
        known = claude.EVENTS.get(name)
        groups = member.value
        if not isinstance(groups, JsonArray):
            conversion.unmapped.append(f"{name} (its value is not a list of matcher groups)")
            continue
        if known is None or known.clarvis is None:
            why = known.note if known is not None else "not an event this table knows"
            conversion.unmapped.append(f"{name} has no Clarvis event of the same meaning ({why})")
            continue
        for group in groups.items:
            _convert_group(name, known.clarvis, group, conversion)
    return conversion


def _convert_group(name: str, event: str, group: JsonNode, conversion: _Conversion) -> None:
    if not isinstance(group, JsonObject):
        conversion.unmapped.append(f"an entry of {name} that is not a matcher group object")
        return
    extra = [member.key for member in group.members if member.key not in claude.GROUP_FIELDS]
    if extra:
        conversion.unmapped.append(
            f"{name}: the field {', '.join(extra)} of a matcher group has no Clarvis counterpart"
        )
        return
    matcher = group.value_of("matcher")
    tools, problem = _tools(name, matcher)
    if problem is not None:
        conversion.unmapped.append(problem)
        return
    hooks = group.value_of("hooks")
    if not isinstance(hooks, JsonArray):
        conversion.unmapped.append(f'{name}: a matcher group without a "hooks" list')
        return
    label = f'{name} "{matcher.value}"' if matcher is not None and tools is not None else name
    for hook in hooks.items:
        converted = _convert_hook(label, event, hook, tools, conversion)
        if converted is not None:
            conversion.hooks.append(converted)
            conversion.described.append(_describe(label, converted))


def _tools(name: str, matcher: JsonNode | None) -> tuple[str | list[str] | None, str | None]:
    """A matcher as ``match.tool`` (None: every tool), or why it does not map."""
    if matcher is None:
        return None, None
    if matcher.kind != "string" or not isinstance(matcher.value, str):
        return None, f"{name}: a matcher that is not a string"
    written = matcher.value.strip()
    if written in claude.MATCH_ALL:
        return None, None
    if name not in claude.TOOL_MATCHER_EVENTS:
        return None, f'{name}: the matcher "{written}" (Clarvis\'s {claude.EVENTS[name].clarvis} has no match)'
    names: list[str] = []
    for alternative in written.split("|"):
        tool = alternative.strip()
        glob = tool[:-2] + "*" if tool.endswith(".*") else tool
        if not glob or not all(char.isalnum() or char in "_-" for char in glob.rstrip("*")) or "*" in glob[:-1]:
            return None, f'{name}: the matcher "{written}" is a regular expression that match.tool cannot say'
        names.append(glob)
    return (names[0] if len(names) == 1 else names), None


def _convert_hook(
    label: str, event: str, hook: JsonNode, tools: str | list[str] | None, conversion: _Conversion
) -> dict[str, object] | None:
    if not isinstance(hook, JsonObject):
        conversion.unmapped.append(f"{label}: a hook that is not an object")
        return None
    extra = [member.key for member in hook.members if member.key not in claude.HOOK_FIELDS]
    if extra:
        conversion.unmapped.append(f"{label}: the hook field {', '.join(extra)} has no Clarvis counterpart")
        return None
    kind = hook.value_of("type")
    if kind is None or kind.value != claude.COMMAND_TYPE:
        written = kind.value if kind is not None else "missing"
        conversion.unmapped.append(f'{label}: a hook of type "{written}" (Clarvis runs commands only)')
        return None
    command = hook.value_of("command")
    if command is None or command.kind != "string" or not isinstance(command.value, str) or not command.value:
        conversion.unmapped.append(f"{label}: a hook without a command")
        return None
    converted: dict[str, object] = {"event": event, "command": command.value}
    if tools is not None:
        converted["match"] = {"tool": tools}
    timeout = hook.value_of("timeout")
    if timeout is not None:
        milliseconds = _milliseconds(timeout)
        if milliseconds is None:
            conversion.unmapped.append(
                f"{label}: the timeout {_written(timeout)} s is not {TIMEOUT_MIN} to {TIMEOUT_MAX} ms in Clarvis"
            )
            return None
        converted["timeout_ms"] = milliseconds
    return converted


def _milliseconds(timeout: JsonNode) -> int | None:
    value = timeout.value
    if timeout.kind != "number" or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value):
        return None
    milliseconds = value * claude.TIMEOUT_UNIT_MS
    if milliseconds != int(milliseconds) or not TIMEOUT_MIN <= milliseconds <= TIMEOUT_MAX:
        return None
    return int(milliseconds)


def _written(node: JsonNode) -> str:
    return json.dumps(node.value) if node.value is not None else node.kind


def _describe(label: str, converted: dict[str, object]) -> str:
    parts = [str(converted["event"])]
    match = converted.get("match")
    if isinstance(match, dict):
        parts.append(f"match.tool {json.dumps(match['tool'], ensure_ascii=False)}")
    if "timeout_ms" in converted:
        parts.append(f"timeout_ms {converted['timeout_ms']}")
    return f"{label} → {', '.join(parts)}"


def _json_text(document: JsonDocument, node: JsonNode, hooks: list[dict[str, object]]) -> str:
    """The converted array as JSON, laid out as the value it replaces: on one line when that was, else indented
    like the file, continuing at the value's own indentation."""
    text = document.text
    original = text[node.start : node.end]
    if "\n" not in original:
        return json.dumps(hooks, ensure_ascii=False, separators=(", ", ": "))
    line_start = text.rfind("\n", 0, node.start) + 1
    line = text[line_start : node.start]
    base = line[: len(line) - len(line.lstrip(" \t"))]
    inner = original.split("\n", 1)[1]
    unit = inner[: len(inner) - len(inner.lstrip(" \t"))][len(base) :] or "  "
    newline = "\r\n" if "\r\n" in original else "\n"
    dumped = json.dumps(hooks, ensure_ascii=False, indent=unit)
    return dumped.replace("\n", newline + base)
