"""Shared pytest-lsp fixtures: the server as a subprocess under VS Code and Neovim capability sets.

VS Code (1.65 capabilities) negotiates UTF-16 positions and receives pushed diagnostics; Neovim (0.11)
negotiates UTF-8 and pulls diagnostics for open documents. Every test using ``client`` runs under both.

One server runs per test module and capability set (``lsp_server``, module-scoped: starting one takes most of a
second); ``client`` is that server for one test, with the test's own ``workspace`` as its only workspace folder
(``workspace/didChangeWorkspaceFolders``) and the test's documents closed afterwards. A module may define, at
module level, its own ``workspace`` (function-scoped: a fresh directory per test), ``settings`` (module-scoped:
the initializationOptions its server starts with), ``client_configuration``, ``capabilities`` or
``server_command``.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsp_support import CLIENT_SPECS, ClarvisClient, write_file
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="module")
def settings() -> dict[str, object]:
    """The ``clarvis`` section sent as initializationOptions; override in a module to change it."""
    return {"includeUser": False}


@pytest.fixture(scope="module")
def server_command() -> list[str]:
    """How the module's server is started; override in a module to start another one."""
    return [sys.executable, "-m", "clarvis_lsp"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", "---\nname: review\ndescription: Reviews changes.\n---\n")
    write_file(ws, ".agents/skills/review/SKILL.md", "---\nname: review\ndescription: Shared copy.\n---\n")
    (tmp_path / "home").mkdir()
    return ws


@pytest.fixture(scope="module", params=list(CLIENT_SPECS))
def client_name(request: pytest.FixtureRequest) -> str:
    """Which client the module's server is talking to: every test runs under each."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def capabilities(client_name: str) -> types.ClientCapabilities:
    """The capabilities the client declares (as that client's release does); override in a module to vary them."""
    return client_capabilities(CLIENT_SPECS[client_name])


@pytest.fixture(scope="module")
def client_configuration() -> dict[str, object] | None:
    """The ``clarvis`` section the client answers ``workspace/configuration`` with (None: it has none)."""
    return None


@pytest.fixture(scope="module")
def initial_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workspace folder the module's server is initialized with (an empty one); override in a module that
    needs ``initialize`` to name its workspace."""
    return tmp_path_factory.mktemp("root")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def lsp_server(
    request: pytest.FixtureRequest,
    client_name: str,
    capabilities: types.ClientCapabilities,
    server_command: list[str],
    settings: dict[str, object],
    client_configuration: dict[str, object] | None,
    initial_folder: Path,
) -> AsyncIterator[ClarvisClient]:
    """The module's server under one client's capabilities, initialized with ``initial_folder``."""
    config = ClientServerConfig(server_command=server_command, client_factory=ClarvisClient)
    client = await config.start(devtools=request.config.getoption("devtools"))
    assert isinstance(client, ClarvisClient)
    await client.start_session(client_name, capabilities, initial_folder, settings, client_configuration)
    yield client
    await client.shutdown_session()
    await client.stop()  # type: ignore[no-untyped-call]


@pytest_asyncio.fixture(loop_scope="module")
async def client(lsp_server: ClarvisClient, workspace: Path) -> AsyncIterator[ClarvisClient]:
    """The module's server for this test, serving this test's ``workspace``."""
    async with lsp_server.one_test(workspace):
        yield lsp_server
