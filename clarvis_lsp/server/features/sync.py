"""Document sync: open, change (coalesced), save and close.

Open buffers go into the overlay, so discovery sees unsaved text; closing a buffer falls back to disk.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer, uri_to_path


def _ours(server: ClarvisServer, path: Path) -> bool:
    """Whether the file is one of the kinds the server checks. Clients such as Zed and vim-lsp send every
    Markdown and JSON file; a README.md or package.json is kept in sync but checks, scans and notifies nothing."""
    return server.engine_for(path).kind_of(path) is not None


def did_open(server: ClarvisServer, params: types.DidOpenTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return
    if not _ours(server, path):
        return
    server.overlay[path] = params.text_document.text
    server.versions[path] = params.text_document.version
    server.refresh(path)


def did_change(server: ClarvisServer, params: types.DidChangeTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None:
        return
    if path not in server.overlay:
        return  # not one of ours (see did_open)
    document = server.workspace.get_text_document(params.text_document.uri)
    server.overlay[path] = document.source
    server.versions[path] = params.text_document.version
    server.schedule_refresh(path)  # coalesces a burst of changes into one check


def did_save(server: ClarvisServer, params: types.DidSaveTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is not None and _ours(server, path):
        server.refresh(path)


def did_close(server: ClarvisServer, params: types.DidCloseTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None or path not in server.overlay:
        return
    server.overlay.pop(path, None)  # back to the disk content, for discovery too
    server.versions.pop(path, None)
    server.refresh(path)
