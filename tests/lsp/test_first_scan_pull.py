"""Pull clients during the first scan: a ``textDocument/diagnostic`` sent right after ``didOpen`` never gets a full
report that claims the file is clean while the scan that finds its cross-file findings still runs, whether or not
the client accepts ``workspace/diagnostic/refresh``; and a pull client is never pushed diagnostics for a file it
never opened.

Both capability sets pull here and accept refresh requests (as VS Code since 1.67 and Helix do), so the server's
answer to a client that will be asked to pull again is what is tested; ``test_first_scan`` covers a client that
cannot be asked (Neovim 0.11 as it declares itself)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import CLIENT_SPECS, ClarvisClient, items_of, open_document, write_file, write_numbered_skills
from lsprotocol import types
from pytest_lsp import client_capabilities

SKILLS = 3000
LOSER = ".agents/skills/skill-00000/SKILL.md"


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("big") / "ws"
    write_numbered_skills(ws, SKILLS)
    write_file(ws, LOSER, "---\nname: skill-00000\ndescription: Shared.\n---\n")
    write_file(ws, ".agents/skills/skill-00001/SKILL.md", "---\nname: skill-00001\ndescription: Also shared.\n---\n")
    return ws


@pytest.fixture
def workspace(big_workspace: Path) -> Path:
    return big_workspace


@pytest.fixture(scope="module")
def capabilities(client_name: str) -> types.ClientCapabilities:
    capabilities = client_capabilities(CLIENT_SPECS[client_name])
    assert capabilities.text_document is not None and capabilities.workspace is not None
    capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(related_document_support=True)
    capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


async def pull(client: ClarvisClient, path: Path) -> list[str]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return sorted(str(item.code) for item in items_of(report))


async def test_a_pull_right_after_open_never_says_clean(client: ClarvisClient, workspace: Path) -> None:
    """The copy shows nothing on its own: the only truthful full report holds its ``discovery/shadowed``."""
    loser = workspace / LOSER
    open_document(client, loser)
    assert await pull(client, loser) == ["discovery/shadowed"]


async def test_own_findings_come_at_once_and_the_cross_file_ones_after_the_refresh(
    client: ClarvisClient, workspace: Path
) -> None:
    """A copy with a finding of its own may be answered with it before the scan ends; the refresh that follows
    the scan brings the cross-file finding. A multi-byte character before the key keeps its position right."""
    loser = workspace / LOSER
    text = "---\nname: skill-00000\ndescription: Shared ✓.\nuser-invokable: x\n---\n"
    open_document(client, loser, text)
    first = await pull(client, loser)
    assert "skill/unknown-field" in first
    await client.wait_for(lambda: client.diagnostic_refresh_count > 0 or "discovery/shadowed" in first)
    assert await pull(client, loser) == ["discovery/shadowed", "skill/unknown-field"]


async def test_a_pull_client_is_not_pushed_files_it_never_opened(client: ClarvisClient, workspace: Path) -> None:
    """The scan finds ``discovery/shadowed`` on another copy the client never opened: no push for it (a pull
    client would keep it in its list forever), and none for the open document either (it pulls that)."""
    loser = workspace / LOSER
    open_document(client, loser)
    assert await pull(client, loser) == ["discovery/shadowed"]
    await client.quiesce()
    assert client.diagnostics == {}
