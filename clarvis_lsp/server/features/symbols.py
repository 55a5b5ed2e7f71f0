"""Document symbols (an outline of every file kind) and workspace symbols (skills, plugins and agents of every
workspace in the folders, nested ones included)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.editor import navigation
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range
from clarvis_lsp.server.features.diagnostics import SLICE_SECONDS
from clarvis_lsp.server.features.locations import to_location
from clarvis_lsp.workspace.engine import WorkspaceEngine


def document_symbol(
    server: ClarvisServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    symbols = navigation.document_symbols(snapshot.kind, snapshot.path, snapshot.text)
    hierarchical = [to_document_symbol(symbol, snapshot.lines, server.encoding) for symbol in symbols]
    if _hierarchical_supported(server):
        return hierarchical
    return list(_flatten(hierarchical, snapshot.uri, None))


async def workspace_symbol(server: ClarvisServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    """Cancellable: the first scans are awaited (a cancel stops the wait, not the scan), and converting the
    matches (each location against its file's text) yields to the event loop every ``SLICE_SECONDS``."""
    views = await server.session.scanned_views(_engines(server))
    found = navigation.workspace_symbols(views, params.query)
    answer: list[types.SymbolInformation] = []
    deadline = time.monotonic() + SLICE_SECONDS
    for symbol in found:
        answer.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=types.SymbolKind(int(symbol.kind)),
                location=to_location(server, symbol.location),
                container_name=symbol.container,
            )
        )
        if time.monotonic() >= deadline:
            await asyncio.sleep(0)
            deadline = time.monotonic() + SLICE_SECONDS
    return answer


def to_document_symbol(symbol: navigation.Symbol, lines: LineIndex, encoding: str) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name,
        kind=types.SymbolKind(int(symbol.kind)),
        range=to_client_range(symbol.range, lines, encoding),
        selection_range=to_client_range(symbol.selection_range, lines, encoding),
        detail=symbol.detail,
        children=[to_document_symbol(child, lines, encoding) for child in symbol.children] or None,
    )


def _hierarchical_supported(server: ClarvisServer) -> bool:
    text_document = server.client_capabilities.text_document
    symbols = text_document.document_symbol if text_document else None
    return bool(symbols and symbols.hierarchical_document_symbol_support)


def _flatten(
    symbols: Sequence[types.DocumentSymbol], uri: str, container: str | None
) -> Iterable[types.SymbolInformation]:
    """The outline as a flat list, for clients without hierarchical document symbols."""
    for symbol in symbols:
        yield types.SymbolInformation(
            name=symbol.name,
            kind=symbol.kind,
            location=types.Location(uri=uri, range=symbol.range),
            container_name=container,
        )
        yield from _flatten(symbol.children or [], uri, symbol.name)


def _engines(server: ClarvisServer) -> list[WorkspaceEngine]:
    """Every workspace in the workspace folders, nested ones included (a monorepo is several workspaces), and the
    workspace of each open document outside them. Not every engine the server holds: reading a file outside the
    folders (a personal skill's text, to place its symbol) makes one for that file alone, and searching those
    would scan the personal roots once for each of them."""
    engines = server.session.folder_engines()
    for path in server.session.buffers:
        engine = server.session.engine_for(path)
        if engine not in engines:
            engines.append(engine)
    return engines
