"""A raising rule through the language server: the file still gets every other rule's findings, and
``internal/rule-failed`` says which rule is missing. The server is the real one with its link rule replaced by one
that indexes past the end of a list, started as a client starts it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file
from lsprotocol import types

BROKEN_SERVER = Path(__file__).parent.parent / "support" / "broken_link_rule.py"


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    return [sys.executable, str(BROKEN_SERVER), "--stdio"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    text = "---\nname: review\ndescription: Reviews.\nuser-invokable: true\n---\nSee [the guide](missing.md).\n"
    write_file(ws, ".clarvis/skills/review/SKILL.md", text)
    return ws


async def test_raising_rule_is_reported_and_hides_nothing(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/review/SKILL.md"
    open_document(client, path)
    found = await diagnostics_for(client, path, until=lambda codes: "internal/rule-failed" in codes)
    assert sorted(str(item.code) for item in found) == ["internal/rule-failed", "skill/unknown-field"]
    failed = next(item for item in found if item.code == "internal/rule-failed")
    assert "skill/links" in failed.message and failed.severity == types.DiagnosticSeverity.Error
    # The server keeps serving: hover on the unknown key still answers.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(1, 2))
    )
    assert hover is not None
