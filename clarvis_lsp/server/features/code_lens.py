"""The override code lens on a skill's ``name``: "overrides N copies" on the winner, "shadowed by <path>" on a
losing copy.

The lens runs the server command ``clarvis.showLocations`` with the arguments ``[uri, position, locations]``: the
same arguments as VS Code's ``editor.action.showReferences``, so a VS Code client can map the command to that peek
view; any other client sends it back to the server, which answers with ``window/showDocument`` on the first
location.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import converters, types

from clarvis_lsp.editor import navigation
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.capabilities import SHOW_LOCATIONS
from clarvis_lsp.server.convert import to_client_range
from clarvis_lsp.server.features.effective import trust_lenses
from clarvis_lsp.server.features.locations import to_locations

_CONVERTER = converters.get_converter()


async def code_lens(server: ClarvisServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    lenses: list[types.CodeLens] = []
    for lens in navigation.override_lenses(snapshot.view, snapshot.path, snapshot.text):
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
    lenses.extend(trust_lenses(server, snapshot.view, snapshot.path))  # the trust preview on workspace settings
    return lenses


async def show_locations(
    server: ClarvisServer, uri: str, position: types.Position, locations: list[types.Location]
) -> bool:
    """Show the first of ``locations`` (``uri`` and ``position`` say where the lens was, as VS Code's
    ``editor.action.showReferences`` takes them). True when the client says it showed the document; False, the
    command's way of saying nothing was shown, when there is nothing to show, the client cannot show documents,
    or it answers ``window/showDocument`` with anything but success (``null`` from an editor that opens none)."""
    capabilities = server.client_capabilities.window
    supported = bool(capabilities and capabilities.show_document and capabilities.show_document.support)
    if not locations or not supported:
        return False
    first = locations[0]
    result = await server.window_show_document_async(
        types.ShowDocumentParams(uri=first.uri, take_focus=True, selection=first.range)
    )
    return getattr(result, "success", None) is True
