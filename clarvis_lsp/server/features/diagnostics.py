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
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import converters, types

from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_lsp_diagnostic
from clarvis_lsp.server.session import uri_to_path
from clarvis_lsp.workspace.engine import WorkspaceEngine

SLICE_SECONDS = 0.01
"""How long a long request checks files before it lets the event loop serve other messages (a cancel among them)."""


@dataclass
class PullState:
    """What the server remembers of one pull client: the ``resultId`` it last received for each open document
    (``sent``), and the id of each open document's published findings (``ids``: path → (the findings list, the
    document version, the id), recomputed only when the server publishes a new list)."""

    sent: dict[Path, str] = field(default_factory=dict)
    ids: dict[Path, tuple[object, int | None, str]] = field(default_factory=dict)


_STATES: weakref.WeakKeyDictionary[ClarvisServer, PullState] = weakref.WeakKeyDictionary()


def pull_state(server: ClarvisServer) -> PullState:
    state = _STATES.get(server)
    if state is None:
        state = _STATES[server] = PullState()
    return state


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
    engine: WorkspaceEngine | None = None
    if path is not None and path in server.config_findings:
        found = server.config_findings[path]
    elif path is not None and server.session.engine_for(path).kind_of(path) is not None:
        engine = server.session.engine_for(path)
        found = await _document_findings(server, engine, path)
    items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in found]
    version = server.session.buffers.version(path) if path is not None else None
    rid = result_id(items, version)
    state = pull_state(server)
    if path is not None and path in server.session.buffers:
        state.sent[path] = rid
    related = _related_reports(server, state, path, engine) if path is not None and engine is not None else {}
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
    await server.session.scanned(engine)
    return server.findings_for(engine, [path])[path]


def _related_reports(
    server: ClarvisServer, state: PullState, path: Path, engine: WorkspaceEngine
) -> dict[str, types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport]:
    """The full reports of the other open documents of ``engine``'s workspace whose findings the client has not
    received yet: what an edit of ``path`` changed in them (their findings as last published by ``refresh``)."""
    related: dict[str, types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport] = {}
    for other in list(server.session.buffers):
        if other == path or other in server.config_findings or server.session.engine_for(other) is not engine:
            continue
        if engine.kind_of(other) is None:
            continue
        published = server.published.get(other, [])
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
    for gone in [item for item in {*state.ids, *state.sent} if item not in server.session.buffers]:
        state.ids.pop(gone, None)  # a closed document is pushed again, not pulled
        state.sent.pop(gone, None)
    return related


# -- workspace/diagnostic ----------------------------------------------------------------------------------------


async def workspace_diagnostic(
    server: ClarvisServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    server.flush()
    previous = {item.uri: item.value for item in params.previous_result_ids}
    state = pull_state(server)
    reports: list[types.WorkspaceDocumentDiagnosticReport] = []
    for path, found in [item async for item in workspace_findings(server)]:
        uri = path.as_uri()
        items = [to_lsp_diagnostic(item, server.session.lines_of, server.encoding) for item in found]
        version = server.session.buffers.version(path)
        rid = result_id(items, version)
        if path in server.session.buffers:
            state.sent[path] = rid
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
