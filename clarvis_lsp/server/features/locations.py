"""Engine locations as LSP locations: every range converted against the text of the file it points into, so a
location in another file is right in that file's encoding too."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from clarvis_lsp.editor import navigation
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range


def to_location(server: ClarvisServer, location: navigation.Location) -> types.Location:
    lines = server.session.lines_of(location.path)
    return types.Location(uri=location.path.as_uri(), range=to_client_range(location.range, lines, server.encoding))


def to_locations(server: ClarvisServer, locations: Iterable[navigation.Location]) -> list[types.Location]:
    return [to_location(server, location) for location in locations]
