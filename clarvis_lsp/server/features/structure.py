"""Folding ranges, selection ranges and document highlight over ``clarvis_lsp.editor.folding``, ``selection`` and
``highlight``.

Each is computed from the document as it is now (the open buffer, else the disk) and needs no discovery: it is
answered at once, during the first scan too. Folds are whole lines (every client folds lines; ``endCharacter``
is left out), and a client's ``rangeLimit`` is honoured.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor import folding, highlight, selection
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range

_FOLD_KIND = {
    "region": types.FoldingRangeKind.Region,
    "comment": types.FoldingRangeKind.Comment,
    "imports": types.FoldingRangeKind.Imports,
}


def folding_range(server: ClarvisServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    folds = folding.folding_ranges(snapshot.kind, snapshot.text)
    text_document = server.client_capabilities.text_document
    capability = text_document.folding_range if text_document else None
    if capability is not None and capability.range_limit:
        folds = folds[: capability.range_limit]
    return [
        types.FoldingRange(start_line=fold.start, end_line=fold.end, kind=_FOLD_KIND[fold.kind] if fold.kind else None)
        for fold in folds
    ]


def selection_range(server: ClarvisServer, params: types.SelectionRangeParams) -> list[types.SelectionRange] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    answers: list[types.SelectionRange] = []
    for client_position in params.positions:
        position = snapshot.position(client_position, server.encoding)
        chain: types.SelectionRange | None = None
        for where in reversed(selection.selection_ranges(snapshot.kind, snapshot.text, position)):
            chain = types.SelectionRange(range=to_client_range(where, snapshot.lines, server.encoding), parent=chain)
        assert chain is not None  # the whole document at least
        answers.append(chain)
    return answers


def document_highlight(
    server: ClarvisServer, params: types.DocumentHighlightParams
) -> list[types.DocumentHighlight] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind is None:
        return None
    position = snapshot.position(params.position, server.encoding)
    return [
        types.DocumentHighlight(
            range=to_client_range(item.range, snapshot.lines, server.encoding),
            kind=types.DocumentHighlightKind.Write if item.write else types.DocumentHighlightKind.Read,
        )
        for item in highlight.document_highlights(snapshot.kind, snapshot.path, snapshot.text, position)
    ]
