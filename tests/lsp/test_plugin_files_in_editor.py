"""Plugins as public repositories write them, in the editor (VS Code and Neovim capability sets): the hooks file
a plugin.json names is checked when opened and again when the manifest names another file, and a bare agent name
of the skill's own plugin gets the qualified name as a quick fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import (
    ClarvisClient,
    actions_of,
    diagnostics_for,
    edits_in,
    open_document,
    write_file,
)
from lsprotocol import types

PLUGIN = ".clarvis/plugins/guard"
BAD_HOOK = '[{"event": "PreTool", "command": "./guard.sh"}]\n'
SKILL = "---\nname: review\ndescription: Reviews a change.\nagent: rev\n---\nBody.\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/settings.json", '{"enabledPlugins": ["guard"]}\n')
    write_file(ws, f"{PLUGIN}/plugin.json", '{"name": "guard", "hooks": "./config/my-hooks.json"}\n')
    write_file(ws, f"{PLUGIN}/config/my-hooks.json", BAD_HOOK)
    write_file(ws, f"{PLUGIN}/config/other.json", BAD_HOOK)
    write_file(ws, f"{PLUGIN}/agents/rev.md", "---\nname: rev\n---\nReviews.\n")
    write_file(ws, f"{PLUGIN}/skills/review/SKILL.md", SKILL)
    (tmp_path / "home").mkdir()
    return ws


def codes(found: list[types.Diagnostic]) -> list[str]:
    return [str(item.code) for item in found]


async def test_the_hooks_file_the_manifest_names_is_checked_and_follows_the_manifest(
    client: ClarvisClient, workspace: Path
) -> None:
    named, other = workspace / PLUGIN / "config" / "my-hooks.json", workspace / PLUGIN / "config" / "other.json"
    open_document(client, other)  # named by nothing yet: no Clarvis file
    open_document(client, named)
    found = await diagnostics_for(client, named, until=lambda found: "hooks/unknown-event" in found)
    assert codes(found) == ["hooks/unknown-event"]
    assert found[0].range.start == types.Position(0, 11)
    manifest = workspace / PLUGIN / "plugin.json"
    open_document(client, manifest)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=manifest.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text='{"name": "guard", "hooks": "./config/other.json"}\n')
            ],
        )
    )
    now_named = await diagnostics_for(client, other, until=lambda found: "hooks/unknown-event" in found)
    assert codes(now_named) == ["hooks/unknown-event"]
    assert await diagnostics_for(client, named, until=lambda found: not found) == []


async def test_a_bare_agent_name_of_the_plugin_gets_the_qualified_name_as_a_quick_fix(
    client: ClarvisClient, workspace: Path
) -> None:
    skill = workspace / PLUGIN / "skills" / "review" / "SKILL.md"
    open_document(client, skill)
    found = await diagnostics_for(client, skill, until=lambda found: "skill/unknown-agent" in found)
    [finding] = [item for item in found if item.code == "skill/unknown-agent"]
    assert finding.message == (
        'No agent is named "rev": the agents of a plugin are named after it, so this plugin\'s agent "rev" is '
        '"guard:rev". Write `agent: guard:rev`.'
    )
    assert finding.range == types.Range(types.Position(3, 7), types.Position(3, 10))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(skill.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    [action] = [action for action in actions_of(actions) if action.title == 'Change the agent to "guard:rev"']
    assert action.kind == types.CodeActionKind.QuickFix
    assert [(edit.range, edit.new_text) for edit in edits_in(action, skill.as_uri())] == [(finding.range, "guard:rev")]
