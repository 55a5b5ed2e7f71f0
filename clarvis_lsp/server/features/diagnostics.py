"""Document sync and diagnostics: push on open/change/save/close, pull (``textDocument/diagnostic``), settings.

Open buffers go into the overlay, so discovery sees unsaved text; closing a buffer falls back to disk.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.server.app import ClarvisServer, uri_to_path
from clarvis_lsp.server.convert import to_lsp_diagnostic


def register(server: ClarvisServer) -> None:

    @server.feature(types.INITIALIZE)
    @server.guarded
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
    @server.guarded
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        server.overlay[path] = params.text_document.text
        server.versions[path] = params.text_document.version
        server.refresh(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @server.guarded
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        document = server.workspace.get_text_document(params.text_document.uri)
        server.overlay[path] = document.source
        server.versions[path] = params.text_document.version
        server.schedule_refresh(path)  # coalesces a burst of changes into one check

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @server.guarded
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is not None:
            server.refresh(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @server.guarded
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        if path is None:
            return
        server.overlay.pop(path, None)  # back to the disk content, for discovery too
        server.versions.pop(path, None)
        server.refresh(path)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier="clarvis", inter_file_dependencies=True, workspace_diagnostics=True),
    )
    @server.guarded
    def diagnostic(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        server.flush()  # answer for the latest text, not the one before a pending change
        path = uri_to_path(params.text_document.uri)
        items: list[types.Diagnostic] = []
        if path is not None and path in server.config_findings:
            found = server.config_findings[path]
            items = [to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found]
        elif path is not None:
            engine = server.engine_for(path)
            if engine.kind_of(path) is not None:
                found = server.findings_for(engine, [path])[path]
                items = [to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found]
        return types.RelatedFullDocumentDiagnosticReport(items=items)
