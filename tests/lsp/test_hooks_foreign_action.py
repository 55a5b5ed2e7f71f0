"""``hooks/foreign-format`` in the editor: the finding on a Claude Code hooks file and its code action, which
writes the Clarvis hooks array, under both client profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, actions_of, diagnostics_for, edits_in, open_document, write_file
from lsprotocol import types

HOOKS = ".clarvis/plugins/fmt/hooks/hooks.json"
CLAUDE = {
    "hooks": {
        "PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./fmt.sh", "timeout": 5}]}]
    }
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/plugins/fmt/plugin.json", '{\n  "name": "fmt"\n}\n')
    write_file(ws, HOOKS, json.dumps(CLAUDE, indent=2) + "\n")
    (tmp_path / "home").mkdir()
    return ws


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (ASCII text here, so positions are the same in every encoding)."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda item: offset(item.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def test_the_code_action_converts_claude_code_hooks(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / HOOKS
    open_document(client, path)
    found = await diagnostics_for(client, path, until=lambda codes: "hooks/foreign-format" in codes)
    finding = next(item for item in found if item.code == "hooks/foreign-format")
    assert finding.range.start == types.Position(1, 2)
    assert 'PreToolUse "Write|Edit" → pre_tool_use, match.tool ["Write", "Edit"], timeout_ms 5000' in finding.message
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    [action] = [action for action in actions_of(actions) if action.title == "Convert to 1 Clarvis hook object"]
    assert action.kind == types.CodeActionKind.QuickFix
    fixed = json.loads(apply(path.read_text(encoding="utf-8"), edits_in(action, path.as_uri())))
    assert fixed == {
        "hooks": [
            {"event": "pre_tool_use", "command": "./fmt.sh", "match": {"tool": ["Write", "Edit"]}, "timeout_ms": 5000}
        ]
    }
