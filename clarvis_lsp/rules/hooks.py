"""The ``hooks/*`` rules of hook objects wherever they appear (settings.json, plugin.json, ``hooks/hooks.json``),
and of one source's hook list.

Each field of a hook is checked on its own, so a misspelled event never hides a bad timeout or a bad regex.
The events, their classes, the fields and the limits come from ``clarvis_lsp.knowledge.hooks`` (the schemas).
The syntax of ``match.args`` regular expressions is ``clarvis_lsp.rules.js_regex``'s; the limit on the hooks of
a whole run, which reads several files, is ``clarvis_lsp.rules.hook_run_limit``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject
from clarvis_lsp.findings import Fix, Range, Related, Severity
from clarvis_lsp.knowledge.hooks import (
    CONTROL_EVENTS,
    DOCUMENT_FIELDS,
    EVENT_CLASS,
    EVENTS,
    MAX_PER_SOURCE,
    ON_FAILURE_VALUES,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    TOOL_EVENTS,
)
from clarvis_lsp.rules.base import Findings, closest
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.hooks_foreign import is_claude_hooks, report_foreign_hooks
from clarvis_lsp.rules.js_regex import js_regex_error
from clarvis_lsp.rules.json_values import kind_phrase, opening, report_unknown_field, value_range
from clarvis_lsp.rules.jsonedit import json_string, remove_member, replace_value, source_offsets
from clarvis_lsp.rules.structure import check_structure

UNKNOWN_EVENT = rule(
    "hooks/unknown-event",
    Severity.ERROR,
    f"A hook's `event` is missing or is not one of the {len(EVENTS)} Clarvis events.",
    why="A hook fires only on an exact event name; `PreToolUse` or `pre-tool-use` is not an event, so the hook "
    "silently never runs.",
    example='{"event": "PreToolUse", "command": "./guard.sh"}',
    fix=f"Use one of {', '.join(EVENTS)} (the message suggests the closest).",
    file_kind="hooks",
)
MISSING_COMMAND = rule(
    "hooks/missing-command",
    Severity.ERROR,
    "A hook has no `command`, or it is empty.",
    why="The command is what the hook runs; a hook without one does nothing.",
    example='{"event": "run_end"}',
    fix='Add `"command": "..."` with the shell command to run.',
    file_kind="hooks",
)
MATCH_ON_NON_TOOL_EVENT = rule(
    "hooks/match-on-non-tool-event",
    Severity.ERROR,
    f"`match` on an event other than the tool events {' and '.join(f'`{event}`' for event in TOOL_EVENTS)}.",
    why="Only tool events have a tool and arguments to match; on any other event `match` is invalid.",
    example='{"event": "run_end", "command": "./notify.sh", "match": {"tool": "shell"}}',
    fix=f"Remove `match`, or use {'/'.join(f'`{event}`' for event in TOOL_EVENTS)} as the event.",
    file_kind="hooks",
)
DENY_ON_NON_CONTROL_EVENT = rule(
    "hooks/deny-on-non-control-event",
    Severity.ERROR,
    '`on_failure: "deny"` on an observer, context or compaction-context event.',
    why=f"Only control events ({', '.join(CONTROL_EVENTS)}) can deny; the others cannot block the run.",
    example='{"event": "run_end", "command": "./notify.sh", "on_failure": "deny"}',
    fix='Use `"on_failure": "pass"` (or leave it out), or move the hook to a control event.',
    file_kind="hooks",
)
INVALID_TIMEOUT = rule(
    "hooks/invalid-timeout",
    Severity.ERROR,
    f"`timeout_ms` is not an integer from {TIMEOUT_MIN} to {TIMEOUT_MAX}.",
    why="The timeout is in milliseconds and capped at one minute; other values are rejected.",
    example='{"event": "run_end", "command": "./notify.sh", "timeout_ms": 120000}',
    fix=f"Write an integer number of milliseconds between {TIMEOUT_MIN} and {TIMEOUT_MAX}.",
    file_kind="hooks",
)
INVALID_REGEX = rule(
    "hooks/invalid-regex",
    Severity.ERROR,
    "A `match.args` value is not a valid JavaScript regular expression.",
    why="Clarvis compiles each argument pattern as a JavaScript regex; one that does not compile means the "
    "hook cannot match.",
    example='{"event": "pre_tool_use", "command": "./guard.sh", "match": {"args": {"path": "src/(.*"}}}',
    fix="Correct the expression (balance parentheses and brackets, escape literal `*`, `+`, `?`, `(`); in JSON "
    'a backslash is written twice: `"\\\\d+"`.',
    file_kind="hooks",
)
INVALID_VALUE = rule(
    "hooks/invalid-value",
    Severity.ERROR,
    "A hook field (other than event and timeout) has the wrong type or value.",
    why="Clarvis rejects a hook whose fields do not have the documented types, so it never runs.",
    example='{"event": "pre_tool_use", "command": "./guard.sh", "on_failure": "block", "match": {"tool": 3}}',
    fix="`command` is a string, `on_failure` is pass or deny, `match.tool` a string or an array of strings, "
    "`match.args` a map of strings; a hooks list is an array of objects.",
    file_kind="hooks",
)
UNKNOWN_FIELD = rule(
    "hooks/unknown-field",
    Severity.WARNING,
    "A field of a hook object (or of its `match`, or of a hooks document) that Clarvis does not know.",
    why="Unknown fields are not acted on, so a misspelled `timeout` or `onFailure` silently has no effect.",
    example='{"event": "run_end", "command": "./notify.sh", "timeout": 5000}',
    fix="Correct the spelling (the message suggests the closest known field) or remove the field.",
    file_kind="hooks",
)
TOO_MANY = rule(
    "hooks/too-many",
    Severity.ERROR,
    f"More than {MAX_PER_SOURCE} hooks in one settings file or one plugin.",
    why=f"One settings source or plugin declares at most {MAX_PER_SOURCE} hooks.",
    example=f'"hooks": [ ...{MAX_PER_SOURCE + 1} hook objects... ]',
    fix=f"Keep at most {MAX_PER_SOURCE} hooks in this source: merge hooks that run on the same event, or move some "
    "elsewhere.",
    file_kind="hooks",
)


# -- helpers -----------------------------------------------------------------------------------------------------


def _part_range(document: JsonDocument, node: JsonNode, start: int, end: int) -> Range:
    """The range of characters ``[start, end)`` of a decoded string value (the whole value when unmappable)."""
    offsets = source_offsets(document, node)
    if offsets is None:
        return document.node_range(node)
    start = min(max(start, 0), len(offsets) - 1)
    end = min(max(end, start), len(offsets) - 1)
    if end == start:  # point at one character at least (the closing quote at the very end)
        return document.range_of(offsets[start], offsets[start] + 1)
    return document.range_of(offsets[start], offsets[end])


@functools.lru_cache(maxsize=256)
def _closest_event(word: str) -> str | None:
    """``closest`` over the events, cached: a generated file may repeat one misspelling thousands of times."""
    return closest(word, EVENTS)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _unknown_field(
    document: JsonDocument, member: JsonMember, known: Sequence[str], findings: Findings, where: str
) -> None:
    report_unknown_field(
        document,
        member,
        known,
        findings,
        code=UNKNOWN_FIELD.code,
        message=f'Unknown field "{member.key}" in {where}: Clarvis does not act on it.',
    )


# The variables of the messages ``hook.schema.json``'s annotations write.
_MESSAGE_VARIABLES = {
    "events": ", ".join(EVENTS),
    "timeout_min": str(TIMEOUT_MIN),
    "timeout_max": str(TIMEOUT_MAX),
    "on_failure_values": " or ".join(json_string(value) for value in ON_FAILURE_VALUES),
}


# -- one hook ----------------------------------------------------------------------------------------------------


def check_hook(document: JsonDocument, node: JsonNode, findings: Findings, *, owner: str) -> None:
    """Check one hook object (``node``), every field on its own: the types, required fields and unknown fields
    from ``hook.schema.json``'s annotations, then the event names, the event classes and the regexes."""
    check_structure(document, "hook", findings, lambda _node: _MESSAGE_VARIABLES, node=node)
    if not isinstance(node, JsonObject):
        return  # the schema's type error
    event = _check_event(document, node, findings)
    _check_match(document, node, event, findings)
    _check_on_failure(document, node, event, findings)


def _check_event(document: JsonDocument, hook: JsonObject, findings: Findings) -> str | None:
    """Report an unknown event name (with the one that was meant); return the event when it is a known one."""
    value = hook.value_of("event")
    if value is None or value.kind != "string" or not isinstance(value.value, str):
        return None  # absent or not a string: the schema's errors (a missing value: json/syntax)
    if value.value in EVENTS:
        return value.value
    written = value.value
    suggestion = _closest_event(written) if written else None
    fixes: list[Fix] = []
    if suggestion is not None:
        fixes.append(
            Fix(
                f'Change the event to "{suggestion}"',
                (replace_value(document, value, json_string(suggestion), findings.path),),
            )
        )
        message = f'"{written}" is not a Clarvis event, so this hook never fires. Did you mean "{suggestion}"?'
    else:
        message = f'"{written}" is not a Clarvis event, so this hook never fires: use one of {", ".join(EVENTS)}.'
    findings.add(UNKNOWN_EVENT.code, value_range(document, value), message, fixes=fixes)
    return None


def _check_match(document: JsonDocument, hook: JsonObject, event: str | None, findings: Findings) -> None:
    member = hook.get("match")
    if member is None:
        return
    if event is not None and event not in TOOL_EVENTS:
        findings.add(
            MATCH_ON_NON_TOOL_EVENT.code,
            document.key_range(member),
            f'"match" applies only to the tool events {" and ".join(TOOL_EVENTS)}, not to "{event}" '
            f"({EVENT_CLASS[event]} event): remove it or change the event.",
            fixes=[Fix('Remove "match"', (remove_member(document, member, findings.path),), safe=False)],
        )
    value = member.value
    if isinstance(value, JsonObject):  # another value is the schema's type error
        args = value.value_of("args")
        if isinstance(args, JsonObject):
            _check_match_args(document, args, findings)


def _check_match_args(document: JsonDocument, node: JsonObject, findings: Findings) -> None:
    """Each pattern as written, duplicates included: its type, then its syntax as a JavaScript regex."""
    for member in node.members:
        value = member.value
        if value is None:
            continue
        if value.kind != "string" or not isinstance(value.value, str):
            findings.add(
                INVALID_VALUE.code,
                value_range(document, value),
                f'The pattern for argument "{member.key}" must be a string holding a JavaScript regex, '
                f"not {kind_phrase(value)}.",
            )
            continue
        problem = js_regex_error(value.value)
        if problem is not None:
            offset, reason = problem
            findings.add(
                INVALID_REGEX.code,
                _part_range(document, value, offset, offset + 1),
                f'The pattern for argument "{member.key}" is not a valid JavaScript regex: {reason}. '
                "Correct it, or escape the character with a backslash (written \\\\ in JSON) to match it literally.",
            )


def _check_on_failure(document: JsonDocument, hook: JsonObject, event: str | None, findings: Findings) -> None:
    member = hook.get("on_failure")
    if member is None or member.value is None:
        return
    value = member.value
    if value.kind != "string" or not isinstance(value.value, str):
        return  # the schema's type error
    written = value.value
    if written not in ON_FAILURE_VALUES:
        fixes: list[Fix] = []
        suggestion = closest(written, ON_FAILURE_VALUES) if written else None
        if suggestion is not None:
            fixes.append(
                Fix(
                    f'Change on_failure to "{suggestion}"',
                    (replace_value(document, value, json_string(suggestion), findings.path),),
                )
            )
        findings.add(
            INVALID_VALUE.code,
            value_range(document, value),
            f'"on_failure" must be {_MESSAGE_VARIABLES["on_failure_values"]} (deny only on control events), not '
            f'"{written}".',
            fixes=fixes,
        )
        return
    if written == "deny" and event is not None and event not in CONTROL_EVENTS:
        findings.add(
            DENY_ON_NON_CONTROL_EVENT.code,
            document.node_range(value),
            f'"deny" is only allowed on control events ({", ".join(CONTROL_EVENTS)}); "{event}" is '
            f'{_article(EVENT_CLASS[event])} {EVENT_CLASS[event]} event and cannot block the run: use "pass".',
            fixes=[Fix('Change on_failure to "pass"', (replace_value(document, value, '"pass"', findings.path),))],
        )


# -- lists and documents -----------------------------------------------------------------------------------------


def check_hook_list(document: JsonDocument, node: JsonNode, findings: Findings, *, owner: str) -> None:
    """Check an array of hook objects declared by ``owner`` ("personal settings", 'plugin "lint"')."""
    if not isinstance(node, JsonArray):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f"The hooks of {owner} must be an array of hook objects, not {kind_phrase(node)}.",
        )
        return
    for item in node.items:
        check_hook(document, item, findings, owner=owner)
    if len(node.items) > MAX_PER_SOURCE:
        first_extra = node.items[MAX_PER_SOURCE]
        where = document.key_range(node.member) if node.member is not None else opening(document, node)
        findings.add(
            TOO_MANY.code,
            where,
            f"{owner[:1].upper()}{owner[1:]} declares {len(node.items)} hooks; one settings file or plugin may "
            f"declare at most {MAX_PER_SOURCE}: remove {len(node.items) - MAX_PER_SOURCE} of them "
            "or merge hooks that run on the same event.",
            related=[Related(findings.path, value_range(document, first_extra), f"hook #{MAX_PER_SOURCE + 1}")],
        )


def check_hooks_value(document: JsonDocument, node: JsonNode, findings: Findings, *, owner: str) -> None:
    """Check a hooks value: an array of hooks or a hooks document ``{"hooks": [...]}``.

    A plugin.json ``hooks`` string (a relative path) is the caller's to resolve; passed here it is reported as
    the wrong type.
    """
    if isinstance(node, JsonArray):
        check_hook_list(document, node, findings, owner=owner)
        return
    if report_foreign_hooks(document, node, findings, owner=owner):
        return  # Claude Code's shape, as the whole value: one finding says what it becomes (hooks_foreign)
    if not isinstance(node, JsonObject):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f'The hooks of {owner} must be an array of hook objects or a document {{"hooks": [...]}}, '
            f"not {kind_phrase(node)}.",
        )
        return
    hooks = node.get("hooks")
    foreign = hooks is not None and hooks.value is not None and is_claude_hooks(hooks.value)
    if not foreign:
        # In Claude Code's shape the document's other keys (``description``, ``$schema``) are that format's:
        # ``hooks/foreign-format`` covers the whole file, one finding for one mistake.
        for member in node.members:
            if member.key not in DOCUMENT_FIELDS:
                _unknown_field(document, member, DOCUMENT_FIELDS, findings, "a hooks document")
    if hooks is None:
        findings.add(
            INVALID_VALUE.code,
            opening(document, node),
            f'A hooks document holds its hooks in a "hooks" array: add "hooks": [...] (the hooks of {owner}).',
        )
        return
    if hooks.value is not None and not report_foreign_hooks(document, hooks.value, findings, owner=owner):
        check_hook_list(document, hooks.value, findings, owner=owner)


def check_hooks_file(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The rules of a plugin's hooks document: ``<plugin>/hooks/hooks.json``, or the file its manifest names."""
    if document.root is None:
        return
    owner = context.plugin_owner
    name = owner.name if owner is not None else context.path.parent.parent.name
    check_hooks_value(document, document.root, findings, owner=f'plugin "{name}"')
