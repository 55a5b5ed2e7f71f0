"""The first scan never blocks: with thousands of skills, a hover sent right after opening a file is answered while
the scan still runs (before its progress ends), the progress is reported, and the cross-file findings arrive when
the scan ends."""

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
SKILLS = 4000


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("big") / "ws"
    for index in range(SKILLS):
        name = f"skill-{index:05d}"
        write_file(ws, f".clarvis/skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: Skill {index}.\n---\n")
    write_file(ws, ".agents/skills/skill-00000/SKILL.md", "---\nname: skill-00000\ndescription: Shared.\n---\n")
    return ws


@pytest_lsp.fixture(
    params=list(CLIENTS), config=ClientServerConfig(server_command=[sys.executable, "-m", "clarvis_lsp", "--stdio"])
)
async def scanning_client(lsp_client: LanguageClient, request: pytest.FixtureRequest, big_workspace: Path):
    lsp_client.ended = asyncio.Event()  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        """VS Code's capabilities promise this request an answer."""

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        """The server registers its file watchers; accepting them is enough here."""

    lsp_client.set_configuration({"includeUser": False}, section="clarvis")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(CLIENTS[request.param]),
            root_uri=big_workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=big_workspace.as_uri(), name="ws")],
            initialization_options={"clarvis": {"includeUser": False}},
        )
    )
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def shown_codes(client: LanguageClient, path: Path) -> list[str]:
    """What the client shows for ``path`` once the cross-file finding is there: pulled by Neovim (the server makes
    a pull wait for the scan, as Neovim cannot be asked to pull again), pushed to VS Code."""
    if client.client_name == "neovim":  # type: ignore[attr-defined]
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        return [str(item.code) for item in report.items]
    deadline = asyncio.get_running_loop().time() + 60
    while "discovery/shadowed" not in (codes := [str(item.code) for item in client.diagnostics.get(path.as_uri(), [])]):
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            break
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining)
    return codes


def _scan_ended(client: LanguageClient) -> bool:
    return any(
        isinstance(report, types.WorkDoneProgressEnd)
        for token, reports in client.progress_reports.items()
        if str(token).startswith("clarvis-scan-")
        for report in reports
    )


async def test_hover_is_answered_while_the_first_scan_runs(
    scanning_client: LanguageClient, big_workspace: Path
) -> None:
    loser = big_workspace / ".agents/skills/skill-00000/SKILL.md"
    open_document(scanning_client, loser)
    hover = await scanning_client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(loser.as_uri()), types.Position(2, 3))
    )
    assert hover is not None and "description" in str(hover.contents).lower()
    window = client_capabilities(CLIENTS[scanning_client.client_name]).window  # type: ignore[attr-defined]
    if window is not None and window.work_done_progress:
        assert not _scan_ended(scanning_client)  # answered before the scan ended
    assert await shown_codes(scanning_client, loser) == ["discovery/shadowed"]  # the cross-file finding
    if window is not None and window.work_done_progress:
        reports = [report for key, values in scanning_client.progress_reports.items() for report in values]
        assert any(isinstance(report, types.WorkDoneProgressBegin) for report in reports)
        assert any("Discovering skills…" in (getattr(report, "message", "") or "") for report in reports)
        assert _scan_ended(scanning_client)
