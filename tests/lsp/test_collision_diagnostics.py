"""``mcp/name-collision`` through the server: a workspace server named like an active plugin's server shows on the
settings key with the plugin's server as related information, and goes away when the plugin's unsaved buffer
renames its server (a cross-file finding republished on the other file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, diagnostics_for, open_document, write_file
from lsprotocol import types

SETTINGS = '{\n  "enabledPlugins": ["p"],\n  "mcpServers": {\n    "p:s": {"command": "mine"}\n  }\n}\n'
MANIFEST = '{\n  "name": "p",\n  "mcpServers": {\n    "s": {"command": "theirs"}\n  }\n}\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/settings.json", SETTINGS)
    write_file(ws, ".clarvis/plugins/p/plugin.json", MANIFEST)
    (tmp_path / "home").mkdir()
    return ws


def collisions(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [item for item in found if item.code == "mcp/name-collision"]


async def test_the_collision_shows_with_the_other_server_as_related_information(
    client: ClarvisClient, workspace: Path
) -> None:
    settings = workspace / ".clarvis/settings.json"
    manifest = workspace / ".clarvis/plugins/p/plugin.json"
    open_document(client, settings)
    found = await diagnostics_for(client, settings, lambda codes: "mcp/name-collision" in codes)
    [finding] = collisions(found)
    assert finding.severity == types.DiagnosticSeverity.Warning
    assert finding.range == types.Range(types.Position(3, 4), types.Position(3, 9))  # the key "p:s"
    assert "/workspace-trust" in finding.message
    [other] = finding.related_information or []
    assert other.location.uri == manifest.as_uri()
    assert other.location.range == types.Range(types.Position(3, 4), types.Position(3, 7))  # the key "s"
    assert other.message == 'the server "s" of plugin p ("p:s")'

    open_document(client, manifest)
    renamed = MANIFEST.replace('"s":', '"search":')
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=manifest.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=renamed)],
        )
    )
    await client.quiesce()
    found = await diagnostics_for(client, settings, lambda codes: "mcp/name-collision" not in codes)
    assert collisions(found) == []
    assert "mcp/invalid-server-name" in {str(item.code) for item in found}  # the name itself is still odd
