"""``workspace/didCreateFiles`` and ``workspace/willDeleteFiles`` for skills, over
``clarvis_lsp.editor.file_lifecycle``.

Registered for skill folders and their SKILL.md (where the client supports file operations), so the client sends
them when the user creates or deletes one in its explorer. A created skill is filled through
``workspace/applyEdit`` once it exists (a will-create answer may not touch the file being created): an empty
SKILL.md gets its frontmatter, an empty skill folder a SKILL.md (where the client takes a ``CreateFile`` in an
edit). A delete that removes a winning copy is announced with ``window/showMessage`` before it happens: which copy
takes over, or that none is left. The will-delete answer itself changes nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from lsprotocol import types

from clarvis_lsp.editor import file_lifecycle
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.session import uri_to_path
from clarvis_lsp.workspace.view import WorkspaceView


async def did_create_files(server: ClarvisServer, params: types.CreateFilesParams) -> None:
    async for path, view in _scanned(server, [item.uri for item in params.files]):
        fill = file_lifecycle.new_skill(view, path)
        edit = _fill_edit(server, fill) if fill is not None else None
        if edit is not None and fill is not None:
            await server.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(
                    edit=edit, label=f"Frontmatter for the new skill {fill.path.parent.name}"
                )
            )
        if path not in server.session.buffers:
            server.refresh(path)


async def will_delete_files(server: ClarvisServer, params: types.DeleteFilesParams) -> None:
    notices: list[str] = []
    async for path, view in _scanned(server, [item.uri for item in params.files]):
        notices += file_lifecycle.deletion_notices(view, path)
    if notices:
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=" ".join(notices)))


async def _scanned(server: ClarvisServer, uris: list[str]) -> AsyncIterator[tuple[Path, WorkspaceView]]:
    """Each local file of ``uris`` with its workspace as it is once that workspace's first scan has ended (the
    answers read which copy of a skill wins), taken when the file's turn comes."""
    for uri in uris:
        path = uri_to_path(uri)
        if path is None:
            continue
        [view] = await server.session.scanned_views([server.session.engine_for(path)])
        yield path, view


def _fill_edit(server: ClarvisServer, fill: file_lifecycle.NewSkill) -> types.WorkspaceEdit | None:
    """The edit that writes ``fill``: a plain insertion into the empty file, or a ``CreateFile`` and the insertion
    where the client takes resource operations (None where it does not: the folder stays empty)."""
    uri = fill.path.as_uri()
    insert = types.TextEdit(range=types.Range(types.Position(0, 0), types.Position(0, 0)), new_text=fill.text)
    workspace = server.client_capabilities.workspace
    capabilities = workspace.workspace_edit if workspace else None
    takes_changes = bool(capabilities and capabilities.document_changes)
    if not fill.create:
        if not takes_changes:
            return types.WorkspaceEdit(changes={uri: [insert]})
        identifier = types.OptionalVersionedTextDocumentIdentifier(
            uri=uri, version=server.session.buffers.version(fill.path)
        )
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[insert])])
    operations = (capabilities.resource_operations if capabilities else None) or []
    if not takes_changes or types.ResourceOperationKind.Create not in operations:
        return None
    create = types.CreateFile(uri=uri)  # neither overwrite nor ignore: a file made meanwhile fails the whole edit
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None)
    return types.WorkspaceEdit(
        document_changes=[create, types.TextDocumentEdit(text_document=identifier, edits=[insert])]
    )
