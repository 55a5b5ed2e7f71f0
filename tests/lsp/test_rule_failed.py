"""A raising rule through the language server: the file still gets every other rule's findings, and
``internal/rule-failed`` says which rule is missing. The server is the real one with its link rule replaced by one
that indexes past the end of a list, started as a client starts it."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import diagnostics_for, open_document, write_file
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

BROKEN_SERVER = textwrap.dedent(
    """
    from clarvis_lsp.rules import runner
    from clarvis_lsp.rules.base import RuleStep

    def broken(document, context, findings):
        return [][1]

    runner.SKILL_RULES = tuple(
        RuleStep(step.name, step.codes, broken) if step.name == "skill/links" else step
        for step in runner.SKILL_RULES
    )
    from clarvis_lsp.cli import main
    raise SystemExit(main())
    """
)
CLIENTS = {"visual_studio_code": "visual-studio-code@v1.65.2", "neovim": "neovim@v0.11.0"}


@pytest.fixture
def broken_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    text = "---\nname: review\ndescription: Reviews.\nuser-invokable: true\n---\nSee [the guide](missing.md).\n"
    write_file(ws, ".clarvis/skills/review/SKILL.md", text)
    return ws


@pytest_lsp.fixture(
    params=list(CLIENTS),
    config=ClientServerConfig(server_command=[sys.executable, "-c", BROKEN_SERVER, "--stdio"]),
)
async def broken_client(lsp_client: LanguageClient, request: pytest.FixtureRequest, broken_workspace: Path):
    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(params: None) -> None:
        """VS Code's capabilities promise this request an answer."""

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        """The server registers its file watchers; accepting them is enough here."""

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(CLIENTS[request.param]),
            root_uri=broken_workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=broken_workspace.as_uri(), name="ws")],
            initialization_options={"clarvis": {"includeUser": False}},
        )
    )
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_raising_rule_is_reported_and_hides_nothing(
    broken_client: LanguageClient, broken_workspace: Path
) -> None:
    path = broken_workspace / ".clarvis/skills/review/SKILL.md"
    open_document(broken_client, path)
    found = await diagnostics_for(broken_client, path, until=lambda codes: "internal/rule-failed" in codes)
    assert sorted(str(item.code) for item in found) == ["internal/rule-failed", "skill/unknown-field"]
    failed = next(item for item in found if item.code == "internal/rule-failed")
    assert "skill/links" in failed.message and failed.severity == types.DiagnosticSeverity.Error
    # The server keeps serving: hover on the unknown key still answers.
    hover = await broken_client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(1, 2))
    )
    assert hover is not None
