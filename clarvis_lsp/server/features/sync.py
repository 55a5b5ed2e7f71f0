"""Document sync: open, change (coalesced), save and close.

An open document of a kind the server checks becomes one of the session's buffers (read from pygls's copy, the
only one), so discovery sees unsaved text; closing it falls back to disk. The changes themselves are applied to
pygls's copy by the protocol (``ClarvisProtocol``, ``clarvis_lsp.server.edits``).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.session import uri_to_path


def _ours(server: ClarvisServer, path: Path) -> bool:
    """Whether the file is one of the kinds the server checks. Clients such as Zed and vim-lsp send every
    Markdown and JSON file; a README.md or package.json is kept in sync (by pygls) but checks, scans and notifies
    nothing."""
    return server.session.engine_for(path).kind_of(path) is not None


def did_open(server: ClarvisServer, params: types.DidOpenTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is None or not _ours(server, path):
        return
    server.session.open_buffer(path, params.text_document.uri)
    server.refresh(path)


def did_change(server: ClarvisServer, params: types.DidChangeTextDocumentParams) -> None:
    """The change is in pygls's document already (applied by the protocol): check it."""
    path = uri_to_path(params.text_document.uri)
    if path is None or path not in server.session.buffers:
        return  # not one of ours (see did_open)
    server.schedule_refresh(path)  # coalesces a burst of changes into one check


def did_save(server: ClarvisServer, params: types.DidSaveTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is not None and _ours(server, path):
        server.session.resume_scan(path)  # a save resumes a first scan the user cancelled
        server.refresh(path)


def did_close(server: ClarvisServer, params: types.DidCloseTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    # pygls has dropped its document already; a buffer that was one of ours goes back to the disk content
    if path is not None and server.session.close_buffer(path):
        server.refresh(path)


# The one request that shows the server's state to tests, for the protocol storm (tests/fuzz) and
# tests/lsp/test_server_state.py: registered only when the server starts with this variable set to 1, so no editor
# can reach it. No feature shows every byte of a document (an edit that lands in the wrong place of a SKILL.md body
# may change no finding), and the storm must prove the copy is the client's, byte for byte (SPEC §9).
TEST_REQUESTS = "CLARVIS_LSP_TEST_REQUESTS"
SERVER_STATE = "clarvis/test/serverState"


def server_state(server: ClarvisServer, params: Any) -> dict[str, object]:
    """What a long-lived server must not accumulate: objects frozen out of the collector's reach (``gcFrozen``;
    ``gcEnabled``: whether the collector runs at all), the state of first scans that have ended (``scans`` are
    keyed by live engines, ``scanWaiting`` and ``scanFailed`` count the workspaces with some), helper processes
    started for a first scan that none has taken (``helpersAhead``); how many documents are open
    (``openDocuments``, in pygls's workspace) and how many of them are the buffers the engines read (``buffers``).

    With ``{"uri"}``, that document as the server holds it: ``version``, ``text`` (what the features read, the
    session's buffer, or None when the document is not one), and ``copies``: how many distinct text objects the
    server holds for it, pygls's document and the features' buffer counted apart (1: one copy, read by both)."""
    session = server.session
    try:
        documents = server.workspace.text_documents
    except RuntimeError:  # before initialize
        documents = {}
    state: dict[str, object] = {
        "gcFrozen": gc.get_freeze_count(),
        "gcEnabled": gc.isenabled(),
        "scans": len(session.scans),
        "scanWaiting": sum(1 for workspace in session.workspaces.values() if workspace.scan_waiting),
        "scanFailed": sum(1 for workspace in session.workspaces.values() if workspace.scan_failed),
        "helpersAhead": len(session.helpers_ahead.helpers) if session.helpers_ahead is not None else 0,
        "engines": len(session.workspaces),
        "openDocuments": len(documents),
        "buffers": len(session.buffers),
    }
    uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    if isinstance(uri, str):
        path = uri_to_path(uri)
        document = documents.get(unquote(uri))
        held = document.source if document is not None else None
        text = session.buffers.get(path) if path is not None else None
        state["version"] = document.version if document is not None else None
        state["text"] = text
        state["copies"] = len({id(item) for item in (held, text) if item is not None})
    return state
