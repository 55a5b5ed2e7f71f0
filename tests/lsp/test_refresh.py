"""Lenses, inlay hints and semantic tokens follow discovery: a code lens requested before the first scan ends shows
the "shadowed by" lens (at once, or after the ``workspace/codeLens/refresh`` the scan's end sends), and when the
scan, a configuration change or a file created on disk changes what they would say, the client is asked to
refresh them (``workspace/codeLens/refresh``, ``workspace/semanticTokens/refresh``) — where it declares it can be.
Both capability sets (VS Code: lens and token refresh; Neovim 0.11: token refresh only, no lens refresh)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, open_document, write_file, write_numbered_skills
from lsprotocol import types

SKILLS = 3000
LOSER = ".agents/skills/skill-00000/SKILL.md"


@pytest.fixture(scope="module")
def big_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("big") / "ws"
    write_numbered_skills(ws, SKILLS)
    write_file(ws, LOSER, "---\nname: skill-00000\ndescription: Shared ✓.\n---\nSee [notes](notes.md).\n")
    return ws


@pytest.fixture
def workspace(big_workspace: Path) -> Path:
    return big_workspace


def refresh_supported(client: ClarvisClient, feature: str) -> bool:
    workspace = client.capabilities.workspace if client.capabilities else None
    capability = getattr(workspace, feature, None) if workspace else None
    return bool(capability is not None and capability.refresh_support)


async def lens_titles(client: ClarvisClient, path: Path) -> list[str]:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    )
    return [lens.command.title for lens in lenses or [] if lens.command is not None]


async def test_a_lens_requested_before_the_first_scan_ends(client: ClarvisClient, workspace: Path) -> None:
    loser = workspace / LOSER
    open_document(client, loser)
    titles = await lens_titles(client, loser)
    if not any(title.startswith("shadowed by") for title in titles):
        # Answered before the scan ended: the scan's end asks the client to ask again.
        assert refresh_supported(client, "code_lens"), titles
        assert await client.wait_for(lambda: client.code_lens_refreshes > 0)
        titles = await lens_titles(client, loser)
    assert [title for title in titles if title.startswith("shadowed by")] == [
        "shadowed by .clarvis/skills/skill-00000/SKILL.md"
    ]


async def test_a_configuration_change_and_a_new_file_ask_for_refreshes(client: ClarvisClient, workspace: Path) -> None:
    loser = workspace / LOSER
    open_document(client, loser)
    await client.quiesce()  # the first scan has ended
    before = (client.code_lens_refreshes, client.semantic_tokens_refreshes)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"includeUser": False, "rules": {}}})
    )
    await client.quiesce()
    if refresh_supported(client, "code_lens"):
        assert client.code_lens_refreshes > before[0]
    assert client.semantic_tokens_refreshes > before[1]  # both capability sets declare it

    # The link's target is created on disk: its token no longer says "does not resolve".
    notes = write_file(workspace, ".agents/skills/skill-00000/notes.md", "# Notes\n")
    try:
        seen = client.semantic_tokens_refreshes
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=notes.as_uri(), type=types.FileChangeType.Created)]
            )
        )
        assert await client.wait_for(lambda: client.semantic_tokens_refreshes > seen)
    finally:
        notes.unlink()
