"""Renaming a skill or plugin folder in the editor's explorer (``workspace/willRenameFiles``, then
``didRenameFiles``) through the protocol, under the VS Code capability set (file operations declared, versioned
``documentChanges``, UTF-16) and the Neovim one (no file operations declared, plain ``changes``, UTF-8; the
request is served all the same).

The skill's SKILL.md is a flow mapping with an emoji before its ``name``, so the edit's range differs by encoding.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types

BOOT = '---\n{description: "😀 boots", name: boot}\n---\n'
PLUGIN = '{\n  "name": "p",\n  "bootstrapSkill": "boot"\n}\n'
OTHER = "---\nname: other\ndescription: Uses the plugin's agent.\nagent: p:assistant\n---\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/other/SKILL.md", OTHER)
    write_file(ws, ".clarvis/skills/named/SKILL.md", "---\nname: elsewhere\ndescription: d\n---\n")
    write_file(ws, ".clarvis/plugins/p/plugin.json", PLUGIN)
    write_file(ws, ".clarvis/plugins/p/skills/boot/SKILL.md", BOOT)
    write_file(ws, ".clarvis/plugins/p/agents/assistant.md", "# Assistant\n")
    write_file(ws, ".clarvis/settings.json", '{"enabledPlugins": ["p"]}\n')
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


async def will_rename(client: ClarvisClient, old: Path, new: Path) -> types.WorkspaceEdit | None:
    return await client.workspace_will_rename_files_async(
        types.RenameFilesParams(files=[types.FileRename(old_uri=old.as_uri(), new_uri=new.as_uri())])
    )


def edits_by_uri(edit: types.WorkspaceEdit) -> dict[str, list[types.TextEdit]]:
    if edit.changes is not None:
        return {uri: list(edits) for uri, edits in edit.changes.items()}
    found: dict[str, list[types.TextEdit]] = {}
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit), change  # no file operation: the editor moves the folder
        found[change.text_document.uri] = [item for item in change.edits if isinstance(item, types.TextEdit)]
    return found


async def test_the_folder_globs_are_registered_where_the_client_has_file_operations(client: ClarvisClient) -> None:
    workspace_options = client.server_capabilities.workspace
    operations = workspace_options.file_operations if workspace_options else None
    if is_neovim(client):  # declares no file operations: nothing to register
        assert operations is None or operations.will_rename is None
        return
    assert operations is not None and operations.will_rename is not None and operations.did_rename is not None
    globs = {item.pattern.glob for item in operations.will_rename.filters}
    assert globs == {"**/skills/*", "**/plugins/*"}
    assert all(item.pattern.matches == types.FileOperationPatternKind.Folder for item in operations.will_rename.filters)


async def test_renaming_a_skill_folder_renames_the_skill(client: ClarvisClient, workspace: Path) -> None:
    skills = workspace / ".clarvis/plugins/p/skills"
    boot = skills / "boot/SKILL.md"
    manifest = workspace / ".clarvis/plugins/p/plugin.json"
    open_document(client, boot)
    edit = await will_rename(client, skills / "boot", skills / "start")
    assert edit is not None
    found = edits_by_uri(edit)
    assert {uri: [item.new_text for item in edits] for uri, edits in found.items()} == {
        boot.as_uri(): ["start"],
        manifest.as_uri(): ['"start"'],
    }
    [name_edit] = found[boot.as_uri()]
    before = '{description: "😀 boots", name: '
    column = len(before.encode("utf-8")) if is_neovim(client) else len(before.encode("utf-16-le")) // 2
    assert name_edit.range == types.Range(types.Position(1, column), types.Position(1, column + 4))
    if not is_neovim(client):
        first = (edit.document_changes or [])[0]
        assert isinstance(first, types.TextDocumentEdit) and first.text_document.version == 1  # the open buffer's


async def test_renaming_a_plugin_folder_follows_every_reference(client: ClarvisClient, workspace: Path) -> None:
    plugins = workspace / ".clarvis/plugins"
    edit = await will_rename(client, plugins / "p", plugins / "quality")
    assert edit is not None
    assert {uri: [item.new_text for item in edits] for uri, edits in edits_by_uri(edit).items()} == {
        (plugins / "p/plugin.json").as_uri(): ['"quality"'],
        (workspace / ".clarvis/settings.json").as_uri(): ['"quality"'],
        (workspace / ".clarvis/skills/other/SKILL.md").as_uri(): ["quality:assistant"],
    }


async def test_no_edit_when_the_name_did_not_follow_or_the_new_name_is_invalid(
    client: ClarvisClient, workspace: Path
) -> None:
    skills = workspace / ".clarvis/skills"
    assert await will_rename(client, skills / "named", skills / "renamed") is None  # its name is "elsewhere"
    assert await will_rename(client, skills / "other", skills / "two words") is None
    assert await will_rename(client, workspace / ".clarvis", workspace / ".clarvis2") is None


async def test_after_the_rename_discovery_knows_the_new_folder(client: ClarvisClient, workspace: Path) -> None:
    """The skill was edited to its new name (the buffer as the editor left it), the folder moved on disk, then
    ``didRenameFiles``: the workspace symbol of the skill points into the new folder."""
    skills = workspace / ".clarvis/skills"
    old, new = skills / "other", skills / "helper"
    edit = await will_rename(client, old, new)
    assert edit is not None
    (old / "SKILL.md").write_text(OTHER.replace("name: other", "name: helper"), encoding="utf-8")
    shutil.move(old, new)
    client.workspace_did_rename_files(
        types.RenameFilesParams(files=[types.FileRename(old_uri=old.as_uri(), new_uri=new.as_uri())])
    )
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="helper"))
    assert symbols is not None
    uris = [symbol.location.uri for symbol in symbols if isinstance(symbol, types.SymbolInformation)]
    assert (new / "SKILL.md").as_uri() in uris
    assert not [uri for uri in uris if uri.startswith(old.as_uri() + "/")]
