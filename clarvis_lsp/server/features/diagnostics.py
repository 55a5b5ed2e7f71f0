"""Pulled diagnostics: ``textDocument/diagnostic`` for one file and ``workspace/diagnostic`` for every recognised
file of every workspace (pushed diagnostics are published by ``ClarvisServer.refresh``).

Every report carries a ``resultId``: a hash of the report's diagnostics as the client receives them (positions in
the negotiated encoding) and of the document's version, so it changes whenever the findings change and only
then. A client that sends the id it holds (``previousResultId``, ``previousResultIds``) gets an ``unchanged``
report while it still matches. A pulled document's report also carries, as ``relatedDocuments``, the full reports
of the other open documents of its workspace whose findings changed since the client last got them: renaming one
copy of a skill changes the ``discovery/shadowed`` findings of the other copies, and a pull client is not pushed
its open documents.

``workspace/diagnostic`` can take seconds in a large workspace: it yields to the event loop between workspaces
and every few milliseconds of checking, so ``$/cancelRequest`` (and every other request) is served meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import converters, types

from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_lsp_diagnostic
from clarvis_lsp.server.session import uri_to_path
from clarvis_lsp.workspace.engine import WorkspaceEngine
from clarvis_lsp.workspace.live import Workspace

SLICE_SECONDS = 0.01
"""How long a long request checks files before it lets the event loop serve other messages (a cancel among them)."""


@functools.cache
def _converter() -> Any:
    return converters.get_converter()


def result_id(items: Sequence[types.Diagnostic], version: int | None) -> str:
    """A stable id of a report: the same diagnostics for the same document version give the same id."""
    payload = json.dumps(_converter().unstructure(list(items)), sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(f"{version}\n{payload}".encode(), digest_size=12)
    return digest.hexdigest()


# -- textDocument/diagnostic -------------------------------------------------------------------------------------


async def document_diagnostic(
    server: ClarvisServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    server.flush()  # answer for the latest text, not the one before a pending change
    path = uri_to_path(params.text_document.uri)
    found: list[Diagnostic] = []
    workspace = server.session.workspace_for(path) if path is not None else None
    checked = False
    if path is not None and workspace is not None and path in workspace.config_findings:
        found = workspace.config_findings[path]
    elif path is not None and workspace is not None and workspace.engine.kind_of(path) is not None:
        checked = True
        found = await _document_findings(server, workspace.engine, path)
        workspace = server.session.workspace_for(path)  # the same one, unless the folders changed meanwhile
    items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in found]
    version = server.session.buffers.version(path) if path is not None else None
    rid = result_id(items, version)
    if path is not None and workspace is not None and path in server.session.buffers:
        workspace.pull.sent[path] = rid
    related = {}
    if path is not None and workspace is not None and checked:
        related = _related_reports(server, workspace, path)
    if params.previous_result_id is not None and params.previous_result_id == rid:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid, related_documents=related or None)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=rid, related_documents=related or None)


async def _document_findings(server: ClarvisServer, engine: WorkspaceEngine, path: Path) -> list[Diagnostic]:
    """``path``'s findings for a pull, never a report that claims the file is clean before the first scan ends.

    While the scan runs, a client that can be asked to pull again gets the findings the file shows on its own at
    once (a refresh follows when the scan ends and adds the cross-file ones). When the file shows none on its own,
    an empty full report would say "clean" while a ``discovery/shadowed`` may still come, and a client without
    ``refreshSupport`` (Neovim 0.11) would keep it: the pull waits for the scan (under a second at 10,000 skills).
    """
    if not server.session.ready(engine) and server.can_refresh_pulls:
        alone = server.findings_for(engine, [path], alone=True)[path]
        if alone:
            return alone
    if not await server.session.scanned(engine):  # the user cancelled the scan: what the file shows on its own
        return server.findings_for(engine, [path], alone=True)[path]
    return server.findings_for(engine, [path])[path]


def _related_reports(
    server: ClarvisServer, workspace: Workspace, path: Path
) -> dict[str, types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport]:
    """The full reports of the other open documents of ``workspace`` whose findings the client has not received
    yet: what an edit of ``path`` changed in them (their findings as last published by ``refresh``)."""
    related: dict[str, types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport] = {}
    state, engine = workspace.pull, workspace.engine
    for other in sorted(workspace.open):
        if other == path or other in workspace.config_findings or other not in server.session.buffers:
            continue
        if engine.kind_of(other) is None:
            continue
        published = workspace.published.get(other, [])
        version = server.session.buffers.version(other)
        cached = state.ids.get(other)
        items: list[types.Diagnostic] | None = None
        if cached is not None and cached[0] is published and cached[1] == version:
            rid = cached[2]
        else:
            items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in published]
            rid = result_id(items, version)
            state.ids[other] = (published, version, rid)
        if state.sent.get(other) == rid:
            continue
        if items is None:
            items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in published]
        related[other.as_uri()] = types.FullDocumentDiagnosticReport(items=items, result_id=rid)
        state.sent[other] = rid
    for gone in [item for item in {*state.ids, *state.sent} if item not in workspace.open]:
        state.forget(gone)  # a closed document is pushed again, not pulled
    return related


# -- workspace/diagnostic ----------------------------------------------------------------------------------------


async def workspace_diagnostic(
    server: ClarvisServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    server.flush()
    previous = {item.uri: item.value for item in params.previous_result_ids}
    reports: list[types.WorkspaceDocumentDiagnosticReport] = []
    for path, found in [item async for item in workspace_findings(server)]:
        uri = path.as_uri()
        items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in found]
        version = server.session.buffers.version(path)
        rid = result_id(items, version)
        if path in server.session.buffers:
            server.session.workspace_for(path).pull.sent[path] = rid
        if previous.get(uri) == rid:
            reports.append(types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=rid, version=version))
        else:
            reports.append(
                types.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=items, result_id=rid, version=version)
            )
    return types.WorkspaceDiagnosticReport(items=reports)


async def workspace_findings(server: ClarvisServer) -> AsyncIterator[tuple[Path, list[Diagnostic]]]:
    """Every recognised file of every workspace in every folder, with its findings (pull clients' Problems): after
    each workspace's first scan, in slices of about ``SLICE_SECONDS`` between which other messages are served (a
    cancelled request stops at the next slice)."""
    seen: set[Path] = set()
    for engine in server.session.folder_engines():
        await server.session.scanned(engine)
        deadline = time.monotonic() + SLICE_SECONDS
        for batch in _batches(path for path in engine.files() if path not in seen):
            seen.update(batch)
            for item in server.findings_for(engine, batch).items():
                yield item
            if time.monotonic() >= deadline:
                await asyncio.sleep(0)
                deadline = time.monotonic() + SLICE_SECONDS
        await asyncio.sleep(0)


def _batches(paths: Iterable[Path], size: int = 32) -> Iterator[list[Path]]:
    batch: list[Path] = []
    for path in paths:
        batch.append(path)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
