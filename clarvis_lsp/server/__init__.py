"""The pygls 2 language server: each LSP method registered once here, fanning out to the engine.

An exception inside one handler is logged to the client (``window/logMessage``) and answered as an error for
that request alone; the server keeps serving.
"""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer, uri_to_path
from clarvis_lsp.server.convert import to_lsp_diagnostic

LOG = logging.getLogger(__name__)
Handler = TypeVar("Handler", bound=Callable[..., Any])


def create_server() -> ClarvisServer:
    server = ClarvisServer()

    def guarded(handler: Handler) -> Handler:
        """Log a feature's exception to the client and re-raise it as that request's error only."""

        @functools.wraps(handler)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except Exception:
                server.window_log_message(
                    types.LogMessageParams(
                        type=types.MessageType.Error,
                        message=f"clarvis-lsp: {handler.__name__} failed:\n{traceback.format_exc()}",
                    )
                )
                raise

        return wrapper  # type: ignore[return-value]

    @server.feature(types.INITIALIZE)
    @guarded
    def initialize(params: types.InitializeParams) -> None:
        folders = [uri_to_path(folder.uri) for folder in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [uri_to_path(params.root_uri)]
        server.folders = [folder for folder in folders if folder is not None]
        options = params.initialization_options
        if isinstance(options, dict):
            server.set_editor_settings(options.get("clarvis", options))
        text_document = params.capabilities.text_document
        server.pull_diagnostics = bool(text_document and text_document.diagnostic)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        server.overlay[path] = params.text_document.text
        server.refresh(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        document = server.workspace.get_text_document(params.text_document.uri)
        server.overlay[path] = document.source
        server.refresh(path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is not None:
            server.refresh(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        server.overlay.pop(path, None)  # back to the disk content, for discovery too
        server.refresh(path)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier="clarvis", inter_file_dependencies=True, workspace_diagnostics=False),
    )
    @guarded
    def diagnostic(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        path = uri_to_path(params.text_document.uri)
        items: list[types.Diagnostic] = []
        if path is not None:
            engine = server.engine_for(path)
            if engine.kind_of(path) is not None:
                found = server.findings_for(engine, [path])[path]
                items = [to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found]
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded
    def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and "clarvis" in settings:
            server.set_editor_settings(settings["clarvis"])
        server.reset_engines()
        for path in list(server.overlay):
            server.refresh(path)

    return server


def serve(*, tcp: bool = False, ws: bool = False, host: str = "127.0.0.1", port: int = 2087) -> int:
    """Serve LSP over stdio (default), TCP or WebSocket until the client exits."""
    server = create_server()
    if tcp:
        server.start_tcp(host, port)
    elif ws:
        server.start_ws(host, port)
    else:
        server.start_io()
    return 0
