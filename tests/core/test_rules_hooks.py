"""Every ``hooks/*`` rule, driven through ``check_paths``: hooks in settings.json and in a plugin's hooks.json.

Ranges are pinned with ``at(text, needle)``: the exact span of a piece of the document (computed, then compared
with the finding's range), so each test says in plain text what is underlined.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from clarvis_lsp.batch.run import CheckRequest, check_paths
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Diagnostic, Range, Severity
from clarvis_lsp.fixes import plan_fixes
from clarvis_lsp.knowledge.hooks import (
    CONTROL_EVENTS,
    EVENTS,
    MAX_PER_RUN,
    MAX_PER_SOURCE,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    TOOL_EVENTS,
)
from clarvis_lsp.rules.js_regex import js_regex_error

SETTINGS = ".clarvis/settings.json"
PLUGIN_HOOKS = ".clarvis/plugins/lint/hooks/hooks.json"


def write(base: Path, files: Mapping[str, str]) -> None:
    for relative, content in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))


def check(
    tmp_path: Path, files: Mapping[str, str], *, home_files: Mapping[str, str] = {}, no_user: bool = False
) -> list[Diagnostic]:
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    ws.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    write(ws, files)
    write(home, home_files)
    overrides: dict[str, object] = {"includeUser": False} if no_user else {}
    return check_paths(CheckRequest(paths=[str(ws)], cwd=ws, home=home, overrides=overrides)).result.diagnostics


def hooks(tmp_path: Path, hook_list: str) -> tuple[str, list[Diagnostic]]:
    """Check a settings file whose ``hooks`` is ``hook_list``; return the text and the hooks/* findings."""
    text = '{"hooks": ' + hook_list + "}"
    found = check(tmp_path, {SETTINGS: text})
    return text, [d for d in found if d.code.startswith("hooks/")]


def at(text: str, needle: str, occurrence: int = 1) -> Range:
    """The range of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return LineIndex(text).range(index, index + len(needle))


def codes(found: list[Diagnostic]) -> list[str]:
    return [d.code for d in found]


def one(found: list[Diagnostic], code: str) -> Diagnostic:
    matching = [d for d in found if d.code == code]
    assert len(matching) == 1, f"expected one {code}, got {codes(found)}"
    return matching[0]


def fixed(found: list[Diagnostic], *, unsafe: bool = False) -> str:
    plans = plan_fixes(found, unsafe=unsafe)
    assert len(plans) == 1
    json.loads(plans[0].after)
    return plans[0].after


# -- a valid hook -----------------------------------------------------------------------------------------------


def test_valid_hooks_have_no_findings(tmp_path: Path) -> None:
    hook_list = json.dumps(
        [
            {
                "event": "pre_tool_use",
                "command": "./guard.sh",
                "match": {"tool": ["shell", "github.*"], "args": {"command": "^git\\s+push", "p": "(?<x>a)\\k<x>"}},
                "timeout_ms": TIMEOUT_MAX,
                "on_failure": "deny",
            },
            {"event": "pre_finalize", "command": "x", "on_failure": "deny", "timeout_ms": 1},
            {"event": "run_end", "command": "./notify.sh", "on_failure": "pass"},
            *({"event": event, "command": "x"} for event in EVENTS),
        ]
    )
    assert hooks(tmp_path, hook_list)[1] == []


# -- hooks/unknown-event ----------------------------------------------------------------------------------------


def test_a_camel_case_event_suggests_the_snake_case_one_and_fixes_it(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "PreToolUse", "command": "x"}]')
    d = one(found, "hooks/unknown-event")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"PreToolUse"')
    assert 'Did you mean "pre_tool_use"?' in d.message
    assert d.fixes[0].safe
    assert fixed([d]) == text.replace('"PreToolUse"', '"pre_tool_use"')


def test_an_unrelated_event_lists_the_events(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "whenever", "command": "x"}]')
    d = one(found, "hooks/unknown-event")
    assert d.range == at(text, '"whenever"')
    assert "session_start" in d.message and d.fixes == ()


def test_a_missing_event_is_reported_on_the_opening_brace(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"command": "x"}]')
    assert one(found, "hooks/unknown-event").range == at(text, "{", 2)


def test_an_event_that_is_not_a_string_is_unknown(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": 3, "command": "x"}]')
    assert one(found, "hooks/unknown-event").range == at(text, "3")


# -- hooks/missing-command --------------------------------------------------------------------------------------


def test_a_missing_command_is_reported_on_the_opening_brace(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end"}]')
    d = one(found, "hooks/missing-command")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, "{", 2)


def test_a_blank_command_is_reported_on_the_value(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end", "command": "  "}]')
    assert one(found, "hooks/missing-command").range == at(text, '"  "')


# -- hooks/match-on-non-tool-event ------------------------------------------------------------------------------


def test_match_on_an_observer_event_is_reported_on_the_key(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end", "command": "x", "match": {"tool": "shell"}}]')
    d = one(found, "hooks/match-on-non-tool-event")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"match"')
    assert fixed([d], unsafe=True) == '{"hooks": [{"event": "run_end", "command": "x"}]}'


@pytest.mark.parametrize("event", TOOL_EVENTS)
def test_match_on_a_tool_event_is_fine(tmp_path: Path, event: str) -> None:
    assert hooks(tmp_path, '[{"event": "' + event + '", "command": "x", "match": {"tool": "*"}}]')[1] == []


# -- hooks/deny-on-non-control-event ----------------------------------------------------------------------------


@pytest.mark.parametrize("event", [event for event in EVENTS if event not in CONTROL_EVENTS])
def test_deny_on_a_non_control_event_switches_to_pass(tmp_path: Path, event: str) -> None:
    text, found = hooks(tmp_path, '[{"event": "' + event + '", "command": "x", "on_failure": "deny"}]')
    d = one(found, "hooks/deny-on-non-control-event")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"deny"')
    assert d.fixes[0].title == 'Change on_failure to "pass"'
    assert fixed([d]) == text.replace('"deny"', '"pass"')


@pytest.mark.parametrize("event", CONTROL_EVENTS)
def test_deny_on_a_control_event_is_fine(tmp_path: Path, event: str) -> None:
    assert hooks(tmp_path, '[{"event": "' + event + '", "command": "x", "on_failure": "deny"}]')[1] == []


# -- hooks/invalid-timeout --------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [str(TIMEOUT_MIN - 1), str(TIMEOUT_MAX + 1), "-5", "1.5", '"1000"', "true", "null"])
def test_a_timeout_out_of_range_is_reported_on_the_value(tmp_path: Path, value: str) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end", "command": "x", "timeout_ms": ' + value + "}]")
    d = one(found, "hooks/invalid-timeout")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, value)


@pytest.mark.parametrize("value", [str(TIMEOUT_MIN), str(TIMEOUT_MAX), "30000", "1000.0"])
def test_an_integer_timeout_in_range_is_fine(tmp_path: Path, value: str) -> None:
    assert hooks(tmp_path, '[{"event": "run_end", "command": "x", "timeout_ms": ' + value + "}]")[1] == []


# -- hooks/invalid-regex ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "bad"),
    [
        ("src/(.*", 4),
        ("a)", 1),
        ("*a", 0),
        ("a**", 2),
        ("a{2,1}", 1),
        ("[abc", 0),
        ("[z-a]", 1),
        ("(?<1x>a)", 0),
        ("(?P<x>a)", 0),
        ("(?<x>a)(?<x>b)", 7),
        ("(?<x>a)\\k<y>", 7),
        ("a|?", 2),
        ("^*", 1),
        ("(?<=a)+", 6),
        ("{2}", 0),
        ("a\\", 1),
    ],
)
def test_invalid_javascript_regexes_are_found(pattern: str, bad: int) -> None:
    problem = js_regex_error(pattern)
    assert problem is not None
    assert problem[0] == bad


@pytest.mark.parametrize(
    "pattern",
    [
        "^git\\s+push",
        "(?<name>a)\\k<name>",
        "(?:a|b)+?",
        "a{2,}",
        "a{,2}",
        "{",
        "a]",
        "[\\d-z]",
        "[a-]",
        "(?=a)*",
        "(?i:a)",
        "\\k<x>",
        "[(]",
        "\\(\\)",
        "x{1}?",
        "",
    ],
)
def test_valid_javascript_regexes_pass(pattern: str) -> None:
    assert js_regex_error(pattern) is None


def test_an_invalid_regex_is_reported_on_the_bad_character_behind_escapes(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "pre_tool_use", "command": "x", "match": {"args": {"p": "\\\\d(x"}}}]')
    d = one(found, "hooks/invalid-regex")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, "(")
    assert '"p"' in d.message


def test_valid_args_patterns_pass(tmp_path: Path) -> None:
    found = hooks(tmp_path, '[{"event": "pre_tool_use", "command": "x", "match": {"args": {"p": "^src/.*\\\\.py$"}}}]')
    assert found[1] == []


# -- hooks/invalid-value ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hook", "needle"),
    [
        ('{"event": "run_end", "command": "x", "on_failure": "block"}', '"block"'),
        ('{"event": "run_end", "command": 3}', "3"),
        ('{"event": "pre_tool_use", "command": "x", "match": {"tool": 3}}', "3"),
        ('{"event": "pre_tool_use", "command": "x", "match": {"tool": [1]}}', "1"),
        ('{"event": "pre_tool_use", "command": "x", "match": {"tool": []}}', "[]"),
        ('{"event": "pre_tool_use", "command": "x", "match": {"tool": ""}}', '""'),
        ('{"event": "pre_tool_use", "command": "x", "match": "shell"}', '"shell"'),
        ('{"event": "pre_tool_use", "command": "x", "match": {"args": ["a"]}}', '["a"]'),
        ('{"event": "pre_tool_use", "command": "x", "match": {"args": {"p": 1}}}', "1"),
        ('"hook"', '"hook"'),
    ],
)
def test_a_field_of_the_wrong_type_is_invalid(tmp_path: Path, hook: str, needle: str) -> None:
    text, found = hooks(tmp_path, "[" + hook + "]")
    d = one(found, "hooks/invalid-value")
    assert d.severity is Severity.ERROR
    expected = at(text, needle)
    if needle.startswith("["):  # a container is underlined on its opening bracket only
        expected = Range.of(expected.start.line, expected.start.character, 0, expected.start.character + 1)
    assert d.range == expected


def test_a_near_miss_on_failure_value_is_fixed(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end", "command": "x", "on_failure": "Pass"}]')
    assert fixed(found) == text.replace('"Pass"', '"pass"')


def test_every_bad_field_of_one_hook_is_reported(tmp_path: Path) -> None:
    hook = '{"event": "run_end", "command": 3, "timeout_ms": 0, "on_failure": "deny", "match": {}, "x": 1}'
    found = hooks(tmp_path, "[" + hook + "]")[1]
    assert sorted(codes(found)) == [
        "hooks/deny-on-non-control-event",
        "hooks/invalid-timeout",
        "hooks/invalid-value",
        "hooks/match-on-non-tool-event",
        "hooks/unknown-field",
    ]


# -- hooks/unknown-field ----------------------------------------------------------------------------------------


def test_a_near_miss_hook_field_is_renamed(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "run_end", "command": "x", "timeout": 5}]')
    d = one(found, "hooks/unknown-field")
    assert d.severity is Severity.WARNING
    assert d.range == at(text, '"timeout"')
    assert 'Did you mean "timeout_ms"?' in d.message
    assert fixed([d]) == text.replace('"timeout"', '"timeout_ms"')


def test_an_unknown_match_field_is_reported_and_removed(tmp_path: Path) -> None:
    text, found = hooks(tmp_path, '[{"event": "pre_tool_use", "command": "x", "match": {"tool": "a", "when": 1}}]')
    d = one(found, "hooks/unknown-field")
    assert d.range == at(text, '"when"')
    assert fixed([d], unsafe=True) == text.replace(', "when": 1', "")


# -- hooks/too-many ---------------------------------------------------------------------------------------------


def test_more_hooks_than_one_settings_file_may_declare(tmp_path: Path) -> None:
    hook_list = json.dumps([{"event": "run_end", "command": f"c{i}"} for i in range(MAX_PER_SOURCE + 1)])
    text, found = hooks(tmp_path, hook_list)
    d = one(found, "hooks/too-many")
    assert d.severity is Severity.ERROR
    assert d.range == at(text, '"hooks"')
    assert f"{MAX_PER_SOURCE + 1} hooks" in d.message and f"at most {MAX_PER_SOURCE}" in d.message
    start = at(text, f'{{"event": "run_end", "command": "c{MAX_PER_SOURCE}"}}').start
    assert d.related[0].range == Range.of(start.line, start.character, start.line, start.character + 1)


def test_as_many_hooks_as_the_limit_are_allowed(tmp_path: Path) -> None:
    hook_list = json.dumps([{"event": "run_end", "command": f"c{i}"} for i in range(MAX_PER_SOURCE)])
    assert hooks(tmp_path, hook_list)[1] == []


# -- hooks.json -------------------------------------------------------------------------------------------------

PLUGIN = {".clarvis/plugins/lint/plugin.json": '{"name": "lint"}'}


@pytest.mark.parametrize(
    "document",
    ['[{"event": "PreToolUse", "command": "x"}]', '{"hooks": [{"event": "PreToolUse", "command": "x"}]}'],
)
def test_a_plugin_hooks_file_is_checked_as_array_or_document(tmp_path: Path, document: str) -> None:
    found = check(tmp_path, {**PLUGIN, PLUGIN_HOOKS: document})
    d = one(found, "hooks/unknown-event")
    assert d.path == tmp_path / "ws" / PLUGIN_HOOKS
    assert d.range == at(document, '"PreToolUse"')


def test_a_hooks_document_with_other_fields_or_no_hooks(tmp_path: Path) -> None:
    document = '{"hook": []}'
    found = check(tmp_path, {**PLUGIN, PLUGIN_HOOKS: document})
    assert one(found, "hooks/unknown-field").range == at(document, '"hook"')
    assert one(found, "hooks/invalid-value").range == at(document, "{")


def test_a_hooks_file_that_is_neither_is_invalid(tmp_path: Path) -> None:
    found = check(tmp_path, {**PLUGIN, PLUGIN_HOOKS: '"hooks"'})
    assert one(found, "hooks/invalid-value").range == Range.of(0, 0, 0, 7)


def test_a_valid_hooks_file_passes(tmp_path: Path) -> None:
    assert check(tmp_path, {**PLUGIN, PLUGIN_HOOKS: '{"hooks": [{"event": "run_end", "command": "x"}]}'}) == []


# -- hooks/run-limit --------------------------------------------------------------------------------------------


def hook_file(count: int, prefix: str, *, document: bool = False) -> str:
    items = ",\n".join(f'  {{"event": "run_end", "command": "{prefix}{i}"}}' for i in range(count))
    body = "[\n" + items + "\n]"
    return '{"hooks": ' + body + "}" if document else body


def test_hooks_past_the_run_limit_are_named(tmp_path: Path) -> None:
    # 60 personal and 50 workspace hooks, then a plugin whose last 12 hooks are past the limit (128: 18 fit).
    fit = MAX_PER_RUN - 60 - 50
    personal = hook_file(60, "p", document=True)
    workspace_text = '{"enabledPlugins": ["lint"], "hooks": ' + hook_file(50, "w") + "}"
    plugin_text = hook_file(fit + 12, "l")
    found = check(
        tmp_path,
        {SETTINGS: workspace_text, **PLUGIN, PLUGIN_HOOKS: plugin_text},
        home_files={SETTINGS: personal},
    )
    limit = [d for d in found if d.code == "hooks/run-limit"]
    assert len(limit) == 12
    assert {d.path for d in limit} == {tmp_path / "ws" / PLUGIN_HOOKS}
    first = limit[0]
    assert first.severity is Severity.WARNING
    assert first.range == at(plugin_text, '"event": "run_end"', fit + 1)
    assert f"hook {MAX_PER_RUN + 1} of {MAX_PER_RUN + 12}" in first.message
    assert "personal settings: 60" in first.message and "workspace settings: 50" in first.message
    assert f"{fit} earlier hooks" in first.message
    assert [rel.path for rel in first.related] == [tmp_path / "home" / SETTINGS, tmp_path / "ws" / SETTINGS]
    assert limit[-1].range == at(plugin_text, '"event": "run_end"', fit + 12)


def test_personal_hooks_do_not_count_with_no_user(tmp_path: Path) -> None:
    workspace_text = '{"enabledPlugins": ["lint"], "hooks": ' + hook_file(50, "w") + "}"
    found = check(
        tmp_path,
        {SETTINGS: workspace_text, **PLUGIN, PLUGIN_HOOKS: hook_file(30, "l")},
        home_files={SETTINGS: hook_file(60, "p", document=True)},
        no_user=True,
    )
    assert "hooks/run-limit" not in codes(found)


def test_plugin_hooks_count_only_when_the_plugin_is_enabled(tmp_path: Path) -> None:
    workspace_text = '{"hooks": ' + hook_file(64, "w") + "}"
    found = check(
        tmp_path,
        {SETTINGS: workspace_text, **PLUGIN, PLUGIN_HOOKS: hook_file(64, "l")},
        home_files={SETTINGS: hook_file(64, "p", document=True)},
    )
    assert "hooks/run-limit" not in codes(found)


def test_inline_manifest_hooks_replace_hooks_json_and_escaping_paths_are_not_read(tmp_path: Path) -> None:
    outside = hook_file(64, "o")
    manifest = '{"name": "lint", "hooks": "../../../../outside.json"}'
    workspace_text = '{"enabledPlugins": ["lint"], "hooks": ' + hook_file(64, "w") + "}"
    write(tmp_path, {"outside.json": outside})
    found = check(
        tmp_path,
        {SETTINGS: workspace_text, ".clarvis/plugins/lint/plugin.json": manifest, PLUGIN_HOOKS: hook_file(64, "l")},
        home_files={SETTINGS: hook_file(1, "p", document=True)},
    )
    assert "hooks/run-limit" not in codes(found)


def test_inline_manifest_hooks_count(tmp_path: Path) -> None:
    manifest = '{"name": "lint", "hooks": ' + hook_file(10, "m") + "}"
    workspace_text = '{"enabledPlugins": ["lint"], "hooks": ' + hook_file(60, "w") + "}"
    found = check(
        tmp_path,
        {SETTINGS: workspace_text, ".clarvis/plugins/lint/plugin.json": manifest},
        home_files={SETTINGS: hook_file(60, "p", document=True)},
    )
    limit = [d for d in found if d.code == "hooks/run-limit"]
    assert len(limit) == 2
    assert {d.path for d in limit} == {tmp_path / "ws" / ".clarvis/plugins/lint/plugin.json"}
