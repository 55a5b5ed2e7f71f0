"""The ``hooks/*`` rules: hook objects wherever they appear (settings.json, plugin.json, ``hooks/hooks.json``),
and the run-wide limit on the number of hooks.

Each field of a hook is checked on its own, so a misspelled event never hides a bad timeout or a bad regex.
The events, their classes, the fields and the limits come from ``clarvis_lsp.knowledge.hooks`` (the schemas).

``match.args`` values are JavaScript regular expressions; ``js_regex_error`` checks their syntax with a small
scanner of the ECMAScript grammar in its default (non-``u``) mode with the Annex B extensions browsers and
Node.js accept. It is an approximation: it catches unbalanced groups, unterminated classes, quantifiers with
nothing to repeat, ``{n,m}`` out of order, class ranges out of order, malformed group syntax, duplicate or
undefined group names and a trailing backslash; it does not apply the stricter ``u``-mode rules (which Clarvis
does not use) and accepts the ES2025 modifier groups ``(?i:...)``. Python's ``re`` is not used: it rejects valid
JavaScript (``(?<name>...)``) and accepts invalid JavaScript (``(?P<name>...)``).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonMember, JsonNode, JsonObject, parse_json
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.hooks import (
    CONTROL_EVENTS,
    DOCUMENT_FIELDS,
    EVENT_CLASS,
    EVENTS,
    HOOK_FIELDS,
    MATCH_FIELDS,
    MAX_PER_RUN,
    MAX_PER_SOURCE,
    ON_FAILURE_VALUES,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    TOOL_EVENTS,
)
from clarvis_lsp.model import Diagnostic, Fix, Range, Related, Severity
from clarvis_lsp.rules.base import Findings, closest
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.jsonedit import json_string, remove_member, replace_value, source_offsets
from clarvis_lsp.rules.jsonshape import kind_phrase, opening, report_unknown_field, value_range

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
RUN_LIMIT = rule(
    "hooks/run-limit",
    Severity.WARNING,
    f"Personal, workspace and enabled-plugin hooks together exceed {MAX_PER_RUN}: the ones past {MAX_PER_RUN} do "
    "not run.",
    why=f"One run uses at most {MAX_PER_RUN} hooks: personal settings first, then workspace settings, then the "
    "enabled plugins in enabledPlugins order. The rest are dropped without a message.",
    example="~/.clarvis/settings.json: 60 hooks, .clarvis/settings.json: 50 hooks, plugin lint: 30 hooks",
    fix=f"Remove hooks you do not need, or disable a plugin in enabledPlugins, until at most {MAX_PER_RUN} remain.",
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


def is_integer(node: JsonNode) -> bool:
    """A JSON number with an integral value (``1000`` or ``1000.0``, as JSON Schema's ``integer``)."""
    value = node.value
    if node.kind != "number" or isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


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


# -- one hook ----------------------------------------------------------------------------------------------------


def check_hook(document: JsonDocument, node: JsonNode, findings: Findings, *, owner: str) -> None:
    """Check one hook object (``node``), every field on its own."""
    if not isinstance(node, JsonObject):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f'A hook must be an object such as {{"event": "pre_tool_use", "command": "..."}}, not {kind_phrase(node)}.',
        )
        return
    event = _check_event(document, node, findings)
    _check_command(document, node, findings)
    _check_match(document, node, event, findings)
    _check_timeout(document, node, findings)
    _check_on_failure(document, node, event, findings)
    for member in node.members:
        if member.key not in HOOK_FIELDS:
            _unknown_field(document, member, HOOK_FIELDS, findings, "a hook")


def _check_event(document: JsonDocument, hook: JsonObject, findings: Findings) -> str | None:
    """Report a missing or unknown event; return the event when it is a known one."""
    member = hook.get("event")
    if member is None:
        findings.add(
            UNKNOWN_EVENT.code,
            opening(document, hook),
            f'This hook has no "event", so it never fires: add "event" with one of {", ".join(EVENTS)}.',
        )
        return None
    value = member.value
    if value is None:
        return None  # a missing value is a syntax error, already reported
    if value.kind == "string" and isinstance(value.value, str) and value.value in EVENTS:
        return value.value
    written = value.value if value.kind == "string" and isinstance(value.value, str) else None
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
    elif written is not None:
        message = f'"{written}" is not a Clarvis event, so this hook never fires: use one of {", ".join(EVENTS)}.'
    else:
        message = f'"event" must be an event name (a string), not {kind_phrase(value)}: use one of {", ".join(EVENTS)}.'
    findings.add(UNKNOWN_EVENT.code, value_range(document, value), message, fixes=fixes)
    return None


def _check_command(document: JsonDocument, hook: JsonObject, findings: Findings) -> None:
    member = hook.get("command")
    if member is None:
        findings.add(
            MISSING_COMMAND.code,
            opening(document, hook),
            'This hook has no "command": add "command" with the shell command to run on the event.',
        )
        return
    value = member.value
    if value is None:
        return
    if value.kind != "string" or not isinstance(value.value, str):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, value),
            f'"command" must be a string holding a shell command, not {kind_phrase(value)}.',
        )
    elif not value.value.strip():
        findings.add(
            MISSING_COMMAND.code,
            document.node_range(value),
            '"command" is empty: write the shell command this hook runs.',
        )


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
    if value is None:
        return
    if not isinstance(value, JsonObject):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, value),
            f'"match" must be an object with "tool" and/or "args", not {kind_phrase(value)}.',
        )
        return
    for inner in value.members:
        if inner.key not in MATCH_FIELDS:
            _unknown_field(document, inner, MATCH_FIELDS, findings, '"match"')
    tool = value.get("tool")
    if tool is not None and tool.value is not None:
        _check_match_tool(document, tool.value, findings)
    args = value.get("args")
    if args is not None and args.value is not None:
        _check_match_args(document, args.value, findings)


def _check_match_tool(document: JsonDocument, node: JsonNode, findings: Findings) -> None:
    advice = 'a tool name or `*` glob such as "shell" or "github.*", or an array of them'
    if isinstance(node, JsonArray):
        if not node.items:
            findings.add(
                INVALID_VALUE.code,
                opening(document, node),
                f'"match.tool" is an empty array, so the hook matches no tool: list {advice}.',
            )
        for item in node.items:
            if item.kind != "string" or not item.value:
                findings.add(
                    INVALID_VALUE.code,
                    value_range(document, item),
                    f'Each "match.tool" entry must be a non-empty string: {advice}.',
                )
        return
    if node.kind != "string":
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f'"match.tool" must be {advice}; not {kind_phrase(node)}.',
        )
    elif not node.value:
        findings.add(INVALID_VALUE.code, document.node_range(node), f'"match.tool" is empty: write {advice}.')


def _check_match_args(document: JsonDocument, node: JsonNode, findings: Findings) -> None:
    if not isinstance(node, JsonObject):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f'"match.args" must be an object mapping argument names to JavaScript regexes, not {kind_phrase(node)}.',
        )
        return
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


def _check_timeout(document: JsonDocument, hook: JsonObject, findings: Findings) -> None:
    member = hook.get("timeout_ms")
    if member is None or member.value is None:
        return
    value = member.value
    if is_integer(value) and isinstance(value.value, (int, float)) and TIMEOUT_MIN <= value.value <= TIMEOUT_MAX:
        return
    if value.kind == "number" and isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
        detail = "not a whole number" if not is_integer(value) else "out of range"
    else:
        detail = f"{kind_phrase(value)}, not a number"
    findings.add(
        INVALID_TIMEOUT.code,
        value_range(document, value),
        f'"timeout_ms" must be an integer number of milliseconds from {TIMEOUT_MIN} to {TIMEOUT_MAX} (one minute); '
        f"this value is {detail}.",
    )


def _check_on_failure(document: JsonDocument, hook: JsonObject, event: str | None, findings: Findings) -> None:
    member = hook.get("on_failure")
    if member is None or member.value is None:
        return
    value = member.value
    written = value.value if value.kind == "string" and isinstance(value.value, str) else None
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
        shown = f'"{written}"' if written is not None else kind_phrase(value)
        findings.add(
            INVALID_VALUE.code,
            value_range(document, value),
            f'"on_failure" must be {" or ".join(json_string(value) for value in ON_FAILURE_VALUES)} (deny only on '
            f"control events), not {shown}.",
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


def hook_objects(node: JsonNode | None) -> list[JsonObject]:
    """The hook objects of a hooks value: an array, or a document ``{"hooks": [...]}``; others give none."""
    if isinstance(node, JsonObject):
        node = node.value_of("hooks")
    if not isinstance(node, JsonArray):
        return []
    return [item for item in node.items if isinstance(item, JsonObject)]


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
    if not isinstance(node, JsonObject):
        findings.add(
            INVALID_VALUE.code,
            value_range(document, node),
            f'The hooks of {owner} must be an array of hook objects or a document {{"hooks": [...]}}, '
            f"not {kind_phrase(node)}.",
        )
        return
    for member in node.members:
        if member.key not in DOCUMENT_FIELDS:
            _unknown_field(document, member, DOCUMENT_FIELDS, findings, "a hooks document")
    hooks = node.get("hooks")
    if hooks is None:
        findings.add(
            INVALID_VALUE.code,
            opening(document, node),
            f'A hooks document holds its hooks in a "hooks" array: add "hooks": [...] (the hooks of {owner}).',
        )
        return
    if hooks.value is not None:
        check_hook_list(document, hooks.value, findings, owner=owner)


def check_hooks_file(document: JsonDocument, context: JsonFileContext, findings: Findings) -> None:
    """The rules of a ``<plugin>/hooks/hooks.json``."""
    if document.root is None:
        return
    plugin = context.plugin_of(context.path)
    name = plugin.name if plugin is not None else context.path.parent.parent.name
    check_hooks_value(document, document.root, findings, owner=f'plugin "{name}"')


# -- the run-wide limit ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HookSource:
    """One place hooks come from, in run order, with the parsed document holding them."""

    label: str  # "personal settings", "workspace settings", 'plugin "lint"'
    path: Path
    document: JsonDocument
    hooks: tuple[JsonObject, ...]


def _inside(path: Path, directory: Path) -> bool:
    """``path`` lies in ``directory``, lexically and once symlinks are resolved."""
    lexical = Path(os.path.normpath(path))
    if lexical != directory and directory not in lexical.parents:
        return False
    try:
        real, real_dir = lexical.resolve(), directory.resolve()
    except (OSError, RuntimeError):
        return False
    return real == real_dir or real_dir in real.parents


def _settings_source(label: str, path: Path, read_text: Callable[[Path], str | None]) -> HookSource | None:
    text = read_text(path)
    if text is None:
        return None
    document = parse_json(text)
    root = document.root
    hooks = root.value_of("hooks") if isinstance(root, JsonObject) else None
    return HookSource(label, path, document, tuple(hook_objects(hooks) if isinstance(hooks, JsonArray) else []))


def _plugin_source(name: str, directory: Path, read_text: Callable[[Path], str | None]) -> HookSource | None:
    """The hooks a plugin contributes: plugin.json's ``hooks`` (inline or a relative path), else hooks/hooks.json."""
    label = f'plugin "{name}"'
    manifest_path = directory / layout.PLUGIN_MANIFEST
    text = read_text(manifest_path)
    if text is not None:
        manifest = parse_json(text)
        root = manifest.root
        declared = root.value_of("hooks") if isinstance(root, JsonObject) else None
        if isinstance(root, JsonObject) and root.get("hooks") is not None:
            if isinstance(declared, (JsonArray, JsonObject)):
                return HookSource(label, manifest_path, manifest, tuple(hook_objects(declared)))
            if declared is not None and declared.kind == "string" and isinstance(declared.value, str):
                relative = declared.value
                if not relative or os.path.isabs(relative) or relative.startswith("~"):
                    return None
                target = directory / relative
                if not _inside(target, directory):
                    return None  # plugin/path-escapes reports it; nothing outside the plugin is read
                target = Path(os.path.normpath(target))
                hooks_text = read_text(target)
                if hooks_text is None:
                    return None
                document = parse_json(hooks_text)
                return HookSource(label, target, document, tuple(hook_objects(document.root)))
            return None
    hooks_path = directory / layout.PLUGIN_HOOKS_FILE
    hooks_text = read_text(hooks_path)
    if hooks_text is None:
        return None
    document = parse_json(hooks_text)
    return HookSource(label, hooks_path, document, tuple(hook_objects(document.root)))


def hook_sources(
    context: JsonFileContext, *, include_user: bool, read_text: Callable[[Path], str | None]
) -> list[HookSource]:
    """Every source of hooks for one run, in the order Clarvis takes them."""
    sources: list[HookSource | None] = []
    if include_user:
        sources.append(_settings_source("personal settings", layout.settings_file(context.home), read_text))
    sources.append(_settings_source("workspace settings", layout.settings_file(context.workspace_dir), read_text))
    seen: set[str] = set()
    for name in context.enabled_plugins:
        plugin = context.plugins.get(name)
        if plugin is None or name in seen:
            continue
        seen.add(name)
        sources.append(_plugin_source(name, plugin.directory, read_text))
    return [source for source in sources if source is not None]


def _hook_range(document: JsonDocument, hook: JsonObject) -> Range:
    """Where a hook is named: its ``"event": ...`` member, else its opening brace."""
    event = hook.get("event")
    if event is not None:
        return document.member_range(event)
    return opening(document, hook)


def check_run_limit(
    context: JsonFileContext, *, include_user: bool, read_text: Callable[[Path], str | None]
) -> list[Diagnostic]:
    """``hooks/run-limit``: one warning on each hook past the run's limit (``MAX_PER_RUN``), in run order."""
    sources = hook_sources(context, include_user=include_user, read_text=read_text)
    total = sum(len(source.hooks) for source in sources)
    if total <= MAX_PER_RUN:
        return []
    diagnostics: list[Diagnostic] = []
    position = 0
    for index, source in enumerate(sources):
        earlier = [other for other in sources[:index] if other.hooks]
        for within, hook in enumerate(source.hooks):
            position += 1
            if position <= MAX_PER_RUN:
                continue
            before = [f"{other.label}: {len(other.hooks)}" for other in earlier]
            if within:
                before.append(f"the {within} earlier hook{'s' if within != 1 else ''} of {source.label}")
            related = [
                Related(other.path, _hook_range(other.document, other.hooks[0]), f"first hook of {other.label}")
                for other in earlier
            ]
            findings = Findings(source.path)
            findings.add(
                RUN_LIMIT.code,
                _hook_range(source.document, hook),
                f"This hook of {source.label} will not run: it is hook {position} of {total} and one run uses at "
                f"most {MAX_PER_RUN} ({'; '.join(before) or 'nothing'} come first). Remove hooks you do not "
                "need or disable a plugin in enabledPlugins.",
                related=related,
            )
            diagnostics.extend(findings.items)
    return diagnostics


# -- JavaScript regular expressions ------------------------------------------------------------------------------

_QUANTIFIER = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_GROUP_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_MODIFIERS = re.compile(r"\(\?([ims]*)(?:-([ims]*))?:")
_SIMPLE_CLASS_ESCAPES = {"n": 10, "r": 13, "t": 9, "v": 11, "f": 12, "b": 8, "0": 0}


def _class_atom(pattern: str, index: int) -> tuple[int | None, int]:
    """One atom of a character class at ``index``: its code point (None for \\d, \\w… or unknown) and the end."""
    char = pattern[index]
    if char != "\\":
        return ord(char), index + 1
    if index + 1 >= len(pattern):
        return None, index + 1
    escaped = pattern[index + 1]
    if escaped in "dDwWsS":
        return None, index + 2
    if escaped in _SIMPLE_CLASS_ESCAPES and not (escaped == "0" and pattern[index + 2 : index + 3].isdigit()):
        return _SIMPLE_CLASS_ESCAPES[escaped], index + 2
    hex_length = {"x": 2, "u": 4}.get(escaped)
    if hex_length is not None:
        digits = pattern[index + 2 : index + 2 + hex_length]
        if len(digits) == hex_length and all(c in "0123456789abcdefABCDEF" for c in digits):
            return int(digits, 16), index + 2 + hex_length
        return ord(escaped), index + 2
    if escaped == "c" or escaped.isdigit():
        return None, index + 2  # control and octal escapes: not worth modelling, never a range error here
    return ord(escaped), index + 2


def _scan_class(pattern: str, start: int) -> tuple[int, tuple[int, str] | None]:
    """Scan a character class opening at ``start``; return its end and a problem, if any."""
    index = start + 1
    if pattern.startswith("^", index):
        index += 1
    length = len(pattern)
    while index < length and pattern[index] != "]":
        low, after = _class_atom(pattern, index)
        if after < length and pattern[after] == "-" and after + 1 < length and pattern[after + 1] != "]":
            high, end = _class_atom(pattern, after + 1)
            if low is not None and high is not None and low > high:
                return end, (index, "a character class range is out of order (write the smaller character first)")
            index = end
        else:
            index = after
    if index >= length:
        return length, (start, "the character class opened here is never closed with ']'")
    return index + 1, None


def js_regex_error(pattern: str) -> tuple[int, str] | None:
    """The first syntax error of a JavaScript regex (default mode, Annex B), as (index, reason), or None."""
    index = 0
    length = len(pattern)
    groups: list[tuple[int, bool]] = []  # (offset of '(', quantifiable once closed)
    names: list[tuple[int, str]] = []
    references: list[tuple[int, str]] = []
    quantifiable = False
    while index < length:
        char = pattern[index]
        if char == "\\":
            if index + 1 >= length:
                return index, "a pattern cannot end with a single backslash"
            escaped = pattern[index + 1]
            if escaped == "k" and pattern.startswith("<", index + 2):
                close = pattern.find(">", index + 3)
                if close != -1:
                    references.append((index, pattern[index + 3 : close]))
                    index = close + 1
                    quantifiable = True
                    continue
            quantifiable = escaped not in "bB"
            index += 2
            continue
        if char == "[":
            index, problem = _scan_class(pattern, index)
            if problem is not None:
                return problem
            quantifiable = True
            continue
        if char == "(":
            quantifiable_group = True
            if pattern.startswith("(?", index):
                rest = pattern[index + 2 : index + 4]
                if rest[:1] in (":", "=", "!"):
                    step = 3
                elif rest in ("<=", "<!"):
                    step = 4
                    quantifiable_group = False
                elif rest[:1] == "<":
                    close = pattern.find(">", index + 3)
                    name = pattern[index + 3 : close] if close != -1 else ""
                    if close == -1 or not _GROUP_NAME.fullmatch(name):
                        return index, "a named group needs a name of letters, digits, _ or $ in (?<name>...)"
                    if any(name == known for _, known in names):
                        return index, f'the group name "{name}" is used twice'
                    names.append((index, name))
                    step = close + 1 - index
                else:
                    modifiers = _MODIFIERS.match(pattern, index)
                    if modifiers is None or not (modifiers.group(1) or modifiers.group(2)):
                        return index, "'(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'"
                    step = modifiers.end() - index
            else:
                step = 1
            groups.append((index, quantifiable_group))
            index += step
            quantifiable = False
            continue
        if char == ")":
            if not groups:
                return index, "this ')' closes no group (escape it as \\) to match a parenthesis)"
            _, quantifiable = groups.pop()
            index += 1
            continue
        if char in "*+?":
            if not quantifiable:
                return index, f"'{char}' has nothing to repeat (escape it as \\{char} to match it literally)"
            index += 1
            if pattern.startswith("?", index):
                index += 1
            quantifiable = False
            continue
        if char == "{":
            braces = _QUANTIFIER.match(pattern, index)
            if braces is not None:
                if not quantifiable:
                    return index, "this {...} quantifier has nothing to repeat"
                low = int(braces.group(1))
                high = braces.group(3)
                if high and int(high) < low:
                    return index, f"the numbers in {braces.group(0)} are out of order"
                index = braces.end()
                if pattern.startswith("?", index):
                    index += 1
                quantifiable = False
                continue
            quantifiable = True  # Annex B: a '{' that starts no quantifier is a literal
            index += 1
            continue
        quantifiable = char not in "^$|"
        index += 1
    if groups:
        return groups[-1][0], "the group opened here is never closed with ')'"
    defined = {name for _, name in names}
    for offset, name in references:
        if names and name not in defined:
            return offset, f'\\k<{name}> refers to no group named "{name}"'
    return None
