"""Engine locations as LSP locations: every range converted against the text of the file it points into, so a
location in another file is right in that file's encoding too (a range on a line that is ASCII up to its end needs
no conversion, nor the file read: ``Location.ascii_before``)."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from clarvis_lsp.editor import navigation
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range


def to_location(server: ClarvisServer, location: navigation.Location) -> types.Location:
    if location.ascii_before:  # the same columns in every encoding: no need to read the file
        start, end = location.range.start, location.range.end
        return types.Location(
            uri=location.path.as_uri(),
            range=types.Range(types.Position(start.line, start.character), types.Position(end.line, end.character)),
        )
    lines = server.session.lines_of(location.path)
    return types.Location(uri=location.path.as_uri(), range=to_client_range(location.range, lines, server.encoding))


def to_locations(server: ClarvisServer, locations: Iterable[navigation.Location]) -> list[types.Location]:
    return [to_location(server, location) for location in locations]
