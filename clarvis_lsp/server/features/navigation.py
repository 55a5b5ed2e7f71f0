"""Navigation: go to definition, references, document and workspace symbols, and the override code lens.

Thin adapters over ``clarvis_lsp.assist.navigation``: positions come in through the snapshot (the client's
encoding to code points) and every range goes out through ``convert`` against the text of the file it is in,
so a location in another file is right in that file's encoding too.

The code lens on a skill's ``name`` ("overrides N copies" / "shadowed by <path>") runs the server command
``clarvis.showLocations`` with the arguments ``[uri, position, locations]``: the same arguments as VS Code's
``editor.action.showReferences``, so a VS Code client can map the command to that peek view; any other client
sends it back to the server, which answers with ``window/showDocument`` on the first location.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from lsprotocol import converters, types

from clarvis_lsp.assist import navigation
from clarvis_lsp.discovery import find_workspaces
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.engine import WorkspaceEngine
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range

SHOW_LOCATIONS = "clarvis.showLocations"
_CONVERTER = converters.get_converter()


def register(server: ClarvisServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @server.guarded
    def definition(params: types.DefinitionParams) -> list[types.Location] | None:
        snapshot = server.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.kind is None:
            return None
        position = snapshot.position(params.position, server.encoding)
        found = navigation.definition(snapshot.engine, snapshot.path, snapshot.text, position, snapshot.kind)
        return to_locations(server, found) or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @server.guarded
    def references(params: types.ReferenceParams) -> list[types.Location] | None:
        snapshot = server.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.kind is None:
            return None
        position = snapshot.position(params.position, server.encoding)
        found = navigation.references(
            snapshot.engine,
            snapshot.path,
            snapshot.text,
            position,
            include_declaration=params.context.include_declaration,
        )
        return to_locations(server, found) or None

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.guarded
    def document_symbol(
        params: types.DocumentSymbolParams,
    ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
        snapshot = server.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.kind is None:
            return None
        symbols = navigation.document_symbols(snapshot.kind, snapshot.path, snapshot.text)
        hierarchical = [to_document_symbol(symbol, snapshot.lines, server.encoding) for symbol in symbols]
        if _hierarchical_supported(server):
            return hierarchical
        return list(_flatten(hierarchical, snapshot.uri, None))

    @server.feature(types.WORKSPACE_SYMBOL)
    @server.guarded
    def workspace_symbol(params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        found = navigation.workspace_symbols(_engines(server), params.query)
        return [
            types.SymbolInformation(
                name=symbol.name,
                kind=types.SymbolKind(int(symbol.kind)),
                location=to_location(server, symbol.location),
                container_name=symbol.container,
            )
            for symbol in found
        ]

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @server.guarded
    def code_lens(params: types.CodeLensParams) -> list[types.CodeLens] | None:
        snapshot = server.snapshot(params.text_document.uri)
        if snapshot is None or snapshot.kind is None:
            return None
        lenses: list[types.CodeLens] = []
        for lens in navigation.override_lenses(snapshot.engine, snapshot.path, snapshot.text):
            where = to_client_range(lens.range, snapshot.lines, server.encoding)
            locations = to_locations(server, lens.locations)
            arguments: list[Any] = [
                snapshot.uri,
                _CONVERTER.unstructure(where.start),
                [_CONVERTER.unstructure(location) for location in locations],
            ]
            lenses.append(
                types.CodeLens(range=where, command=types.Command(lens.title, SHOW_LOCATIONS, arguments=arguments))
            )
        return lenses

    @server.command(SHOW_LOCATIONS)
    async def show_locations(uri: str, position: types.Position, locations: list[types.Location]) -> bool:
        """Show the first of ``locations`` (``uri`` and ``position`` say where the lens was, as VS Code's
        ``editor.action.showReferences`` takes them). False when there is nothing to show or the client cannot
        show documents."""
        capabilities = server.client_capabilities.window
        supported = bool(capabilities and capabilities.show_document and capabilities.show_document.support)
        if not locations or not supported:
            return False
        first = locations[0]
        result = await server.window_show_document_async(
            types.ShowDocumentParams(uri=first.uri, take_focus=True, selection=first.range)
        )
        return bool(result and result.success)


def to_location(server: ClarvisServer, location: navigation.Location) -> types.Location:
    """An engine location in the client's encoding, against the current text of the file it points into."""
    lines = server.lines_of(location.path)
    return types.Location(uri=location.path.as_uri(), range=to_client_range(location.range, lines, server.encoding))


def to_locations(server: ClarvisServer, locations: Iterable[navigation.Location]) -> list[types.Location]:
    return [to_location(server, location) for location in locations]


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
    """Every workspace in the workspace folders, nested ones included (a monorepo is several workspaces)."""
    for folder in server.folders:
        for directory in find_workspaces(folder, home=server.home):
            server.engine_for(directory / ".clarvis")
    return list(server.engines.values())
