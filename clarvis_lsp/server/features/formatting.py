"""``textDocument/formatting`` and ``rangeFormatting`` for the JSON kinds, over ``clarvis_lsp.editor.formatting``.

A SKILL.md or agent file is not formatted (Markdown and YAML have their own formatters); for them, and for a JSON
file that does not parse or is formatted already, the answer is no edit.
"""

from __future__ import annotations

from lsprotocol import types

from clarvis_lsp.editor import formatting
from clarvis_lsp.editor.occurrences import JSON_KINDS
from clarvis_lsp.server.app import ClarvisServer
from clarvis_lsp.server.convert import to_client_range
from clarvis_lsp.server.session import Snapshot


def _answer(server: ClarvisServer, snapshot: Snapshot, edits: list[formatting.Edit]) -> list[types.TextEdit]:
    return [
        types.TextEdit(range=to_client_range(edit.range, snapshot.lines, server.encoding), new_text=edit.new_text)
        for edit in edits
    ]


def document_formatting(server: ClarvisServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind not in JSON_KINDS:
        return None
    options = params.options
    edits = formatting.format_json(snapshot.text, tab_size=options.tab_size, insert_spaces=options.insert_spaces)
    return _answer(server, snapshot, edits)


def range_formatting(server: ClarvisServer, params: types.DocumentRangeFormattingParams) -> list[types.TextEdit] | None:
    snapshot = server.session.snapshot(params.text_document.uri)
    if snapshot is None or snapshot.kind not in JSON_KINDS:
        return None
    options = params.options
    within = (
        snapshot.offset(params.range.start, server.encoding),
        snapshot.offset(params.range.end, server.encoding),
    )
    edits = formatting.format_json(
        snapshot.text, tab_size=options.tab_size, insert_spaces=options.insert_spaces, within=within
    )
    return _answer(server, snapshot, edits)
