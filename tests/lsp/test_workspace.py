"""End-to-end workspace behaviour: file events, save/close, configuration, multi-root, quick fixes, resilience."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from lsp_support import (
    ClarvisClient,
    actions_of,
    diagnostics_for,
    edits_in,
    is_neovim,
    open_document,
    related_uri,
    write_file,
)
from lsprotocol import types

SKILL = "---\nname: {name}\ndescription: Does {name} things.\n---\n# {name}\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".agents/skills/deploy/SKILL.md", SKILL.format(name="deploy"))
    write_file(ws, ".clarvis/skills/typo/SKILL.md", "---\nname: typo\ndescription: d\nuser-invokable: true\n---\n")
    other = tmp_path / "other"
    write_file(other, ".clarvis/skills/deploy/SKILL.md", SKILL.format(name="deploy"))
    return ws


def codes(items: list[types.Diagnostic]) -> list[str]:
    return sorted(str(item.code) for item in items)


def watched(client: ClarvisClient, path: Path, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=kind)])
    )


async def test_watchers_are_registered_dynamically(client: ClarvisClient) -> None:
    # The server registers its watchers in `initialized`, then asks for its configuration; a session starts only
    # once that request has arrived, so whatever the server was going to register is registered by now.
    assert client.configuration_requests >= 1
    if is_neovim(client):
        # Neovim 0.11 on Linux declares no dynamic registration for file watching: nothing may be registered.
        assert client.registrations == []
        return
    [registration] = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    options: Any = registration.register_options  # the client keeps the server's JSON as it came
    globs = [watcher["globPattern"] for watcher in options["watchers"]]
    assert "**/SKILL.md" in globs and "**/.clarvis/settings.json" in globs


async def test_skill_directory_created_and_deleted_on_disk(client: ClarvisClient, workspace: Path) -> None:
    shared = workspace / ".agents/skills/deploy/SKILL.md"
    open_document(client, shared)
    assert codes(await diagnostics_for(client, shared, until=lambda found: found == [])) == []

    created = write_file(workspace, ".clarvis/skills/deploy/SKILL.md", SKILL.format(name="deploy"))
    watched(client, created, types.FileChangeType.Created)
    found = await diagnostics_for(client, shared, until=lambda found: found == ["discovery/shadowed"])
    assert codes(found) == ["discovery/shadowed"]
    assert related_uri(found[0]) == created.as_uri()

    shutil.rmtree(created.parent)
    watched(client, created.parent, types.FileChangeType.Deleted)
    assert codes(await diagnostics_for(client, shared, until=lambda found: found == [])) == []


async def test_close_falls_back_to_disk(client: ClarvisClient, workspace: Path) -> None:
    typo = workspace / ".clarvis/skills/typo/SKILL.md"
    open_document(client, typo, "---\nname: typo\ndescription: d\n---\n")
    assert codes(await diagnostics_for(client, typo, until=lambda found: found == [])) == []
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(typo.as_uri())))
    if is_neovim(client):
        return  # a pull client asks again when it reopens; the push client is told at once
    found = await diagnostics_for(client, typo, until=lambda found: found == ["skill/unknown-field"])
    assert codes(found) == ["skill/unknown-field"]


async def test_save_rechecks(client: ClarvisClient, workspace: Path) -> None:
    typo = workspace / ".clarvis/skills/typo/SKILL.md"
    open_document(client, typo)
    assert codes(await diagnostics_for(client, typo, until=lambda found: bool(found))) == ["skill/unknown-field"]
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(typo.as_uri())))
    assert codes(await diagnostics_for(client, typo, until=lambda found: bool(found))) == ["skill/unknown-field"]


async def test_configuration_change_rechecks(client: ClarvisClient, workspace: Path) -> None:
    typo = workspace / ".clarvis/skills/typo/SKILL.md"
    open_document(client, typo)
    assert codes(await diagnostics_for(client, typo, until=lambda found: bool(found))) == ["skill/unknown-field"]
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"rules": {"skill/unknown-field": "error"}}})
    )
    found = await diagnostics_for(
        client,
        typo,
        until=lambda found: found == ["skill/unknown-field"],
        where=lambda items: all(item.severity == types.DiagnosticSeverity.Error for item in items),
    )
    assert codes(found) == ["skill/unknown-field"]
    assert found[0].severity == types.DiagnosticSeverity.Error
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"clarvis": {"rules": {"skill/unknown-field": "off"}}})
    )
    assert codes(await diagnostics_for(client, typo, until=lambda found: found == [])) == []


async def test_quick_fix_applied_and_rechecked(client: ClarvisClient, workspace: Path) -> None:
    typo = workspace / ".clarvis/skills/typo/SKILL.md"
    text = typo.read_text()
    open_document(client, typo, text)
    [finding] = await diagnostics_for(client, typo, until=lambda found: bool(found))
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(typo.as_uri()),
            range=finding.range,
            context=types.CodeActionContext(diagnostics=[finding]),
        )
    )
    titles = [action.title for action in actions_of(actions)]
    assert titles == ['Rename "user-invokable" to "user-invocable"', 'Remove the field "user-invokable"']
    [edit] = edits_in(actions_of(actions)[0], typo.as_uri())
    assert edit.range == types.Range(types.Position(3, 0), types.Position(3, 14))
    fixed = text.replace("user-invokable", edit.new_text)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=typo.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    assert codes(await diagnostics_for(client, typo, until=lambda found: found == [])) == []


async def test_server_keeps_answering_after_a_feature_raised(client: ClarvisClient, workspace: Path) -> None:
    typo = workspace / ".clarvis/skills/typo/SKILL.md"
    broken = types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 1)),
        message="from a confused client",
        data={"fixes": [{"title": "x", "edits": [{"uri": typo.as_uri(), "start": "nonsense", "end": None}]}]},
    )
    with pytest.raises(Exception):  # noqa: B017 - the error comes back as a JSON-RPC error of that request alone
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(typo.as_uri()),
                range=broken.range,
                context=types.CodeActionContext(diagnostics=[broken]),
            )
        )
    assert any("code_action failed" in message.message for message in client.log_messages)
    open_document(client, typo)
    assert codes(await diagnostics_for(client, typo, until=lambda found: bool(found))) == ["skill/unknown-field"]


class TestMultiRoot:
    async def test_folders_do_not_shadow_each_other(self, client: ClarvisClient, workspace: Path) -> None:
        other = workspace.parent / "other"
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(
                    added=[types.WorkspaceFolder(uri=other.as_uri(), name="other")], removed=[]
                )
            )
        )
        first = workspace / ".agents/skills/deploy/SKILL.md"
        second = other / ".clarvis/skills/deploy/SKILL.md"
        open_document(client, first)
        open_document(client, second)
        assert codes(await diagnostics_for(client, second, until=lambda found: found == [])) == []
        assert codes(await diagnostics_for(client, first, until=lambda found: found == [])) == []


async def test_workspace_symbols_include_nested_workspaces(client: ClarvisClient, workspace: Path) -> None:
    nested = write_file(workspace, "packages/app/.clarvis/skills/inner-tool/SKILL.md", SKILL.format(name="inner-tool"))
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="inner"))
    assert found is not None
    assert [(symbol.name, symbol.location.uri) for symbol in found] == [("inner-tool", nested.as_uri())]
