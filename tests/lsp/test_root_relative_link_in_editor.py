"""A root-relative link in the editor (VS Code and Neovim capability sets): ``skill/root-relative-link`` on the
destination, and the unsafe quick fix that writes it relative to the skill directory, offered as a quick fix and
never as the preferred one."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, actions_of, diagnostics_for, edits_in, open_document, write_file
from lsprotocol import types

SKILL = ".clarvis/skills/adr/SKILL.md"
TEXT = "---\nname: adr\ndescription: Writes decision records.\n---\nSee [the ADR](/docs/adr/001.md).\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, SKILL, TEXT)
    write_file(ws, "docs/adr/001.md", "ADR\n")
    (tmp_path / "home").mkdir()
    return ws


async def test_a_root_relative_link_gets_its_relative_destination_as_a_quick_fix(
    client: ClarvisClient, workspace: Path
) -> None:
    skill = workspace / SKILL
    open_document(client, skill)
    found = await diagnostics_for(client, skill, until=lambda found: "skill/root-relative-link" in found)
    [finding] = [item for item in found if item.code == "skill/root-relative-link"]
    assert finding.range == types.Range(types.Position(4, 14), types.Position(4, 30))
    assert finding.severity == types.DiagnosticSeverity.Warning
    assert "relative to the skill directory it is ../../../docs/adr/001.md" in finding.message
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(skill.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    title = "Write the destination relative to the skill directory: ../../../docs/adr/001.md"
    [action] = [action for action in actions_of(actions) if action.title == title]
    assert action.kind == types.CodeActionKind.QuickFix
    assert not action.is_preferred
    assert [(edit.range, edit.new_text) for edit in edits_in(action, skill.as_uri())] == [
        (finding.range, "../../../docs/adr/001.md")
    ]
