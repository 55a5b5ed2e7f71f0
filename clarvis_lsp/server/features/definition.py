"""Go to definition and find references, over ``clarvis_lsp.editor.navigation``.

Definition: ``agent`` → the agent file, ``bootstrapSkill`` → its SKILL.md, an ``enabledPlugins`` entry → its
plugin.json, a shadowed skill's ``name`` → the winning copy. References on a skill ``name``: every copy.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor import navigation
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.features.locations import to_locations


async def definition(server: ClarvisServer, params: types.DefinitionParams) -> list[types.Location] | None:
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)
    found = navigation.definition(snapshot.view, snapshot.path, snapshot.text, position, snapshot.kind)
    return to_locations(server, found) or None


async def references(server: ClarvisServer, params: types.ReferenceParams) -> list[types.Location] | None:
    snapshot = await server.session.scanned_snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)
    found = navigation.references(
        snapshot.view,
        snapshot.path,
        snapshot.text,
        position,
        include_declaration=params.context.include_declaration,
    )
    return to_locations(server, found) or None
