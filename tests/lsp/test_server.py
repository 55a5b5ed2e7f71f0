"""End-to-end diagnostics through the protocol: encodings, and open buffers overriding disk for discovery."""

from __future__ import annotations

from pathlib import Path

from lsp_support import ClarvisClient, diagnostics_for, open_document, related_uri
from lsprotocol import types


async def test_position_encoding_is_the_clients(client: ClarvisClient, workspace: Path) -> None:
    path = workspace / ".clarvis/skills/emoji/SKILL.md"
    path.parent.mkdir(parents=True)
    text = "---\nname: emoji\ndescription: 😀 é\nuser-invokable: x\n---\n[😀é](missing.md)\n"
    path.write_text(text, encoding="utf-8")
    open_document(client, path, text)
    found = await diagnostics_for(client, path, until=lambda codes: "skill/broken-link" in codes)
    link = next(item for item in found if item.code == "skill/broken-link")
    # "[😀é](" is 5 code points, 6 UTF-16 units and 9 UTF-8 bytes before the link target.
    expected = 9 if client.client_name == "neovim" else 6
    assert link.range.start == types.Position(line=5, character=expected)
    assert link.code_description is not None
    unknown = next(item for item in found if item.code == "skill/unknown-field")
    assert unknown.severity == types.DiagnosticSeverity.Warning
    assert unknown.range == types.Range(start=types.Position(3, 0), end=types.Position(3, 14))


async def test_unsaved_rename_updates_the_other_copy_at_once(client: ClarvisClient, workspace: Path) -> None:
    winner = workspace / ".clarvis/skills/review/SKILL.md"
    loser = workspace / ".agents/skills/review/SKILL.md"
    open_document(client, loser, loser.read_text())
    open_document(client, winner, winner.read_text())
    before = await diagnostics_for(client, loser, until=lambda codes: codes == ["discovery/shadowed"])
    assert [item.code for item in before] == ["discovery/shadowed"]
    assert related_uri(before[0]) == winner.as_uri()

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
