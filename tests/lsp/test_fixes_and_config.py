"""End-to-end: every quick fix SPEC §5 lists, applied through the protocol and re-checked; configuration sources;
workspace diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import (
    ClarvisClient,
    actions_of,
    diagnostics_for,
    edits_in,
    is_neovim,
    items_of,
    open_document,
    write_file,
)
from lsprotocol import types

PLUGIN_DIR = ".clarvis/plugins/quality"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(ws, f"{PLUGIN_DIR}/plugin.json", '{\n  "name": "quality"\n}\n')
    return ws


def apply(text: str, edits: list[types.TextEdit], encoding_is_utf8: bool) -> str:
    """Apply LSP text edits (in the client's position encoding) to ``text``."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units, index = 0, 0
        while index < len(line) and units < position.character:
            char = line[index]
            units += len(char.encode("utf-8")) if encoding_is_utf8 else len(char.encode("utf-16-le")) // 2
            index += 1
        return before + index

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def fix_and_recheck(
    client: ClarvisClient, path: Path, text: str, code: str, title: str
) -> tuple[str, list[types.Diagnostic]]:
    """Open ``text``, take the quick fix ``title`` of the ``code`` finding, apply it as an edit and re-check."""
    open_document(client, path, text)
    found = await diagnostics_for(client, path, until=lambda codes: code in codes)
    finding = next(item for item in found if item.code == code)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    action = next(action for action in actions_of(actions) if action.title == title)
    edits = edits_in(action, path.as_uri())
    fixed = apply(text, edits, is_neovim(client))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    after = await diagnostics_for(client, path, until=lambda codes: code not in codes)
    return fixed, after


SKILL_FIXES = [
    (
        "é-skill",
        "---\nname: é-skill\ndescription: d\nuser-invokable: true\n---\n",
        "skill/unknown-field",
        'Rename "user-invokable" to "user-invocable"',
        "---\nname: é-skill\ndescription: d\nuser-invocable: true\n---\n",
    ),
    (
        "tidy",
        "---\nname: tidy\ndescription: d\nextra: 1\n---\n",
        "skill/unknown-field",
        'Remove the field "extra"',
        "---\nname: tidy\ndescription: d\n---\n",
    ),
    (
        "format-sql",
        "---\nname: sql-format\ndescription: d\n---\n",
        "skill/name-directory-mismatch",
        'Set name to the directory name "format-sql"',
        "---\nname: format-sql\ndescription: d\n---\n",
    ),
    (
        "stub",
        "---\nname: stub\n---\n",
        "skill/missing-description",
        "Add a description stub",
        None,  # checked below: a description line is added and the finding is gone
    ),
]


@pytest.mark.parametrize(("directory", "text", "code", "title", "expected"), SKILL_FIXES)
async def test_skill_quick_fixes(
    client: ClarvisClient, workspace: Path, directory: str, text: str, code: str, title: str, expected: str | None
) -> None:
    path = write_file(workspace, f".clarvis/skills/{directory}/SKILL.md", text)
    fixed, after = await fix_and_recheck(client, path, text, code, title)
    if expected is not None:
        assert fixed == expected
    else:
        assert fixed.startswith("---\nname: stub\ndescription: ")
    assert code not in [item.code for item in after]


SETTINGS_FIXES = [
    (
        {"hooks": [{"event": "PreToolUse", "command": "x"}]},
        "hooks/unknown-event",
        "pre_tool_use",
    ),
    (
        {"hooks": [{"event": "run_end", "command": "x", "on_failure": "deny"}]},
        "hooks/deny-on-non-control-event",
        '"pass"',
    ),
    (
        {"mcpServers": {"db": {"command": "db-mcp", "url": "https://x"}}},
        "mcp/field-not-allowed",
        "url",
    ),
    (
        {"enabledPlugin": []},
        "settings/unknown-field",
        "enabledPlugins",
    ),
]


@pytest.mark.parametrize(("settings_data", "code", "marker"), SETTINGS_FIXES)
async def test_settings_quick_fixes(
    client: ClarvisClient, workspace: Path, settings_data: dict[str, object], code: str, marker: str
) -> None:
    path = workspace / ".clarvis/settings.json"
    text = json.dumps(settings_data, indent=2) + "\n"
    path.write_text(text)
    open_document(client, path, text)
    found = await diagnostics_for(client, path, until=lambda codes: code in codes)
    finding = next(item for item in found if item.code == code)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    assert actions, f"no quick fix for {code}"
    fixed = apply(text, edits_in(actions_of(actions)[0], path.as_uri()), is_neovim(client))
    json.loads(fixed)  # the fix keeps the JSON valid
    if code == "mcp/field-not-allowed":
        assert marker not in json.loads(fixed)["mcpServers"]["db"]
    else:
        assert marker in fixed
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    after = await diagnostics_for(client, path, until=lambda codes: code not in codes)
    assert code not in [item.code for item in after]


async def test_plugin_name_fix(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / PLUGIN_DIR / "plugin.json"
    text = '{\n  "name": "qualty"\n}\n'
    fixed, after = await fix_and_recheck(
        client, path, text, "plugin/name-directory-mismatch", 'Set name to the directory name "quality"'
    )
    assert json.loads(fixed) == {"name": "quality"}
    assert list(after) == []


async def test_invalid_project_configuration_is_reported_and_defaults_used(
    client: ClarvisClient, workspace: Path
) -> None:
    config = write_file(workspace, ".clarvis-lsp.toml", 'strict = "yes"\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    skill = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, skill, "---\nname: review\ndescription: d\nuser-invokable: true\n---\n")
    found = await diagnostics_for(client, skill, until=lambda codes: codes == ["skill/unknown-field"])
    assert [item.code for item in found] == ["skill/unknown-field"]  # the defaults still apply
    await client.wait_for(lambda: any("Invalid clarvis-lsp configuration" in item.message for item in client.messages))
    assert any("Invalid clarvis-lsp configuration" in message.message for message in client.messages)
    if is_neovim(client):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri()))
        )
        config_found = items_of(report)
    else:
        config_found = list(client.diagnostics.get(config.as_uri(), []))
    assert [item.code for item in config_found] == ["config/invalid"]
    assert config_found[0].range.start.line == 0


class TestConfigurationPull:
    async def test_workspace_configuration_section_applies(self, client: ClarvisClient, workspace: Path) -> None:
        client.set_configuration({"rules": {"skill/unknown-field": "off"}}, section="clarvis")
        asked = client.configuration_requests
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        skill = workspace / ".clarvis/skills/review/SKILL.md"
        # The server asks for the section, and applies the answer before it reads what the client sends next.
        assert await client.wait_for(lambda: client.configuration_requests > asked)
        open_document(client, skill, "---\nname: review\ndescription: d\nuser-invokable: true\n---\n")
        found = await diagnostics_for(client, skill, until=lambda codes: codes == [])
        assert [item.code for item in found] == []


async def test_workspace_diagnostic_lists_every_file(client: ClarvisClient, workspace: Path) -> None:
    write_file(workspace, ".clarvis/skills/broken/SKILL.md", "no frontmatter\n")
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {item.uri: [d.code for d in items_of(item)] for item in report.items}
    assert by_uri[(workspace / ".clarvis/skills/broken/SKILL.md").as_uri()] == ["skill/no-frontmatter"]
    assert by_uri[(workspace / ".clarvis/skills/review/SKILL.md").as_uri()] == []
