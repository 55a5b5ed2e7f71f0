"""Rename and prepareRename over ``clarvis_lsp.editor.rename``.

A refused rename (an invalid name, a file move the editor cannot make) is answered with a ``RequestFailed``
error carrying the reason, which editors show to the user. Clients that take ``documentChanges`` get versioned
edits for open documents and the directory or file moves; the others get plain ``changes`` and no moves.
"""

from __future__ import annotations

from collections import defaultdict

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from clarvis_lsp.editor import rename as editor_rename
from clarvis_lsp.findings import TextEdit
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range


class RenameFailed(JsonRpcException):
    """LSP's RequestFailed: the request was valid, the rename cannot be done; the message says why."""

    CODE = types.LSPErrorCodes.RequestFailed.value


async def prepare_rename(server: ClarvisServer, params: types.PrepareRenameParams) -> types.PrepareRenameResult | None:
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)
    target = editor_rename.prepare_rename(snapshot.view, snapshot.path, snapshot.text, position)
    if target is None:
        return None
    return types.PrepareRenamePlaceholder(
        range=to_client_range(target.range, snapshot.lines, server.encoding), placeholder=target.name
    )


async def rename(server: ClarvisServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)
    document_changes = _takes_document_changes(server)
    try:
        plan = editor_rename.rename(
            snapshot.view,
            snapshot.path,
            snapshot.text,
            position,
            params.new_name,
            can_rename_files=document_changes and _can_rename_files(server),
        )
    except editor_rename.RenameRefused as refused:
        raise RenameFailed(str(refused)) from None
    if document_changes:
        return types.WorkspaceEdit(document_changes=_document_changes(server, plan))
    return types.WorkspaceEdit(changes=_changes(server, plan.edits))


def _workspace_edit_capabilities(server: ClarvisServer) -> types.WorkspaceEditClientCapabilities | None:
    workspace = server.client_capabilities.workspace
    return workspace.workspace_edit if workspace else None


def _takes_document_changes(server: ClarvisServer) -> bool:
    capabilities = _workspace_edit_capabilities(server)
    return bool(capabilities and capabilities.document_changes)


def _can_rename_files(server: ClarvisServer) -> bool:
    capabilities = _workspace_edit_capabilities(server)
    operations = (capabilities.resource_operations if capabilities else None) or []
    return types.ResourceOperationKind.Rename in operations


def _lsp_edits(server: ClarvisServer, edits: list[TextEdit]) -> list[types.TextEdit]:
    return [
        types.TextEdit(
            range=to_client_range(edit.range, server.session.lines_of(edit.path), server.encoding),
            new_text=edit.new_text,
        )
        for edit in edits
    ]


def _by_file(edits: tuple[TextEdit, ...]) -> dict[str, list[TextEdit]]:
    grouped: dict[str, list[TextEdit]] = defaultdict(list)
    for edit in edits:
        grouped[edit.path.as_uri()].append(edit)
    return grouped


def _changes(server: ClarvisServer, edits: tuple[TextEdit, ...]) -> dict[str, list[types.TextEdit]]:
    return {uri: _lsp_edits(server, grouped) for uri, grouped in _by_file(edits).items()}


def _document_changes(
    server: ClarvisServer, plan: editor_rename.RenamePlan
) -> list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile]:
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = []
    for uri, grouped in _by_file(plan.edits).items():
        path = grouped[0].path
        version = server.session.buffers.version(path)
        changes.append(
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                edits=list(_lsp_edits(server, grouped)),
            )
        )
    changes.extend(types.RenameFile(old_uri=move.old.as_uri(), new_uri=move.new.as_uri()) for move in plan.files)
    return changes
