"""Applying ``didChange`` content changes so the server's text is the client's, byte for byte (SPEC §9).

pygls 2.1 applies an incremental change to the lines of ``str.splitlines``, which also ends a line at U+2028,
U+2029, U+0085, form feed, vertical tab and U+001C–U+001E: an edit below such a character lands on the wrong line.
Here a change's range is read with the engine's own line index (``LineIndex``: lines end only at ``\\n``,
``\\r\\n`` and ``\\r``) and LSP's rules, as the reference implementation (vscode-languageserver-textdocument) reads
them: a ``character`` past a line's end means the end of that line (before its line break, so a ``\\r\\n`` is never
split), a ``line`` past the last line means the end of the document, and a range whose end comes before its start
is read from the earlier position to the later one. Columns are counted in the negotiated position encoding.
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.server.convert import from_client_position


def apply_change(text: str, change: types.TextDocumentContentChangeEvent, encoding: str) -> str:
    """``text`` after one content change (a whole-document change replaces it)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    lines = LineIndex(text)
    start = lines.offset(from_client_position(change.range.start, lines, encoding))
    end = lines.offset(from_client_position(change.range.end, lines, encoding))
    if end < start:
        start, end = end, start
    return text[:start] + change.text + text[end:]


def apply_changes(text: str, changes: Iterable[types.TextDocumentContentChangeEvent], encoding: str) -> str:
    """``text`` after the changes of one ``didChange``, applied in order (each against the text the previous one
    left, as LSP says)."""
    for change in changes:
        text = apply_change(text, change, encoding)
    return text
