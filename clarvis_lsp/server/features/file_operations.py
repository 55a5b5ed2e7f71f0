"""``workspace/willRenameFiles`` and ``workspace/didRenameFiles`` for skill and plugin folders, over
``clarvis_lsp.editor.file_rename``.

Registered (statically, in the server's capabilities, where the client supports file operations) for the folder
globs the server handles, so a client sends them when the user renames a skill or plugin directory in its explorer.
The will-rename answer is applied by the client before it moves the folder: its edits address the old paths, in
the same form as a rename's (versioned ``documentChanges`` where the client takes them). The did-rename re-checks
the old and new places, as a watched-file event would.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor import file_rename
from clarvis_lsp.editor.rename import RenamePlan
from clarvis_lsp.findings import TextEdit
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features.rename import _changes, _document_changes, _takes_document_changes
from clarvis_lsp.server.session import uri_to_path


async def will_rename_files(server: ClarvisServer, params: types.RenameFilesParams) -> types.WorkspaceEdit | None:
    edits: list[TextEdit] = []
    for item in params.files:
        old, new = uri_to_path(item.old_uri), uri_to_path(item.new_uri)
        if old is None or new is None:
            continue
        [view] = await server.session.scanned_views([server.session.engine_for(old)])
        edits += file_rename.folder_rename_edits(view, old, new)
    if not edits:
        return None
    plan = RenamePlan(tuple(edits))
    if _takes_document_changes(server):
        return types.WorkspaceEdit(document_changes=_document_changes(server, plan))
    return types.WorkspaceEdit(changes=_changes(server, plan.edits))


def did_rename_files(server: ClarvisServer, params: types.RenameFilesParams) -> None:
    for item in params.files:
        for path in (uri_to_path(item.old_uri), uri_to_path(item.new_uri)):
            if path is not None and path not in server.session.buffers:
                server.refresh(path)
