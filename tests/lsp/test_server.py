"""End-to-end: the server as a subprocess, driven by pytest-lsp with real VS Code and Neovim capability sets.

VS Code (1.65 capabilities) negotiates UTF-16 positions and receives pushed diagnostics; Neovim (0.11)
negotiates UTF-8 and pulls diagnostics for open documents.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CLIENTS = {"visual_studio_code": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews changes.\n---\n")
    write(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared copy.\n---\n")
    (tmp_path / "home").mkdir()
    return ws


@pytest_lsp.fixture(
    params=list(CLIENTS),
    config=ClientServerConfig(server_command=[sys.executable, "-m", "clarvis_lsp"]),
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(CLIENTS[request.param]),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
            initialization_options={"clarvis": {"includeUser": False}},
        )
    )
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def diagnostics_for(
    client: LanguageClient, path: Path, until: Callable[[list[str]], bool] = bool
) -> list[types.Diagnostic]:
    """The diagnostics the client shows for ``path``: pulled when the client pulls; else pushed ones, waiting
    (up to 10 s) until their codes satisfy ``until`` — a push may already have arrived, or still be coming."""
    if client.client_name == "neovim":  # type: ignore[attr-defined]
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        return list(report.items)
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        current = client.diagnostics.get(path.as_uri(), [])
        remaining = deadline - asyncio.get_running_loop().time()
        if until([str(item.code) for item in current]) or remaining <= 0:
            return current
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining)
        except asyncio.TimeoutError:
            return client.diagnostics.get(path.as_uri(), [])


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="markdown", version=version, text=text)
        )
    )


async def test_position_encoding_is_the_clients(client: LanguageClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/emoji/SKILL.md"
    path.parent.mkdir(parents=True)
    text = "---\nname: emoji\ndescription: 😀 é\nuser-invokable: x\n---\n[😀é](missing.md)\n"
    path.write_text(text, encoding="utf-8")
    open_document(client, path, text)
    found = await diagnostics_for(client, path, until=lambda codes: "skill/broken-link" in codes)
    link = next(item for item in found if item.code == "skill/broken-link")
    # "[😀é](" is 5 code points, 6 UTF-16 units and 9 UTF-8 bytes before the link target.
    expected = 9 if client.client_name == "neovim" else 6  # type: ignore[attr-defined]
    assert link.range.start == types.Position(line=5, character=expected)
    assert link.code_description is not None
    unknown = next(item for item in found if item.code == "skill/unknown-field")
    assert unknown.severity == types.DiagnosticSeverity.Warning
    assert unknown.range == types.Range(start=types.Position(3, 0), end=types.Position(3, 14))


async def test_unsaved_rename_updates_the_other_copy_at_once(client: LanguageClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    loser = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, loser, loser.read_text())
    open_document(client, winner, winner.read_text())
    before = await diagnostics_for(client, loser, until=lambda codes: codes == ["discovery/shadowed"])
    assert [item.code for item in before] == ["discovery/shadowed"]
    assert before[0].related_information[0].location.uri == winner.as_uri()

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=winner.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text="---\nname: renamed\ndescription: d\n---\n")
            ],
        )
    )
    after = await diagnostics_for(client, loser, until=lambda codes: codes == [])
    assert [item.code for item in after] == []
    assert winner.read_text().startswith("---\nname: review")  # nothing written to disk
