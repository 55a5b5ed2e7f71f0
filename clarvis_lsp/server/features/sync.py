"""Document sync: open, change (coalesced), save and close.

Open buffers go into the overlay, so discovery sees unsaved text; closing a buffer falls back to disk. The
changes themselves are applied by the protocol (``ClarvisProtocol``, ``clarvis_lsp.server.edits``).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any
from urllib.parse import unquote

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


# The one request that shows the server's copy of a document, for the protocol storm (tests/fuzz): registered only
# when the server starts with this variable set to 1, so no editor can reach it. No feature shows every byte of a
# document (an edit that lands in the wrong place of a SKILL.md body may change no finding), and the storm must
# prove the copy is the client's, byte for byte (SPEC §9).
TEST_REQUESTS = "CLARVIS_LSP_TEST_REQUESTS"
DOCUMENT_TEXT = "clarvis/test/documentText"


def document_text(server: ClarvisServer, params: Any) -> dict[str, object]:
    """``{"uri"}`` → the document's version and text as the features read it (the overlay, for the kinds the server
    checks) and as pygls holds it (every open document)."""
    uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    if not isinstance(uri, str):
        return {}
    path = uri_to_path(uri)
    document = server.workspace.text_documents.get(unquote(uri))
    return {
        "version": server.versions.get(path) if path is not None else None,
        "text": server.overlay.get(path) if path is not None else None,
        "workspaceText": document.source if document is not None else None,
    }


SERVER_STATE = "clarvis/test/serverState"


def server_state(server: ClarvisServer, params: Any) -> dict[str, int]:
    """What a long-lived server must not accumulate: objects frozen out of the collector's reach, and the state
    of first scans that have ended (``scans``, ``scanWaiting``, ``scanFailed`` are keyed by live engines)."""
    return {
        "gcFrozen": gc.get_freeze_count(),
        "scans": len(server.scans),
        "scanWaiting": len(server.scan_waiting),
        "scanFailed": len(server.scan_failed),
        "engines": len(server.engines),
    }
