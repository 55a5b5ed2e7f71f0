"""Rename and prepareRename through the protocol, under the VS Code capability set (``documentChanges`` with file
renames, UTF-16) and the Neovim one (plain ``changes``, no file renames, UTF-8).

The skill under rename writes an emoji before its ``name`` on the same line (a flow mapping), so its range
differs by encoding.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, is_neovim, open_document, write_file
from lsprotocol import types
from pygls.exceptions import JsonRpcException

BOOT = '---\n{description: "😀 boots", name: boot}\n---\n'
PLUGIN = '{\n  "name": "p",\n  "bootstrapSkill": "boot"\n}\n'
OTHER = "---\nname: other\ndescription: Uses the plugin's agent.\nagent: p:assistant\n---\n"
REVIEW = "---\nname: review\ndescription: Reviews.\nagent: helper\n---\n"
HELPER = "---\nname: helper\n---\nHelps.\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/review/SKILL.md", REVIEW)
    write_file(ws, ".clarvis/skills/other/SKILL.md", OTHER)
    write_file(ws, ".clarvis/agents/helper.md", HELPER)
    write_file(ws, ".clarvis/plugins/p/plugin.json", PLUGIN)
    write_file(ws, ".clarvis/plugins/p/skills/boot/SKILL.md", BOOT)
    write_file(ws, ".clarvis/plugins/p/agents/assistant.md", "# Assistant\n")
    write_file(ws, ".clarvis/settings.json", '{"enabledPlugins": ["p"]}\n')
    (tmp_path / "home").mkdir(exist_ok=True)
    return ws


def position_of(client: ClarvisClient, text: str, needle: str, delta: int = 1) -> types.Position:
    offset = text.index(needle) + delta
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    units = len(before.encode("utf-8")) if is_neovim(client) else len(before.encode("utf-16-le")) // 2
    return types.Position(line=text.count("\n", 0, offset), character=units)


async def prepare(client: ClarvisClient, path: Path, text: str, needle: str) -> object:
    return await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=position_of(client, text, needle)
        )
    )


async def rename(client: ClarvisClient, path: Path, text: str, needle: str, new_name: str) -> types.WorkspaceEdit:
    answer = await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=position_of(client, text, needle),
            new_name=new_name,
        )
    )
    assert answer is not None
    return answer


def text_edits(edit: types.WorkspaceEdit) -> dict[str, list[str]]:
    """Each file's new texts, whichever form the server chose for this client."""
    if edit.changes is not None:
        return {uri: [item.new_text for item in edits] for uri, edits in edit.changes.items()}
    result: dict[str, list[str]] = {}
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            result[change.text_document.uri] = [
                item.new_text for item in change.edits if isinstance(item, (types.TextEdit, types.AnnotatedTextEdit))
            ]
    return result


def moves(edit: types.WorkspaceEdit) -> list[tuple[str, str]]:
    return [
        (change.old_uri, change.new_uri)
        for change in edit.document_changes or []
        if isinstance(change, types.RenameFile)
    ]


async def test_prepare_rename_gives_the_name_under_the_cursor(client: ClarvisClient, workspace: Path) -> None:
    boot = workspace / ".clarvis/plugins/p/skills/boot/SKILL.md"
    answer = await prepare(client, boot, BOOT, "boot}")
    assert answer == types.PrepareRenamePlaceholder(
        range=types.Range(start=position_of(client, BOOT, "boot}", 0), end=position_of(client, BOOT, "boot}", 4)),
        placeholder="boot",
    )
    assert await prepare(client, boot, BOOT, "description") is None


async def test_renaming_a_skill_edits_its_bootstrap_and_moves_its_directory(
    client: ClarvisClient, workspace: Path
) -> None:
    manifest = workspace / ".clarvis/plugins/p/plugin.json"
    boot = workspace / ".clarvis/plugins/p/skills/boot/SKILL.md"
    open_document(client, boot)
    edit = await rename(client, manifest, PLUGIN, '"boot"', "start")
    assert text_edits(edit) == {boot.as_uri(): ["start"], manifest.as_uri(): ['"start"']}
    skills = workspace / ".clarvis/plugins/p/skills"
    if is_neovim(client):  # no documentChanges: the directory stays
        assert moves(edit) == []
    else:
        assert moves(edit) == [((skills / "boot").as_uri(), (skills / "start").as_uri())]
        first = (edit.document_changes or [])[0]
        assert isinstance(first, types.TextDocumentEdit) and first.text_document.version == 1  # the open buffer's


async def test_renaming_a_plugin_from_settings_follows_every_reference(client: ClarvisClient, workspace: Path) -> None:
    settings = workspace / ".clarvis/settings.json"
    edit = await rename(client, settings, settings.read_text(encoding="utf-8"), '"p"', "quality")
    other = workspace / ".clarvis/skills/other/SKILL.md"
    assert text_edits(edit) == {
        (workspace / ".clarvis/plugins/p/plugin.json").as_uri(): ['"quality"'],
        settings.as_uri(): ['"quality"'],
        other.as_uri(): ["quality:assistant"],
    }


async def test_an_invalid_name_is_refused_with_the_reason(client: ClarvisClient, workspace: Path) -> None:
    review = workspace / ".clarvis/skills/review/SKILL.md"
    with pytest.raises(JsonRpcException) as refused:
        await rename(client, review, REVIEW, "review", "two words")
    assert refused.value.code == types.LSPErrorCodes.RequestFailed
    assert 'Invalid skill name "two words"' in refused.value.message
    await client.settle()
    assert not [item for item in client.log_messages if item.type == types.MessageType.Error]


async def test_renaming_an_agent_moves_its_file_where_the_client_can(client: ClarvisClient, workspace: Path) -> None:
    review = workspace / ".clarvis/skills/review/SKILL.md"
    helper = workspace / ".clarvis/agents/helper.md"
    if is_neovim(client):
        with pytest.raises(JsonRpcException, match="cannot rename files"):
            await rename(client, review, REVIEW, "helper", "aide")
        return
    edit = await rename(client, review, REVIEW, "helper", "aide")
    assert text_edits(edit) == {helper.as_uri(): ["aide"], review.as_uri(): ["aide"]}
    assert moves(edit) == [(helper.as_uri(), helper.with_name("aide.md").as_uri())]
