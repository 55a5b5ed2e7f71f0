"""``source.fixAll.clarvis`` and quick fixes asked for at a position with no diagnostics in the context, through
the protocol under both capability sets."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, edits_in, open_document, write_file
from lsprotocol import types

SETTINGS = {"hooks": [{"event": "PreToolUse", "command": "a"}, {"event": "PostToolUse", "command": "b"}]}


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return [sys.executable, "-m", "clarvis_lsp", "--stdio"]


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object]:
    return {"includeUser": False}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/settings.json", json.dumps(SETTINGS, indent=2) + "\n")
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: d\nuser-invokable: true\n---\n")
    return ws


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (ASCII text here, so positions are the same in every encoding)."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for edit in sorted(edits, key=lambda item: offset(item.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def test_fix_all_applies_every_safe_fix(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/settings.json"
    open_document(client, path)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    assert actions is not None
    [fix_all] = [action for action in actions if isinstance(action, types.CodeAction)]
    assert fix_all.kind == "source.fixAll.clarvis" and "2 fixes" in fix_all.title
    assert fix_all.edit is not None and fix_all.edit.changes is not None
    fixed = json.loads(apply(path.read_text(), edits_in(fix_all, path.as_uri())))
    assert [hook["event"] for hook in fixed["hooks"]] == ["pre_tool_use", "post_tool_use"]


async def test_quick_fixes_at_a_position_without_context_diagnostics(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, path)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=types.Range(types.Position(3, 2), types.Position(3, 2)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    titles = [action.title for action in actions or []]
    assert 'Rename "user-invokable" to "user-invocable"' in titles
    away = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(path.as_uri()),
            range=types.Range(types.Position(1, 0), types.Position(1, 0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert not away  # nothing to fix on the name line
