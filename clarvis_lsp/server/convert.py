"""The one place that knows LSP positions: engine ranges (code points) to and from the client's encoding.

The engine counts columns in code points; LSP clients count UTF-16 code units by default, UTF-8 bytes or
code points when they negotiate it. Lines are split exactly as the engine splits them (``LineIndex``), so a
form feed or U+2028 in a line never shifts a position the way ``str.splitlines`` would.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Diagnostic, Fix, Position, Range, Severity
from clarvis_lsp.rules.catalogue import RULES

LinesLookup = Callable[[Path], LineIndex]
UTF16 = types.PositionEncodingKind.Utf16
UTF8 = types.PositionEncodingKind.Utf8
UTF32 = types.PositionEncodingKind.Utf32


def _units(text: str, encoding: str) -> int:
    if encoding == UTF8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    if encoding == UTF32:
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def to_client_position(position: Position, lines: LineIndex, encoding: str) -> types.Position:
    line_text = lines.line_text(position.line) if position.line < lines.line_count else ""
    return types.Position(line=position.line, character=_units(line_text[: position.character], encoding))


def to_client_range(range_: Range, lines: LineIndex, encoding: str) -> types.Range:
    return types.Range(
        start=to_client_position(range_.start, lines, encoding), end=to_client_position(range_.end, lines, encoding)
    )


def from_client_position(position: types.Position, lines: LineIndex, encoding: str) -> Position:
    """A client position to code points; a column past the end of the line clamps to the line's end, and one inside
    a character (half of a surrogate pair, part of a UTF-8 sequence) means the end of that character."""
    if position.line >= lines.line_count:
        last = lines.line_count - 1
        return Position(last, len(lines.line_text(last)))
    return Position(position.line, _code_points(lines.line_text(position.line), position.character, encoding))


def _code_points(line_text: str, character: int, encoding: str) -> int:
    """How many code points of ``line_text`` the first ``character`` units of ``encoding`` cover. Converted with
    one encode and one decode of the line (this runs twice for every edit the client sends)."""
    if encoding == UTF32 or line_text.isascii():
        return min(character, len(line_text))
    codec, width = ("utf-8", 1) if encoding == UTF8 else ("utf-16-le", 2)
    data = line_text.encode(codec, errors="surrogatepass")
    cut = character * width
    if cut >= len(data):
        return len(line_text)
    try:  # a cut between the halves of a surrogate pair decodes to the lone high half: that character counts
        return len(data[:cut].decode(codec, errors="surrogatepass"))
    except UnicodeDecodeError as error:  # UTF-8 cut inside a sequence: that character counts
        return len(data[: error.start].decode(codec, errors="surrogatepass")) + 1


_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def to_lsp_diagnostic(
    diagnostic: Diagnostic, lines_of: LinesLookup, encoding: str, *, related_supported: bool = True
) -> types.Diagnostic:
    """An engine finding as an LSP diagnostic; ``lines_of`` gives the text of any file a range refers to."""
    own = lines_of(diagnostic.path)
    related = None
    if related_supported and diagnostic.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=item.path.as_uri(), range=to_client_range(item.range, lines_of(item.path), encoding)
                ),
                message=item.message,
            )
            for item in diagnostic.related
        ]
    declared = RULES.get(diagnostic.code)
    tags = []
    if diagnostic.code == "discovery/shadowed":
        tags.append(types.DiagnosticTag.Unnecessary)
    return types.Diagnostic(
        range=to_client_range(diagnostic.range, own, encoding),
        message=diagnostic.message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=declared.url) if declared else None,
        source="clarvis",
        related_information=related,
        tags=tags or None,
        data=diagnostic_data(diagnostic),
    )


def fix_data(fix: Fix) -> dict[str, Any]:
    """A fix in the wire form ``Diagnostic.data["fixes"]`` carries: engine positions (code points), per URI."""
    return {
        "title": fix.title,
        "safe": fix.safe,
        "edits": [
            {
                "uri": edit.path.as_uri(),
                "start": [edit.range.start.line, edit.range.start.character],
                "end": [edit.range.end.line, edit.range.end.character],
                "newText": edit.new_text,
            }
            for edit in fix.edits
        ],
    }


def diagnostic_data(diagnostic: Diagnostic) -> dict[str, object]:
    """Fix data carried in ``Diagnostic.data`` so code actions need no re-analysis (ruff's approach)."""
    return {
        "fixes": [fix_data(fix) for fix in diagnostic.fixes],
        **{key: value for key, value in diagnostic.data.items() if isinstance(value, (str, int, float, bool, list))},
    }
