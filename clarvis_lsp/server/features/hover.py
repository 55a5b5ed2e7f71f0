"""Hover (``textDocument/hover``): the engine's hover text for keys and values, as LSP ``Hover``.

The text comes from ``clarvis_lsp.editor.hover`` (schema descriptions for keys; discovery facts for skill names,
events, ``enabledPlugins`` entries and other references). This module converts the range to the client's
position encoding and sends Markdown, or the same text as plain text to a client that declares no Markdown.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor.hover import hover as assist_hover
from clarvis_lsp.editor.hover import reads_discovery
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range
from clarvis_lsp.server.features.completion import SCAN_PATIENCE
from clarvis_lsp.server.features.effective import hover_markdown


async def hover(server: ClarvisServer, params: types.HoverParams) -> types.Hover | None:
    # Keys and their documentation need no discovery; values such as plugin or agent names do. While the
    # first scan runs, a hover that may read discovery waits a moment for it, then answers with what is known
    # rather than keep the editor waiting; one that does not (a SKILL.md key) answers at once.
    uri = params.text_document.uri
    snapshot = server.session.snapshot(uri)
    if snapshot is not None and reads_discovery(
        snapshot.kind, snapshot.lines, snapshot.position(params.position, server.encoding)
    ):
        snapshot = await server.session.scanned_snapshot(uri, at_most=SCAN_PATIENCE)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)  # in the snapshot answered from
    info = assist_hover(
        snapshot.text,
        snapshot.kind,
        position,
        snapshot.view.discovered,
        path=snapshot.path,
        lines=snapshot.lines,
        overlay=snapshot.view.overlay,
    )
    # A hook or MCP server under the cursor: its state and run position (the effective configuration).
    note = hover_markdown(server, snapshot.view, snapshot.kind, snapshot.path, snapshot.text, position)
    if info is None and note is None:
        return None
    markdown = "\n\n---\n\n".join(part for part in (info.markdown if info else "", note[0] if note else "") if part)
    where = info.range if info is not None else note[1] if note is not None else None
    return types.Hover(
        contents=types.MarkupContent(kind=_markup_kind(server), value=markdown),
        range=to_client_range(where, snapshot.lines, server.encoding) if where is not None else None,
    )


def _markup_kind(server: ClarvisServer) -> types.MarkupKind:
    document = server.client_capabilities.text_document
    formats = document.hover.content_format if document is not None and document.hover is not None else None
    if formats is None or types.MarkupKind.Markdown in formats:
        return types.MarkupKind.Markdown
    return types.MarkupKind.PlainText
