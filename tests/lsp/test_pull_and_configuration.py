"""Pull clients kept right and configuration replaced, not merged, through the protocol under both capability
sets: ``workspace/diagnostic/refresh`` after another file's edit, the first scan and a configuration change; a
rule override the user removes stops applying."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import open_document, write_file
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CLIENTS = {"visual_studio_code": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}


@pytest.fixture
def pull_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews.\n---\n")
    write_file(
        ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared.\nuser-invokable: x\n---\n"
    )
    return ws


@pytest_lsp.fixture(
    params=list(CLIENTS), config=ClientServerConfig(server_command=[sys.executable, "-m", "clarvis_lsp", "--stdio"])
)
async def editor(lsp_client: LanguageClient, request: pytest.FixtureRequest, pull_workspace: Path):
    lsp_client.set_configuration({"includeUser": False, "rules": {"skill/unknown-field": "off"}}, section="clarvis")

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        """VS Code's capabilities promise this request an answer."""

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        """The server registers its file watchers; accepting them is enough here."""

    capabilities = client_capabilities(CLIENTS[request.param])
    if capabilities.text_document is not None and capabilities.text_document.diagnostic is not None:
        # A pull client that accepts refresh requests (Neovim 0.11 pulls but declares none; VS Code since 1.67 and
        # Helix do), so the refresh can be asserted and not only the pulled result.
        assert capabilities.workspace is not None
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=pull_workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=pull_workspace.as_uri(), name="ws")],
            initialization_options={"clarvis": {"includeUser": False}},
        )
    )
    workspace = capabilities.workspace
    lsp_client.pulls = bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def codes_shown(client: LanguageClient, path: Path, until: list[str]) -> list[str]:
    """The codes the client shows for ``path``: a pull client pulls (after a refresh it waits for), a push client
    waits for the publish that brings ``until``."""
    deadline = asyncio.get_running_loop().time() + 15
    while True:
        if client.pulls:  # type: ignore[attr-defined]
            report = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
            )
            codes = sorted(str(item.code) for item in report.items)
        else:
            codes = sorted(str(item.code) for item in client.diagnostics.get(path.as_uri(), []))
        remaining = deadline - asyncio.get_running_loop().time()
        if codes == until or remaining <= 0:
            return codes
        if client.pulls:  # type: ignore[attr-defined]
            await refresh_after(client, client.diagnostic_refresh_count, remaining)
            continue
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining)


async def refresh_after(client: LanguageClient, seen: int, timeout: float) -> bool:
    """Wait until the server has sent ``workspace/diagnostic/refresh`` more than ``seen`` times."""
    deadline = asyncio.get_running_loop().time() + timeout
    while client.diagnostic_refresh_count <= seen:
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(0.02)  # polling the count pytest-lsp keeps; there is no event to await
    return True


async def test_removing_a_rule_override_brings_the_finding_back(editor: LanguageClient, pull_workspace: Path) -> None:
    loser = pull_workspace / ".agents/skills/review/SKILL.md"
    open_document(editor, loser)
    assert await codes_shown(editor, loser, ["discovery/shadowed"]) == ["discovery/shadowed"]
    editor.set_configuration({"includeUser": False}, section="clarvis")  # the user deleted the "rules" entry
    editor.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    expected = ["discovery/shadowed", "skill/unknown-field"]
    assert await codes_shown(editor, loser, expected) == expected


async def test_another_files_edit_reaches_a_pull_client(editor: LanguageClient, pull_workspace: Path) -> None:
    winner = pull_workspace / ".clarvis/skills/review/SKILL.md"
    loser = pull_workspace / ".agents/skills/review/SKILL.md"
    open_document(editor, loser)
    open_document(editor, winner)
    assert await codes_shown(editor, loser, ["discovery/shadowed"]) == ["discovery/shadowed"]
    seen = editor.diagnostic_refresh_count
    editor.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=winner.as_uri(), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text="---\nname: audit\ndescription: d\n---\n")
            ],
        )
    )
    if editor.pulls:  # type: ignore[attr-defined]
        assert await refresh_after(editor, seen, 15)  # asked to pull again, not hoped for
    assert await codes_shown(editor, loser, []) == []
