"""Shared pytest-lsp fixtures: the server as a subprocess under VS Code and Neovim capability sets.

VS Code (1.65 capabilities) negotiates UTF-16 positions and receives pushed diagnostics; Neovim (0.11)
negotiates UTF-8 and pulls diagnostics for open documents. Every test using ``client`` runs under both.
A test module may define a ``workspace`` fixture of its own to lay out different files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import write_file
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

CLIENTS = {"visual_studio_code": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture
def settings() -> dict[str, object]:
    """The ``clarvis`` section sent as initializationOptions; override in a module to change it."""
    return {"includeUser": False}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews changes.\n---\n")
    write_file(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared copy.\n---\n")
    (tmp_path / "home").mkdir()
    return ws


@pytest_lsp.fixture(
    params=list(CLIENTS),
    config=ClientServerConfig(server_command=[sys.executable, "-m", "clarvis_lsp"]),
)
async def client(
    lsp_client: LanguageClient, request: pytest.FixtureRequest, workspace: Path, settings: dict[str, object]
):
    lsp_client.registrations = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    lsp_client.code_lens_refreshes = 0  # type: ignore[attr-defined]

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        lsp_client.code_lens_refreshes += 1  # type: ignore[attr-defined]

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(CLIENTS[request.param]),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
            initialization_options={"clarvis": settings},
        )
    )
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()
