"""Completion candidates of ``clarvis_lsp.editor.completion``: every context of SPEC §5, in half-typed documents.

``|`` in a test document marks the cursor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clarvis_lsp.config.project import ProjectConfig
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor.completion import CompletionCandidate, complete, snippet_json
from clarvis_lsp.findings import Range
from clarvis_lsp.knowledge import hooks, marketplace, mcp, plugin, settings, skill
from clarvis_lsp.knowledge.files import FileKind
from clarvis_lsp.workspace.discovered import Discovered
from clarvis_lsp.workspace.engine import WorkspaceEngine


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def facts(tmp_path: Path) -> tuple[Path, Discovered]:
    """A workspace with two plugins (one enabled), agents and skills; returns (workspace, discovery)."""
    ws = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir()
    write(ws, ".clarvis/settings.json", '{"enabledPlugins": ["tools"]}')
    write(ws, ".clarvis/plugins/tools/plugin.json", '{"name": "tools"}')
    write(ws, ".clarvis/plugins/tools/agents/helper.md", "# helper\n")
    write(ws, ".clarvis/plugins/tools/skills/lint/SKILL.md", "---\nname: lint\ndescription: Lints.\n---\n")
    write(ws, ".clarvis/plugins/quality/plugin.json", '{"name": "quality"}')
    write(
        ws,
        ".clarvis/plugins/quality/skills/review-checklist/SKILL.md",
        "---\nname: review-checklist\ndescription: R.\n---\n",
    )
    write(ws, ".clarvis/plugins/quality/skills/release/SKILL.md", "---\nname: release-plan\ndescription: P.\n---\n")
    write(ws, ".clarvis/agents/reviewer.md", "# reviewer\n")
    write(ws, ".clarvis/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\n")
    engine = WorkspaceEngine(directory=ws, config=ProjectConfig(), home=home)
    return ws, engine.discovered


def run(
    kind: FileKind,
    marked: str,
    discovered: Discovered | None = None,
    *,
    path: Path | None = None,
    snippets: bool = False,
    trigger: str | None = None,
) -> list[CompletionCandidate]:
    offset = marked.index("|")
    text = marked.replace("|", "", 1)
    lines = LineIndex(text)
    return complete(
        text, kind, lines.position(offset), discovered, path=path, snippets=snippets, trigger=trigger, lines=lines
    )


def labels(candidates: list[CompletionCandidate]) -> list[str]:
    return [candidate.label for candidate in candidates]


def by_label(candidates: list[CompletionCandidate], label: str) -> CompletionCandidate:
    return next(candidate for candidate in candidates if candidate.label == label)


def apply(marked: str, candidate: CompletionCandidate) -> str:
    """The document after accepting ``candidate`` (plain text items only)."""
    text = marked.replace("|", "", 1)
    lines = LineIndex(text)
    start = lines.offset(candidate.replace_range.start)
    end = lines.offset(candidate.replace_range.end)
    return text[:start] + candidate.insert_text + text[end:]


def expand(snippet: str) -> str:
    """A snippet's text with every placeholder replaced by its default (first choice)."""
    previous = None
    while previous != snippet:
        previous = snippet
        snippet = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", snippet)
        snippet = re.sub(r"\$\{\d+\|([^,|]*)[^|]*\|\}", r"\1", snippet)
    return re.sub(r"\$\{?\d+\}?", "", snippet).replace("\\$", "$")


# ---------------------------------------------------------------------------------------------- SKILL.md


def test_skill_keys_not_already_present() -> None:
    found = run(FileKind.SKILL, "---\nname: x\ndescription: d\n|\n---\nBody\n")
    assert "name" not in labels(found) and "description" not in labels(found)
    assert set(skill.FIELDS) - {"name", "description"} <= set(labels(found))
    agent = by_label(found, "agent")
    assert agent.kind == "property"
    assert agent.insert_text == "agent: "
    assert agent.documentation_markdown is not None and "slash" in agent.documentation_markdown


def test_skill_keys_replace_the_word_being_typed_even_when_the_yaml_is_broken() -> None:
    marked = "---\nname: [unclosed\nuser-inv|\n---\n"
    found = run(FileKind.SKILL, marked)
    item = by_label(found, "user-invocable")
    assert item.replace_range == Range.of(2, 0, 2, 8)
    assert apply(marked, item) == "---\nname: [unclosed\nuser-invocable: \n---\n"
    assert "name" not in labels(found)


def test_skill_key_rename_keeps_the_colon() -> None:
    found = run(FileKind.SKILL, "---\nname: x\nagen|: reviewer\n---\n")
    assert by_label(found, "agent").insert_text == "agent"


def test_skill_user_invocable_values() -> None:
    found = run(FileKind.SKILL, "---\nname: x\nuser-invocable: |\n---\n")
    assert labels(found) == ["true", "false"]
    assert by_label(found, "true").detail == "default"


def test_skill_value_after_a_colon_trigger_gets_a_space() -> None:
    marked = "---\nname: x\nuser-invocable:|\n---\n"
    found = run(FileKind.SKILL, marked, trigger=":")
    assert apply(marked, by_label(found, "false")) == "---\nname: x\nuser-invocable: false\n---\n"


def test_skill_agent_values_are_the_discovered_agents(facts: tuple[Path, Discovered]) -> None:
    _, discovered = facts
    marked = "---\nname: x\nagent: re|\n---\n"
    found = run(FileKind.SKILL, marked, discovered)
    assert set(labels(found)) == {"reviewer", "tools:helper"}
    helper = by_label(found, "tools:helper")
    assert helper.kind == "reference" and helper.detail is not None and "tools" in helper.detail
    assert apply(marked, by_label(found, "reviewer")) == "---\nname: x\nagent: reviewer\n---\n"


def test_skill_quoted_agent_value_keeps_its_quotes(facts: tuple[Path, Discovered]) -> None:
    _, discovered = facts
    marked = '---\nname: x\nagent: "rev|"\n---\n'
    item = by_label(run(FileKind.SKILL, marked, discovered), "reviewer")
    assert apply(marked, item) == '---\nname: x\nagent: "reviewer"\n---\n'
    assert item.filter_text == '"reviewer"'


def test_skill_nothing_in_the_body_or_in_indented_lines() -> None:
    assert run(FileKind.SKILL, "---\nname: x\n---\nSome |text\n") == []
    assert run(FileKind.SKILL, "---\nallowed-tools:\n  - |\n---\n") == []


def test_skill_space_trigger_in_key_position_is_silent() -> None:
    assert run(FileKind.SKILL, "---\nname: x\n|\n---\n", trigger=" ") == []


def test_skill_frontmatter_snippet_for_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "deploy" / "SKILL.md"
    found = run(FileKind.SKILL, "|", path=path, snippets=True)
    assert labels(found) == ["New skill frontmatter"]
    assert found[0].is_snippet and found[0].insert_text.startswith("---\nname: ${1:deploy}\ndescription: ")
    assert run(FileKind.SKILL, "|", path=path, snippets=False) == []


# ------------------------------------------------------------------------------------------ settings.json


def test_settings_top_level_keys_not_already_present() -> None:
    found = run(FileKind.SETTINGS, '{\n  "model": "m",\n  |\n}')
    assert "model" not in labels(found)
    assert set(settings.FIELDS) - {"model"} <= set(labels(found))
    item = by_label(found, "hooks")
    assert item.documentation_markdown is not None and "/workspace-trust" in item.documentation_markdown


@pytest.mark.parametrize(
    ("marked", "expected"),
    [
        ('{\n  "ho|\n}', '{\n  "hooks": \n}'),  # an unclosed quote
        ('{\n  "ho|"\n}', '{\n  "hooks": \n}'),  # an auto-closed quote
        ("{\n  ho|\n}", '{\n  "hooks": \n}'),  # no quote yet
        ("{\n  |\n}", '{\n  "hooks": \n}'),
        ('{\n  "ho|": []\n}', '{\n  "hooks": []\n}'),  # renaming a key keeps its value
    ],
)
def test_property_quoting(marked: str, expected: str) -> None:
    item = by_label(run(FileKind.SETTINGS, marked), "hooks")
    assert not item.is_snippet
    assert apply(marked, item) == expected


def test_property_filter_text_includes_the_typed_quote() -> None:
    assert by_label(run(FileKind.SETTINGS, '{"ho|'), "hooks").filter_text == '"hooks"'
    assert by_label(run(FileKind.SETTINGS, "{ho|"), "hooks").filter_text is None


def test_property_snippets_shape_the_value_and_add_a_comma() -> None:
    found = run(FileKind.SETTINGS, '{\n  "|\n  "model": "m"\n}', snippets=True)
    assert by_label(found, "hooks").insert_text == '"hooks": [$1],'
    assert by_label(found, "mcpServers").insert_text == '"mcpServers": {$1},'
    assert by_label(found, "\u0024schema").insert_text == '"\\$schema": "$1",'


def test_hook_fields() -> None:
    found = run(FileKind.SETTINGS, '{"hooks": [{"event": "pre_tool_use", "|')
    assert labels(found) == [field for field in hooks.HOOK_FIELDS if field != "event"]
    assert by_label(found, "command").detail == "string (required)"


def test_hook_fields_leave_out_match_on_a_non_tool_event() -> None:
    found = run(FileKind.SETTINGS, '{"hooks": [{"event": "run_end", |}]}')
    assert "match" not in labels(found) and "event" not in labels(found)
    assert set(hooks.HOOK_FIELDS) - {"event", "match"} <= set(labels(found))


def test_event_names_with_their_class() -> None:
    marked = '{"hooks": [{"event": "pre|'
    found = run(FileKind.SETTINGS, marked)
    assert labels(found) == list(hooks.EVENTS)
    for event in hooks.EVENTS:
        assert by_label(found, event).detail == f"{hooks.EVENT_CLASS[event]} event"
    assert by_label(found, "pre_compact").detail == "compaction context event"
    assert "rewrite" in (by_label(found, hooks.REWRITE_EVENT).documentation_markdown or "")
    assert apply(marked, by_label(found, "pre_finalize")) == '{"hooks": [{"event": "pre_finalize"'


def test_event_value_after_a_colon_gets_a_space_and_a_comma_before_the_next_member() -> None:
    marked = '{"hooks": [{"event":| "command": "x"}]}'
    item = by_label(run(FileKind.SETTINGS, marked, trigger=":"), "run_end")
    assert apply(marked, item) == '{"hooks": [{"event": "run_end", "command": "x"}]}'


def test_on_failure_values_allowed_for_the_event() -> None:
    assert labels(run(FileKind.SETTINGS, '{"hooks": [{"event": "run_end", "on_failure": |')) == ["pass"]
    assert labels(run(FileKind.SETTINGS, '{"hooks": [{"event": "session_start", "on_failure": "|"}]}')) == ["pass"]
    control = run(FileKind.SETTINGS, '{"hooks": [{"event": "pre_finalize", "on_failure": "|"}]}')
    assert labels(control) == list(hooks.ON_FAILURE_VALUES)


def test_hook_fields_in_plugin_json_and_hooks_json() -> None:
    assert "command" in labels(run(FileKind.PLUGIN, '{"name": "p", "hooks": [{"event": "run_end", "|'))
    assert "command" in labels(run(FileKind.HOOKS, '[{"event": "run_end", |}]'))
    assert "command" in labels(run(FileKind.HOOKS, '{"hooks": [{"event": "run_end", |}]}'))
    assert labels(run(FileKind.HOOKS, "{|}")) == ["hooks"]
    assert "run_start" in labels(run(FileKind.HOOKS, '[{"event": "|'))


@pytest.mark.parametrize(
    ("kind", "marked"),
    [
        (FileKind.PLUGIN, '{"hooks": [{"event": "run_end", |'),
        (FileKind.PLUGIN, '{"hooks": {"hooks": [{"event": "run_end", |'),
        (FileKind.HOOKS, '[{"event": "run_end", |'),
        (FileKind.HOOKS, '{"hooks": [{"event": "run_end", |'),
    ],
)
def test_hooks_behind_a_hooks_document_keep_their_rules(kind: FileKind, marked: str) -> None:
    # A hooks document is an anyOf (array or object): the hook inside must still be documented as in settings.
    found = run(kind, marked)
    assert labels(found) == [field for field in hooks.HOOK_FIELDS if field not in ("event", "match")]  # run_end
    assert by_label(found, "command").detail == "string (required)"
    on_failure = marked.replace("|", '"on_failure": |')
    assert labels(run(kind, on_failure)) == ["pass"]


def test_mcp_fields_filtered_by_type() -> None:
    http = labels(run(FileKind.SETTINGS, '{"mcpServers": {"api": {"type": "http", |}}}'))
    assert set(mcp.FIELDS) - set(mcp.FORBIDDEN["http"]) - {"type"} <= set(http)
    assert not {*mcp.FORBIDDEN["http"], "type"} & set(http)
    stdio = labels(run(FileKind.SETTINGS, '{"mcpServers": {"local": {"|'))  # no type: stdio by default
    assert set(mcp.FIELDS) - set(mcp.FORBIDDEN[mcp.DEFAULT_TRANSPORT]) <= set(stdio)
    assert not set(mcp.FORBIDDEN[mcp.DEFAULT_TRANSPORT]) & set(stdio)
    sse = labels(run(FileKind.PLUGIN, '{"name": "p", "mcpServers": {"s": {"type": "sse", "|'))
    assert "url" in sse and "command" not in sse


def test_mcp_type_values() -> None:
    found = run(FileKind.SETTINGS, '{"mcpServers": {"api": {"type": "|"}}}')
    assert labels(found) == list(mcp.TRANSPORTS)
    default = by_label(found, mcp.DEFAULT_TRANSPORT)
    assert default.detail == "default" and default.preselect
    assert by_label(found, "http").documentation_markdown is not None


def test_boolean_values() -> None:
    assert labels(run(FileKind.SETTINGS, '{"mcpServers": {"a": {"shared": |}}}')) == ["true", "false"]


def test_enabled_plugins_values_from_installed_plugins(facts: tuple[Path, Discovered]) -> None:
    ws, discovered = facts
    path = ws / ".clarvis/settings.json"
    marked = '{"enabledPlugins": ["|'
    found = run(FileKind.SETTINGS, marked, discovered, path=path)
    assert labels(found) == ["quality", "tools"]
    assert apply(marked, by_label(found, "quality")) == '{"enabledPlugins": ["quality"'
    assert ".clarvis/plugins/quality/plugin.json" in (by_label(found, "quality").documentation_markdown or "")
    already = run(FileKind.SETTINGS, '{"enabledPlugins": ["tools", |]}', discovered, path=path)
    assert labels(already) == ["quality"]


def test_enabled_plugins_without_discovery_offers_nothing() -> None:
    assert run(FileKind.SETTINGS, '{"enabledPlugins": [|]}') == []


# ------------------------------------------------------------------------------------------- plugin.json


def test_plugin_fields() -> None:
    found = run(FileKind.PLUGIN, '{\n  "name": "p",\n  "|"\n}')
    assert "name" not in labels(found)
    assert set(plugin.FIELDS) - {"name"} <= set(labels(found))


def test_bootstrap_skill_values_from_the_plugins_skills(facts: tuple[Path, Discovered]) -> None:
    ws, discovered = facts
    # quality is not enabled: its skills are not a discovery root, the directory is read on demand.
    quality = ws / ".clarvis/plugins/quality/plugin.json"
    found = run(FileKind.PLUGIN, '{"name": "quality", "bootstrapSkill": "|"}', discovered, path=quality)
    assert labels(found) == ["release-plan", "review-checklist"]
    tools = ws / ".clarvis/plugins/tools/plugin.json"
    assert labels(run(FileKind.PLUGIN, '{"name": "tools", "bootstrapSkill": |', discovered, path=tools)) == ["lint"]


def test_run_policy_values_and_keys(facts: tuple[Path, Discovered]) -> None:
    ws, discovered = facts
    quality = ws / ".clarvis/plugins/quality/plugin.json"
    values = run(FileKind.PLUGIN, '{"capabilityRunPolicies": {"release-plan": "|"}}', discovered, path=quality)
    assert labels(values) == list(plugin.RUN_POLICIES)
    keys = run(FileKind.PLUGIN, '{"capabilityRunPolicies": {"release-plan": "on", |}}', discovered, path=quality)
    assert labels(keys) == ["review-checklist"]


def test_capability_executable_fields() -> None:
    found = run(FileKind.PLUGIN, '{"capabilityExecutables": {"memory": {"command": "x", |}}}')
    assert set(plugin.EXECUTABLE_FIELDS) - {"command"} <= set(labels(found))


# -------------------------------------------------------------------------------------- marketplace.json


def test_marketplace_root_and_entry_fields() -> None:
    root = labels(run(FileKind.MARKETPLACE, '{"name": "m", |}'))
    assert set(root) == set(marketplace.ROOT_FIELDS) - {"name"}
    entry = labels(run(FileKind.MARKETPLACE, '{"plugins": [{"name": "x", "|'))
    assert set(entry) == set(marketplace.ENTRY_FIELDS) - {"name"}


# ---------------------------------------------------------------------------------------------- snippets


def test_new_hook_snippet_in_a_hooks_array() -> None:
    found = run(FileKind.SETTINGS, '{"hooks": [|]}', snippets=True)
    hook = by_label(found, "New hook")
    assert hook.kind == "snippet" and hook.is_snippet
    assert "${1|pre_tool_use,post_tool_use," in hook.insert_text
    assert json.loads(expand(hook.insert_text)) == {"event": "pre_tool_use", "command": "./scripts/hook.sh"}
    assert "New tool hook (pre_tool_use)" in labels(found)
    assert run(FileKind.SETTINGS, '{"hooks": [|]}', snippets=False) == []


def test_hook_snippet_inside_an_empty_object_inserts_members() -> None:
    found = run(FileKind.SETTINGS, '{"hooks": [{|}]}', snippets=True)
    member = by_label(found, "New hook")
    assert json.loads("{" + expand(member.insert_text) + "}")["command"] == "./scripts/hook.sh"
    assert "New hook" not in labels(run(FileKind.SETTINGS, '{"hooks": [{"event": "run_end", |}]}', snippets=True))


def test_new_mcp_server_snippet_per_transport() -> None:
    marked = '{"mcpServers": {"a": {"command": "x"}, |}}'
    found = run(FileKind.SETTINGS, marked, snippets=True)
    assert {"New MCP server (stdio)", "New MCP server (http)", "New MCP server (sse)"} <= set(labels(found))
    http = by_label(found, "New MCP server (http)")
    assert http.insert_text.startswith('"${1:server-name}": {')
    document = json.loads(expand(apply(marked, http)))
    assert document["mcpServers"]["server-name"] == {"type": "http", "url": "https://mcp.example.com/mcp"}
    assert run(FileKind.SETTINGS, '{"mcpServers": {|}}', snippets=False) == []


def test_mcp_server_snippet_as_a_value() -> None:
    found = run(FileKind.PLUGIN, '{"mcpServers": {"db": |}}', snippets=True)
    stdio = by_label(found, "New MCP server (stdio)")
    assert json.loads(expand(stdio.insert_text.strip())) == {"type": "stdio", "command": "server-command", "args": [""]}


def test_snippet_json_keeps_placeholders_and_escapes() -> None:
    assert (
        snippet_json({"a": "${1:x}", "b": [1, "$2"], "c": {}}) == '{\n  "a": "${1:x}",\n  "b": [1, "$2"],\n  "c": {}\n}'
    )
    assert snippet_json('back\\slash "q"') == '"back\\\\\\\\slash \\"q\\""'


# -------------------------------------------------------------------------------------------- robustness


def test_space_trigger_answers_only_where_a_value_starts() -> None:
    assert run(FileKind.SETTINGS, '{"model": "m", |}', trigger=" ") == []
    assert run(FileKind.SETTINGS, '{"hooks": [{"command": "echo a |"}]}', trigger=" ") == []
    assert "run_end" in labels(run(FileKind.SETTINGS, '{"hooks": [{"event": |', trigger=" "))


@pytest.mark.parametrize(
    "marked",
    ["|", "{|", '{"hooks": [{"event": "pre_tool_use"|}]}', "[[[[|", '{"a": {"b": |', "\ufeff{|}", '{"mcpServers": |'],
)
def test_never_raises_on_odd_documents(marked: str) -> None:
    for kind in (FileKind.SETTINGS, FileKind.PLUGIN, FileKind.HOOKS, FileKind.MARKETPLACE, FileKind.SKILL):
        run(kind, marked, snippets=True)


def test_ranges_stay_on_the_cursor_line_and_contain_it() -> None:
    marked = '{\n  "hooks": [\n    {"event": "pre_tool_use", "on_failure": "d|"}\n  ]\n}'
    cursor = LineIndex(marked).position(marked.index("|"))
    found = run(FileKind.SETTINGS, marked)
    assert labels(found) == list(hooks.ON_FAILURE_VALUES)
    for item in found:
        assert item.replace_range == Range.of(2, 44, 2, 47)  # the whole string "d", quotes included
        assert item.replace_range.start <= cursor <= item.replace_range.end


def test_other_kinds_have_no_completion() -> None:
    assert run(FileKind.AGENT, "|") == []
