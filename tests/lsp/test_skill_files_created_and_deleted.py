"""Creating and deleting skills in the editor's explorer, through the protocol under the VS Code capability set
(file operations declared, versioned ``documentChanges`` with resource operations) and the Neovim one (none of
them declared: the notifications are served all the same, with plain ``changes``).

A new, empty SKILL.md gets its frontmatter through ``workspace/applyEdit`` (the client here applies it to the file,
as an editor does); a new skill folder gets a SKILL.md where the client takes ``CreateFile``; deleting the copy
of a skill that wins says, before the delete, which copy takes over or that none is left."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import ClarvisClient, diagnostics_for, is_neovim, write_file
from lsprotocol import types

from clarvis_lsp.editor.file_lifecycle import DESCRIPTION_HINT

SKILL = "---\nname: {name}\ndescription: {where} copy of {name}.\n---\nBody.\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    write_file(ws, ".clarvis/skills/shared/SKILL.md", SKILL.format(name="shared", where="The workspace"))
    write_file(ws, ".clarvis/skills/solo/SKILL.md", SKILL.format(name="solo", where="The only"))
    write_file(ws, ".agents/skills/shared/SKILL.md", SKILL.format(name="shared", where="The shared"))
    (tmp_path / "home").mkdir()
    return ws


async def created(client: ClarvisClient, *paths: Path) -> None:
    client.workspace_did_create_files(types.CreateFilesParams(files=[types.FileCreate(uri=p.as_uri()) for p in paths]))


async def test_the_skill_globs_are_registered_where_the_client_has_file_operations(client: ClarvisClient) -> None:
    workspace_options = client.server_capabilities.workspace
    operations = workspace_options.file_operations if workspace_options else None
    if is_neovim(client):
        assert operations is None or (operations.did_create is None and operations.will_delete is None)
        return
    assert operations is not None and operations.did_create is not None and operations.will_delete is not None
    for registered in (operations.did_create, operations.will_delete):
        assert {(item.pattern.glob, item.pattern.matches) for item in registered.filters} == {
            ("**/skills/*", types.FileOperationPatternKind.Folder),
            ("**/skills/*/SKILL.md", types.FileOperationPatternKind.File),
        }


async def test_a_new_empty_skill_md_gets_its_frontmatter(client: ClarvisClient, workspace: Path) -> None:
    new = write_file(workspace, ".clarvis/skills/release-notes/SKILL.md", "")
    before = len(client.applied_edits)
    await created(client, new)
    assert await client.wait_for(lambda: len(client.applied_edits) == before + 1)
    assert client.applied_edits[before].label == "Frontmatter for the new skill release-notes"
    assert new.read_text(encoding="utf-8") == f"---\nname: release-notes\ndescription: {DESCRIPTION_HINT}\n---\n\n"
    found = await diagnostics_for(client, new, until=lambda found: "skill/missing-description" in found)
    assert [item.code for item in found] == ["skill/missing-description"]  # the one thing left to write


async def test_a_skill_md_that_holds_anything_is_left_as_it_is(client: ClarvisClient, workspace: Path) -> None:
    text = "# Notes\n\nStill deciding.\n"
    new = write_file(workspace, ".clarvis/skills/notes/SKILL.md", text)
    outside = write_file(workspace, "docs/SKILL.md", "")  # not in a skill root
    before = len(client.applied_edits)
    await created(client, new, outside)
    found = await diagnostics_for(client, new, until=lambda found: "skill/no-frontmatter" in found)
    assert "skill/no-frontmatter" in [item.code for item in found]
    assert len(client.applied_edits) == before
    assert new.read_text(encoding="utf-8") == text and outside.read_text(encoding="utf-8") == ""


async def test_a_new_skill_folder_gets_a_skill_md_where_the_client_creates_files(
    client: ClarvisClient, workspace: Path
) -> None:
    folder = workspace / ".clarvis/skills/triage"
    folder.mkdir()
    before = len(client.applied_edits)
    await created(client, folder)
    skill_md = folder / "SKILL.md"
    if is_neovim(client):  # no documentChanges, so no CreateFile: the folder is left empty
        assert not await client.wait_for(lambda: len(client.applied_edits) > before, timeout=1.0)
        assert not skill_md.exists()
        return
    assert await client.wait_for(lambda: len(client.applied_edits) == before + 1)
    [create, insert] = client.applied_edits[before].edit.document_changes or []
    assert isinstance(create, types.CreateFile) and create.uri == skill_md.as_uri() and create.options is None
    assert isinstance(insert, types.TextDocumentEdit) and insert.text_document.uri == skill_md.as_uri()
    assert skill_md.read_text(encoding="utf-8").startswith("---\nname: triage\n")


async def test_deleting_the_winning_copy_says_which_copy_takes_over(client: ClarvisClient, workspace: Path) -> None:
    shadowed = workspace / ".agents/skills/shared"
    before = len(client.messages)
    await client.workspace_will_delete_files_async(
        types.DeleteFilesParams(files=[types.FileDelete(uri=shadowed.as_uri())])  # the shadowed copy: no notice
    )
    await client.workspace_will_delete_files_async(
        types.DeleteFilesParams(
            files=[
                types.FileDelete(uri=(workspace / ".clarvis/skills/shared").as_uri()),
                types.FileDelete(uri=(workspace / ".clarvis/skills/solo/SKILL.md").as_uri()),
            ]
        )
    )
    assert await client.wait_for(lambda: len(client.messages) > before)
    [notice] = client.messages[before:]
    assert notice.type == types.MessageType.Warning
    assert notice.message == (
        'Deleting .clarvis/skills/shared/SKILL.md (workspace/clarvis) removes the active copy of skill "shared": the '
        "copy in .agents/skills/shared/SKILL.md (workspace/agents) takes over. Deleting .clarvis/skills/solo/SKILL.md "
        '(workspace/clarvis) removes skill "solo": no other root has a copy, so the agent will no longer have it.'
    )
    assert (workspace / ".clarvis/skills/shared/SKILL.md").exists()  # the answer itself deletes nothing
