"""Pull clients kept right and configuration replaced, not merged, through the protocol under both capability
sets: ``workspace/diagnostic/refresh`` after another file's edit, the first scan and a configuration change; a
rule override the user removes stops applying."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import CLIENT_SPECS, ClarvisClient, items_of, open_document, write_file
from lsprotocol import types
from pytest_lsp import client_capabilities


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(
        ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared.\nuser-invokable: x\n---\n"
    )
    return ws


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object]:
    return {"includeUser": False, "rules": {"skill/unknown-field": "off"}}


@pytest.fixture(scope="module")
def capabilities(client_name: str) -> types.ClientCapabilities:
    capabilities = client_capabilities(CLIENT_SPECS[client_name])
    if capabilities.text_document is not None and capabilities.text_document.diagnostic is not None:
        # A pull client that accepts refresh requests (Neovim 0.11 pulls but declares none; VS Code since 1.67 and
        # Helix do), so the refresh can be asserted and not only the pulled result.
        assert capabilities.workspace is not None
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


def pulls(client: ClarvisClient) -> bool:
    """Whether the client pulls diagnostics and accepts ``workspace/diagnostic/refresh``."""
    workspace = client.capabilities.workspace if client.capabilities else None
    return bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)


async def codes_shown(client: ClarvisClient, path: Path, until: list[str]) -> list[str]:
    """The codes the client shows for ``path``: a pull client pulls (again after each refresh, until it sees
    ``until``), a push client waits for the publish that brings ``until``."""

    def pushed() -> list[str]:
        return sorted(str(item.code) for item in client.diagnostics.get(path.as_uri(), []))

    if not pulls(client):
        await client.wait_for(lambda: pushed() == until, timeout=15)
        return pushed()
    deadline = asyncio.get_running_loop().time() + 15
    while True:
        seen = client.diagnostic_refresh_count  # a refresh while the pull is answered asks for another pull
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        codes = sorted(str(item.code) for item in items_of(report))
        remaining = deadline - asyncio.get_running_loop().time()
        if codes == until or not await refresh_after(client, seen, remaining):
            return codes


async def refresh_after(client: ClarvisClient, seen: int, timeout: float) -> bool:
    """Wait until the server has sent ``workspace/diagnostic/refresh`` more than ``seen`` times."""
    return await client.wait_for(lambda: client.diagnostic_refresh_count > seen, timeout=timeout)


async def test_removing_a_rule_override_brings_the_finding_back(client: ClarvisClient, workspace: Path) -> None:
    loser = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, loser)
    assert await codes_shown(client, loser, ["discovery/shadowed"]) == ["discovery/shadowed"]
    client.set_configuration({"includeUser": False}, section="clarvis")  # the user deleted the "rules" entry
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    expected = ["discovery/shadowed", "skill/unknown-field"]
    assert await codes_shown(client, loser, expected) == expected


async def test_another_files_edit_reaches_a_pull_client(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    loser = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, loser)
    open_document(client, winner)
    assert await codes_shown(client, loser, ["discovery/shadowed"]) == ["discovery/shadowed"]
    await client.quiesce()  # the refresh after the first scan has come: the next one is the edit's
    seen = client.diagnostic_refresh_count
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=winner.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text="---\nname: audit\ndescription: d\n---\n")
            ],
        )
    )
    if pulls(client):
        assert await refresh_after(client, seen, 15)  # asked to pull again, not hoped for
    assert await codes_shown(client, loser, []) == []
