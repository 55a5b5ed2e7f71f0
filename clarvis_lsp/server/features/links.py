"""``textDocument/documentLink`` over ``clarvis_lsp.editor.links``: a SKILL.md body's relative links, a
plugin.json's ``hooks`` path and the script paths of hook commands, each to a file that exists."""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor import links
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range


def document_link(server: ClarvisServer, params: types.DocumentLinkParams) -> list[types.DocumentLink] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    open_files = server.session.open_paths()  # any open document, of any kind, is a link target
    found = links.document_links(
        snapshot.kind,
        snapshot.path,
        snapshot.text,
        open_files,
        follow_symlinks=snapshot.view.config.follow_symlinks,
    )
    text_document = server.client_capabilities.text_document
    link_capabilities = text_document.document_link if text_document else None
    tooltips = bool(link_capabilities and link_capabilities.tooltip_support)
    return [
        types.DocumentLink(
            range=to_client_range(link.range, snapshot.lines, server.encoding),
            target=link.target.as_uri(),
            tooltip=link.tooltip if tooltips else None,
        )
        for link in found
    ]
