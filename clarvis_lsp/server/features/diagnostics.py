"""Pulled diagnostics: ``textDocument/diagnostic`` for one file and ``workspace/diagnostic`` for every recognised
file of every workspace (pushed diagnostics are published by ``ClarvisServer.refresh``)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from clarvis_lsp.check import file_findings
from clarvis_lsp.discovery import find_workspaces
from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.server.app import ClarvisServer, uri_to_path
from clarvis_lsp.server.convert import to_lsp_diagnostic

OPTIONS = types.DiagnosticOptions(identifier="clarvis", inter_file_dependencies=True, workspace_diagnostics=True)


async def document_diagnostic(
    server: ClarvisServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    server.flush()  # answer for the latest text, not the one before a pending change
    path = uri_to_path(params.text_document.uri)
    items: list[types.Diagnostic] = []
    if path is not None and path in server.config_findings:
        found = server.config_findings[path]
        items = [to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found]
    elif path is not None:
        engine = server.engine_for(path)
        if engine.kind_of(path) is not None:
            # While the first scan runs, a client that can be asked to pull again gets what the file shows alone
            # now and a refresh when the scan ends; one that cannot (Neovim 0.11) waits for the full answer.
            alone = not server.ready(engine) and server.can_refresh_pulls
            if not alone:
                await server.scanned(engine)
            found = (
                file_findings(engine, [path], alone=True)[path] if alone else server.findings_for(engine, [path])[path]
            )
            items = [to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found]
    return types.RelatedFullDocumentDiagnosticReport(items=items)


async def workspace_diagnostic(
    server: ClarvisServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    for folder in server.folders:
        for directory in find_workspaces(folder, home=server.home):
            await server.scanned(server.engine_for(directory / ".clarvis"))
    for path, found in workspace_findings(server).items():
        items.append(
            types.WorkspaceFullDocumentDiagnosticReport(
                uri=path.as_uri(),
                version=None,
                items=[to_lsp_diagnostic(item, server.lines_of, server.encoding) for item in found],
            )
        )
    return types.WorkspaceDiagnosticReport(items=items)


def workspace_findings(server: ClarvisServer) -> dict[Path, list[Diagnostic]]:
    """Every recognised file of every workspace in every folder, with its findings (pull clients' Problems)."""
    found: dict[Path, list[Diagnostic]] = {}
    for folder in server.folders:
        for directory in find_workspaces(folder, home=server.home):
            engine = server.engine_for(directory / ".clarvis")
            files = [path for path in engine.files() if path not in found]
            found.update(server.findings_for(engine, files))
    return found
